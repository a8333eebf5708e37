//! Renderers of a `RunResult` (and of a sweep's, a comparison's or an experiment's). Each renders
//! from results alone: the crate stands on `dbpress-result` (and `dbpress-core`), never on the
//! runner, the drivers or measurement. Format-major: one `Render` per format, one method per
//! document.
//!
//! - `render`: the `Render` trait, one method per document
//! - `by_format`: `Format` and the renderer a format picks; a run's and a sweep's file written
//! - `text`: sysbench's text and dbpress's sections, the sweep table, a comparison's and an
//!   experiment's tables, the runner's progress as text
//! - `json`: the JSON documents
//! - `csv`: one row per interval, level, (threads, result) or experiment figure
//! - `markdown`: pipe tables for a wiki page or a ticket
//! - `html`: self-contained pages with SVG charts
//! - `model`: the comparison's and the experiment's tables, computed, before any format
//! - `cells`: figures written out as the text and Markdown tables both show them
//! - `table`: a plain table written as CSV or Markdown
//! - `sweep_row`: a sweep's rows from its results
//! - `histogram`: a result file's latency histograms read back
//! - `dates`: times as the reports write them
//! - `document`: a result file read back (a run or a sweep)
//! - `output_format`: the names --output-format takes (dbpress-config parses into them)
//! - `file_format`: what `--output=FILE` writes, by the file's extension

pub mod by_format;
pub mod cells;
pub mod csv;
pub mod dates;
pub mod document;
pub mod file_format;
pub mod histogram;
pub mod html;
pub mod json;
pub mod markdown;
pub mod model;
pub mod output_format;
pub mod render;
pub mod sweep_row;
pub mod table;
pub mod text;

pub use by_format::{by_format, run_as, sweep_as, write_run, write_sweep, Format};
pub use file_format::FileFormat;
pub use output_format::OutputFormat;
pub use render::Render;
