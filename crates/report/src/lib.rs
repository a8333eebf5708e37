//! Renderers of a `RunResult` (and of a sweep's or a comparison's). Each renders from the
//! result alone: the crate stands on `dbpress-result` (and `dbpress-core`), never on the
//! runner, the drivers or measurement.

pub mod by_format;
pub mod compare;
pub mod csv;
pub mod file_format;
pub mod histogram;
pub mod html;
pub mod json;
pub mod markdown;
pub mod output_format;
pub mod study;
pub mod sweep_row;
pub mod table;
pub mod text;

pub use by_format::{run_as, sweep_as, write_run, write_sweep};
pub use file_format::FileFormat;
pub use output_format::OutputFormat;
