//! pgbench's `-P` lines on stderr: every interval's time, tps, latency mean and standard
//! deviation and failures, with the lag and skips under `-R`, retries when tries are more
//! than one. Nothing else of the run's progress is printed (pgbench prints nothing else).

use dbpress_result::progress::{Phase, Progress};
use dbpress_result::{Checkpoint, Interval};

pub struct PgbenchProgress {
    /// `--progress-timestamp`: Unix time instead of seconds since the start.
    pub timestamp: bool,
    pub rate: bool,
    pub latency_limit: bool,
    pub retries: bool,
    /// When the run started, Unix seconds (for `--progress-timestamp`).
    pub started_unix_s: f64,
}

impl PgbenchProgress {
    pub fn line(&self, i: &Interval) -> String {
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
        if self.retries {
            s.push_str(", 0 retried, 0 retries");
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
