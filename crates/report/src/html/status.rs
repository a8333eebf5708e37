//! The server's status figures per interval, one chart each (those that were not zero all
//! along), with the run's stalls shaded: a stall set beside the sessions running, the lock
//! waits or the checkpoint age of the same seconds.

use super::svg::{Band, Chart, Series, XAxis};
use dbpress_result::status::StatusKind;
use dbpress_result::{Interval, RunResult};

pub fn charts(o: &mut String, full: &[&Interval], r: &RunResult, bands: Vec<Band>) {
    let Some(st) = &r.server_status else {
        return;
    };
    for item in &st.items {
        let value = |i: &Interval| {
            i.server_status
                .as_ref()
                .and_then(|s| s.get(&item.name).copied())
        };
        // A gauge is read at the interval's end: a point there. A counter's rate covers the
        // interval: a step over its span.
        let points: Vec<(f64, Option<f64>)> = match item.kind {
            StatusKind::Gauge => full.iter().map(|i| (i.time_s, value(i))).collect(),
            StatusKind::Counter => super::svg::steps_of(full, value),
        };
        if points.iter().all(|(_, v)| v.is_none_or(|v| v == 0.0)) {
            continue;
        }
        let (title, y) = match item.kind {
            StatusKind::Gauge => (
                format!(
                    "{} ({}), at each interval's end (stalls shaded)",
                    item.name, st.source
                ),
                item.name.clone(),
            ),
            StatusKind::Counter => (
                format!(
                    "{} per second ({}), per interval (stalls shaded)",
                    item.name, st.source
                ),
                format!("{}/s", item.name),
            ),
        };
        o.push_str(
            &Chart {
                title: &title,
                y_label: &y,
                x: XAxis::Time,
                series: vec![Series { name: &y, points }],
                bands: bands.clone(),
                whiskers: vec![],
                y_at_least: 0.0,
            }
            .render(),
        );
    }
}
