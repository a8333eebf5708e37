//! dbpress: a database pressure-testing tool, sysbench-compatible.
//!
//! `main_with_args` is the whole program; `main.rs` only maps its return value to the exit code,
//! so tests can drive the tool in-process as well as through the binary.

pub mod cli;
pub mod commands;
pub mod config;
pub mod export;
pub mod run;
pub mod runner;
pub mod script;
pub mod slap;
pub mod sweep;

use std::io::Write;

pub use dbpress_measure::result::VERSION;

/// Run dbpress with `args` (without the program name); returns the exit code.
pub fn main_with_args(args: &[String]) -> u8 {
    match commands::dispatch(args) {
        Ok(code) => code,
        Err(e) => {
            let _ = std::io::stdout().flush();
            eprintln!("dbpress: error: {}", e.message());
            e.exit_code()
        }
    }
}
