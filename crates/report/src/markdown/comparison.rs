//! A comparison as Markdown: the results, what differed besides the figures, then a table per
//! metric with each result's figure and its ratio to the baseline's.

use crate::cells::{metric_table, setting};
use crate::dates::utc;
use crate::model::comparison::Comparison;
use crate::model::metric::Metric;
use crate::table::{Align, Table};
use std::fmt::Write;

/// A comparison: the results, what differed besides the figures, then a table per metric with
/// each result's figure and its ratio to the baseline's.
pub fn render(c: &Comparison, metrics: &[Metric]) -> String {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "### dbpress comparison of {} results (baseline: {})\n",
        c.runs.len(),
        c.runs[0].label
    );
    let mut runs = Table::new(&[
        "result", "workload", "server", "started", "threads", "files",
    ])
    .align(1, Align::Left)
    .align(2, Align::Left)
    .align(3, Align::Left)
    .align(5, Align::Left);
    for r in &c.runs {
        let levels: Vec<String> = r.levels.iter().map(u32::to_string).collect();
        let files = if r.files.is_empty() {
            vec![r.file.clone()]
        } else {
            r.files.clone()
        };
        runs.row(vec![
            r.label.clone(),
            r.workload.clone(),
            r.server.clone(),
            utc(r.started_at_unix_s),
            levels.join(","),
            files.join(", "),
        ]);
    }
    o.push_str(&runs.markdown());
    o.push('\n');
    if c.differences.is_empty() {
        o.push_str("Nothing differs from the baseline besides the figures: same workload, options, server, settings and host.\n\n");
    } else {
        o.push_str("What differs from the baseline besides the figures:\n\n");
        let mut d = Table::new(&["result", "what", "baseline", "value"])
            .align(1, Align::Left)
            .align(2, Align::Left)
            .align(3, Align::Left);
        for x in &c.differences {
            let recorded = x.baseline.is_some() || x.value.is_some();
            let (base, value) = if recorded {
                (setting(&x.baseline), setting(&x.value))
            } else {
                (String::new(), String::new())
            };
            d.row(vec![x.run.clone(), x.what.clone(), base, value]);
        }
        o.push_str(&d.markdown());
        o.push('\n');
    }
    for &m in metrics {
        let mt = metric_table(c, m);
        let mut head = vec!["threads".to_string()];
        for (i, r) in c.runs.iter().enumerate() {
            head.push(r.label.clone());
            if i > 0 && mt.ratios {
                head.push("vs base".into());
            }
        }
        let mut t = Table::new(&head).align(0, Align::Right);
        for (threads, cells) in &mt.rows {
            let mut row = vec![threads.to_string()];
            for (shown, ratio) in cells {
                row.push(shown.clone());
                row.extend(ratio.clone());
            }
            t.row(row);
        }
        let _ = writeln!(o, "**{}**\n", mt.title);
        o.push_str(&t.markdown());
        if let Some(f) = mt.footnote {
            let _ = writeln!(o, "\n_{f}_");
        }
        o.push('\n');
    }
    o
}
