//! The machine under a run, per interval: its CPUs and the disk under the data, with the
//! run's stalls shaded, so a stall can be read beside what the machine did meanwhile.

use super::svg::{Band, Chart, Series, XAxis};
use crate::result::{DiskIo, Interval};

/// Points of one figure per interval; None where the interval has no figures.
fn per_interval<T>(
    full: &[&Interval],
    of: fn(&Interval) -> Option<&T>,
    f: impl Fn(&T) -> f64,
) -> Vec<(f64, Option<f64>)> {
    full.iter().map(|i| (i.time_s, of(i).map(&f))).collect()
}

/// The machine's CPUs per interval (busy, waiting on I/O, stolen), stalls shaded: a stall
/// with the CPUs in iowait is a flush, with them idle a lock.
pub fn cpu_chart(o: &mut String, full: &[&Interval], bands: Vec<Band>) {
    if full.iter().all(|i| i.host_cpu.is_none()) {
        return;
    }
    let share =
        |f: fn(&crate::result::HostCpu) -> f64| per_interval(full, |i| i.host_cpu.as_ref(), f);
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
