//! Figures written out the same way in the text and the Markdown tables: a comparison's metric
//! table (each result's figure, its spread and its ratio to the baseline's) and an experiment's
//! cells (median [range] ratio~). The renderers lay them out, each in its own way.

use crate::model::comparison::Comparison;
use crate::model::experiment::Stat;
use crate::model::metric::Metric;

/// One metric's table with its cells written out: what the text and the Markdown renderers lay
/// out, each in its own way.
pub struct MetricTable {
    pub title: &'static str,
    /// Whether every result but the baseline has a "vs base" column after its own.
    pub ratios: bool,
    /// Per thread count, each result's cell.
    pub rows: Vec<(u32, Vec<MetricCell>)>,
    /// What the ± and ~ marks mean, when some cell has them.
    pub footnote: Option<&'static str>,
}

/// A result's figure as written and, where the table has ratios, its ratio to the baseline's
/// (None for the baseline's own column).
pub type MetricCell = (String, Option<String>);

pub fn metric_table(c: &Comparison, m: Metric) -> MetricTable {
    // Groups of repeated runs show each median with its spread: ±half the range, in percent.
    let spread = c
        .rows
        .iter()
        .flat_map(|r| &r.cells)
        .any(|cell| cell.as_ref().is_some_and(|x| m.range(x).is_some()));
    let ratios = !matches!(m, Metric::Errors | Metric::Miss | Metric::Wait);
    let p = m.precision();
    let mut overlapped = false;
    let mut rows = Vec::new();
    for row in &c.rows {
        let base_range = row.cells[0].as_ref().and_then(|c| m.range(c));
        let mut cells = Vec::new();
        for (i, cell) in row.cells.iter().enumerate() {
            let (v, r) = cell.as_ref().map_or((None, None), |c| m.of(c));
            let range = cell.as_ref().and_then(|c| m.range(c));
            let wait = cell.as_ref().and_then(|c| c.top_wait.as_ref());
            let shown = match (v, range) {
                _ if m == Metric::Wait => wait.map_or("-".into(), |w| {
                    format!("{:.0}% {}", w.share * 100.0, w.event)
                }),
                (None, _) => "-".to_string(),
                (Some(v), Some([lo, hi])) if v > 0.0 => {
                    format!("{v:.p$} ±{:.0}%", 50.0 * (hi - lo) / v)
                }
                (Some(v), _) => format!("{v:.p$}"),
            };
            let ratio = (i > 0 && ratios).then(|| {
                // Both medians come with ranges that overlap: the difference is inside what
                // the runs themselves scatter by.
                let within = matches!((range, base_range), (Some([lo, hi]), Some([blo, bhi])) if lo <= bhi && blo <= hi);
                overlapped |= within && r.is_some();
                let mark = if within { "~" } else { "" };
                r.map_or("-".into(), |r| format!("{r:.3}{mark}"))
            });
            cells.push((shown, ratio));
        }
        rows.push((row.threads, cells));
    }
    let footnote = spread.then_some(if overlapped {
        "medians of the runs, ± half their range in percent of the median; ~: the ranges overlap, so the runs do not tell the two apart"
    } else {
        "medians of the runs, ± half their range in percent of the median"
    });
    MetricTable {
        title: m.title(),
        ratios,
        rows,
        footnote,
    }
}

/// A setting's value as a difference shows it.
pub fn setting(v: &Option<String>) -> String {
    match v.as_deref() {
        None => "(not recorded)".to_string(),
        Some("") => "(empty)".to_string(),
        Some(v) => v.to_string(),
    }
}

/// A figure with as many decimals as its size needs.
pub fn fig(v: f64) -> String {
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
pub fn stat_cell(s: &Option<Stat>, baseline: bool) -> String {
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

/// A ratio as a change in percent: `+3.5%`.
pub fn pct(r: f64) -> String {
    format!("{:+.1}%", (r - 1.0) * 100.0)
}
