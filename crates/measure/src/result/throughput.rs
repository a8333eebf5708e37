//! How steady a run's throughput was, as the result keeps it: the per-interval rate's spread,
//! the stretches in which no event finished, and the slowest quarter of the intervals beside
//! the others, each with what the machine and the server's sessions did meanwhile (computed by
//! `stats::stability` and `stats::slow_intervals`).

use super::host::{DiskIo, HostCpu};
use super::waits::WaitShare;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Throughput {
    /// Length of one interval, s (the report interval, or 1 s without one).
    pub interval_s: f64,
    /// Full intervals the figures cover.
    pub intervals: u64,
    /// Events per second over the intervals: lowest, 5th percentile, median, highest.
    pub min_eps: f64,
    pub p5_eps: f64,
    pub median_eps: f64,
    pub max_eps: f64,
    /// Standard deviation over mean of the per-interval rate, in percent.
    pub cv_percent: f64,
    /// Intervals in which no event finished.
    pub stalled_intervals: u64,
    /// Stretches of consecutive stalled intervals (the first `stats::stability::MAX_LISTED`).
    pub stalls: Vec<Stall>,
    pub stall_count: u64,
    /// Median seconds between the starts of consecutive stalls, when there were at least three.
    pub stall_every_s: Option<f64>,
    /// The machine's CPUs over the stalled intervals, on average: waiting on I/O (a flush),
    /// idle (a lock), busy (something else had the CPUs). Absent without stalls or /proc.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stall_host_cpu: Option<HostCpu>,
    /// The data's disk over the stalled intervals: busy writing (a flush) or quiet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stall_disk: Option<DiskIo>,
    /// The server's wait events of the run's sessions in the stalled intervals, most frequent
    /// first (the first few): what the sessions waited on while nothing finished.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stall_waits: Vec<WaitShare>,
    /// The slowest quarter of the intervals beside the others, when throughput dipped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slowest: Option<SlowIntervals>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Stall {
    /// Seconds from the start of measurement.
    pub from_s: f64,
    pub to_s: f64,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct SlowIntervals {
    /// The slowest quarter of the full intervals (by events per second), and the rest.
    pub intervals: u64,
    pub others: u64,
    /// Median events per second of each.
    pub median_eps: f64,
    pub others_median_eps: f64,
    /// Runs of consecutive slow intervals, and the median seconds between the starts of
    /// consecutive runs when there are three or more: the period of a periodic dip (a
    /// checkpoint every N seconds).
    pub stretches: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub every_s: Option<f64>,
    /// The data's disk and the machine's CPUs, averaged over each; absent where not measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disk: Option<DiskIo>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub others_disk: Option<DiskIo>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host_cpu: Option<HostCpu>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub others_host_cpu: Option<HostCpu>,
    /// The server's wait events of the run's sessions in each, most frequent first (the
    /// first few); empty where not sampled.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub waits: Vec<WaitShare>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub others_waits: Vec<WaitShare>,
}
