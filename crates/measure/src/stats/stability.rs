//! Throughput over time: how steady the per-interval rate was, and where it fell to nothing.
//!
//! DBAs hunt periodic stalls (a checkpoint flush storm, a metadata lock, a purge backlog) by
//! reading the per-second lines for `tps: 0.00`. This derives the same from the run's
//! intervals so nobody has to scroll: the rate's spread and every stretch of intervals in which
//! no event finished, with the typical gap between stretches when they repeat.
//!
//! Only full intervals count: the short closing intervals of a run that stopped between ticks
//! measure a fraction of a tick and would fake a dip or a stall.

use crate::host::disk::DiskIo;
use crate::host::HostCpu;
pub use crate::result::throughput::{Stall, Throughput};
use crate::result::Interval;

/// Fewer full intervals than this say nothing about steadiness.
const MIN_INTERVALS: usize = 3;

/// At most this many stall stretches are kept; the count says how many there were.
const MAX_LISTED: usize = 20;

/// The figures for these intervals, or None when there are too few full ones to judge.
pub fn of(intervals: &[Interval]) -> Option<Throughput> {
    let full: Vec<&Interval> = intervals.iter().filter(|i| !i.closing).collect();
    if full.len() < MIN_INTERVALS {
        return None;
    }
    let rates: Vec<f64> = full
        .iter()
        .map(|i| i.events as f64 / i.duration_s.max(1e-9))
        .collect();
    let mut sorted = rates.clone();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    let mean = rates.iter().sum::<f64>() / n as f64;
    let variance = rates.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / n as f64;

    // Intervals are contiguous, so a stalled interval right after a stalled one extends the
    // open stretch (index adjacency, not float arithmetic on the measured times).
    let mut stretches: Vec<Stall> = Vec::new();
    let mut open: Option<Stall> = None;
    for i in &full {
        if i.events > 0 {
            stretches.extend(open.take());
        } else if let Some(s) = open.as_mut() {
            s.to_s = i.time_s;
        } else {
            open = Some(Stall {
                from_s: i.time_s - i.duration_s,
                to_s: i.time_s,
            });
        }
    }
    stretches.extend(open);
    let stall_every_s = (stretches.len() >= 3).then(|| {
        let mut gaps: Vec<f64> = stretches
            .windows(2)
            .map(|w| w[1].from_s - w[0].from_s)
            .collect();
        gaps.sort_by(f64::total_cmp);
        gaps[gaps.len() / 2]
    });
    Some(Throughput {
        interval_s: full[0].duration_s,
        intervals: n as u64,
        min_eps: sorted[0],
        p5_eps: sorted[nearest_rank(n, 0.05)],
        median_eps: sorted[nearest_rank(n, 0.5)],
        max_eps: sorted[n - 1],
        cv_percent: if mean > 0.0 {
            100.0 * variance.sqrt() / mean
        } else {
            0.0
        },
        stalled_intervals: full.iter().filter(|i| i.events == 0).count() as u64,
        stall_count: stretches.len() as u64,
        stalls: stretches.into_iter().take(MAX_LISTED).collect(),
        stall_every_s,
        stall_host_cpu: HostCpu::mean(
            full.iter()
                .filter(|i| i.events == 0)
                .filter_map(|i| i.host_cpu.as_ref()),
        ),
        stall_disk: DiskIo::mean(
            full.iter()
                .filter(|i| i.events == 0)
                .filter_map(|i| i.disk.as_ref()),
        ),
        stall_waits: crate::waits::most_of(full.iter().filter(|i| i.events == 0).copied()),
        slowest: super::slow_intervals::of(&full),
    })
}

