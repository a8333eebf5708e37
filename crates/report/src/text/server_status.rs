//! The server's status figures as a section of dbpress's text: each figure's mean and peak
//! over the run's full intervals (sampled by `dbpress_measure::status`).

use dbpress_result::status::{ServerStatus, StatusKind};
use dbpress_result::Interval;

/// The report's section: each figure's mean and peak over the run's full intervals.
pub fn section(s: &ServerStatus, intervals: &[Interval]) -> String {
    use std::fmt::Write;
    let mut o = String::new();
    if let Some(why) = &s.unavailable {
        let _ = writeln!(o, "Server status ({}): {why}\n", s.source);
        return o;
    }
    let _ = writeln!(
        o,
        "Server status over the run ({}, read every {} ms, {:.2} ms a reading):",
        s.source, s.every_ms, s.read_ms
    );
    let w = s.items.iter().map(|i| i.name.len() + 2).max().unwrap_or(10);
    let _ = writeln!(o, "    {:<w$} {:>14} {:>14}", "", "mean", "peak");
    for item in &s.items {
        let values: Vec<f64> = intervals
            .iter()
            .filter(|i| !i.closing)
            .filter_map(|i| i.server_status.as_ref()?.get(&item.name).copied())
            .collect();
        if values.is_empty() {
            continue;
        }
        let mean = values.iter().sum::<f64>() / values.len() as f64;
        let peak = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let name = match item.kind {
            StatusKind::Gauge => item.name.clone(),
            StatusKind::Counter => format!("{}/s", item.name),
        };
        let _ = writeln!(o, "    {name:<w$} {mean:>14.2} {peak:>14.2}");
    }
    o.push('\n');
    o
}
