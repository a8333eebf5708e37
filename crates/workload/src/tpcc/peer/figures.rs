//! What tpcc-mysql's report is made of, shared by the clients: per transaction type, over the
//! measured time, the transactions within their response-time limit (`sc`), over it (`lt`),
//! the attempts that failed and were tried again (`rt`) and the transactions that never
//! succeeded (`fl`), with their response times; and per interval each type's count and
//! slowest time, and New-Order's times for its 95th and 99th percentiles.
//!
//! tpcc-mysql compares the limits, which are TPC-C's in seconds, with times in milliseconds;
//! here they are compared in seconds (a limit above 1000 is taken as milliseconds, as people
//! pass `-0 5000` to work around it). Its averages divide every time since the start, warm-up
//! included, by the measured count; here both are the measured time's.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// TPC-C's response-time limits (90th percentile), seconds, per type.
pub const DEFAULT_LIMITS_S: [f64; 5] = [5.0, 5.0, 5.0, 80.0, 20.0];

#[derive(Default)]
pub struct Counts {
    pub sc: [u64; 5],
    pub lt: [u64; 5],
    pub rt: [u64; 5],
    pub fl: [u64; 5],
    pub time_sum_ms: [f64; 5],
    /// Since the last interval line.
    pub interval_count: [u64; 5],
    pub interval_max_ms: [f64; 5],
    pub interval_new_order_ms: Vec<f64>,
}

pub struct Figures {
    pub limits_s: [f64; 5],
    pub counts: Mutex<Counts>,
    /// `MEASURING START.` printed (by the first measured transaction or interval line).
    pub measuring_said: AtomicBool,
}

impl Figures {
    pub fn new(limits_s: [f64; 5]) -> Figures {
        Figures {
            limits_s,
            counts: Mutex::new(Counts::default()),
            measuring_said: AtomicBool::new(false),
        }
    }

    pub fn lock(&self) -> std::sync::MutexGuard<'_, Counts> {
        self.counts.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A transaction of type `t` done after `retries` failed attempts, in `ms` from its first
    /// attempt (None: it never succeeded); counted when it ended in the measured time.
    pub fn record(&self, t: usize, ms: Option<f64>, retries: u64, measuring: bool) {
        if !measuring {
            return;
        }
        let mut c = self.lock();
        c.rt[t] += retries;
        let Some(ms) = ms else {
            c.fl[t] += 1;
            return;
        };
        match ms < self.limits_s[t] * 1000.0 {
            true => c.sc[t] += 1,
            false => c.lt[t] += 1,
        }
        c.time_sum_ms[t] += ms;
        c.interval_count[t] += 1;
        c.interval_max_ms[t] = c.interval_max_ms[t].max(ms);
        if t == 0 {
            c.interval_new_order_ms.push(ms);
        }
    }

    /// Say a line once: the first caller of `flag` prints it.
    pub fn once(flag: &AtomicBool) -> bool {
        !flag.swap(true, Ordering::Relaxed)
    }
}

/// tpcc-mysql's percentile of New-Order times, ms: the samples in 100 000 logarithmic buckets
/// from 1 ms to 10^13 ms, the value of the first bucket where the count reaches
/// round(n·p/100); 0 without samples. Its quantisation (≈0.03%) is kept, so a figure reads as
/// tpcc-mysql's would for the same times.
pub fn percentile_ms(samples: &[f64], p: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let span = 1e13f64.ln();
    let mut buckets: Vec<u32> = samples
        .iter()
        .map(|v| (v.max(1.0).ln() * 99_999.0 / span).round() as u32)
        .collect();
    buckets.sort_unstable();
    let need = ((samples.len() as f64) * p / 100.0).round().max(1.0) as usize;
    let b = buckets[need.min(buckets.len()) - 1].max(1);
    (f64::from(b) * span / 99_999.0).exp()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_are_quantised_as_tpcc_mysqls() {
        assert_eq!(percentile_ms(&[], 95.0), 0.0);
        let p = percentile_ms(&[20.0; 10], 95.0);
        assert!((p - 20.0).abs() / 20.0 < 0.0004, "{p}");
        let times: Vec<f64> = (1..=100).map(f64::from).collect();
        let p95 = percentile_ms(&times, 95.0);
        assert!((p95 - 95.0).abs() < 0.05, "{p95}");
        // At or under 1 ms, tpcc-mysql reports its first bucket.
        assert!((percentile_ms(&[0.2], 99.0) - 1.0).abs() < 0.001);
    }

    #[test]
    fn limits_are_seconds_and_only_measured_time_counts() {
        let f = Figures::new(DEFAULT_LIMITS_S);
        f.record(0, Some(20.0), 0, true);
        f.record(0, Some(6000.0), 2, true);
        f.record(1, None, 2000, true);
        f.record(1, Some(1.0), 0, false);
        let c = f.lock();
        assert_eq!((c.sc[0], c.lt[0], c.rt[0]), (1, 1, 2));
        assert_eq!((c.sc[1], c.fl[1], c.rt[1]), (0, 1, 2000));
        assert_eq!(c.interval_new_order_ms.len(), 2);
    }
}
