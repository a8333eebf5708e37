//! An experiment's report as text (aligned columns): per workload and metric, thread levels
//! against (target, settings) columns; the server's status per cell; the summary.

use crate::cells::{fig, pct, stat_cell as cell};
use crate::model::experiment::{Experiment, StatusTable, Table};
use std::fmt::Write;

fn legend(s: &Experiment) -> String {
    let mut o = String::new();
    for (name, about) in &s.settings_about {
        let _ = writeln!(o, "    settings {name}: {about}");
    }
    for (name, about) in &s.workload_about {
        let _ = writeln!(o, "    workload {name}: {about}");
    }
    o
}

fn table_text(s: &Experiment, t: &Table) -> String {
    let cells: Vec<Vec<String>> = t
        .rows
        .iter()
        .map(|r| {
            r.cells
                .iter()
                .enumerate()
                .map(|(c, x)| cell(x, s.columns[c].baseline == c))
                .collect()
        })
        .collect();
    let widths: Vec<usize> = (0..s.columns.len())
        .map(|c| {
            cells
                .iter()
                .map(|r| r[c].chars().count())
                .chain([s.columns[c].label.chars().count()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut o = String::new();
    let _ = write!(o, "    {:>7}", "threads");
    for (c, col) in s.columns.iter().enumerate() {
        let _ = write!(o, "  {:>w$}", col.label, w = widths[c]);
    }
    o.push('\n');
    for (r, row) in t.rows.iter().enumerate() {
        let _ = write!(o, "    {:>7}", row.threads);
        for (c, w) in widths.iter().enumerate() {
            let _ = write!(o, "  {:>w$}", cells[r][c]);
        }
        o.push('\n');
    }
    o
}

/// A workload's server status per cell: each figure's mean over a run, the median of the
/// repeats.
fn status_text(s: &Experiment, t: &StatusTable) -> String {
    let cells: Vec<Vec<String>> = t
        .rows
        .iter()
        .map(|(_, _, v)| v.iter().map(|x| x.map_or("-".into(), fig)).collect())
        .collect();
    let name_w = t
        .rows
        .iter()
        .map(|(n, _, _)| n.len())
        .max()
        .unwrap_or(6)
        .max(6);
    let widths: Vec<usize> = (0..s.columns.len())
        .map(|c| {
            cells
                .iter()
                .map(|r| r[c].len())
                .chain([s.columns[c].label.chars().count()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut o = format!(
        "{} — the server's status per cell (mean over the run; median of the repeats)\n",
        t.workload
    );
    let _ = write!(o, "    {:<name_w$} {:>7}", "figure", "threads");
    for (c, col) in s.columns.iter().enumerate() {
        let _ = write!(o, "  {:>w$}", col.label, w = widths[c]);
    }
    o.push('\n');
    for (r, (name, threads, _)) in t.rows.iter().enumerate() {
        let _ = write!(o, "    {name:<name_w$} {threads:>7}");
        for (c, w) in widths.iter().enumerate() {
            let _ = write!(o, "  {:>w$}", cells[r][c]);
        }
        o.push('\n');
    }
    o.push('\n');
    o
}

/// The report as text.
pub fn render(s: &Experiment) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "Experiment {}: {} measured runs", s.name, s.runs);
    if !s.description.is_empty() {
        let _ = writeln!(o, "{}", s.description);
    }
    o.push_str(&legend(s));
    let _ = writeln!(
        o,
        "Cells: the median of up to {} repeat(s) [lowest–highest], then the ratio to the baseline ({}); ~ marks a difference within the repeats' spread (the ranges overlap: this machine's noise).\n",
        s.repeats, s.baseline
    );
    for t in &s.tables {
        let _ = writeln!(o, "{} — {}", t.workload, t.title);
        o.push_str(&table_text(s, t));
        o.push('\n');
    }
    for t in &s.status {
        o.push_str(&status_text(s, t));
    }
    if !s.summary_columns.is_empty() {
        let _ = writeln!(
            o,
            "Summary: throughput relative to {} (tpmC for TPC-C, TPS otherwise), per thread level",
            s.baseline
        );
        let mut head = vec!["workload".to_string()];
        for &c in &s.summary_columns {
            for t in &s.threads {
                head.push(format!("{} {t}t", s.columns[c].label));
            }
        }
        let rows: Vec<Vec<String>> = s
            .summary
            .iter()
            .map(|row| {
                let mut cells = vec![row.workload.clone()];
                for per_level in &row.ratios {
                    for r in per_level {
                        cells.push(match r {
                            Some((r, noise)) => {
                                format!("{}{}", pct(*r), if *noise { "~" } else { "" })
                            }
                            None => "-".into(),
                        });
                    }
                }
                cells
            })
            .collect();
        // Each column as wide as its widest cell; the workloads line up left, the figures right.
        let widths: Vec<usize> = (0..head.len())
            .map(|c| {
                rows.iter()
                    .map(|r| r[c].chars().count())
                    .chain([head[c].chars().count()])
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        for line in std::iter::once(&head).chain(&rows) {
            let _ = write!(o, "    {:<w$}", line[0], w = widths[0]);
            for (c, w) in line.iter().zip(&widths).skip(1) {
                let _ = write!(o, "  {c:>w$}");
            }
            o.push('\n');
        }
    }
    o
}
