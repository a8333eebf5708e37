//! `--store`: runs kept in the results store beside (not instead of) their `--output` file.
//! A run that cannot be kept is an error after its result was printed and written: the
//! measurement is never lost to the store.

use dbpress_core::error::{environment, Result};
use dbpress_result::RunResult;
use dbpress_store::{NewRun, Status, Store};
use std::path::Path;

/// How a run ended, for its row in the store.
pub fn status_of(r: &RunResult) -> Status {
    if r.run.interrupted_by.is_some() {
        Status::Interrupted
    } else if r.run.fatal_error.is_some() {
        Status::Failed
    } else {
        Status::Ok
    }
}

/// Keep `results` (one run, or a sweep's or slap's steps, which share `batch`) in the store at
/// `path` with `tags`; says where on stderr.
pub fn save(
    path: &Path,
    tags: &[(String, String)],
    results: &[&RunResult],
    batch: Option<&str>,
) -> Result<Vec<i64>> {
    let mut store = Store::open(path)?;
    let mut ids = Vec::with_capacity(results.len());
    for r in results {
        let json = serde_json::to_string(r)
            .map_err(|e| environment(format!("cannot encode the result for the store: {e}")))?;
        let mut run = NewRun::of_result(r, json, status_of(r));
        run.tags = tags.to_vec();
        run.batch = batch.map(String::from);
        ids.push(store.save(&run)?);
    }
    let list: Vec<String> = ids.iter().map(i64::to_string).collect();
    // On stderr: stdout may carry the JSON result.
    if dbpress_core::verbosity::notices() {
        eprintln!(
            "dbpress: kept as run{} {} in {}",
            if ids.len() == 1 { "" } else { "s" },
            list.join(", "),
            path.display()
        );
    }
    Ok(ids)
}

/// A name for the runs of one sweep or slap invocation: when it started and this process.
pub fn batch_name(kind: &str) -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    format!("{kind}-{secs}-{}", std::process::id())
}
