//! Experiments: one plan file (TOML) names targets, settings sets, workloads, thread levels and
//! repeats; `dbpress experiment run` measures every cell of that grid into the results store,
//! changes and restores the servers' settings around them, and resumes where it stopped.
//!
//! - `plan`: the plan file, read and checked (a bad key is named with its line)
//! - `cells`: the grid and the order its cells run in (interleaved, sequential, shuffled)
//! - `command`: the dbpress command lines of a cell's prepare, run and cleanup
//! - `settings`: settings sets applied to a target, read back, and put back
//! - `execute`: the experiment itself: cells run one by one, each in its own dbpress process

pub mod cells;
pub mod command;
pub mod execute;
pub mod plan;
pub mod settings;

pub use plan::ExperimentPlan;
