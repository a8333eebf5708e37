//! Throughput over time: how steady the per-interval rate was, and where it fell to nothing.
//!
//! DBAs hunt periodic stalls (a checkpoint flush storm, a metadata lock, a purge backlog) by
//! reading the per-second lines for `tps: 0.00`. This derives the same from the run's
//! intervals so nobody has to scroll: the rate's spread and every stretch of stalled intervals,
//! with the typical gap between stretches when they repeat.
//!
//! A stalled interval is one in which no event finished, or so few that at the run's median
//! rate they account for next to none of a tick. The second catches the stall that hides in an
//! interval that stretched over ticks the reporter missed: when the whole client is held up
//! (a loaded machine, a stopped process) the reporter skips the ticks it missed, as sysbench
//! does, and one interval covers them all, so a 4.8 s near-stop holding 2 events reads as one
//! line of 0.42 tps, never as `tps: 0.00`. A stretched interval at the median rate is no
//! stall: the workers went on and only the reporter was late; it is listed all the same.
//!
//! Only full intervals count: the short closing intervals of a run that stopped between ticks
//! measure a fraction of a tick and would fake a dip or a stall.

use crate::host::{DiskIo, HostCpu};
pub use crate::throughput::{Stall, Stretched, Throughput};
use crate::Interval;

/// Fewer full intervals than this say nothing about steadiness.
const MIN_INTERVALS: usize = 3;

/// At most this many stall stretches (and stretched intervals) are kept; counts say how many
/// there were.
const MAX_LISTED: usize = 20;

/// An interval is stalled when no event finished in it; when, one tick long, its rate was
/// under `NEAR_STOP` of the run's median rate (a server that worked 50 ms of a second) and it
/// does not border an interval in which nothing finished (it is then the stall's edge); or
/// when, stretched over missed ticks, at the median rate its events would have taken at most
/// its length less `1 - NEAR_STOP` of a tick: room in it for a tick in which nothing finished.
/// A dip to a third is no stall (the slowest quarter's line reports it).
pub const NEAR_STOP: f64 = 0.05;

/// An interval longer than this many ticks stretched past its tick: the reporter missed ticks.
pub const STRETCHED: f64 = 1.5;

