//! What `dbpress compare` puts side by side: each result's figures per thread count, their
//! ratios to the first result (the baseline), and what differs between the runs besides.
//!
//! A comparison is only as honest as its runs are alike: "8.0 is 12% slower" means nothing if
//! the two runs also differed in table size or buffer pool. So everything a result records about
//! how it ran (workload, options, server version and settings, host) is compared with the
//! baseline's and every difference is listed, the intended one and the forgotten ones alike.

use crate::export::json::Document;
use crate::result::{RunResult, Tool, SCHEMA_VERSION};
use crate::sweep::{self, Row, Step};
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

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Run {
    pub file: String,
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
    /// Why the level ran short or not at all, or the error that stopped it.
    pub note: Option<String>,
    /// Each figure divided by the baseline's at the same thread count (None for the baseline
    /// itself and where either figure is missing or the baseline's is 0).
    pub vs_baseline: Ratios,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Ratios {
    pub tps: Option<f64>,
    pub qps: Option<f64>,
    pub p95_ms: Option<f64>,
    pub p99_ms: Option<f64>,
    #[serde(default)]
    pub server_cpu_us: Option<f64>,
}

/// Options that say how a run was reported or where it was written, not what it measured; and
/// `threads`, which is what the rows are.
const NOT_COMPARED: &[&str] = &[
    "output",
    "output-format",
    "report-interval",
    "report-checkpoints",
    "verbosity",
    "histogram",
    "percentile",
    "threads",
    "thread-init-timeout",
];

/// Put `docs` (file name, document) side by side; the first is the baseline.
pub fn compare(docs: &[(String, Document)]) -> Comparison {
    let labels = labels(docs.iter().map(|(f, _)| f.as_str()).collect());
    let mut runs = Vec::new();
    let mut facts = Vec::new();
    let mut products = Vec::new();
    let mut levels: Vec<BTreeMap<u32, Row>> = Vec::new();
    for ((file, doc), label) in docs.iter().zip(&labels) {
        let (steps, workload) = match doc {
            Document::Run(r) => (
                vec![Step {
                    threads: r.run.threads,
                    result: Some((**r).clone()),
                    error: None,
                }],
                r.run.workload.clone(),
            ),
            Document::Sweep(s) => (s.steps.clone(), s.workload.clone()),
        };
        let first = steps.iter().find_map(|s| s.result.as_ref());
        runs.push(Run {
            file: file.clone(),
            label: label.clone(),
            workload,
            server: first.map(RunResult::server_name).unwrap_or_default(),
            started_at_unix_s: first.map_or(0, |r| r.run.started_at_unix_s),
            levels: steps.iter().map(|s| s.threads).collect(),
        });
        facts.push(first.map(facts_of).unwrap_or_default());
        products.push(first.map_or_else(String::new, |r| r.environment.server.product.clone()));
        let mut by_threads = BTreeMap::new();
        for step in &steps {
            // A level listed twice in a sweep: its first run is the one compared.
            by_threads
                .entry(step.threads)
                .or_insert_with(|| sweep::row(step.threads, step));
        }
        levels.push(by_threads);
    }
    let differences = differences(&runs, &facts, &products);
    let all: BTreeSet<u32> = levels.iter().flat_map(|l| l.keys().copied()).collect();
    let rows = all
        .into_iter()
        .map(|threads| {
            let base = levels[0].get(&threads);
            ComparisonRow {
                threads,
                cells: levels
                    .iter()
                    .enumerate()
                    .map(|(i, l)| l.get(&threads).map(|r| cell(r, base.filter(|_| i > 0))))
                    .collect(),
            }
        })
        .collect();
    Comparison {
        schema_version: SCHEMA_VERSION,
        kind: "comparison".into(),
        tool: Tool {
            name: "dbpress".into(),
            version: crate::VERSION.into(),
        },
        runs,
        differences,
        rows,
    }
}

fn cell(r: &Row, base: Option<&Row>) -> Cell {
    let ratio = |v: Option<f64>, b: Option<f64>| match (v, b) {
        (Some(v), Some(b)) if b > 0.0 => Some(v / b),
        _ => None,
    };
    let vs_baseline = base.map_or_else(Ratios::default, |b| Ratios {
        tps: ratio(r.tps, b.tps),
        qps: ratio(r.qps, b.qps),
        p95_ms: ratio(r.p95_ms, b.p95_ms),
        p99_ms: ratio(r.p99_ms, b.p99_ms),
        server_cpu_us: ratio(server_cpu_us(r), server_cpu_us(b)),
    });
    let note = match (&r.note, &r.error) {
        (Some(n), Some(e)) => Some(format!("{n}; {e}")),
        (n, e) => n.clone().or_else(|| e.clone()),
    };
    Cell {
        tps: r.tps,
        qps: r.qps,
        p95_ms: r.p95_ms,
        p99_ms: r.p99_ms,
        errors_per_s: r.errors_per_s,
        server_cpu_us: server_cpu_us(r),
        note,
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
            if b != v && !(other_engine && k.0 == 2 && one_sided) {
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
