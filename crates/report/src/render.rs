//! The renderers on one axis: `Render` has one method per document (a run, a sweep, a
//! comparison, an experiment), and each format implements it in its own module (`Text`, `Json`,
//! `Csv`, `Markdown`, `Html`); `by_format` picks one.

use crate::model::comparison::Comparison;
use crate::model::experiment::Experiment;
use crate::model::metric::Metric;
use dbpress_result::sweep::SweepResult;
use dbpress_result::RunResult;

/// Every document dbpress renders, in one format.
pub trait Render: Sync {
    /// A run's result.
    fn run(&self, r: &RunResult) -> String;
    /// A thread sweep (or slap's levels).
    fn sweep(&self, s: &SweepResult) -> String;
    /// Results side by side (`dbpress compare`); `metrics` are the tables asked for, where the
    /// format has such tables.
    fn comparison(&self, c: &Comparison, metrics: &[Metric]) -> String;
    /// An experiment's report (`dbpress experiment report`).
    fn experiment(&self, e: &Experiment) -> String;
}
