//! What the user asked for, checked once and handed on as plain typed values: drivers and the
//! runner never read option values themselves. Workloads read their own options through typed
//! keys beside them (`crates/workload/src/oltp/keys.rs`, `tpcc/keys.rs`); slap's and script's
//! flags are still read by name in their front ends.
//!
//! - `run_config`: `RunConfig` in small groups (`RunShape`: threads, time, events, rate;
//!   `Reporting`: intervals, percentile, output format and file, store; `Sampling`: the
//!   server's waits and status; `KeyDraws`: distribution and seed; `ConnectionSettings`:
//!   target, statement mode, ignore list), the command (`prepare`, `run`…), and `resolve_driver` (the `--db` scheme, else `--db-driver`, else the driver whose
//!   options were given, else embedded SQLite)
//! - `mysql_target`, `pgsql_target`, `sqlite_target`: each engine's target from its options, a
//!   URL, the environment and the client's own files (`option_file`: MySQL option files)
//! - `to_driver`: the driver a configuration's target names, with the option names its errors
//!   quote
//! - `keys`: the typed keys of the options read here (name and range, once)
//! - `redact`: the command line as the result file keeps it, passwords removed
//! - `diagnose`: a session that could not be opened, a statement refused for lack of privilege,
//!   as one line with the fix

pub mod connect_timeout;
pub mod diagnose;
pub mod keys;
pub mod mysql_target;
pub mod option_file;
pub mod pgsql_target;
pub mod redact;
pub mod run_config;
pub mod sqlite_target;
#[cfg(test)]
mod test_args;
pub mod to_driver;

pub use dbpress_driver::PsMode;
pub use run_config::{
    resolve_driver, Arrival, Command, ConnectionFlags, ConnectionSettings, Engine, IgnoreList,
    KeyDraws, Reporting, RunConfig, RunShape, Sampling, Target,
};
