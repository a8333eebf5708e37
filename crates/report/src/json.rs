//! The JSON result file: `RunResult` as pretty JSON (schema in docs/results.schema.json).

use dbpress_core::error::{usage, Result};
use dbpress_result::sweep::SweepResult;
use dbpress_result::{RunResult, SCHEMA_VERSION};

pub fn render(r: &RunResult) -> String {
    serde_json::to_string_pretty(r).expect("RunResult always serialises") + "\n"
}

pub fn write_file(path: &str, r: &RunResult) -> Result<()> {
    write_text(path, &render(r))
}

pub use dbpress_core::result_file::{check_writable, write_text};

/// What a dbpress JSON file holds: one run, or a thread sweep.
pub enum Document {
    Run(Box<RunResult>),
    Sweep(Box<dbpress_result::sweep::SweepResult>),
}

pub fn read_document(path: &str) -> Result<Document> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| usage(format!("cannot read result file {path}: {e}")))?;
    let value: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
        if super::file_format::FileFormat::of(path) != super::file_format::FileFormat::Json {
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

/// A sweep's JSON document.
pub fn render_sweep(s: &SweepResult) -> String {
    serde_json::to_string_pretty(s).expect("SweepResult always serialises") + "\n"
}
