//! What dbpress executes. A workload knows its schema (prepare, cleanup, check, prewarm) and
//! makes one event generator per worker; the runner never looks at which workload it runs.
//!
//! - `workload`: the `Workload` trait and the `Context` its lifecycle commands get
//! - `crew`: N sessions side by side for a lifecycle command, stopping at the first error
//! - `events`: `EventGen`, `KeyedStatement` (the runner's one-statement fast path) and `Exec`
//! - `oltp/`: sysbench's OLTP suite, each variant a mix of statement groups
//! - `bulk_insert`: sysbench's bulk_insert
//! - `tpcc/`: TPC-C (load, the five transactions, consistency checks)
//! - `load_progress`: a load's progress messages and bar, for every prepare
//! - `slap/`: `dbpress slap`'s query list and mysqlslap's generated SQL (`-a`)
//! - `script/`: `dbpress script`'s pgbench-style scripts
//! - `lua/`: a sysbench Lua script, run in embedded LuaJIT (`dbpress-lua`)
//! - `machine/`: sysbench's compiled-in tests of the machine (`cpu`), no database
//! - `registry`: the workloads by name

pub mod bulk_insert;
pub mod crew;
pub mod events;
pub mod load_progress;
pub mod lua;
pub mod machine;
pub mod oltp;
pub mod registry;
pub mod script;
pub mod slap;
#[cfg(test)]
mod test_sqlite;
pub mod tpcc;
pub mod workload;

pub use events::{EventGen, EventSteps, Exec, KeyedStatement};
pub use workload::{Context, Workload};
