//! A dbpress JSON file read back (`report`, `compare`): one run or a thread sweep, its schema
//! version checked, a comparison or a file --output wrote for reading named as such.

use crate::file_format::FileFormat;
use dbpress_core::error::{usage, Result};
use dbpress_result::sweep::SweepResult;
use dbpress_result::{RunResult, SCHEMA_VERSION};

/// What a dbpress JSON file holds: one run, or a thread sweep.
pub enum Document {
    Run(Box<RunResult>),
    Sweep(Box<SweepResult>),
}

pub fn read_document(path: &str) -> Result<Document> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| usage(format!("cannot read result file {path}: {e}")))?;
    let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
        if FileFormat::of(path) != FileFormat::Json {
            // What --output wrote for reading, by the name's extension.
            return usage(format!(
                "{path} is for reading, not a JSON result (--output writes CSV, Markdown or HTML by the file's extension): re-render or compare the JSON result, written with --output=FILE.json"
            ));
        }
        usage(format!("{path} is not a dbpress JSON result: {e}"))
    })?;
    match value.get("schema_version").and_then(|v| v.as_u64()) {
        Some(v) if v == u64::from(SCHEMA_VERSION) => {}
        Some(v) => {
            return Err(usage(format!(
                "{path} has result schema version {v}, this dbpress reads version {SCHEMA_VERSION}: use a matching dbpress"
            )))
        }
        None => return Err(usage(format!("{path} is not a dbpress JSON result: no schema_version"))),
    }
    if value.get("kind").and_then(|k| k.as_str()) == Some("comparison") {
        return Err(usage(format!(
            "{path} is a dbpress comparison, not a result: give `dbpress compare` (or `report`) the result files it was made from"
        )));
    }
    if value.get("kind").and_then(|k| k.as_str()) == Some("sweep") {
        return serde_json::from_value(value)
            .map(|s| Document::Sweep(Box::new(s)))
            .map_err(|e| usage(format!("{path} is not a valid dbpress sweep: {e}")));
    }
    let mut r: RunResult = serde_json::from_value(value)
        .map_err(|e| usage(format!("{path} is not a valid dbpress result: {e}")))?;
    // Stalls are derived from the intervals: derived again, a result written before a stall
    // stretched over missed ticks was named one (issue 43) shows it.
    r.throughput = dbpress_result::stability::of(&r.intervals);
    Ok(Document::Run(Box::new(r)))
}
