//! `dbpress results list|show|export`: the runs kept in a results store (`--store`, and every
//! experiment's cells), listed by experiment or tag, one shown as its report, or its JSON
//! exported as `--output` would have written it.

use dbpress_core::error::{environment, usage, Result};
use dbpress_result::RunResult;
use dbpress_store::{RunFilter, RunRow, Status, Store};
use std::path::PathBuf;

const HELP: &str =
    "Usage: dbpress results list [--experiment=NAME] [--tag=KEY=VALUE]… [--store=PATH]
       dbpress results show ID [--store=PATH]
       dbpress results export ID [--store=PATH] > result.json

The runs kept in a results store: every experiment's cells, and every run, sweep, slap, script
or tpcc run given --store. The store is ./dbpress-results.db unless --store=PATH names another.

  list     one line per run: id, when, status, workload, threads, TPS, QPS, p95, and its
           experiment cell or tags; --experiment and --tag select (tags: all must match)
  show     one run's report, as the run printed it, after what the store knows of it
  export   one run's JSON result, as --output writes it (for report, compare, your tools)
";

/// The store a command names with `--store=PATH`, or the default file.
pub fn store_path(given: Option<String>) -> PathBuf {
    PathBuf::from(given.unwrap_or_else(|| dbpress_config::run_config::DEFAULT_STORE.into()))
}

/// Open an existing store: a store that is not there is a mistake to name, not a file to make.
pub fn open_existing(path: &std::path::Path) -> Result<Store> {
    if !path.exists() {
        return Err(usage(format!(
            "no results store at {}: runs are kept there with --store (or by `dbpress experiment run`); name another with --store=PATH",
            path.display()
        )));
    }
    Store::open(path)
}

/// A stored run's result (an id's run that has one).
pub fn stored_result(store: &Store, id: i64) -> Result<(RunRow, RunResult)> {
    let (row, json) = store.get(id)?.ok_or_else(|| {
        usage(format!(
            "no run {id} in {}: `dbpress results list` shows the ids",
            store.path().display()
        ))
    })?;
    let json = json.ok_or_else(|| {
        usage(format!(
            "run {id} has no result: it failed before measuring ({})",
            row.error.as_deref().unwrap_or("no error kept")
        ))
    })?;
    let result = serde_json::from_str(&json).map_err(|e| {
        environment(format!(
            "run {id} in {} cannot be read: {e}",
            store.path().display()
        ))
    })?;
    Ok((row, result))
}

fn parse_id(word: Option<&String>, what: &str) -> Result<i64> {
    let w = word.ok_or_else(|| usage(format!("`dbpress results {what}` needs a run id: dbpress results {what} 12 (ids from `dbpress results list`)")))?;
    w.trim_start_matches('#').parse().map_err(|_| {
        usage(format!(
            "'{w}' is not a run id: ids are the numbers `dbpress results list` shows"
        ))
    })
}

pub fn main(args: &[String]) -> Result<u8> {
    let mut store = None;
    let mut filter = RunFilter::default();
    let Some(parsed) =
        super::own_args::parse("results", args, &[], &["store", "experiment", "tag"])?
    else {
        dbpress_core::out!("{HELP}");
        return Ok(0);
    };
    let words = parsed.words;
    if words.first().is_some_and(|w| w == "help") {
        dbpress_core::out!("{HELP}");
        return Ok(0);
    }
    for (name, v) in parsed.options {
        let value = || -> Result<String> { Ok(v.clone().unwrap_or_default()) };
        match name.as_str() {
            "store" => store = Some(value()?),
            "experiment" => filter.experiment = Some(value()?),
            "tag" => {
                let v = value()?;
                let (k, val) = v
                    .split_once('=')
                    .ok_or_else(|| usage(format!("--tag={v}: select by key=value, such as --tag os=centos7")))?;
                filter.tags.push((k.to_string(), val.to_string()));
            }
            _ => {
                return Err(usage(format!(
                    "unknown option '--{name}' for dbpress results: it takes --store, --experiment and --tag (dbpress results --help)"
                )))
            }
        }
    }
    let path = store_path(store);
    match words.first().map(String::as_str) {
        Some("list") => list(&open_existing(&path)?, &filter),
        Some("show") => show(&open_existing(&path)?, parse_id(words.get(1), "show")?),
        Some("export") => {
            let s = open_existing(&path)?;
            let (_, r) = stored_result(&s, parse_id(words.get(1), "export")?)?;
            dbpress_core::out!("{}", dbpress_report::json::render(&r));
            Ok(0)
        }
        Some(other) => Err(usage(format!(
            "unknown results command '{other}': use list, show or export (dbpress results --help)"
        ))),
        None => Err(usage(
            "`dbpress results` needs a command: list, show ID or export ID (dbpress results --help)",
        )),
    }
}

