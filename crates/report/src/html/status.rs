//! The server's status figures per interval, one chart each (those that were not zero all
//! along), with the run's stalls shaded: a stall set beside the sessions running, the lock
//! waits or the checkpoint age of the same seconds.

use super::svg::{Band, Chart, Series, XAxis};
use dbpress_measure::result::status::StatusKind;
use dbpress_measure::result::{Interval, RunResult};

pub fn charts(o: &mut String, full: &[&Interval], r: &RunResult, bands: Vec<Band>) {
    let Some(st) = &r.server_status else {
        return;
    };
    for item in &st.items {
        let points: Vec<(f64, Option<f64>)> = full
            .iter()
            .map(|i| {
                (
                    i.time_s,
                    i.server_status
                        .as_ref()
                        .and_then(|s| s.get(&item.name).copied()),
                )
            })
            .collect();
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
