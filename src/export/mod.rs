//! Renderers of a `RunResult` (and of a sweep's or a comparison's). Each renders from the
//! result alone.

pub mod csv;
pub mod html;
pub mod json;
pub mod markdown;
pub mod table;
pub mod text;

use crate::config::OutputFormat;
use crate::result::RunResult;
use crate::sweep::SweepResult;

/// A run as --output-format asks, printed after it ran. Text is the summary without its
/// histogram (a run prints its own text as it goes, with --histogram when asked).
pub fn run_as(format: OutputFormat, r: &RunResult) -> String {
    match format {
        OutputFormat::Text => text::summary(r, false),
        OutputFormat::Json => json::render(r),
        OutputFormat::Csv => csv::run(r),
        OutputFormat::Markdown => markdown::run(r),
    }
}

/// A sweep (or slap's levels) as --output-format asks; text is the sweep's table.
pub fn sweep_as(format: OutputFormat, s: &SweepResult) -> String {
    match format {
        OutputFormat::Text => crate::sweep::render_table(s),
        OutputFormat::Json => crate::sweep::render_json(s),
        OutputFormat::Csv => csv::sweep(s),
        OutputFormat::Markdown => markdown::sweep(s),
    }
}
