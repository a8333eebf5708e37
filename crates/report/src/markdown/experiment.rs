//! An experiment's report as Markdown, for a wiki or a ticket: each table with its title, then
//! the summary.

use crate::cells::{fig, pct, stat_cell as cell};
use crate::model::experiment::Experiment;
use crate::table::Table as Plain;
use std::fmt::Write;

/// The report as Markdown: each table with its title, then the summary.
pub fn render(s: &Experiment) -> String {
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
