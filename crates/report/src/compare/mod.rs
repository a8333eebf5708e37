//! Results side by side (`dbpress compare`): the comparison built from them and its text.
//!
//! - `model`: rows per thread count from each result's sweep-table row, ratios to the first,
//!   every recorded fact that differs from the baseline's, repeated runs as medians with ranges
//! - `text`: the tables (spread `±`, overlapping ranges marked `~`)

pub mod model;
pub mod text;
