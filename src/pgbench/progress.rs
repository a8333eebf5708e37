//! pgbench's `-P` lines on stderr: every interval's time, tps, latency mean and standard
//! deviation and failures, with the lag and skips under `-R`, retries when tries are more
//! than one. Nothing else of the run's progress is printed (pgbench prints nothing else).

use dbpress_result::progress::{Phase, Progress};
use dbpress_result::{Checkpoint, Interval};
use dbpress_workload::script::pgbench_rules::Tally;
use std::sync::atomic::Ordering;
use std::sync::Arc;

pub struct PgbenchProgress {
    /// `--progress-timestamp`: Unix time instead of seconds since the start.
    pub timestamp: bool,
    pub rate: bool,
    pub latency_limit: bool,
    /// When tries are more than one: the run's retries, each line saying the interval's.
    pub retries: Option<Arc<Tally>>,
    /// (transactions retried, retries) at the last line.
    pub retries_before: (u64, u64),
    /// When the run started, Unix seconds (for `--progress-timestamp`).
    pub started_unix_s: f64,
}

impl PgbenchProgress {
    pub fn line(&mut self, i: &Interval) -> String {
        let when = if self.timestamp {
            format!("{:.3} s", self.started_unix_s + i.time_s)
        } else {
            format!("{:.1} s", i.time_s)
        };
        let tps = if i.duration_s > 0.0 {
            i.events as f64 / i.duration_s
        } else {
            0.0
        };
        let mut s = format!(
            "progress: {when}, {tps:.1} tps, lat {:.3} ms stddev {:.3}, {} failed",
            i.latency_avg_ms, i.latency_stddev_ms, i.errors
        );
        if self.rate {
            s.push_str(&format!(", lag {:.3} ms", i.lag_ms.unwrap_or(0.0)));
            if self.latency_limit {
                s.push_str(&format!(", {} skipped", i.skipped.unwrap_or(0)));
            }
        }
        if let Some(t) = &self.retries {
            let now = (
                t.retried.load(Ordering::Relaxed),
                t.retries.load(Ordering::Relaxed),
            );
            let (retried, retries) = (now.0 - self.retries_before.0, now.1 - self.retries_before.1);
            self.retries_before = now;
            s.push_str(&format!(", {retried} retried, {retries} retries"));
        }
        s
    }
}

impl Progress for PgbenchProgress {
    fn phase(&mut self, _phase: Phase) {}

    fn interval(&mut self, interval: &Interval) {
        eprintln!("{}", self.line(interval));
    }

    fn checkpoint(&mut self, _checkpoint: &Checkpoint) {}
}
