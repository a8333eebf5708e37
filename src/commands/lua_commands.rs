//! A Lua script's command (#41), with what it needs from the command line: the run's
//! configuration and driver, the header, and how a `run` is measured (given: the same way as
//! a built-in workload's run).

use super::subcommand::Call;
use crate::sweep;

use dbpress_config::to_driver::make_driver;
use dbpress_config::{Command, RunConfig};
use dbpress_core::error::{self, Result};
use dbpress_core::verbosity;
use dbpress_workload::lua::commands::{self, CommandLine, MainScript};
use dbpress_workload::{Context, Workload};
use std::io::Write;

/// How a run is measured: its configuration and the workload, to the exit code.
pub type Measure<'a> = &'a dyn Fn(&RunConfig, &dyn Workload) -> Result<u8>;

/// Run `command` of the script loaded in `main`; the exit code.
pub fn run(call: &Call<'_>, main: MainScript, command: &str, measure: Measure<'_>) -> Result<u8> {
    let (opts, args) = (call.opts, call.argv);
    let levels = sweep::levels(opts)?;
    if levels.is_some() && command != "run" {
        return Err(error::usage(format!(
            "--threads={} is a list, which only `run` takes (a thread sweep): give {command} one number",
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
    let main_path = &main.path().to_string();
    // A sweep's setup (the script's init and done) as its first level's.
    let cfg = match &levels {
        Some(levels) => RunConfig::at_threads(main_path, as_command, opts, levels[0])?,
        None => RunConfig::from_options(main_path, as_command, opts)?,
    };
    let driver = make_driver(&cfg)?;
    let ctx = Context {
        driver: driver.as_ref(),
        threads: cfg.shape.threads,
        dist: &cfg.keys.dist,
        invocation: cfg.invocation(&cfg.workload),
    };
    // As before any built-in command (`run` prints it itself); sysbench prints it before a
    // script's help too, where dbpress itself leaves the help alone.
    let first_line = match command {
        "run" => false,
        "help" => dbpress_core::personality::is_sysbench(),
        _ => true,
    };
    if first_line && verbosity::notices() {
        let mut out = dbpress_core::out::Stdout;
        let _ = write!(out, "{}", dbpress_core::personality::first_line_block());
        let _ = out.flush();
    }
    let line = CommandLine {
        opts,
        // The program as invoked, then the arguments, as a C program's argv.
        argv: std::iter::once(crate::cli::lua_script::program_name())
            .chain(args.iter().cloned())
            .collect(),
        seed: cfg.keys.seed,
        // One run, or a sweep: a run of each --threads level, the script's init() and done()
        // around them all.
        measure: &|build| match &levels {
            Some(levels) => sweep::run(main_path, opts, levels, args, build, &|_| {}),
            None => measure(&cfg, build(&cfg)?.as_ref()),
        },
    };
    let default_file = new_default_sqlite_file(&cfg);
    let ran = commands::run(main, command, &line, &ctx);
    if let Some(path) = default_file.filter(|_| !dbpress_workload::lua::driver_asked()) {
        remove_database_file(&path);
    }
    ran
}

/// The file of the zero-setup SQLite target when it is not there yet: made by the session
/// that reads the target's facts before a run, though a script may never ask for a driver.
fn new_default_sqlite_file(cfg: &RunConfig) -> Option<std::path::PathBuf> {
    match &cfg.connection.target {
        dbpress_config::Target::Sqlite(t) if t.implicit && !t.path.exists() => Some(t.path.clone()),
        _ => None,
    }
}

/// A database file this run made and nothing used (with its WAL and shared-memory files): as
/// under sysbench, a script that asks for no driver leaves no file behind.
fn remove_database_file(path: &std::path::Path) {
    for suffix in ["", "-wal", "-shm"] {
        let mut name = path.as_os_str().to_owned();
        name.push(suffix);
        let _ = std::fs::remove_file(name);
    }
}
