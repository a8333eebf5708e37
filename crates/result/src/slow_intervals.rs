//! The slowest intervals of a run set beside the others: what the machine did while
//! throughput dipped.
//!
//! A checkpoint that writes back dirty pages rarely stops a server outright; it halves its
//! throughput for a second or two, again and again. The per-second lines show the dips, and
//! the disk and CPU figures of the same intervals show their cause: the slow intervals wrote
//! eight times the others' MiB/s (a flush), or their CPUs sat idle (a lock), or nothing
//! differs (the client, the network, the server's own work).

use crate::host::{DiskIo, HostCpu};
pub use crate::throughput::SlowIntervals;
use crate::Interval;

/// Fewer full intervals than this make quarters of one interval: noise.
const MIN_INTERVALS: usize = 8;

/// The slow quarter is worth a word when its median rate is at most this share of the
/// others': a steady run's slowest quarter differs from the rest by a few percent.
const DIP: f64 = 0.8;

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
    // The slow intervals in time order, as runs of consecutive ones: (start of each run).
    let cut = rate(slow[slow.len() - 1]);
    // Of the intervals at the cut's rate, only as many as the quarter holds.
    let mut ties_left = slow.iter().filter(|i| rate(i) == cut).count();
    let mut starts = Vec::new();
    let mut in_run = false;
    for i in full {
        let r = rate(i);
        let is_slow = r < cut || (r == cut && ties_left > 0);
        if r == cut && is_slow {
            ties_left -= 1;
        }
        if is_slow && !in_run {
            starts.push(i.time_s - i.duration_s);
        }
        in_run = is_slow;
    }
    let every_s = (starts.len() >= 3).then(|| {
        let mut gaps: Vec<f64> = starts.windows(2).map(|w| w[1] - w[0]).collect();
        gaps.sort_by(f64::total_cmp);
        gaps[gaps.len() / 2]
    });
    Some(SlowIntervals {
        intervals: slow.len() as u64,
        others: others.len() as u64,
        median_eps: slow_eps,
        others_median_eps: others_eps,
        stretches: starts.len() as u64,
        every_s,
        disk: DiskIo::mean(slow.iter().filter_map(|i| i.disk.as_ref())),
        others_disk: DiskIo::mean(others.iter().filter_map(|i| i.disk.as_ref())),
        host_cpu: HostCpu::mean(slow.iter().filter_map(|i| i.host_cpu.as_ref())),
        others_host_cpu: HostCpu::mean(others.iter().filter_map(|i| i.host_cpu.as_ref())),
        waits: crate::wait_shares::most_of(slow.iter().copied()),
        others_waits: crate::wait_shares::most_of(others.iter().copied()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn interval(events: u64, write_mib_s: f64, idle: f64) -> Interval {
        Interval {
            duration_s: 1.0,
            time_s: 0.0,
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
        for (k, i) in v.iter_mut().enumerate() {
            i.time_s = k as f64 + 1.0;
        }
        let full: Vec<&Interval> = v.iter().collect();
        let s = of(&full).unwrap();
        assert_eq!((s.intervals, s.others), (3, 9));
        assert_eq!((s.median_eps, s.others_median_eps), (1000.0, 2004.0));
        assert!((s.disk.unwrap().write_mib_s - 100.0).abs() < 1e-9);
        assert!((s.others_disk.unwrap().write_mib_s - 10.0).abs() < 1e-9);
        assert!((s.host_cpu.unwrap().idle - 0.2).abs() < 1e-9);
        // Slow at seconds 3, 7 and 11: every 4 s.
        assert_eq!((s.stretches, s.every_s), (3, Some(4.0)));
        // Without samples of the server's sessions, no waits on either side.
        assert!(s.waits.is_empty() && s.others_waits.is_empty());

        // With them: what the slow intervals' sessions waited on, beside the others'.
        let mut sampled = v.clone();
        for i in sampled.iter_mut() {
            let slow = i.events < 1500;
            let (event, n) = if slow {
                ("IO:WALSync", 30)
            } else {
                ("running", 30)
            };
            i.waits = Some(
                [
                    (event.to_string(), n),
                    ("Client:ClientRead".to_string(), 10),
                ]
                .into(),
            );
        }
        let s = of(&sampled.iter().collect::<Vec<_>>()).unwrap();
        assert_eq!(s.waits[0].event, "IO:WALSync");
        assert!((s.waits[0].share - 0.75).abs() < 1e-9);
        assert_eq!(s.others_waits[0].event, "running");
        assert!(!s.others_waits.iter().any(|w| w.event == "IO:WALSync"));

        // Ties at the cut: the quarter's share of them, and no strictly slower one left out.
        let mut tied: Vec<Interval> = [1500, 1500, 1000, 3000, 3000, 3000, 3000, 3000]
            .iter()
            .map(|&e| interval(e, 10.0, 0.1))
            .collect();
        for (k, i) in tied.iter_mut().enumerate() {
            i.time_s = k as f64 + 1.0;
        }
        let t = of(&tied.iter().collect::<Vec<_>>()).unwrap();
        assert_eq!((t.intervals, t.stretches, t.every_s), (2, 2, None));

        // A steady run, and a run too short to judge: nothing to say.
        let steady: Vec<Interval> = (0..12)
            .map(|k| interval(2000 - 20 * k, 10.0, 0.1))
            .collect();
        assert!(of(&steady.iter().collect::<Vec<_>>()).is_none());
        assert!(of(&full[..7]).is_none());
    }
}
