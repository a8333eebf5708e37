//! `dbpress script`'s workloads: pgbench-style scripts (the command and pgbench's flags live
//! with the commands):
//!
//! - `expr`: pgbench's expressions and random functions
//! - `parse`: script files (`:name` bound as `?`, FILE:LINE errors)
//! - `builtin`: pgbench's built-in scripts and tables
//! - `pgbench_tables`: those tables made (pgbench -i) and dropped
//! - `run_once`: a user's prepare or cleanup script, run once
//! - `workload`: scripts as a workload (weights, variables, END/BEGIN adapted by dialect)

pub mod builtin;
pub mod expr;
pub mod parse;
pub mod pgbench_tables;
pub mod run_once;
pub mod workload;
