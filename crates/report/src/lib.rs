//! Renderers of a `RunResult` (and of a sweep's or a comparison's). Each renders from the
//! result alone.

pub mod by_format;
pub mod compare;
pub mod csv;
pub mod file_format;
pub mod html;
pub mod json;
pub mod markdown;
pub mod study;
pub mod sweep_row;
pub mod table;
pub mod text;

pub use by_format::{run_as, sweep_as, write_run, write_sweep};
pub use file_format::FileFormat;
