//! What a run measured and how, below the workloads and the runner that record into it:
//!
//! - `result`: `RunResult`, the versioned JSON contract every report renders from: the
//!   `dbpress-result` crate under its old name here, which measurement fills in
//! - `stats`: per-thread cells of counters and HDR latency buckets, folded into intervals and
//!   summaries; the per-interval rate's spread, stalls and the slowest quarter
//! - `host`: where the CPU went (the machine, dbpress, the server's process), the disk under the
//!   data and the sessions' network interface, from /proc
//! - `counters`: the server's own counters around a run, set against dbpress's reads and writes
//! - `waits`: what the server said the run's sessions were waiting on, sampled
//! - `status`: the server's status figures (gauges and counters) read once a second into the
//!   intervals
//! - `ticker`: the samplers' pace (a tick a period, no catching up) and when a lost session is
//!   worth opening again
//! - `environment`: the OS, kernel and CPU, for the result

pub mod counters;
pub mod environment;
pub mod host;
pub mod stats;
pub mod status;
pub mod ticker;
pub mod waits;

/// The result contract lives in `dbpress-result` (issue 40 item 4), below the drivers, so the
/// store and the renderers can read results without building them; measurement fills it in.
/// Named `result` here as before only for the runner, the workloads, the study and the
/// commands, which still reach it as `dbpress_measure::result` (drop once they import it).
pub use dbpress_result as result;
