//! What `dbpress compare` puts side by side: each result's figures per thread count, their
//! ratios to the first result (the baseline), and what differs between the runs besides.
//!
//! A comparison is only as honest as its runs are alike: "8.0 is 12% slower" means nothing if
//! the two runs also differed in table size or buffer pool. So everything a result records about
//! how it ran (workload, options, server version and settings, host) is compared with the
//! baseline's and every difference is listed, the intended one and the forgotten ones alike.

use crate::document::Document;
use dbpress_result::sweep::{Row, Step};
use dbpress_result::{RunResult, Tool, SCHEMA_VERSION};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Comparison {
    pub schema_version: u32,
    /// Always "comparison".
    pub kind: String,
    pub tool: Tool,
    /// The results in the order given; the first is the baseline.
    pub runs: Vec<Run>,
    /// How each later run differs from the baseline, besides its figures.
    pub differences: Vec<Difference>,
    /// One row per thread count found in any result, ascending.
    pub rows: Vec<ComparisonRow>,
}

/// One column of the comparison: a result file, or several runs of the same thing
/// (`NAME=a.json,b.json,c.json`), whose figures are then the median with their range.
pub struct Group {
    /// The name given before `=`, or None for a single file named after itself.
    pub label: Option<String>,
    /// (file name, document), in the order given.
    pub docs: Vec<(String, Document)>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Run {
    /// The (first) file.
    pub file: String,
    /// Every file of a group of repeated runs, the first included; absent for one file.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<String>,
    /// The file's name without `.json` (the path when two names clash): the column heading.
    pub label: String,
    pub workload: String,
    /// "MariaDB 10.11.19-MariaDB-0+deb12u1", "PostgreSQL 15.18 …", "dry-run".
    pub server: String,
    pub started_at_unix_s: u64,
    /// Thread counts it ran, in its own order.
    pub levels: Vec<u32>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Difference {
    /// Label of the run that differs from the baseline.
    pub run: String,
    /// "workload", "server", "server variable sync_binlog", "option --table-size", "host"…
    pub what: String,
    /// None where the baseline does not record it (a setting of another engine).
    pub baseline: Option<String>,
    pub value: Option<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ComparisonRow {
    pub threads: u32,
    /// One per run, in the order of `runs`; None where that run has no such level.
    pub cells: Vec<Option<Cell>>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Cell {
    /// The level's figures as the run's own sweep table gives them (None where it did not run).
    pub tps: Option<f64>,
    pub qps: Option<f64>,
    pub p95_ms: Option<f64>,
    pub p99_ms: Option<f64>,
    pub errors_per_s: Option<f64>,
    /// The server's CPU time per event, microseconds (where its process was measured).
    #[serde(default)]
    pub server_cpu_us: Option<f64>,
    /// KiB written to the disk under the data per event, and its cache flushes per event
    /// (where the disk was measured).
    #[serde(default)]
    pub disk_kib_per_event: Option<f64>,
    #[serde(default)]
    pub disk_flushes_per_event: Option<f64>,
    /// KiB through the sessions' network interface per event, both ways (where measured).
    #[serde(default)]
    pub net_kib_per_event: Option<f64>,
    /// Share of the server cache's page requests it missed, percent (where its counters were
    /// read).
    #[serde(default)]
    pub cache_miss_pct: Option<f64>,
    /// The server's most frequent wait event at this level (of the first run of a group).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub top_wait: Option<dbpress_result::waits::WaitShare>,
    /// Why the level ran short or not at all, or the error that stopped it.
    pub note: Option<String>,
    /// Runs behind the figures: 1, or a group's runs at this level (the figures are then
    /// their medians).
    #[serde(default = "one")]
    pub runs: u32,
    /// With several runs: each figure's lowest and highest value, the spread to read a ratio
    /// against.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ranges: Option<Ranges>,
    /// Each figure divided by the baseline's at the same thread count (None for the baseline
    /// itself and where either figure is missing or the baseline's is 0).
    pub vs_baseline: Ratios,
}

fn one() -> u32 {
    1
}

/// [lowest, highest] of each figure over a group's runs (None where no run had it).
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Ranges {
    pub tps: Option<[f64; 2]>,
    pub qps: Option<[f64; 2]>,
    pub p95_ms: Option<[f64; 2]>,
    pub p99_ms: Option<[f64; 2]>,
    pub errors_per_s: Option<[f64; 2]>,
    pub server_cpu_us: Option<[f64; 2]>,
    #[serde(default)]
    pub disk_kib_per_event: Option<[f64; 2]>,
    #[serde(default)]
    pub disk_flushes_per_event: Option<[f64; 2]>,
    #[serde(default)]
    pub net_kib_per_event: Option<[f64; 2]>,
    #[serde(default)]
    pub cache_miss_pct: Option<[f64; 2]>,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Ratios {
    pub tps: Option<f64>,
    pub qps: Option<f64>,
    pub p95_ms: Option<f64>,
    pub p99_ms: Option<f64>,
    #[serde(default)]
    pub server_cpu_us: Option<f64>,
    #[serde(default)]
    pub disk_kib_per_event: Option<f64>,
    #[serde(default)]
    pub disk_flushes_per_event: Option<f64>,
    #[serde(default)]
    pub net_kib_per_event: Option<f64>,
}

/// Options that say how a run was reported or where it was written, not what it measured; and
/// `threads`, which is what the rows are.
const NOT_COMPARED: &[&str] = &[
    "output",
    "output-format",
    "store",
    "report-interval",
    "report-checkpoints",
    "verbosity",
    "histogram",
    "percentile",
    "threads",
    "thread-init-timeout",
];

/// Put the groups side by side; the first is the baseline.
pub fn compare(groups: &[Group]) -> Comparison {
    let stems = labels(groups.iter().map(|g| g.docs[0].0.as_str()).collect());
    let mut runs = Vec::new();
    let mut facts = Vec::new();
    let mut products = Vec::new();
    let mut levels: Vec<BTreeMap<u32, Vec<Row>>> = Vec::new();
    let mut within = Vec::new();
    for (group, stem) in groups.iter().zip(stems) {
        let label = group.label.clone().unwrap_or(stem);
        let mut by_threads: BTreeMap<u32, Vec<Row>> = BTreeMap::new();
        let mut order: Vec<u32> = Vec::new();
        let mut doc_facts = Vec::new();
        let mut doc_runs = Vec::new();
        for (file, doc) in &group.docs {
            let steps = steps_of(doc);
            let first = steps.iter().find_map(|s| s.result.as_ref());
            doc_facts.push(first.map(facts_of).unwrap_or_default());
            doc_runs.push((file, first.cloned(), workload_of(doc)));
            let mut seen = BTreeSet::new();
            for step in &steps {
                if !order.contains(&step.threads) {
                    order.push(step.threads);
                }
                // A level listed twice in a sweep: its first run is the one compared.
                if seen.insert(step.threads) {
                    by_threads
                        .entry(step.threads)
                        .or_default()
                        .push(crate::sweep_row::row(step.threads, step));
                }
            }
        }
        // Repeated runs are only a spread if they ran alike: what differs from the group's
        // first is listed under "NAME (file)".
        if group.docs.len() > 1 {
            let names: Vec<Run> = group
                .docs
                .iter()
                .map(|(file, _)| Run {
                    label: format!("{label} ({file})"),
                    ..Run::named(file)
                })
                .collect();
            let same = vec![String::new(); names.len()];
            within.extend(differences(&names, &doc_facts, &same));
        }
        let (file, first, workload) = doc_runs
            .iter()
            .find(|d| d.1.is_some())
            .cloned()
            .unwrap_or_else(|| doc_runs[0].clone());
        runs.push(Run {
            file: file.clone(),
            files: if group.docs.len() > 1 {
                group.docs.iter().map(|(f, _)| f.clone()).collect()
            } else {
                Vec::new()
            },
            label,
            workload,
            server: first
                .as_ref()
                .map(RunResult::server_name)
                .unwrap_or_default(),
            started_at_unix_s: first.as_ref().map_or(0, |r| r.run.started_at_unix_s),
            levels: order,
        });
        facts.push(
            doc_facts
                .into_iter()
                .find(|f| !f.is_empty())
                .unwrap_or_default(),
        );
        products.push(first.map_or_else(String::new, |r| r.environment.server.product));
        levels.push(by_threads);
    }
    let mut differences = differences(&runs, &facts, &products);
    differences.extend(within);
    let all: BTreeSet<u32> = levels.iter().flat_map(|l| l.keys().copied()).collect();
    let rows = all
        .into_iter()
        .map(|threads| {
            let base = levels[0].get(&threads).map(Vec::as_slice);
            ComparisonRow {
                threads,
                cells: levels
                    .iter()
                    .enumerate()
                    .map(|(i, l)| {
                        l.get(&threads)
                            .map(|rows| cell(rows, base.filter(|_| i > 0)))
                    })
                    .collect(),
            }
        })
        .collect();
    Comparison {
        schema_version: SCHEMA_VERSION,
        kind: "comparison".into(),
        tool: Tool {
            name: "dbpress".into(),
            version: dbpress_result::VERSION.into(),
        },
        runs,
        differences,
        rows,
    }
}

impl Run {
    fn named(file: &str) -> Run {
        Run {
            file: file.to_string(),
            files: Vec::new(),
            label: file.to_string(),
            workload: String::new(),
            server: String::new(),
            started_at_unix_s: 0,
            levels: Vec::new(),
        }
    }
}

fn steps_of(doc: &Document) -> Vec<Step> {
    match doc {
        Document::Run(r) => vec![Step {
            threads: r.run.threads,
            engine: None,
            result: Some((**r).clone()),
            error: None,
        }],
        Document::Sweep(s) => s.steps.clone(),
    }
}

fn workload_of(doc: &Document) -> String {
    match doc {
        Document::Run(r) => r.run.workload.clone(),
        Document::Sweep(s) => s.workload.clone(),
    }
}

/// The median of the values present (the mean of the middle two for an even count).
fn median(values: &[f64]) -> Option<f64> {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(v[n / 2]),
        _ => Some((v[n / 2 - 1] + v[n / 2]) / 2.0),
    }
}

/// One figure over a group's runs at a level: (median, [lowest, highest]).
fn figure(rows: &[Row], f: fn(&Row) -> Option<f64>) -> (Option<f64>, Option<[f64; 2]>) {
    let v: Vec<f64> = rows.iter().filter_map(f).collect();
    let range = v.iter().copied().fold(None, |r: Option<[f64; 2]>, x| {
        Some(r.map_or([x, x], |[lo, hi]| [lo.min(x), hi.max(x)]))
    });
    (median(&v), range)
}

fn cell(rows: &[Row], base: Option<&[Row]>) -> Cell {
    let ratio = |v: Option<f64>, b: Option<f64>| match (v, b) {
        (Some(v), Some(b)) if b > 0.0 => Some(v / b),
        _ => None,
    };
    let fields: [fn(&Row) -> Option<f64>; 10] = [
        |r| r.tps,
        |r| r.qps,
        |r| r.p95_ms,
        |r| r.p99_ms,
        |r| r.errors_per_s,
        server_cpu_us,
        |r| Some(r.disk.as_ref()?.kib_per_event),
        |r| r.disk.as_ref()?.flushes_per_event,
        |r| r.cache_miss_pct,
        |r| r.net_kib_per_event,
    ];
    let [tps, qps, p95, p99, err, cpu, kib, flushes, miss, net] = fields.map(|f| figure(rows, f));
    let b = base.map(|b| fields.map(|f| figure(b, f).0));
    let vs_baseline = b.map_or_else(Ratios::default, |b| Ratios {
        tps: ratio(tps.0, b[0]),
        qps: ratio(qps.0, b[1]),
        p95_ms: ratio(p95.0, b[2]),
        p99_ms: ratio(p99.0, b[3]),
        server_cpu_us: ratio(cpu.0, b[5]),
        disk_kib_per_event: ratio(kib.0, b[6]),
        disk_flushes_per_event: ratio(flushes.0, b[7]),
        net_kib_per_event: ratio(net.0, b[9]),
    });
    let notes: Vec<String> = rows
        .iter()
        .filter_map(|r| match (&r.note, &r.error) {
            (Some(n), Some(e)) => Some(format!("{n}; {e}")),
            (n, e) => n.clone().or_else(|| e.clone()),
        })
        .collect();
    let many = rows.len() > 1;
    Cell {
        tps: tps.0,
        qps: qps.0,
        p95_ms: p95.0,
        p99_ms: p99.0,
        errors_per_s: err.0,
        server_cpu_us: cpu.0,
        disk_kib_per_event: kib.0,
        disk_flushes_per_event: flushes.0,
        net_kib_per_event: net.0,
        cache_miss_pct: miss.0,
        top_wait: rows.iter().find_map(|r| r.top_wait.clone()),
        note: (!notes.is_empty()).then(|| notes.join("; ")),
        runs: rows.len() as u32,
        ranges: many.then_some(Ranges {
            tps: tps.1,
            qps: qps.1,
            p95_ms: p95.1,
            p99_ms: p99.1,
            errors_per_s: err.1,
            server_cpu_us: cpu.1,
            disk_kib_per_event: kib.1,
            disk_flushes_per_event: flushes.1,
            net_kib_per_event: net.1,
            cache_miss_pct: miss.1,
        }),
        vs_baseline,
    }
}

fn server_cpu_us(r: &Row) -> Option<f64> {
    r.cpu.as_ref()?.server_us_per_event
}

/// Everything a result records about how it ran, as ((rank, what), value): the rank orders
/// the list of differences from what matters most (the workload, the server) to the host.
type Facts = BTreeMap<(u8, String), String>;

fn facts_of(r: &RunResult) -> Facts {
    let mut f = Facts::new();
    let env = &r.environment;
    f.insert((0, "workload".into()), r.run.workload.clone());
    f.insert((1, "server".into()), r.server_name());
    for (k, v) in &env.server.variables {
        // The `server` fact above already holds the version.
        if k == "version" {
            continue;
        }
        f.insert((2, format!("server variable {k}")), v.clone());
    }
    if let Some(tls) = &env.server.session_tls {
        f.insert((4, "TLS".into()), tls.clone());
    }
    f.insert((4, "target".into()), env.target.clone());
    f.insert((5, "host".into()), env.hostname.clone());
    f.insert(
        (5, "CPU".into()),
        format!("{} × {}", env.cpu_model, env.cpu_count),
    );
    f.insert((5, "OS".into()), env.os.clone());
    f.insert((5, "kernel".into()), env.kernel.clone());
    for (k, v) in &r.config {
        if NOT_COMPARED.contains(&k.as_str()) {
            continue;
        }
        // `rand-seed` is what the user gave: 0 for a seed drawn at random, which differs every
        // run by design (the drawn one is `run.seed`, not compared).
        f.insert((3, format!("option --{k}")), v.clone());
    }
    f
}

/// `products`: each run's engine as its driver names it (MySQL, PostgreSQL, SQLite, dry-run).
fn differences(runs: &[Run], facts: &[Facts], products: &[String]) -> Vec<Difference> {
    let base = &facts[0];
    let mut out = Vec::new();
    for ((run, f), product) in runs.iter().zip(facts).zip(products).skip(1) {
        // Another engine records other settings (innodb_* against shared_buffers): only those
        // both record (max_connections) are differences worth reading; the server line says
        // the rest. (MariaDB, Percona, TiDB are all the MySQL driver's "MySQL".)
        let other_engine = product != &products[0];
        // A sweep none of whose levels ran recorded nothing of how it ran: one line, not every
        // fact of the other side as "(not recorded)".
        let empty = match (base.is_empty(), f.is_empty()) {
            (_, true) => {
                Some("no level ran, so nothing of how it ran was recorded (see the notes)")
            }
            (true, false) => {
                Some("the baseline has no level that ran, so nothing of how it ran can be compared")
            }
            (false, false) => None,
        };
        if let Some(what) = empty {
            out.push(Difference {
                run: run.label.clone(),
                what: what.into(),
                baseline: None,
                value: None,
            });
            continue;
        }
        let keys: BTreeSet<&(u8, String)> = base.keys().chain(f.keys()).collect();
        for k in keys {
            let (b, v) = (base.get(k), f.get(k));
            let one_sided = b.is_none() || v.is_none();
            if b != v && !(other_engine && k.0 == 2 && one_sided) && !new_option_at_default(k, b, v)
            {
                out.push(Difference {
                    run: run.label.clone(),
                    what: k.1.clone(),
                    baseline: b.cloned(),
                    value: v.cloned(),
                });
            }
        }
    }
    out
}

/// An option one result does not record (made by a dbpress before the option existed) and the
/// other has at its default: the same run as far as the option goes, not a difference to list
/// (`--latency-limit` 0, off).
fn new_option_at_default(k: &(u8, String), b: Option<&String>, v: Option<&String>) -> bool {
    let Some(name) = k.1.strip_prefix("option --") else {
        return false;
    };
    let default = dbpress_core::options::table::find(name).map(|s| s.default);
    match (b, v) {
        (None, Some(x)) | (Some(x), None) => default == Some(x.as_str()),
        _ => false,
    }
}

/// Column headings: each file's name without directory and `.json`, or the path as given when
/// two names would be the same.
fn labels(files: Vec<&str>) -> Vec<String> {
    let stem = |f: &str| {
        std::path::Path::new(f)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| f.to_string())
    };
    let stems: Vec<String> = files.iter().map(|f| stem(f)).collect();
    files
        .iter()
        .zip(&stems)
        .map(|(f, s)| {
            if stems.iter().filter(|t| *t == s).count() > 1 {
                f.to_string()
            } else {
                s.clone()
            }
        })
        .collect()
}
