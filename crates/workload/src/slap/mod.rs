//! `dbpress slap`'s workloads (the command and mysqlslap's flags live with the commands):
//!
//! - `workload`: the `--query` list as a workload, and `Commits`, `--commit`'s autocommit-off
//!   sessions and their COMMITs (used by both workloads)
//! - `autogen`: `-a`, mysqlslap's generated table, preload and query list per engine

pub mod autogen;
pub mod workload;
