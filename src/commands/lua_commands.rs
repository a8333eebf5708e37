//! A Lua script's command (#41), with what it needs from the command line: the run's
//! configuration and driver, the header, and how a `run` is measured (given: the same way as
//! a built-in workload's run).

use super::subcommand::Call;
use crate::sweep;

use dbpress_config::to_driver::make_driver;
use dbpress_config::{Command, RunConfig};
use dbpress_core::error::{self, Result};
use dbpress_core::verbosity;
use dbpress_result::VERSION;
use dbpress_workload::lua::commands::{self, CommandLine, MainScript};
use dbpress_workload::{Context, Workload};
use std::io::Write;

/// How a run is measured: its configuration and the workload, to the exit code.
pub type Measure<'a> = &'a dyn Fn(&RunConfig, &dyn Workload) -> Result<u8>;

/// Run `command` of the script loaded in `main`; the exit code.
pub fn run(call: &Call<'_>, main: MainScript, command: &str, measure: Measure<'_>) -> Result<u8> {
    let (opts, args) = (call.opts, call.argv);
    if sweep::levels(opts)?.is_some() {
        return Err(error::usage(format!(
            "--threads={} is a list: dbpress runs a Lua script at one --threads so far (#41)",
            opts.text(dbpress_config::keys::THREADS)
        )));
    }
    // The run's configuration as for the closest built-in command (a script's own commands
    // set up tables, as prepare does).
    let as_command = match command {
        "run" => Command::Run,
        "cleanup" => Command::Cleanup,
        _ => Command::Prepare,
    };
    let cfg = RunConfig::from_options(main.path(), as_command, opts)?;
    let driver = make_driver(&cfg)?;
    let ctx = Context {
        driver: driver.as_ref(),
        threads: cfg.shape.threads,
        dist: &cfg.keys.dist,
        invocation: cfg.invocation(&cfg.workload),
    };
    if !matches!(command, "run" | "help") && verbosity::notices() {
        // As before any built-in command (`run` prints it itself).
        let mut out = dbpress_core::out::Stdout;
        let _ = writeln!(out, "dbpress {VERSION} (sysbench-compatible)\n");
        let _ = out.flush();
    }
    let line = CommandLine {
        opts,
        // The program as invoked, then the arguments, as a C program's argv.
        argv: std::iter::once(crate::cli::lua_script::program_name())
            .chain(args.iter().cloned())
            .collect(),
        seed: cfg.keys.seed,
        measure: &|w| measure(&cfg, w),
    };
    commands::run(main, command, &line, &ctx)
}
