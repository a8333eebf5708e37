//! An experiment's page: for each workload, each metric against threads with one line per (target,
//! settings) column — a point is the median of the repeats, its bar their range — then the
//! tables as text.

use super::esc::esc;
use super::frame::{levels_chart, page, text_block};
use super::svg::{Series, Whisker};
use crate::model::experiment::Experiment;
use std::fmt::Write;

pub fn experiment_page(s: &Experiment, text: &str) -> String {
    let mut o = String::new();
    if !s.description.is_empty() {
        let _ = writeln!(o, "<p>{}</p>", esc(&s.description));
    }
    o.push_str("<ul>\n");
    for (name, about) in &s.settings_about {
        let _ = writeln!(o, "<li>settings <b>{}</b>: {}</li>", esc(name), esc(about));
    }
    for (name, about) in &s.workload_about {
        let _ = writeln!(
            o,
            "<li>workload <b>{}</b>: <code>{}</code></li>",
            esc(name),
            esc(about)
        );
    }
    o.push_str("</ul>\n");
    let _ = writeln!(
        o,
        "<p>A point is the median of up to {} repeat(s); its bar spans the lowest and highest. Ratios in the tables are to the baseline ({}).</p>",
        s.repeats,
        esc(&s.baseline)
    );
    let names: Vec<String> = s.threads.iter().map(u32::to_string).collect();
    for t in &s.tables {
        let series = s
            .columns
            .iter()
            .enumerate()
            .map(|(c, col)| Series {
                name: &col.label,
                points: t
                    .rows
                    .iter()
                    .enumerate()
                    .map(|(i, row)| (i as f64, row.cells[c].as_ref().map(|x| x.median)))
                    .collect(),
            })
            .collect();
        let whiskers = t
            .rows
            .iter()
            .enumerate()
            .flat_map(|(i, row)| {
                row.cells.iter().enumerate().filter_map(move |(c, x)| {
                    let x = x.as_ref().filter(|x| x.runs.len() > 1)?;
                    Some(Whisker {
                        series: c,
                        x: i as f64,
                        lo: x.min,
                        hi: x.max,
                    })
                })
            })
            .collect();
        let title = format!("{} — {}", t.workload, t.title);
        let unit = t.title.split(" (").next().unwrap_or("");
        o.push_str(&levels_chart(&title, unit, &names, series, 0.0, whiskers));
    }
    overlays(&mut o, s);
    text_block(&mut o, "The tables", text, true);
    page(&format!("dbpress: experiment {}", s.name), &o)
}

/// An A/B's runs one by one: events per second over each run's time, and each run's latency
/// spectrum from its HDR histogram (one curve per run).
fn overlays(o: &mut String, s: &Experiment) {
    use super::svg::{Chart, XAxis};
    use crate::model::experiment::SPECTRUM;
    if s.overlays.is_empty() {
        return;
    }
    o.push_str("<h2>Run by run</h2>\n<p>Each run of a level on its own: its events per second over its time, and its event latency at each percentile (from the run's HDR histogram).</p>\n");
    let names: Vec<String> = SPECTRUM.iter().map(|(n, _)| n.to_string()).collect();
    for ov in &s.overlays {
        let rate_series = ov
            .runs
            .iter()
            .map(|r| Series {
                name: &r.label,
                points: super::svg::steps(r.rate.iter().map(|&(a, b, v)| (a, b, Some(v)))),
            })
            .collect();
        let at = format!(
            "{} at {} thread{}",
            ov.workload,
            ov.threads,
            if ov.threads == 1 { "" } else { "s" }
        );
        let title = format!("{at}: events per second, run by run");
        o.push_str(
            &Chart {
                title: &title,
                y_label: "events/s",
                x: XAxis::Time,
                series: rate_series,
                bands: vec![],
                whiskers: vec![],
                y_at_least: 0.0,
            }
            .render(),
        );
        let spectrum = ov
            .runs
            .iter()
            .map(|r| Series {
                name: &r.label,
                points: r
                    .spectrum
                    .iter()
                    .enumerate()
                    .map(|(i, v)| (i as f64, *v))
                    .collect(),
            })
            .collect();
        let title = format!("{at}: event latency by percentile, ms, run by run");
        o.push_str(
            &Chart {
                title: &title,
                y_label: "ms",
                x: XAxis::Categories(&names, "percentile"),
                series: spectrum,
                bands: vec![],
                whiskers: vec![],
                y_at_least: 0.0,
            }
            .render(),
        );
    }
}
