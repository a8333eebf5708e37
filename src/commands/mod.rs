//! The commands: one table (`table.rs`) gives each subcommand's name, help lines, grammar and
//! entry point; `dispatch` picks the row a command line names.
//!
//! - `subcommand`: what a row holds (`Subcommand`, `Grammar`, `Call`)
//! - `table`: the rows
//! - `dispatch`: from argv to a row
//! - `workload`: `dbpress <workload> prepare|run|…`, one run or a thread sweep
//! - `lua_commands`: a Lua script's command (its own, or run, prepare, cleanup, help)
//! - `help`: the general help, a workload's options, `list`, `--version`
//! - `report`: `dbpress report FILE`, a saved result rendered again
//! - `compare`: `dbpress compare A B …`, results side by side (files, or runs of the store)
//! - `experiment`: `dbpress experiment check|run|restore|report PLAN`, a study from a plan
//!   file (`dbpress_experiment`); `experiment_report` its tables and charts from the store
//! - `own_args`: the words and long options of `compare`, `results` and `experiment`
//! - `results`: `dbpress results list|show|export`, the runs of a results store
//! - `personality`: a link's name or `--compat` picks who speaks (#42); `install_links` makes
//!   the links

mod compare;
mod dispatch;
mod experiment;
mod experiment_report;
mod help;
mod install_links;
mod lua_commands;
mod own_args;
pub mod personality;
mod report;
mod results;
pub mod subcommand;
pub mod table;
mod workload;

pub use dispatch::dispatch;
