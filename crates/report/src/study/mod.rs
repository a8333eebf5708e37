//! A study's report (`dbpress experiment report`): per workload and metric, a table of thread
//! levels × (target, settings) columns with the median of the repeats, their spread and the
//! ratio to the baseline; a summary of relative throughput per workload; as HTML, the charts.
//!
//! - `model`: the tables, computed from the stored runs alone
//! - `text`: the tables as text and Markdown; `csv`: one row per figure

pub mod model;
pub mod text;

pub use model::{study, Study, StudyInput, StudyRun};