fn figure(v: Option<f64>, decimals: usize) -> String {
    v.map_or_else(|| "-".into(), |v| format!("{v:.decimals$}"))
}

/// Where the run came from: its experiment cell, its tags, its sweep.
fn origin(r: &RunRow) -> String {
    let mut parts = Vec::new();
    if let Some(c) = &r.cell {
        parts.push(format!(
            "{} gen {} {}",
            c.experiment,
            c.generation,
            c.name()
        ));
    }
    if !r.tags.is_empty() {
        let tags: Vec<String> = r.tags.iter().map(|(k, v)| format!("{k}={v}")).collect();
        parts.push(tags.join(","));
    }
    if let Some(b) = &r.batch {
        parts.push(b.clone());
    }
    parts.join("  ")
}

fn list(store: &Store, f: &RunFilter) -> Result<u8> {
    let rows = store.list(f)?;
    if rows.is_empty() {
        dbpress_core::outln!("No runs in {} match.", store.path().display());
        return Ok(0);
    }
    dbpress_core::outln!(
        "{:>5}  {:<20}  {:<11}  {:<22} {:>7} {:>12} {:>12} {:>9}  origin",
        "id",
        "saved",
        "status",
        "workload",
        "threads",
        "tps",
        "qps",
        "p95 ms"
    );
    for r in &rows {
        dbpress_core::outln!(
            "{:>5}  {:<20}  {:<11}  {:<22} {:>7} {:>12} {:>12} {:>9}  {}",
            r.id,
            dbpress_report::dates::utc(r.created_at),
            r.status.as_str(),
            r.workload,
            r.threads,
            figure(r.tps, 2),
            figure(r.qps, 2),
            figure(r.p95_ms, 2),
            origin(r)
        );
    }
    Ok(0)
}

fn show(store: &Store, id: i64) -> Result<u8> {
    let (row, json) = store.get(id)?.ok_or_else(|| {
        usage(format!(
            "no run {id} in {}: `dbpress results list` shows the ids",
            store.path().display()
        ))
    })?;
    dbpress_core::outln!("Run {id} of {}", store.path().display());
    dbpress_core::outln!("Saved: {}", dbpress_report::dates::utc(row.created_at));
    dbpress_core::outln!("Status: {}", row.status.as_str());
    dbpress_core::outln!("Workload: {}, {} threads", row.workload, row.threads);
    dbpress_core::outln!("Command: {}", row.command);
    let o = origin(&row);
    if !o.is_empty() {
        dbpress_core::outln!("From: {o}");
    }
    if let Some(e) = &row.error {
        dbpress_core::outln!("Error: {e}");
    }
    match json {
        Some(_) => {
            let (_, r) = stored_result(store, id)?;
            dbpress_core::out!("\n{}", dbpress_report::text::summary(&r, false));
        }
        None if row.status == Status::Failed => {}
        None => dbpress_core::outln!("(no result kept)"),
    }
    Ok(0)
}
