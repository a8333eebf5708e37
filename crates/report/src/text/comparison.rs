//! `dbpress compare` as text: the runs, what differs between them, then one table per metric
//! with each run's figure per thread count and its ratio to the baseline's.

use crate::cells::{metric_table, setting};
use crate::dates::utc;
use crate::model::comparison::Comparison;
use crate::model::metric::Metric;
use std::fmt::Write;

pub fn render(c: &Comparison, metrics: &[Metric]) -> String {
    let mut o = String::new();
    let lw = c
        .runs
        .iter()
        .map(|r| r.label.chars().count())
        .max()
        .unwrap_or(0);
    let _ = writeln!(
        o,
        "Comparison of {} results (baseline: {}):",
        c.runs.len(),
        c.runs[0].label
    );
    for r in &c.runs {
        let levels: Vec<String> = r.levels.iter().map(u32::to_string).collect();
        let _ = writeln!(
            o,
            "    {:<lw$}  {} on {}, started {}, threads {}  ({})",
            r.label,
            r.workload,
            if r.server.is_empty() { "?" } else { &r.server },
            utc(r.started_at_unix_s),
            levels.join(","),
            if r.files.is_empty() {
                r.file.clone()
            } else {
                format!("{} runs: {}", r.files.len(), r.files.join(", "))
            }
        );
    }
    let _ = writeln!(o);
    if c.differences.is_empty() {
        let _ = writeln!(
            o,
            "Nothing differs from the baseline besides the figures: same workload, options, server, settings and host.\n"
        );
    } else {
        let _ = writeln!(o, "What differs from the baseline besides the figures:");
        for d in &c.differences {
            if d.baseline.is_none() && d.value.is_none() {
                let _ = writeln!(o, "    {:<lw$}  {}", d.run, d.what);
                continue;
            }
            let _ = writeln!(
                o,
                "    {:<lw$}  {}: {} → {}",
                d.run,
                d.what,
                setting(&d.baseline),
                setting(&d.value)
            );
        }
        let _ = writeln!(o);
    }
    for &m in metrics {
        table(&mut o, c, m);
    }
    let notes: Vec<String> = c
        .rows
        .iter()
        .flat_map(|row| {
            row.cells
                .iter()
                .zip(&c.runs)
                .filter_map(move |(cell, run)| {
                    let note = cell.as_ref()?.note.as_ref()?;
                    Some(format!(
                        "    {}, {} threads: {note}",
                        run.label, row.threads
                    ))
                })
        })
        .collect();
    if !notes.is_empty() {
        let _ = writeln!(o, "Notes:");
        for n in notes {
            let _ = writeln!(o, "{n}");
        }
        let _ = writeln!(o);
    }
    o
}

fn table(o: &mut String, c: &Comparison, m: Metric) {
    let t = metric_table(c, m);
    let w = c
        .runs
        .iter()
        .map(|r| r.label.chars().count())
        .chain(
            // A cell as wide as its column would touch its neighbour (an event name's words).
            t.rows
                .iter()
                .flat_map(|(_, cells)| cells.iter().map(|c| c.0.chars().count() + 1)),
        )
        .fold(if t.footnote.is_some() { 18 } else { 12 }, usize::max);
    let _ = writeln!(o, "{}:", t.title);
    let mut head = format!("    {:>7}", "threads");
    for (i, r) in c.runs.iter().enumerate() {
        let _ = write!(head, " {:>w$}", r.label);
        if i > 0 && t.ratios {
            let _ = write!(head, " {:>8}", "vs base");
        }
    }
    let _ = writeln!(o, "{}", head.trim_end());
    for (threads, cells) in &t.rows {
        let mut line = format!("    {threads:>7}");
        for (shown, ratio) in cells {
            let _ = write!(line, " {shown:>w$}");
            if let Some(r) = ratio {
                let _ = write!(line, " {r:>8}");
            }
        }
        let _ = writeln!(o, "{}", line.trim_end());
    }
    if let Some(f) = t.footnote {
        let _ = writeln!(o, "    ({f})");
    }
    let _ = writeln!(o);
}