/// Index of the nearest-rank percentile `q` (0..1) in a sorted list of `n` values.
fn nearest_rank(n: usize, q: f64) -> usize {
    ((q * n as f64).ceil() as usize).clamp(1, n) - 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tick(time_s: f64, events: u64) -> Interval {
        Interval {
            time_s,
            duration_s: 1.0,
            events,
            ..Interval::default()
        }
    }

    fn run(events: &[u64]) -> Vec<Interval> {
        events
            .iter()
            .enumerate()
            .map(|(k, &e)| tick(k as f64 + 1.0, e))
            .collect()
    }

    #[test]
    fn a_steady_run_has_no_stalls_and_its_spread() {
        let t = of(&run(&[100, 100, 100, 100])).unwrap();
        assert_eq!(t.intervals, 4);
        assert_eq!((t.min_eps, t.median_eps, t.max_eps), (100.0, 100.0, 100.0));
        assert_eq!(t.cv_percent, 0.0);
        assert_eq!((t.stalled_intervals, t.stall_count), (0, 0));
        assert!(t.stalls.is_empty() && t.stall_every_s.is_none());
    }

    #[test]
    fn consecutive_zero_intervals_make_one_stretch() {
        // Lines [ 4s ] and [ 5s ] read tps 0: nothing finished from 3 s to 5 s.
        let t = of(&run(&[2400, 2100, 130, 0, 0, 2400, 2800, 2450])).unwrap();
        assert_eq!(t.stalled_intervals, 2);
        assert_eq!(
            t.stalls,
            vec![Stall {
                from_s: 3.0,
                to_s: 5.0
            }]
        );
        assert_eq!(t.min_eps, 0.0);
        assert_eq!(t.p5_eps, 0.0);
        assert_eq!(t.median_eps, 2100.0);
        assert_eq!(t.max_eps, 2800.0);
        assert!(t.cv_percent > 50.0, "{}", t.cv_percent);
    }

    #[test]
    fn periodic_stalls_give_their_typical_gap() {
        let mut e = vec![50u64; 40];
        for k in [4, 14, 24, 25, 34] {
            e[k] = 0;
        }
        let t = of(&run(&e)).unwrap();
        assert_eq!(t.stalled_intervals, 5);
        assert_eq!(t.stall_count, 4);
        assert_eq!(
            t.stalls[2],
            Stall {
                from_s: 24.0,
                to_s: 26.0
            }
        );
        assert_eq!(t.stall_every_s, Some(10.0));
    }

    #[test]
    fn closing_intervals_and_short_runs_are_left_out() {
        let mut iv = run(&[100, 100, 100]);
        iv.push(Interval {
            time_s: 3.01,
            duration_s: 0.01,
            events: 0,
            closing: true,
            ..Interval::default()
        });
        let t = of(&iv).unwrap();
        assert_eq!((t.intervals, t.stalled_intervals), (3, 0));
        assert!(of(&run(&[100, 0])).is_none());
    }

    #[test]
    fn longer_report_intervals_give_rates_per_second() {
        let iv: Vec<Interval> = [500u64, 0, 1000]
            .iter()
            .enumerate()
            .map(|(k, &e)| Interval {
                time_s: 10.0 * (k as f64 + 1.0),
                duration_s: 10.0,
                events: e,
                ..Interval::default()
            })
            .collect();
        let t = of(&iv).unwrap();
        assert_eq!((t.interval_s, t.median_eps, t.max_eps), (10.0, 50.0, 100.0));
        assert_eq!(
            t.stalls,
            vec![Stall {
                from_s: 10.0,
                to_s: 20.0
            }]
        );
    }

    #[test]
    fn the_machines_cpu_during_stalls_is_the_mean_over_the_stalled_intervals() {
        let cpu = |iowait: f64| HostCpu {
            user: 0.1,
            system: 0.1,
            iowait,
            steal: 0.0,
            idle: 1.8 - iowait,
        };
        let mut iv = run(&[100, 0, 0, 100]);
        iv[0].host_cpu = Some(cpu(0.0));
        iv[1].host_cpu = Some(cpu(1.2));
        iv[2].host_cpu = Some(cpu(1.6));
        iv[3].host_cpu = Some(cpu(0.0));
        let c = of(&iv).unwrap().stall_host_cpu.unwrap();
        assert!(
            (c.iowait - 1.4).abs() < 1e-9 && (c.idle - 0.4).abs() < 1e-9,
            "{c:?}"
        );
        assert!(of(&run(&[100, 100, 100])).unwrap().stall_host_cpu.is_none());
        // The disk likewise: busy during the stalls, only the stalled intervals averaged.
        let disk = |busy: f64| DiskIo {
            busy,
            writes_s: busy * 1000.0,
            ..DiskIo::default()
        };
        iv[0].disk = Some(disk(0.1));
        iv[1].disk = Some(disk(1.0));
        iv[2].disk = Some(disk(0.8));
        let d = of(&iv).unwrap().stall_disk.unwrap();
        assert!((d.busy - 0.9).abs() < 1e-9 && (d.writes_s - 900.0).abs() < 1e-6);
    }
}
