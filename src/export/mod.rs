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

/// What `--output=FILE` writes, by the file's extension: `.csv`, `.md` or `.markdown`, `.html`
/// or `.htm`; anything else the JSON result, the only one `report` and `compare` read back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileFormat {
    Json,
    Csv,
    Markdown,
    Html,
}

impl FileFormat {
    pub fn of(path: &str) -> FileFormat {
        let ext = std::path::Path::new(path)
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase);
        match ext.as_deref() {
            Some("csv") => FileFormat::Csv,
            Some("md" | "markdown") => FileFormat::Markdown,
            Some("html" | "htm") => FileFormat::Html,
            _ => FileFormat::Json,
        }
    }
}

/// Write a run's result to `path` in the format its extension names.
pub fn write_run(path: &str, r: &RunResult) -> crate::error::Result<()> {
    let text = match FileFormat::of(path) {
        FileFormat::Json => json::render(r),
        FileFormat::Csv => csv::run(r),
        FileFormat::Markdown => markdown::run(r),
        FileFormat::Html => html::run_page(r),
    };
    json::write_text(path, &text)
}

/// Write a sweep's result to `path` in the format its extension names.
pub fn write_sweep(path: &str, s: &SweepResult) -> crate::error::Result<()> {
    let text = match FileFormat::of(path) {
        FileFormat::Json => crate::sweep::render_json(s),
        FileFormat::Csv => csv::sweep(s),
        FileFormat::Markdown => markdown::sweep(s),
        FileFormat::Html => html::sweep_page(s),
    };
    json::write_text(path, &text)
}
