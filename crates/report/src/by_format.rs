//! The renderer a format picks: `--output-format` for what is printed, the extension of
//! `--output=FILE` for what is written.

use super::file_format::FileFormat;
use super::{csv, html, json, markdown, text};
use crate::output_format::OutputFormat;
use dbpress_result::sweep::SweepResult;
use dbpress_result::RunResult;

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
        OutputFormat::Text => text::sweep::render_table(s),
        OutputFormat::Json => json::render_sweep(s),
        OutputFormat::Csv => csv::sweep(s),
        OutputFormat::Markdown => markdown::sweep(s),
    }
}

/// Write a run's result to `path` in the format its extension names.
pub fn write_run(path: &str, r: &RunResult) -> dbpress_core::error::Result<()> {
    let text = match FileFormat::of(path) {
        FileFormat::Json => json::render(r),
        FileFormat::Csv => csv::run(r),
        FileFormat::Markdown => markdown::run(r),
        FileFormat::Html => html::run_page(r),
    };
    json::write_text(path, &text)
}

/// Write a sweep's result to `path` in the format its extension names.
pub fn write_sweep(path: &str, s: &SweepResult) -> dbpress_core::error::Result<()> {
    let text = match FileFormat::of(path) {
        FileFormat::Json => json::render_sweep(s),
        FileFormat::Csv => csv::sweep(s),
        FileFormat::Markdown => markdown::sweep(s),
        FileFormat::Html => html::sweep_page(s),
    };
    json::write_text(path, &text)
}
