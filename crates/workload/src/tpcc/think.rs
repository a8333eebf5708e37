//! Keying and think times (clause 5.2.5): before each transaction a terminal's user types its
//! input for a fixed keying time, and after it reads the output for a think time drawn from a
//! negative exponential distribution with the transaction's mean, cut at ten times the mean
//! (5.2.5.4). `--think-time` turns them on, scaled by its factor (1 = the spec's; 0.1 = a tenth,
//! for a shorter study); with them, a warehouse's ten terminals reach at most 12.86 tpmC
//! divided by the factor.

use super::txn::Txn;
use dbpress_core::error::{usage, Result};
use dbpress_core::rand::Rng;

/// Keying time in seconds, in `Txn` order (5.2.5.7).
const KEYING_S: [f64; 5] = [18.0, 3.0, 2.0, 2.0, 2.0];
/// Mean think time in seconds, in `Txn` order (5.2.5.7).
const THINK_MEAN_S: [f64; 5] = [12.0, 12.0, 10.0, 5.0, 5.0];

/// `--think-time`'s value: off/0 (the default), on/1 (the spec's times), or a factor.
pub fn parse(v: &str) -> Result<f64> {
    let factor = match v.trim().to_ascii_lowercase().as_str() {
        "" | "off" | "false" | "no" => 0.0,
        "on" | "true" | "yes" => 1.0,
        other => other.parse::<f64>().map_err(|_| {
            usage(format!(
                "--think-time={v}: expected on (the spec's keying and think times), off, or a factor such as 0.1"
            ))
        })?,
    };
    if !(0.0..=100.0).contains(&factor) || factor.is_nan() {
        return Err(usage(format!(
            "--think-time={v}: the factor must be between 0 (off) and 100"
        )));
    }
    Ok(factor)
}

/// The wait before `next`: the think time of the transaction before it (none for a terminal's
/// first) and `next`'s keying time, times `factor`, in ns.
pub fn pause_ns(factor: f64, before: Option<Txn>, next: Txn, rng: &mut Rng) -> u64 {
    let think = before.map_or(0.0, |t| {
        let mean = THINK_MEAN_S[t as usize];
        // 1 − u is in (0, 1], so its logarithm is finite.
        (-(1.0 - rng.uniform_double()).ln() * mean).min(10.0 * mean)
    });
    ((think + KEYING_S[next as usize]) * factor * 1e9) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn think_times_have_the_spec_means_and_cap() {
        let mut rng = Rng::new(7, 1);
        let n = 200_000;
        let mut sum = 0.0;
        let mut max: f64 = 0.0;
        for _ in 0..n {
            // Order-Status after Payment: 12 s mean think, 2 s keying.
            let s = pause_ns(1.0, Some(Txn::Payment), Txn::OrderStatus, &mut rng) as f64 / 1e9;
            sum += s - 2.0;
            max = max.max(s - 2.0);
        }
        let mean = sum / n as f64;
        assert!((mean - 12.0).abs() < 0.15, "mean think time {mean}");
        assert!(max <= 120.0 + 1e-6 && max > 60.0, "max {max}");
        assert_eq!(pause_ns(1.0, None, Txn::NewOrder, &mut rng), 18_000_000_000);
        assert_eq!(pause_ns(0.5, None, Txn::Delivery, &mut rng), 1_000_000_000);
    }

    #[test]
    fn the_option_takes_on_off_and_factors() {
        assert_eq!(parse("off").unwrap(), 0.0);
        assert_eq!(parse("on").unwrap(), 1.0);
        assert_eq!(parse("0.1").unwrap(), 0.1);
        assert!(parse("fast")
            .unwrap_err()
            .to_string()
            .contains("--think-time=fast"));
        assert!(parse("-1").is_err());
    }
}
