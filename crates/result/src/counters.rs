//! The server's own counters over a run, as the result keeps them: their growth, and dbpress's
//! reads, writes and other set against them (read by `counters`).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What the workers ran during the warm-up. It is in no figure of the run, but the server counted
/// it, so the comparison with the server's counters adds it back.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct WarmupCounts {
    /// Events that finished.
    pub events: u64,
    pub reads: u64,
    pub writes: u64,
    pub other: u64,
    /// Ignored errors (each a failed statement, and a ROLLBACK inside a transaction).
    pub errors: u64,
}

impl WarmupCounts {
    pub fn add(&mut self, o: &WarmupCounts) {
        self.events += o.events;
        self.reads += o.reads;
        self.writes += o.writes;
        self.other += o.other;
        self.errors += o.errors;
    }
}

/// The server's counters over a run, as the result file and the report show them.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Default)]
pub struct ServerCounters {
    /// Where the numbers come from.
    pub source: String,
    /// Growth of each counter over the run.
    pub deltas: BTreeMap<String, u64>,
    /// dbpress's counts beside the server's.
    pub checks: Vec<CounterCheck>,
    /// What the deltas include besides the run's own statements.
    pub notes: Vec<String>,
    /// Why the counters could not be read, when they could not (the deltas are then empty).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unavailable: Option<String>,
    /// Why the two readings cannot be compared, when they cannot: the server restarted or reset
    /// its statistics during the run (the deltas are then empty).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_comparable: Option<String>,
    /// With --warmup-time: what ran during the warm-up, which the readings include and the
    /// checks' dbpress figures (and the per-event column) therefore add.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warmup: Option<WarmupCounts>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct CounterCheck {
    /// dbpress's figure: "reads", "writes" or "other".
    pub what: String,
    /// The server counters summed for it.
    pub counters: Vec<String>,
    pub server: u64,
    pub dbpress: u64,
}

/// The server's cache over a run, from its counters: page requests and the ones it missed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CacheMisses {
    /// "buffer pool", "shared_buffers".
    pub cache: &'static str,
    pub missed: u64,
    pub requests: u64,
    /// The counters behind the share, as a formula.
    pub counters: &'static str,
    /// Where a miss was read from.
    pub miss_means: &'static str,
}

impl CacheMisses {
    /// From a run's counter deltas: InnoDB's buffer pool or PostgreSQL's shared_buffers; None
    /// where the engine has no such counters or the run made no page request.
    pub fn of(d: &BTreeMap<String, u64>) -> Option<CacheMisses> {
        let get = |n: &str| d.get(n).copied();
        let c = if let Some(requests) = get("Innodb_buffer_pool_read_requests") {
            CacheMisses {
                cache: "buffer pool",
                missed: get("Innodb_buffer_pool_reads")?,
                requests,
                counters: "Innodb_buffer_pool_reads / Innodb_buffer_pool_read_requests",
                miss_means: "read from the data files",
            }
        } else {
            let (hit, read) = (get("blks_hit")?, get("blks_read")?);
            CacheMisses {
                cache: "shared_buffers",
                missed: read,
                requests: hit + read,
                counters: "blks_read / (blks_hit + blks_read)",
                miss_means: "read through the OS",
            }
        };
        (c.requests > 0).then_some(c)
    }

    /// The share missed, in percent.
    pub fn pct(&self) -> f64 {
        100.0 * self.missed as f64 / self.requests.max(1) as f64
    }
}
