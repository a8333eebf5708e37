//! A study's tables as text (aligned columns), Markdown (for a wiki or a ticket) and CSV (one
//! row per figure, for a spreadsheet or a script that checks the report against the store).

use super::model::{Stat, Study, Table};
use crate::table::Table as Plain;
use std::fmt::Write;

fn fig(v: f64) -> String {
    if v.abs() >= 100.0 {
        format!("{v:.1}")
    } else if v.abs() >= 1.0 {
        format!("{v:.2}")
    } else {
        format!("{v:.3}")
    }
}

/// "1234.5 [1200.1–1260.3] 1.02~": median, the repeats' range, the ratio to the baseline and
/// `~` where the ranges overlap (within noise).
fn cell(s: &Option<Stat>, baseline: bool) -> String {
    match s {
        None => "-".into(),
        Some(s) => {
            let range = if s.runs.len() > 1 {
                format!(" [{}–{}]", fig(s.min), fig(s.max))
            } else {
                String::new()
            };
            let ratio = match (s.ratio, baseline) {
                (_, true) => String::new(),
                (Some(r), false) => format!(" {r:.2}{}", if s.within_noise { "~" } else { "" }),
                (None, false) => String::new(),
            };
            format!("{}{range}{ratio}", fig(s.median))
        }
    }
}

fn pct(r: f64) -> String {
    format!("{:+.1}%", (r - 1.0) * 100.0)
}

fn legend(s: &Study) -> String {
    let mut o = String::new();
    for (name, about) in &s.settings_about {
        let _ = writeln!(o, "    settings {name}: {about}");
    }
    for (name, about) in &s.workload_about {
        let _ = writeln!(o, "    workload {name}: {about}");
    }
    o
}

fn table_text(s: &Study, t: &Table) -> String {
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
fn status_text(s: &Study, t: &super::model::StatusTable) -> String {
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
pub fn render(s: &Study) -> String {
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

/// The report as Markdown: each table with its title, then the summary.
pub fn markdown(s: &Study) -> String {
    let mut o = format!("# Experiment {}\n\n", s.name);
    if !s.description.is_empty() {
        let _ = writeln!(o, "{}\n", s.description);
    }
    for (name, about) in &s.settings_about {
        let _ = writeln!(o, "- settings **{name}**: {about}");
    }
    for (name, about) in &s.workload_about {
        let _ = writeln!(o, "- workload **{name}**: `{about}`");
    }
    let _ = writeln!(
        o,
        "\nCells: median of up to {} repeat(s) [lowest–highest], ratio to the baseline ({}); ~ = within the repeats' spread.\n",
        s.repeats, s.baseline
    );
    for t in &s.tables {
        let _ = writeln!(o, "## {} — {}\n", t.workload, t.title);
        let mut head = vec!["threads".to_string()];
        head.extend(s.columns.iter().map(|c| c.label.clone()));
        let mut table = Plain::new(&head);
        for row in &t.rows {
            let mut cells = vec![row.threads.to_string()];
            cells.extend(
                row.cells
                    .iter()
                    .enumerate()
                    .map(|(c, x)| cell(x, s.columns[c].baseline == c)),
            );
            table.row(cells);
        }
        o.push_str(&table.markdown());
        o.push('\n');
    }
    for t in &s.status {
        let _ = writeln!(
            o,
            "## {} — the server's status per cell (mean over the run; median of the repeats)\n",
            t.workload
        );
        let mut head = vec!["figure".to_string(), "threads".to_string()];
        head.extend(s.columns.iter().map(|c| c.label.clone()));
        let mut table = Plain::new(&head);
        for (name, threads, values) in &t.rows {
            let mut cells = vec![name.clone(), threads.to_string()];
            cells.extend(values.iter().map(|v| v.map_or(String::new(), fig)));
            table.row(cells);
        }
        o.push_str(&table.markdown());
        o.push('\n');
    }
    if !s.summary_columns.is_empty() {
        let _ = writeln!(o, "## Summary: throughput relative to {}\n", s.baseline);
        let mut head = vec!["workload".to_string()];
        for &c in &s.summary_columns {
            for t in &s.threads {
                head.push(format!("{} {t}t", s.columns[c].label));
            }
        }
        let mut table = Plain::new(&head);
        for row in &s.summary {
            let mut cells = vec![row.workload.clone()];
            for per_level in &row.ratios {
                cells.extend(per_level.iter().map(|r| match r {
                    Some((r, noise)) => format!("{}{}", pct(*r), if *noise { "~" } else { "" }),
                    None => String::new(),
                }));
            }
            table.row(cells);
        }
        o.push_str(&table.markdown());
    }
    o
}

/// One row per (workload, metric, threads, column): the figures the tables show, unrounded.
pub fn csv(s: &Study) -> String {
    let mut table = Plain::new(&[
        "workload",
        "metric",
        "threads",
        "target",
        "settings",
        "runs",
        "median",
        "min",
        "max",
        "ratio",
        "within_noise",
        "run_ids",
    ]);
    for t in &s.tables {
        for row in &t.rows {
            for (c, x) in row.cells.iter().enumerate() {
                let Some(x) = x else { continue };
                let ids: Vec<String> = x.runs.iter().map(i64::to_string).collect();
                table.row(vec![
                    t.workload.clone(),
                    t.metric.clone(),
                    row.threads.to_string(),
                    s.columns[c].target.clone(),
                    s.columns[c].settings.clone(),
                    x.runs.len().to_string(),
                    x.median.to_string(),
                    x.min.to_string(),
                    x.max.to_string(),
                    x.ratio.map(|r| r.to_string()).unwrap_or_default(),
                    u8::from(x.within_noise).to_string(),
                    ids.join(" "),
                ]);
            }
        }
    }
    table.csv()
}
