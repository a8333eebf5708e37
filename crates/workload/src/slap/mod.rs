//! `dbpress slap`'s workloads (the command and mysqlslap's flags live with the commands):
//!
//! - `workload`: the `--query` list as a workload, and `Commits`, `--commit`'s autocommit-off
//!   sessions and their COMMITs (used by both workloads)
//! - `autogen`: `-a`, mysqlslap's generated table, preload and query list per engine
//! - `tables`: the tables through one round (create, check the engine, pre- and post-queries,
//!   drop what the round created)

pub mod autogen;
mod glibc_random;
pub mod tables;
pub mod workload;
