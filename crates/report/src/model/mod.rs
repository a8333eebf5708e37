//! The documents beyond a single result, computed from results alone and rendered by every
//! format (`crate::render`): none of them knows how it is written down.
//!
//! - `comparison`: results side by side (`dbpress compare`): rows per thread count from each
//!   result's sweep-table row, ratios to the first, every recorded fact that differs from the
//!   baseline's, repeated runs as medians with ranges
//! - `metric`: the figures a comparison's tables can show (`--metrics`)
//! - `experiment`: an experiment's report (`dbpress experiment report`): per workload and
//!   metric, thread levels × (target, settings) columns with the median of the repeats, their
//!   spread and the ratio to the baseline; a summary of relative throughput per workload

pub mod comparison;
pub mod experiment;
pub mod metric;
