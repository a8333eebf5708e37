//! `dbpress script`'s workloads: pgbench's script language on every engine (the command and
//! pgbench's flags live with the commands):
//!
//! - `expr`: pgbench's expression language
//! - `scan`: a script file split into SQL and meta-command lines, as psql's lexer splits it
//! - `sql`: one SQL command, its `:name`s, pasted or bound
//! - `parse`: the commands of a script, `\if` blocks linked, errors as pgbench prints them
//! - `client`: one client running scripts: variables, branches, `\gset`, `\shell`, `\sleep`
//! - `builtin`: pgbench's built-in scripts and tables
//! - `pgbench_rules`: pgbench's retries, failures and client aborts (dbpress as pgbench)
//! - `pgbench_tables`: those tables made (pgbench -i) and dropped
//! - `run_once`: a user's prepare or cleanup script, run once
//! - `workload`: scripts as a workload (weights, END/BEGIN adapted by dialect)

pub mod builtin;
pub mod client;
pub mod expr;
pub mod parse;
pub mod pgbench_rules;
pub mod pgbench_tables;
pub mod run_once;
mod scan;
pub mod sql;
pub mod workload;
