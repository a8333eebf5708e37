//! The slowest intervals of a run set beside the others: what the machine did while
//! throughput dipped.
//!
//! A checkpoint that writes back dirty pages rarely stops a server outright; it halves its
//! throughput for a second or two, again and again. The per-second lines show the dips, and
//! the disk and CPU figures of the same intervals show their cause: the slow intervals wrote
//! eight times the others' MiB/s (a flush), or their CPUs sat idle (a lock), or nothing
//! differs (the client, the network, the server's own work).

use crate::host::disk::DiskIo;
use crate::host::HostCpu;
use crate::result::Interval;
use serde::{Deserialize, Serialize};

/// Fewer full intervals than this make quarters of one interval: noise.
const MIN_INTERVALS: usize = 8;

/// The slow quarter is worth a word when its median rate is at most this share of the
/// others': a steady run's slowest quarter differs from the rest by a few percent.
const DIP: f64 = 0.8;

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct SlowIntervals {
    /// The slowest quarter of the full intervals (by events per second), and the rest.
    pub intervals: u64,
    pub others: u64,
    /// Median events per second of each.
    pub median_eps: f64,
    pub others_median_eps: f64,
    /// The data's disk and the machine's CPUs, averaged over each; absent where not measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disk: Option<DiskIo>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub others_disk: Option<DiskIo>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host_cpu: Option<HostCpu>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub others_host_cpu: Option<HostCpu>,
}

/// The slowest quarter of `full` (the run's full intervals) against the rest, when it dipped
/// below `DIP` of the others' median rate; None for a steady run or too few intervals.
pub fn of(full: &[&Interval]) -> Option<SlowIntervals> {
    if full.len() < MIN_INTERVALS {
        return None;
    }
    let rate = |i: &Interval| i.events as f64 / i.duration_s.max(1e-9);
    let mut by_rate: Vec<&Interval> = full.to_vec();
    by_rate.sort_by(|a, b| rate(a).total_cmp(&rate(b)));
    let (slow, others) = by_rate.split_at(full.len() / 4);
    let median = |v: &[&Interval]| rate(v[v.len() / 2]);
    let (slow_eps, others_eps) = (median(slow), median(others));
    if slow_eps > DIP * others_eps {
        return None;
    }
    Some(SlowIntervals {
        intervals: slow.len() as u64,
        others: others.len() as u64,
        median_eps: slow_eps,
        others_median_eps: others_eps,
        disk: DiskIo::mean(slow.iter().filter_map(|i| i.disk.as_ref())),
        others_disk: DiskIo::mean(others.iter().filter_map(|i| i.disk.as_ref())),
        host_cpu: HostCpu::mean(slow.iter().filter_map(|i| i.host_cpu.as_ref())),
        others_host_cpu: HostCpu::mean(others.iter().filter_map(|i| i.host_cpu.as_ref())),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn interval(events: u64, write_mib_s: f64, idle: f64) -> Interval {
        Interval {
            duration_s: 1.0,
            events,
            disk: Some(DiskIo {
                write_mib_s,
                ..DiskIo::default()
            }),
            host_cpu: Some(HostCpu {
                idle,
                ..HostCpu::default()
            }),
            ..Interval::default()
        }
    }

    #[test]
    fn the_slowest_quarter_is_set_beside_the_rest_when_it_dipped() {
        // Twelve intervals, three of them at half the rate while the disk wrote 100 MiB/s.
        let mut v: Vec<Interval> = (0..9).map(|k| interval(2000 + k, 10.0, 0.1)).collect();
        v.insert(2, interval(1000, 100.0, 0.1));
        v.insert(6, interval(1100, 90.0, 0.3));
        v.insert(10, interval(900, 110.0, 0.2));
        let full: Vec<&Interval> = v.iter().collect();
        let s = of(&full).unwrap();
        assert_eq!((s.intervals, s.others), (3, 9));
        assert_eq!((s.median_eps, s.others_median_eps), (1000.0, 2004.0));
        assert!((s.disk.unwrap().write_mib_s - 100.0).abs() < 1e-9);
        assert!((s.others_disk.unwrap().write_mib_s - 10.0).abs() < 1e-9);
        assert!((s.host_cpu.unwrap().idle - 0.2).abs() < 1e-9);

        // A steady run, and a run too short to judge: nothing to say.
        let steady: Vec<Interval> = (0..12)
            .map(|k| interval(2000 - 20 * k, 10.0, 0.1))
            .collect();
        assert!(of(&steady.iter().collect::<Vec<_>>()).is_none());
        assert!(of(&full[..7]).is_none());
    }
}
