//! The JSON result file: `RunResult` as pretty JSON (schema in docs/results.schema.json), a
//! sweep's (docs/sweep.schema.json), a comparison's and an experiment's documents. A result file
//! is read back in `crate::document`.

use crate::model::comparison::Comparison;
use crate::model::experiment::Experiment;
use crate::model::metric::Metric;
use crate::render::Render;
use dbpress_core::error::Result;
use dbpress_result::sweep::SweepResult;
use dbpress_result::RunResult;

/// JSON: what `report` and `compare` read back (a run, a sweep), and the documents a script
/// reads (a comparison, an experiment).
pub struct Json;

impl Render for Json {
    fn run(&self, r: &RunResult) -> String {
        render(r)
    }

    fn sweep(&self, s: &SweepResult) -> String {
        render_sweep(s)
    }

    /// The whole comparison, whatever tables --metrics asks for.
    fn comparison(&self, c: &Comparison, _metrics: &[Metric]) -> String {
        serde_json::to_string_pretty(c).expect("Comparison always serialises") + "\n"
    }

    fn experiment(&self, e: &Experiment) -> String {
        serde_json::to_string_pretty(e).expect("Experiment always serialises") + "\n"
    }
}

pub fn render(r: &RunResult) -> String {
    serde_json::to_string_pretty(r).expect("RunResult always serialises") + "\n"
}

pub fn write_file(path: &str, r: &RunResult) -> Result<()> {
    write_text(path, &render(r))
}

pub use dbpress_core::result_file::{check_writable, write_text};

/// A sweep's JSON document.
fn render_sweep(s: &SweepResult) -> String {
    serde_json::to_string_pretty(s).expect("SweepResult always serialises") + "\n"
}
