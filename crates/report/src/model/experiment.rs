//! An experiment's tables, computed from its runs alone (the runs as stored: a report recomputed
//! from `dbpress results export` of each run gives the same figures).

use dbpress_result::RunResult;
use serde::Serialize;

/// What the report is made from: the plan's names and the stored runs, by position.
#[derive(Clone, Debug)]
pub struct ExperimentInput {
    pub name: String,
    pub description: String,
    pub targets: Vec<String>,
    pub settings: Vec<String>,
    /// What each settings set changes ("sync_binlog=1, innodb_flush_log_at_trx_commit=1").
    pub settings_about: Vec<String>,
    pub workloads: Vec<String>,
    /// Each workload's command, for the legend.
    pub workload_about: Vec<String>,
    pub threads: Vec<u32>,
    pub repeats: u32,
    /// Ratios are to the same cell of this target (Some) or of this settings set.
    pub baseline_target: Option<usize>,
    pub baseline_settings: Option<usize>,
    pub metrics: Vec<String>,
    /// The server status figures to show per cell (empty: every one sampled that moved).
    pub status: Vec<String>,
    pub runs: Vec<ExperimentRun>,
}

#[derive(Clone, Debug)]
pub struct ExperimentRun {
    pub id: i64,
    pub target: usize,
    pub settings: usize,
    pub workload: usize,
    pub threads: u32,
    pub repeat: u32,
    pub result: RunResult,
}

/// One (target, settings) column.
#[derive(Clone, Debug, Serialize)]
pub struct Column {
    pub target: String,
    pub settings: String,
    pub label: String,
    /// The column this one's ratios are taken against (itself for a baseline column).
    pub baseline: usize,
}

