//! The `--rate` schedule: intended start times shared by all workers without a queue.
//!
//! One atomic holds the next intended start (ns since the run epoch). A free worker claims it
//! and advances it by one inter-arrival gap: exponential gaps (Poisson arrivals, like sysbench)
//! or fixed gaps (uniform). Because a worker only claims a slot when it is free, at most
//! `--threads` events run at once, and when all workers are busy the schedule simply falls
//! behind: the backlog is visible as lag (now − next intended start) instead of overflowing a
//! ring buffer and aborting the run as sysbench does.

use dbpress_config::Arrival;
use dbpress_core::rand::Rng;
use std::sync::atomic::{AtomicU64, Ordering};

pub struct Schedule {
    next_ns: AtomicU64,
    mean_gap_ns: f64,
    arrival: Arrival,
}

impl Schedule {
    pub fn new(rate: f64, arrival: Arrival) -> Schedule {
        Schedule {
            next_ns: AtomicU64::new(0),
            mean_gap_ns: 1e9 / rate,
            arrival,
        }
    }

    /// Set the first intended start (ns since the epoch), before any worker claims.
    pub fn start_at(&self, ns: u64) {
        self.next_ns.store(ns, Ordering::Relaxed);
    }

    /// Claim the next intended start time (ns since the epoch).
    #[inline]
    pub fn claim(&self, rng: &mut Rng) -> u64 {
        match self.arrival {
            Arrival::Uniform => self
                .next_ns
                .fetch_add(self.mean_gap_ns as u64, Ordering::Relaxed),
            Arrival::Poisson => {
                let gap = (-(1.0 - rng.uniform_double()).ln() * self.mean_gap_ns) as u64;
                self.next_ns.fetch_add(gap.max(1), Ordering::Relaxed)
            }
        }
    }

    /// How far the schedule is behind `now_ns`: 0 when on time.
    pub fn lag_ns(&self, now_ns: u64) -> u64 {
        now_ns.saturating_sub(self.next_ns.load(Ordering::Relaxed))
    }

    /// Events that were due by `now_ns` but not yet started (an estimate from the lag).
    pub fn backlog(&self, now_ns: u64) -> u64 {
        (self.lag_ns(now_ns) as f64 / self.mean_gap_ns) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uniform_gaps_are_exact() {
        let s = Schedule::new(1000.0, Arrival::Uniform);
        let mut rng = Rng::new(1, 1);
        let t: Vec<u64> = (0..4).map(|_| s.claim(&mut rng)).collect();
        assert_eq!(t, [0, 1_000_000, 2_000_000, 3_000_000]);
    }

    #[test]
    fn poisson_gaps_average_to_the_rate_with_exponential_spread() {
        let s = Schedule::new(10_000.0, Arrival::Poisson);
        let mut rng = Rng::new(3, 9);
        let n = 100_000;
        let mut prev = s.claim(&mut rng);
        let mut gaps = Vec::with_capacity(n);
        for _ in 0..n {
            let t = s.claim(&mut rng);
            gaps.push((t - prev) as f64);
            prev = t;
        }
        let mean = gaps.iter().sum::<f64>() / n as f64;
        assert!((mean / 100_000.0 - 1.0).abs() < 0.02, "mean gap {mean}");
        // Exponential: P(gap > mean) = 1/e.
        let over = gaps.iter().filter(|&&g| g > 100_000.0).count() as f64 / n as f64;
        assert!(
            (over - (-1.0f64).exp()).abs() < 0.01,
            "share above mean {over}"
        );
    }

    #[test]
    fn lag_and_backlog_when_behind() {
        let s = Schedule::new(1000.0, Arrival::Uniform);
        assert_eq!(s.lag_ns(5_000_000), 5_000_000);
        assert_eq!(s.backlog(5_000_000), 5);
        let mut rng = Rng::new(1, 1);
        for _ in 0..10 {
            s.claim(&mut rng);
        }
        assert_eq!(s.lag_ns(5_000_000), 0);
    }
}