/// The figures for these intervals, or None when there are too few full ones to judge.
pub fn of(intervals: &[Interval]) -> Option<Throughput> {
    let full: Vec<&Interval> = intervals.iter().filter(|i| !i.closing).collect();
    if full.len() < MIN_INTERVALS {
        return None;
    }
    let rates: Vec<f64> = full.iter().map(|i| rate(i)).collect();
    let mut sorted = rates.clone();
    sorted.sort_by(f64::total_cmp);
    let n = sorted.len();
    let mean = rates.iter().sum::<f64>() / n as f64;
    let variance = rates.iter().map(|r| (r - mean).powi(2)).sum::<f64>() / n as f64;
    let median_eps = sorted[nearest_rank(n, 0.5)];
    // The tick: the intervals' usual length (a stretched one is rare, so it does not set it).
    let tick_s = {
        let mut d: Vec<f64> = full.iter().map(|i| i.duration_s).collect();
        d.sort_by(f64::total_cmp);
        d[nearest_rank(d.len(), 0.5)].max(1e-9)
    };
    let missed = |i: &Interval| {
        if i.duration_s > STRETCHED * tick_s {
            ((i.duration_s / tick_s).round() as u64).max(2) - 1
        } else {
            0
        }
    };
    let zero: Vec<bool> = full.iter().map(|i| i.events == 0).collect();
    let stalled_at: Vec<bool> = (0..n)
        .map(|k| {
            let i = full[k];
            if zero[k] {
                return true;
            }
            if median_eps <= 0.0 {
                return false;
            }
            if missed(i) > 0 {
                // Stretched: at the median rate its events leave a tick or more unaccounted.
                return i.duration_s - i.events as f64 / median_eps >= (1.0 - NEAR_STOP) * tick_s;
            }
            // A near-stop of one tick, unless it borders intervals in which nothing finished:
            // then the stall began or ended inside it, and the stretch keeps to the lines that
            // read `tps: 0.00`, as sysbench users read them.
            rate(i) < NEAR_STOP * median_eps
                && !(k > 0 && zero[k - 1])
                && !zero.get(k + 1).copied().unwrap_or(false)
        })
        .collect();

    // Intervals are contiguous, so a stalled interval right after a stalled one extends the
    // open stretch (index adjacency, not float arithmetic on the measured times).
    let mut stretches: Vec<Stall> = Vec::new();
    let mut open: Option<Stall> = None;
    for (i, &stalled) in full.iter().zip(&stalled_at) {
        if !stalled {
            stretches.extend(open.take());
            continue;
        }
        let s = open.get_or_insert(Stall {
            from_s: i.time_s - i.duration_s,
            ..Stall::default()
        });
        s.to_s = i.time_s;
        s.events += i.events;
        s.missed_ticks += missed(i);
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
    let stretched: Vec<Stretched> = full
        .iter()
        .zip(&stalled_at)
        .filter(|(i, _)| missed(i) > 0)
        .map(|(i, &stalled)| Stretched {
            from_s: i.time_s - i.duration_s,
            to_s: i.time_s,
            missed_ticks: missed(i),
            events: i.events,
            eps: rate(i),
            median_share: if median_eps > 0.0 {
                rate(i) / median_eps
            } else {
                0.0
            },
            stall: stalled,
        })
        .collect();
    let stalled_full: Vec<&Interval> = full
        .iter()
        .zip(&stalled_at)
        .filter(|(_, &stalled)| stalled)
        .map(|(i, _)| *i)
        .collect();
    Some(Throughput {
        interval_s: tick_s,
        intervals: n as u64,
        min_eps: sorted[0],
        p5_eps: sorted[nearest_rank(n, 0.05)],
        median_eps,
        max_eps: sorted[n - 1],
        cv_percent: if mean > 0.0 {
            100.0 * variance.sqrt() / mean
        } else {
            0.0
        },
        stalled_intervals: stalled_full.len() as u64,
        near_stops: stalled_full.iter().filter(|i| i.events > 0).count() as u64,
        stall_count: stretches.len() as u64,
        stalls: stretches.into_iter().take(MAX_LISTED).collect(),
        stall_every_s,
        stall_host_cpu: HostCpu::mean(stalled_full.iter().filter_map(|i| i.host_cpu.as_ref())),
        stall_disk: DiskIo::mean(stalled_full.iter().filter_map(|i| i.disk.as_ref())),
        stall_waits: crate::wait_shares::most_of(stalled_full.iter().copied()),
        slowest: super::slow_intervals::of(&full),
        stretched_count: stretched.len() as u64,
        stretched: stretched.into_iter().take(MAX_LISTED).collect(),
    })
}

/// Events per second over an interval.
fn rate(i: &Interval) -> f64 {
    i.events as f64 / i.duration_s.max(1e-9)
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
                to_s: 5.0,
                ..Stall::default()
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
                to_s: 26.0,
                ..Stall::default()
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
                to_s: 20.0,
                ..Stall::default()
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

    /// 1 s intervals of about 1000 events around one `dur_s` long holding `events`, from
    /// 5 s on (the reporter's tick at 6 s came at 5 + dur_s).
    fn with_stretched(dur_s: f64, events: u64) -> Vec<Interval> {
        let mut iv: Vec<Interval> = (1..=5)
            .map(|k| tick(k as f64, 990 + 5 * k as u64))
            .collect();
        iv.push(Interval {
            time_s: 5.0 + dur_s,
            duration_s: dur_s,
            events,
            ..Interval::default()
        });
        for k in 1..=14 {
            iv.push(tick(5.0 + dur_s + k as f64, 1010 - k as u64));
        }
        iv
    }

    #[test]
    fn issue_43_a_stretched_interval_is_a_stall() {
        // A 4.8 s near-stop with 2 events, merged into one interval by a reporter that missed
        // its ticks: its 0.42 events/s is no `0` to find, and it used to read "stalls: none".
        let t = of(&with_stretched(4.8, 2)).unwrap();
        assert_eq!(t.interval_s, 1.0);
        assert_eq!(
            (t.stalled_intervals, t.near_stops, t.stall_count),
            (1, 1, 1)
        );
        assert_eq!(
            t.stalls,
            vec![Stall {
                from_s: (5.0 + 4.8) - 4.8,
                to_s: 5.0 + 4.8,
                events: 2,
                missed_ticks: 4,
            }]
        );
        assert_eq!(t.stretched_count, 1);
        let s = &t.stretched[0];
        assert!(s.stall && s.missed_ticks == 4 && s.events == 2, "{s:?}");
        assert!(
            (s.eps - 2.0 / 4.8).abs() < 1e-9 && s.median_share < 0.001,
            "{s:?}"
        );
    }

    #[test]
    fn a_stretched_interval_at_the_median_rate_is_the_reporters_not_a_stall() {
        // The workers went on at their rate while the reporter was held up for 3 ticks.
        let t = of(&with_stretched(4.0, 4000)).unwrap();
        assert_eq!((t.stalled_intervals, t.stall_count), (0, 0));
        assert_eq!(t.stretched_count, 1);
        assert!(!t.stretched[0].stall && t.stretched[0].missed_ticks == 3);
        // At half the rate over 4 s, two seconds of nothing fit in it: a stall candidate.
        let t = of(&with_stretched(4.0, 2000)).unwrap();
        assert_eq!((t.stalled_intervals, t.near_stops), (1, 1));
        assert!(t.stretched[0].stall);
        // A stretch of 1.4 ticks is a late tick, not a missed one.
        let t = of(&with_stretched(1.4, 1400)).unwrap();
        assert_eq!((t.stretched_count, t.stalled_intervals), (0, 0));
    }

    #[test]
    fn a_second_under_a_twentieth_of_the_median_rate_is_a_stall() {
        let t = of(&run(&[1000, 1000, 40, 1000, 1000, 60, 1000])).unwrap();
        assert_eq!((t.stalled_intervals, t.near_stops), (1, 1));
        assert_eq!(
            t.stalls,
            vec![Stall {
                from_s: 2.0,
                to_s: 3.0,
                events: 40,
                ..Stall::default()
            }]
        );
        assert!(t.stretched.is_empty());
        // Next to seconds in which nothing finished, it is where that stall began or ended:
        // the stretch keeps to the seconds that read 0.
        let t = of(&run(&[1000, 1000, 20, 0, 0, 30, 1000, 1000])).unwrap();
        assert_eq!((t.stalled_intervals, t.near_stops), (2, 0));
        assert_eq!(
            t.stalls,
            vec![Stall {
                from_s: 3.0,
                to_s: 5.0,
                ..Stall::default()
            }]
        );
    }
}