/// The repeats of one cell.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Stat {
    pub median: f64,
    pub min: f64,
    pub max: f64,
    pub runs: Vec<i64>,
    /// This cell's median over its baseline cell's.
    pub ratio: Option<f64>,
    /// The repeats' range overlaps the baseline's: the difference is within this machine's
    /// run-to-run noise.
    pub within_noise: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct Row {
    pub threads: u32,
    pub cells: Vec<Option<Stat>>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Table {
    pub workload: String,
    pub metric: String,
    pub title: String,
    pub higher_is_better: bool,
    pub rows: Vec<Row>,
}

/// The summary: per workload, each non-baseline column's throughput ratio at each level.
#[derive(Clone, Debug, Serialize)]
pub struct SummaryRow {
    pub workload: String,
    /// The throughput metric used (tpmc for TPC-C, tps otherwise).
    pub metric: String,
    /// [column][level]: the ratio to the baseline, and whether within noise.
    pub ratios: Vec<Vec<Option<(f64, bool)>>>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Experiment {
    pub name: String,
    pub description: String,
    pub settings_about: Vec<(String, String)>,
    pub workload_about: Vec<(String, String)>,
    pub baseline: String,
    pub repeats: u32,
    pub threads: Vec<u32>,
    pub columns: Vec<Column>,
    pub tables: Vec<Table>,
    /// Columns the summary shows (those that are not their own baseline).
    pub summary_columns: Vec<usize>,
    pub summary: Vec<SummaryRow>,
    /// Runs in the store for this experiment, measured.
    pub runs: usize,
    /// Per workload: the server's status figures per cell (the run's mean over its intervals,
    /// then the median of the repeats).
    pub status: Vec<StatusTable>,
    /// Per workload and level, each run's own curves, for an A/B's overlays (an experiment of at
    /// most four columns).
    pub overlays: Vec<Overlay>,
}

/// The latency percentiles of a spectrum, as the page names them.
pub const SPECTRUM: &[(&str, f64)] = &[
    ("p50", 50.0),
    ("p90", 90.0),
    ("p99", 99.0),
    ("p99.9", 99.9),
    ("p99.99", 99.99),
    ("max", 100.0),
];

#[derive(Clone, Debug, Serialize)]
pub struct Overlay {
    pub workload: String,
    pub threads: u32,
    pub runs: Vec<OverlayRun>,
}

#[derive(Clone, Debug, Serialize)]
pub struct OverlayRun {
    /// "old r2": the column and the repeat.
    pub label: String,
    /// (start, end, events per second) of each full interval, in seconds from the start of
    /// measurement.
    pub rate: Vec<(f64, f64, f64)>,
    /// Event latency in ms at each of `SPECTRUM`'s percentiles, from the run's HDR histogram.
    pub spectrum: Vec<Option<f64>>,
}

/// The overlays of an A/B: every run of each (workload, level), where the experiment has at most
/// four columns (more lines than that on one chart are not read).
fn overlays(input: &ExperimentInput, columns: &[Column]) -> Vec<Overlay> {
    if columns.len() > 4 {
        return Vec::new();
    }
    let ns = input.settings.len();
    let mut out = Vec::new();
    for (w, wname) in input.workloads.iter().enumerate() {
        for &threads in &input.threads {
            let mut runs: Vec<&ExperimentRun> = input
                .runs
                .iter()
                .filter(|r| r.workload == w && r.threads == threads)
                .collect();
            runs.sort_by_key(|r| (r.target * ns + r.settings, r.repeat));
            if runs.is_empty() {
                continue;
            }
            let runs = runs
                .iter()
                .map(|r| {
                    let unit = if r.result.histograms.unit == "us" {
                        1e-3
                    } else {
                        1.0
                    };
                    let h = crate::histogram::decode(&r.result.histograms.response);
                    OverlayRun {
                        label: format!(
                            "{} r{}",
                            columns[r.target * ns + r.settings].label,
                            r.repeat
                        ),
                        rate: r
                            .result
                            .intervals
                            .iter()
                            .filter(|i| !i.closing)
                            .map(|i| {
                                (
                                    i.time_s - i.duration_s,
                                    i.time_s,
                                    i.events as f64 / i.duration_s.max(1e-9),
                                )
                            })
                            .collect(),
                        spectrum: SPECTRUM
                            .iter()
                            .map(|(_, q)| {
                                let h = h.as_ref().filter(|h| !h.is_empty())?;
                                let v = if *q >= 100.0 {
                                    h.max()
                                } else {
                                    h.value_at_quantile(q / 100.0)
                                };
                                Some(v as f64 * unit)
                            })
                            .collect(),
                    }
                })
                .collect();
            out.push(Overlay {
                workload: wname.clone(),
                threads,
                runs,
            });
        }
    }
    out
}

#[derive(Clone, Debug, Serialize)]
pub struct StatusTable {
    pub workload: String,
    /// (figure, as shown: `Slow_queries/s` for a counter), threads, a value per column.
    pub rows: Vec<(String, u32, Vec<Option<f64>>)>,
}

/// A run's mean of one status figure over its full intervals, and its shown name.
fn status_mean(r: &RunResult, name: &str) -> Option<(f64, String)> {
    let st = r.server_status.as_ref()?;
    let item = st.items.iter().find(|i| i.name == name)?;
    let values: Vec<f64> = r
        .intervals
        .iter()
        .filter(|i| !i.closing)
        .filter_map(|i| i.server_status.as_ref()?.get(name).copied())
        .collect();
    if values.is_empty() {
        return None;
    }
    let shown = match item.kind {
        dbpress_result::status::StatusKind::Gauge => name.to_string(),
        dbpress_result::status::StatusKind::Counter => format!("{name}/s"),
    };
    Some((values.iter().sum::<f64>() / values.len() as f64, shown))
}

/// A metric's value in a run, if the run has it.
pub fn value(r: &RunResult, metric: &str) -> Option<f64> {
    let s = &r.summary;
    match metric {
        "tps" => Some(s.tps),
        "qps" => Some(s.qps),
        "p95" => Some(s.latency.p95_ms),
        "p99" => Some(s.latency.p99_ms),
        "avg" => Some(s.latency.avg_ms),
        "tpmc" => r.tpcc.as_ref().map(|t| t.tpmc as f64),
        "errors" => Some(s.errors as f64 / s.total_time_s.max(1e-9)),
        _ => None,
    }
}

pub fn title_of(metric: &str) -> &'static str {
    match metric {
        "tps" => "TPS (higher is better)",
        "qps" => "QPS (higher is better)",
        "p95" => "p95 latency, ms (lower is better)",
        "p99" => "p99 latency, ms (lower is better)",
        "avg" => "average latency, ms (lower is better)",
        "tpmc" => "tpmC (higher is better)",
        "errors" => "errors per second (lower is better)",
        _ => "",
    }
}

fn higher_is_better(metric: &str) -> bool {
    matches!(metric, "tps" | "qps" | "tpmc")
}

/// The median of `v` (not empty): the middle value, or the mean of the two middle ones.
pub fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

pub fn experiment(input: &ExperimentInput) -> Experiment {
    let (nt, ns) = (input.targets.len(), input.settings.len());
    let label = |t: usize, s: usize| match (nt, ns) {
        (_, 1) => input.targets[t].clone(),
        (1, _) => input.settings[s].clone(),
        _ => format!("{} · {}", input.targets[t], input.settings[s]),
    };
    let index = |t: usize, s: usize| t * ns + s;
    let mut columns = Vec::new();
    for t in 0..nt {
        for s in 0..ns {
            let (bt, bs) = (
                input.baseline_target.unwrap_or(t),
                input.baseline_settings.unwrap_or(s),
            );
            columns.push(Column {
                target: input.targets[t].clone(),
                settings: input.settings[s].clone(),
                label: label(t, s),
                baseline: index(bt, bs),
            });
        }
    }
    // Every cell's runs: [workload][level][column] → (ids, results).
    let stat_of =
        |w: usize, threads: u32, col: usize, metric: &str| -> Option<(Vec<f64>, Vec<i64>)> {
            let (t, s) = (col / ns, col % ns);
            let mut values = Vec::new();
            let mut ids = Vec::new();
            for r in input.runs.iter().filter(|r| {
                r.workload == w && r.threads == threads && r.target == t && r.settings == s
            }) {
                if let Some(v) = value(&r.result, metric) {
                    values.push(v);
                    ids.push(r.id);
                }
            }
            (!values.is_empty()).then_some((values, ids))
        };
    let stats = |w: usize, threads: u32, metric: &str| -> Vec<Option<Stat>> {
        let raw: Vec<Option<Stat>> = (0..columns.len())
            .map(|c| {
                let (mut v, ids) = stat_of(w, threads, c, metric)?;
                let min = v.iter().copied().fold(f64::INFINITY, f64::min);
                let max = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                Some(Stat {
                    median: median(&mut v),
                    min,
                    max,
                    runs: ids,
                    ratio: None,
                    within_noise: false,
                })
            })
            .collect();
        raw.iter()
            .enumerate()
            .map(|(c, s)| {
                let mut s = s.clone()?;
                if let Some(b) = &raw[columns[c].baseline] {
                    if b.median != 0.0 {
                        s.ratio = Some(s.median / b.median);
                    }
                    s.within_noise = s.min <= b.max && b.min <= s.max;
                }
                Some(s)
            })
            .collect()
    };
    let mut tables = Vec::new();
    for (w, wname) in input.workloads.iter().enumerate() {
        for metric in &input.metrics {
            let rows: Vec<Row> = input
                .threads
                .iter()
                .map(|&t| Row {
                    threads: t,
                    cells: stats(w, t, metric),
                })
                .collect();
            if rows.iter().all(|r| r.cells.iter().all(Option::is_none)) {
                continue; // e.g. tpmC of a workload that is not TPC-C
            }
            tables.push(Table {
                workload: wname.clone(),
                metric: metric.clone(),
                title: title_of(metric).to_string(),
                higher_is_better: higher_is_better(metric),
                rows,
            });
        }
    }
    let summary_columns: Vec<usize> = (0..columns.len())
        .filter(|&c| columns[c].baseline != c)
        .collect();
    let summary = input
        .workloads
        .iter()
        .enumerate()
        .map(|(w, wname)| {
            let metric = if input
                .runs
                .iter()
                .any(|r| r.workload == w && r.result.tpcc.is_some())
            {
                "tpmc"
            } else {
                "tps"
            };
            let per_level: Vec<Vec<Option<Stat>>> =
                input.threads.iter().map(|&t| stats(w, t, metric)).collect();
            SummaryRow {
                workload: wname.clone(),
                metric: metric.into(),
                ratios: summary_columns
                    .iter()
                    .map(|&c| {
                        per_level
                            .iter()
                            .map(|cells| {
                                cells[c]
                                    .as_ref()
                                    .and_then(|s| Some((s.ratio?, s.within_noise)))
                            })
                            .collect()
                    })
                    .collect(),
            }
        })
        .collect();
    let baseline = match (input.baseline_target, input.baseline_settings) {
        (Some(t), _) => format!("target {}", input.targets[t]),
        (None, Some(s)) => format!("settings {}", input.settings[s]),
        (None, None) => "none".into(),
    };
    let status = status_tables(input, &columns);
    let overlays = overlays(input, &columns);
    Experiment {
        overlays,
        status,
        name: input.name.clone(),
        description: input.description.clone(),
        settings_about: input
            .settings
            .iter()
            .cloned()
            .zip(input.settings_about.iter().cloned())
            .collect(),
        workload_about: input
            .workloads
            .iter()
            .cloned()
            .zip(input.workload_about.iter().cloned())
            .collect(),
        baseline,
        repeats: input.repeats,
        threads: input.threads.clone(),
        columns,
        tables,
        summary_columns,
        summary,
        runs: input.runs.len(),
    }
}

/// Per workload, the status figures of each cell: the figures the plan names, or every one
/// the runs sampled that was not zero throughout.
fn status_tables(input: &ExperimentInput, columns: &[Column]) -> Vec<StatusTable> {
    let ns = input.settings.len();
    let mut out = Vec::new();
    for (w, wname) in input.workloads.iter().enumerate() {
        let runs: Vec<&ExperimentRun> = input.runs.iter().filter(|r| r.workload == w).collect();
        let mut names: Vec<String> = Vec::new();
        if input.status.is_empty() {
            for r in &runs {
                for item in r.result.server_status.iter().flat_map(|s| &s.items) {
                    let moved = status_mean(&r.result, &item.name).is_some_and(|(m, _)| m != 0.0);
                    if moved && !names.contains(&item.name) {
                        names.push(item.name.clone());
                    }
                }
            }
        } else {
            names = input.status.clone();
        }
        let mut rows = Vec::new();
        for name in &names {
            for &threads in &input.threads {
                let mut shown = name.clone();
                let cells: Vec<Option<f64>> = (0..columns.len())
                    .map(|c| {
                        let (t, s) = (c / ns, c % ns);
                        let mut v: Vec<f64> = runs
                            .iter()
                            .filter(|r| r.threads == threads && r.target == t && r.settings == s)
                            .filter_map(|r| {
                                let (m, n) = status_mean(&r.result, name)?;
                                shown = n;
                                Some(m)
                            })
                            .collect();
                        (!v.is_empty()).then(|| median(&mut v))
                    })
                    .collect();
                if cells.iter().any(Option::is_some) {
                    rows.push((shown, threads, cells));
                }
            }
        }
        if !rows.is_empty() {
            out.push(StatusTable {
                workload: wname.clone(),
                rows,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians_of_odd_and_even_counts() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 2.0, 3.0]), 2.5);
        assert_eq!(median(&mut [7.0]), 7.0);
    }
}
