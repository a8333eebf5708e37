//! What a run measured and how, below the workloads and the runner that record into it:
//!
//! It fills in the result contract, `dbpress-result` (`RunResult`, the versioned JSON every
//! report renders from, and the per-interval rate's spread and stalls derived from it).
//!
//! - `stats`: per-thread cells of counters and HDR latency buckets, folded into intervals and
//!   summaries
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
