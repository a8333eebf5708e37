//! A comparison's page: one line per result on each chart against threads (a group's median
//! with its range as a bar), each legend naming what set the result apart, then the tables.

use super::frame::{levels_chart, page, text_block};
use super::svg::{Series, Whisker};
use crate::model::comparison::{Cell, Comparison, ComparisonRow};
use crate::model::metric::Metric;

/// Run `k`'s cell of a comparison row.
fn cell(row: &ComparisonRow, k: usize) -> Option<&Cell> {
    row.cells.get(k)?.as_ref()
}

/// A comparison: one line per result on each chart, what differed, and the tables.
pub fn compare_page(c: &Comparison, text: &str) -> String {
    let mut o = String::new();
    let names: Vec<String> = c.rows.iter().map(|r| r.threads.to_string()).collect();
    let mut charts = vec![
        ("QPS", "QPS", Metric::Qps),
        ("TPS", "TPS", Metric::Tps),
        ("p95 latency, ms", "ms", Metric::P95),
        ("p99 latency, ms", "ms", Metric::P99),
    ];
    // The costs per event where some result measured them.
    for (title, y, m) in [
        ("server CPU per event, us", "us", Metric::Cpu),
        ("KiB written to the disk per event", "KiB", Metric::Written),
        ("disk cache flushes per event", "flushes", Metric::Flushes),
        ("network KiB per event, both ways", "KiB", Metric::Net),
    ] {
        if c.rows
            .iter()
            .flat_map(|r| &r.cells)
            .any(|cell| cell.as_ref().and_then(|x| m.value(x)).is_some())
        {
            charts.push((title, y, m));
        }
    }
    o.push_str("<h2>Against threads</h2>\n");
    let legends = legend_names(c);
    let grouped = c.runs.iter().any(|r| r.files.len() > 1);
    if grouped {
        o.push_str("<p>A point is the median of a group's runs; its bar spans their lowest and highest.</p>\n");
    }
    for (title, y, m) in charts {
        let series = c
            .runs
            .iter()
            .enumerate()
            .map(|(k, _)| Series {
                name: &legends[k],
                points: c
                    .rows
                    .iter()
                    .enumerate()
                    .map(|(i, row)| (i as f64, cell(row, k).and_then(|x| m.value(x))))
                    .collect(),
            })
            .collect();
        let whiskers = c
            .rows
            .iter()
            .enumerate()
            .flat_map(|(i, row)| {
                (0..c.runs.len()).filter_map(move |k| {
                    let [lo, hi] = m.range(cell(row, k)?)?;
                    Some(Whisker {
                        series: k,
                        x: i as f64,
                        lo,
                        hi,
                    })
                })
            })
            .collect();
        o.push_str(&levels_chart(title, y, &names, series, 0.0, whiskers));
    }
    text_block(&mut o, "The comparison", text, true);
    page(&format!("dbpress: {} results compared", c.runs.len()), &o)
}

/// Each result's legend: its label and what set it apart from the others (`b:
/// synchronous_commit=off`), not the file name alone; the baseline with its own values of what
/// the others changed.
fn legend_names(c: &Comparison) -> Vec<String> {
    let short = |what: &str| -> Option<String> {
        what.strip_prefix("server variable ")
            .or_else(|| what.strip_prefix("option --"))
            .map(String::from)
            .or_else(|| (what == "workload" || what == "server").then(|| what.to_string()))
    };
    let shown = |v: &Option<String>| v.clone().unwrap_or_else(|| "-".into());
    let mut names: Vec<String> = Vec::with_capacity(c.runs.len());
    let mut base_keys: Vec<(String, String)> = Vec::new();
    for run in c.runs.iter().skip(1) {
        let parts: Vec<String> = c
            .differences
            .iter()
            .filter(|d| d.run == run.label)
            .filter_map(|d| {
                let k = short(&d.what)?;
                if !base_keys.iter().any(|(bk, _)| bk == &k) {
                    base_keys.push((k.clone(), shown(&d.baseline)));
                }
                Some(format!("{k}={}", shown(&d.value)))
            })
            .take(3)
            .collect();
        names.push(if parts.is_empty() {
            run.label.clone()
        } else {
            format!("{}: {}", run.label, parts.join(", "))
        });
    }
    let base = &c.runs[0].label;
    let base_parts: Vec<String> = base_keys
        .iter()
        .take(3)
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    names.insert(
        0,
        if base_parts.is_empty() {
            base.clone()
        } else {
            format!("{base}: {}", base_parts.join(", "))
        },
    );
    names
}
