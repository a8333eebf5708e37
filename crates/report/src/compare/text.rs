//! `dbpress compare` as text: the runs, what differs between them, then one table per metric
//! with each run's figure per thread count and its ratio to the baseline's.

use super::model::{Cell, Comparison};
use std::fmt::Write;

/// A figure a table can show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Metric {
    Tps,
    Qps,
    P95,
    P99,
    Errors,
    Cpu,
    Written,
    Flushes,
    Net,
    Miss,
    Wait,
}

/// The metric names --metrics takes, for messages.
pub const METRIC_NAMES: &str = "tps, qps, p95, p99, err, cpu, written, flushes, net, miss or wait";

impl Metric {
    pub fn parse(s: &str) -> Option<Metric> {
        Some(match s {
            "tps" => Metric::Tps,
            "qps" => Metric::Qps,
            "p95" => Metric::P95,
            "p99" => Metric::P99,
            "err" => Metric::Errors,
            "cpu" => Metric::Cpu,
            "written" => Metric::Written,
            "flushes" => Metric::Flushes,
            "net" => Metric::Net,
            "miss" => Metric::Miss,
            "wait" => Metric::Wait,
            _ => return None,
        })
    }

    pub fn title(self) -> &'static str {
        match self {
            Metric::Tps => "TPS (higher is better)",
            Metric::Qps => "QPS (higher is better)",
            Metric::P95 => "p95 latency, ms (lower is better)",
            Metric::P99 => "p99 latency, ms (lower is better)",
            Metric::Errors => "ignored errors per second",
            Metric::Cpu => "server CPU per event, us (lower is better)",
            Metric::Written => "KiB written to the disk under the data per event",
            Metric::Flushes => "disk cache flushes per event",
            Metric::Net => "KiB through the sessions' network interface per event, both ways",
            Metric::Miss => "server cache misses, % of page requests (lower is better)",
            Metric::Wait => "most frequent server wait event of the run's sessions",
        }
    }

    /// (value, ratio to the baseline) of a cell.
    fn of(self, c: &Cell) -> (Option<f64>, Option<f64>) {
        let r = &c.vs_baseline;
        match self {
            Metric::Tps => (c.tps, r.tps),
            Metric::Qps => (c.qps, r.qps),
            Metric::P95 => (c.p95_ms, r.p95_ms),
            Metric::P99 => (c.p99_ms, r.p99_ms),
            // Mostly 0 in the baseline: a ratio would say nothing.
            Metric::Errors => (c.errors_per_s, None),
            Metric::Cpu => (c.server_cpu_us, r.server_cpu_us),
            Metric::Written => (c.disk_kib_per_event, r.disk_kib_per_event),
            Metric::Flushes => (c.disk_flushes_per_event, r.disk_flushes_per_event),
            Metric::Net => (c.net_kib_per_event, r.net_kib_per_event),
            // A share near 0 in the baseline: its ratio would say nothing.
            Metric::Miss => (c.cache_miss_pct, None),
            // Not a figure: the table shows the event (see `metric_table`).
            Metric::Wait => (None, None),
        }
    }

    /// The figure of a cell.
    pub fn value(self, c: &Cell) -> Option<f64> {
        self.of(c).0
    }

    /// [lowest, highest] of the figure over a group's runs.
    pub fn range(self, c: &Cell) -> Option<[f64; 2]> {
        let r = c.ranges.as_ref()?;
        match self {
            Metric::Tps => r.tps,
            Metric::Qps => r.qps,
            Metric::P95 => r.p95_ms,
            Metric::P99 => r.p99_ms,
            Metric::Errors => r.errors_per_s,
            Metric::Cpu => r.server_cpu_us,
            Metric::Written => r.disk_kib_per_event,
            Metric::Flushes => r.disk_flushes_per_event,
            Metric::Net => r.net_kib_per_event,
            Metric::Miss => r.cache_miss_pct,
            Metric::Wait => None,
        }
    }

    fn precision(self) -> usize {
        match self {
            Metric::P95 | Metric::P99 => 3,
            Metric::Cpu | Metric::Written | Metric::Net => 1,
            Metric::Flushes => 3,
            _ => 2,
        }
    }
}

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

/// A setting's value as a difference shows it.
pub fn setting(v: &Option<String>) -> String {
    match v.as_deref() {
        None => "(not recorded)".to_string(),
        Some("") => "(empty)".to_string(),
        Some(v) => v.to_string(),
    }
}

/// `2026-11-23 13:40 UTC` from Unix seconds (0: unknown).
pub fn utc(secs: u64) -> String {
    if secs == 0 {
        return "at an unknown time".into();
    }
    let days = (secs / 86_400) as i64;
    let (h, m) = ((secs % 86_400) / 3600, (secs % 3600) / 60);
    // Civil date from days since 1970-01-01 (proleptic Gregorian).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let mo = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(mo <= 2);
    format!("{y:04}-{mo:02}-{d:02} {h:02}:{m:02} UTC")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utc_dates_are_civil_dates() {
        assert_eq!(utc(0), "at an unknown time");
        assert_eq!(utc(951_782_400), "2000-02-29 00:00 UTC");
        assert_eq!(utc(1_795_440_797), "2026-11-23 13:33 UTC");
        assert_eq!(utc(4_107_542_399), "2100-02-28 23:59 UTC");
    }
}
