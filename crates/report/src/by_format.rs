//! The renderer a format picks: `--output-format` for what is printed, the extension of
//! `--output=FILE` for what is written.

use super::file_format::FileFormat;
use super::{csv, html, json, markdown, text};
use crate::output_format::OutputFormat;
use crate::render::Render;
use dbpress_result::sweep::SweepResult;
use dbpress_result::RunResult;

/// Every format a document renders in. A run's commands take the first four
/// (`OutputFormat`); `report`, `compare` and `experiment report` take HTML too, and a file's
/// extension names any but text (`FileFormat`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
    Csv,
    Markdown,
    Html,
}

impl Format {
    /// The names `report`, `compare` and `experiment report` take for --output-format.
    pub fn parse(s: &str) -> Option<Format> {
        match s {
            "html" => Some(Format::Html),
            other => OutputFormat::parse(other).map(Format::from),
        }
    }
}

impl From<OutputFormat> for Format {
    fn from(f: OutputFormat) -> Format {
        match f {
            OutputFormat::Text => Format::Text,
            OutputFormat::Json => Format::Json,
            OutputFormat::Csv => Format::Csv,
            OutputFormat::Markdown => Format::Markdown,
        }
    }
}

impl From<FileFormat> for Format {
    fn from(f: FileFormat) -> Format {
        match f {
            FileFormat::Json => Format::Json,
            FileFormat::Csv => Format::Csv,
            FileFormat::Markdown => Format::Markdown,
            FileFormat::Html => Format::Html,
        }
    }
}

/// The renderer of format `f`.
pub fn by_format(f: impl Into<Format>) -> &'static dyn Render {
    match f.into() {
        Format::Text => &text::Text,
        Format::Json => &json::Json,
        Format::Csv => &csv::Csv,
        Format::Markdown => &markdown::Markdown,
        Format::Html => &html::Html,
    }
}

/// A run as --output-format asks, printed after it ran. Text is the summary without its
/// histogram (a run prints its own text as it goes, with --histogram when asked).
pub fn run_as(format: OutputFormat, r: &RunResult) -> String {
    by_format(format).run(r)
}

/// A sweep (or slap's levels) as --output-format asks; text is the sweep's table.
pub fn sweep_as(format: OutputFormat, s: &SweepResult) -> String {
    by_format(format).sweep(s)
}

/// Write a run's result to `path` in the format its extension names.
pub fn write_run(path: &str, r: &RunResult) -> dbpress_core::error::Result<()> {
    json::write_text(path, &by_format(FileFormat::of(path)).run(r))
}

/// Write a sweep's result to `path` in the format its extension names.
pub fn write_sweep(path: &str, s: &SweepResult) -> dbpress_core::error::Result<()> {
    json::write_text(path, &by_format(FileFormat::of(path)).sweep(s))
}
