//! Turning histograms and counters into the numbers a `RunResult` holds.

use base64::Engine;
use dbpress_result::Latency;
use hdrhistogram::serialization::{Deserializer, Serializer, V2DeflateSerializer};
use hdrhistogram::Histogram;

fn us_to_ms(us: u64) -> f64 {
    us as f64 / 1000.0
}

/// Percentile in ms from an HDR histogram of µs values; 0 when empty.
pub fn percentile_ms(h: &Histogram<u64>, pct: f64) -> f64 {
    if h.is_empty() {
        return 0.0;
    }
    us_to_ms(h.value_at_quantile(pct / 100.0))
}

/// Latency figures. min/avg/max/sum come from exact nanosecond sums when given (as sysbench
/// prints them), otherwise from the histogram.
pub fn latency(h: &Histogram<u64>, exact: Option<(u64, u64, u64)>, percentile: u32) -> Latency {
    let count = h.len();
    if count == 0 {
        return Latency::default();
    }
    let (min_ms, max_ms, sum_ms) = match exact {
        Some((min_ns, max_ns, sum_ns)) => (
            min_ns as f64 / 1e6,
            max_ns as f64 / 1e6,
            sum_ns as f64 / 1e6,
        ),
        None => (
            us_to_ms(h.min()),
            us_to_ms(h.max()),
            h.mean() * count as f64 / 1000.0,
        ),
    };
    // A percentile is the highest value its bucket stands for (up to 0.1% above the values
    // in it), so near the top it could exceed the exact max, and near the bottom fall below
    // the exact min: a p99.9 printed above the max would be nonsense.
    let pct = |p: f64| percentile_ms(h, p).clamp(min_ms, max_ms.max(min_ms));
    Latency {
        count,
        min_ms,
        avg_ms: sum_ms / count as f64,
        max_ms,
        sum_ms,
        p50_ms: pct(50.0),
        p95_ms: pct(95.0),
        p99_ms: pct(99.0),
        p999_ms: pct(99.9),
        pct_ms: pct(f64::from(percentile)),
    }
}

pub fn encode(h: &Histogram<u64>) -> String {
    let mut bytes = Vec::new();
    V2DeflateSerializer::new()
        .serialize(h, &mut bytes)
        .expect("serialising into memory cannot fail");
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

pub fn decode(s: &str) -> Option<Histogram<u64>> {
    let bytes = base64::engine::general_purpose::STANDARD.decode(s).ok()?;
    Deserializer::new().deserialize(&mut bytes.as_slice()).ok()
}

/// Population mean and standard deviation.
pub fn mean_stddev(xs: &[f64]) -> (f64, f64) {
    if xs.is_empty() {
        return (0.0, 0.0);
    }
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n;
    (mean, var.sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histogram_round_trips_losslessly() {
        let mut h = crate::stats::aggregate_histogram();
        for v in [1u64, 50, 51, 999, 12_345, 3_600_000_000] {
            h.record_n(v, v % 7 + 1).unwrap();
        }
        let back = decode(&encode(&h)).unwrap();
        assert_eq!(back, h);
        assert_eq!(back.len(), h.len());
    }

    #[test]
    fn latency_uses_exact_min_max_sum() {
        let mut h = crate::stats::aggregate_histogram();
        h.record(100).unwrap();
        h.record(300).unwrap();
        let l = latency(&h, Some((100_400, 300_200, 400_600)), 95);
        assert_eq!((l.min_ms, l.max_ms), (0.1004, 0.3002));
        assert!((l.avg_ms - 0.2003).abs() < 1e-9);
        assert!((l.pct_ms - 0.3).abs() < 0.001);
    }

    #[test]
    fn percentiles_never_pass_the_exact_max_or_min() {
        // 43 590 µs lands in a 32 µs wide bucket whose highest value is 43 615.
        let mut h = crate::stats::aggregate_histogram();
        h.record_n(2_500, 998).unwrap();
        h.record_n(43_590, 2).unwrap();
        assert!(percentile_ms(&h, 99.9) > 43.590);
        let l = latency(
            &h,
            Some((2_500_000, 43_590_000, 998 * 2_500_000 + 2 * 43_590_000)),
            99,
        );
        assert_eq!(l.p999_ms, 43.590);
        assert_eq!(l.max_ms, 43.590);
        assert!(l.p50_ms >= l.min_ms && l.p50_ms <= 2.502, "{}", l.p50_ms);
    }
}
