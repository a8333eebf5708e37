//! How steady a run's throughput was, as the result keeps it: the per-interval rate's spread,
//! the stretches in which no event (or next to none) finished, the intervals that stretched
//! over reporter ticks it missed, and the slowest quarter of the intervals beside the others,
//! each with what the machine and the server's sessions did meanwhile (computed by
//! `stats::stability` and `stats::slow_intervals`).

use super::host::{DiskIo, HostCpu};
use super::waits::WaitShare;
use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Throughput {
    /// Length of one interval, s (the report interval, or 1 s without one): the median length
    /// of the full intervals, so one that stretched over missed ticks does not set it.
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
    /// Stalled intervals: no event finished in them, or so few that at the median rate they
    /// leave most of a tick unaccounted for (see `stats::stability::NEAR_STOP`).
    pub stalled_intervals: u64,
    /// Of `stalled_intervals`, those in which some events did finish: near-stops (an interval
    /// that stretched over missed ticks holding a few events among them). Absent when none.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub near_stops: u64,
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
    /// Full intervals that stretched past their tick (over 1.5 ticks long: the reporter missed
    /// ticks, so one interval covers their time), the first `stats::stability::MAX_LISTED`,
    /// stalled or not; `stretched_count` counts them all. Absent when none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stretched: Vec<Stretched>,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub stretched_count: u64,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Default)]
pub struct Stall {
    /// Seconds from the start of measurement: the first interval's start, the last one's end.
    pub from_s: f64,
    pub to_s: f64,
    /// Events that finished in the stretch's intervals (absent when none did).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub events: u64,
    /// Reporter ticks missed within the stretch (absent when none): dbpress itself was held
    /// up during it too.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub missed_ticks: u64,
}

/// One interval that stretched over reporter ticks it missed.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Stretched {
    /// Seconds from the start of measurement: the interval's start and end.
    pub from_s: f64,
    pub to_s: f64,
    /// Ticks that got no interval of their own: its length in ticks, less its own.
    pub missed_ticks: u64,
    pub events: u64,
    /// Its events per second, and that rate as a share of the run's median rate.
    pub eps: f64,
    pub median_share: f64,
    /// Whether it is one of the stalled intervals: at the median rate its events leave most
    /// of a tick unaccounted for. When not, the workers went on at their rate and only the
    /// reporter was held up.
    pub stall: bool,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
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
