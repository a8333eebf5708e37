//! dbpress as pgbench (#42): invoked through a link named `pgbench` (or `--compat=pgbench`),
//! it reads pgbench 15's command line with pgbench's rules and words, runs the same scripts
//! sending the same statements, and prints what pgbench prints — its banner, report, progress
//! lines and errors — with pgbench's exit codes.
//!
//! - `getopt`: GNU getopt_long as pgbench meets it, glibc's messages
//! - `aborts`: a client's abort in pgbench's lines
//! - `libpq_error`: a server's error as libpq words it (`LINE 1:` and its caret)
//! - `values`: option values read as pgbench reads them
//! - `options`: pgbench's options read left to right into a `Line`
//! - `checks`: what pgbench checks once the whole line is read, in its order
//! - `init`: `-i`, pgbench's initialization steps
//! - `run`: a benchmark run (setup, vacuum, the runner, exit code)
//! - `progress`: `-P`'s lines
//! - `report`: the report after the run
//! - `txn_log`: `-l`'s per-transaction and aggregated logs

mod aborts;
mod checks;
mod getopt;
mod init;
mod libpq_error;
mod options;
mod progress;
mod report;
mod run;
mod txn_log;
mod values;

use std::io::Write;

/// pgbench's `--help`, of the release spoken as.
fn help() -> &'static str {
    match dbpress_core::personality::pgbench_major() {
        17 => include_str!("help17.txt"),
        _ => include_str!("help15.txt"),
    }
}

/// Run as pgbench: `program` is argv[0] as typed (getopt's messages name it).
pub fn main(program: &str, args: &[String]) -> u8 {
    dbpress_core::options::table::install(crate::cli::options_table());
    let code = match speak(program, args) {
        Ok(code) => code,
        Err(e) => {
            let _ = dbpress_core::out::Stdout.flush();
            // An empty message: pgbench's own lines were printed where it failed.
            if !e.message().is_empty() {
                eprintln!("pgbench: error: {}", e.message());
            }
            // pgbench ends 1 for anything before its clients start, 2 when one aborted.
            match e {
                dbpress_core::error::Error::Interrupted(_, code) => code,
                _ => 1,
            }
        }
    };
    let _ = dbpress_core::out::Stdout.flush();
    code
}

fn speak(program: &str, args: &[String]) -> dbpress_core::error::Result<u8> {
    // --help and --version answer only as the first argument, as pgbench's do.
    match args.first().map(String::as_str) {
        Some("--help" | "-?") => {
            dbpress_core::out!("{}", help());
            return Ok(0);
        }
        Some("--version" | "-V") => {
            dbpress_core::outln!(
                "pgbench (PostgreSQL) {}",
                dbpress_core::personality::pgbench_version()
            );
            return Ok(0);
        }
        _ => {}
    }
    let mut line = match options::read(program, args) {
        Ok(line) => line,
        Err(stop) => return Ok(stopped(stop)),
    };
    if let Err(stop) = checks::check(&mut line) {
        return Ok(stopped(stop));
    }
    if line.initialize {
        return run::initialize(&line);
    }
    run::benchmark(&line)
}

/// pgbench's lines for how reading the command line ended, and its exit code.
fn stopped(stop: options::Stop) -> u8 {
    eprint!("{}", stop.stderr);
    stop.code
}
