//! The machine under a run, per interval: its CPUs, the disk under the data and what the
//! server said the run's sessions waited on, with the run's stalls shaded, so a stall can be
//! read beside what the machine and the server did meanwhile.

use super::svg::{Band, Chart, Series, XAxis};
use dbpress_result::{DiskIo, Interval};

/// One figure per interval, as a step over the interval's span; None where the interval has
/// no figures.
fn per_interval<T>(
    full: &[&Interval],
    of: fn(&Interval) -> Option<&T>,
    f: impl Fn(&T) -> f64,
) -> Vec<(f64, Option<f64>)> {
    super::svg::steps_of(full, |i| of(i).map(&f))
}

/// The machine's CPUs per interval (busy, waiting on I/O, stolen), stalls shaded: a stall
/// with the CPUs in iowait is a flush, with them idle a lock.
pub fn cpu_chart(o: &mut String, full: &[&Interval], bands: Vec<Band>) {
    if full.iter().all(|i| i.host_cpu.is_none()) {
        return;
    }
    let share =
        |f: fn(&dbpress_result::HostCpu) -> f64| per_interval(full, |i| i.host_cpu.as_ref(), f);
    let mut series = vec![
        Series {
            name: "busy",
            points: share(|c| c.busy()),
        },
        Series {
            name: "iowait",
            points: share(|c| c.iowait),
        },
    ];
    if full
        .iter()
        .any(|i| i.host_cpu.is_some_and(|c| c.steal > 0.0))
    {
        series.push(Series {
            name: "steal",
            points: share(|c| c.steal),
        });
    }
    o.push_str(
        &Chart {
            title: "The machine's CPUs per interval (stalls shaded)",
            y_label: "CPUs",
            x: XAxis::Time,
            series,
            bands,
            // The axis spans the machine's CPUs (the shares of an interval add up to them).
            whiskers: vec![],
            y_at_least: full
                .iter()
                .find_map(|i| i.host_cpu)
                .map_or(0.0, |c| (c.busy() + c.iowait + c.steal + c.idle).round()),
        }
        .render(),
    );
}

/// The disk under the data per interval: requests per second (writes, cache flushes, reads),
/// and the share of the time it had one in flight. A stall with the disk busy writing is a
/// flush; with it quiet, a lock.
pub fn disk_charts(o: &mut String, full: &[&Interval], bands: Vec<Band>) {
    if full.iter().all(|i| i.disk.is_none()) {
        return;
    }
    let rate = |f: fn(&DiskIo) -> f64| per_interval(full, |i| i.disk.as_ref(), f);
    let mut series = vec![Series {
        name: "writes/s",
        points: rate(|d| d.writes_s),
    }];
    if full
        .iter()
        .any(|i| i.disk.is_some_and(|d| d.flushes_s.is_some()))
    {
        series.push(Series {
            name: "flushes/s",
            points: rate(|d| d.flushes_s.unwrap_or(0.0)),
        });
    }
    series.push(Series {
        name: "reads/s",
        points: rate(|d| d.reads_s),
    });
    o.push_str(
        &Chart {
            title: "The disk under the data: requests per second, per interval (stalls shaded)",
            y_label: "per second",
            x: XAxis::Time,
            series,
            bands: bands.clone(),
            whiskers: vec![],
            y_at_least: 0.0,
        }
        .render(),
    );
    o.push_str(
        &Chart {
            title: "The disk under the data: share of the time with a request in flight (stalls shaded)",
            y_label: "% busy",
            x: XAxis::Time,
            series: vec![Series {
                name: "busy",
                points: rate(|d| d.busy * 100.0),
            }],
            bands,
            whiskers: vec![],
            y_at_least: 100.0,
        }
        .render(),
    );
}

/// Lines drawn at most: more would be a tangle.
const WAIT_LINES: usize = 5;

/// The server's wait events per interval, as shares of the interval's session observations:
/// the run's most frequent ones, and those that led the stalls and the slowest quarter (a lock
/// that held the sessions for two seconds is rare over the run and the whole story of the
/// stall).
pub fn waits_chart(
    o: &mut String,
    full: &[&Interval],
    r: &dbpress_result::RunResult,
    bands: Vec<Band>,
) {
    if full.iter().all(|i| i.waits.is_none()) {
        return;
    }
    let mut names: Vec<&str> = Vec::new();
    let t = r.throughput.as_ref();
    let leaders = t.into_iter().flat_map(|t| t.stall_waits.first()).chain(
        t.and_then(|t| t.slowest.as_ref())
            .and_then(|s| s.waits.first()),
    );
    let overall = r.server_waits.iter().flat_map(|w| w.events.iter());
    for w in leaders.chain(overall) {
        if names.len() == WAIT_LINES {
            break;
        }
        if !names.contains(&w.event.as_str()) {
            names.push(&w.event);
        }
    }
    let series = names
        .iter()
        .map(|name| Series {
            name,
            points: super::svg::steps_of(full, |i| {
                i.waits.as_ref().map(|w| {
                    let total: u64 = w.values().sum();
                    100.0 * *w.get(*name).unwrap_or(&0) as f64 / total.max(1) as f64
                })
            }),
        })
        .collect();
    o.push_str(
        &Chart {
            title: "What the server said the run's sessions waited on: share of the samples, per interval (stalls shaded)",
            y_label: "% of sessions",
            x: XAxis::Time,
            series,
            bands,
            whiskers: vec![],
            y_at_least: 100.0,
        }
        .render(),
    );
}
