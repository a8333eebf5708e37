//! `dbpress <workload> prepare|run|cleanup|check|prewarm [options]`: a built-in workload in
//! sysbench's grammar, one run or a thread sweep (`--threads=1,2,4`).

use super::help;
use super::subcommand::Call;
use crate::cli::{self, WorkloadCall};
use crate::{run, sweep};

use dbpress_config::to_driver::make_driver;
use dbpress_config::{Command, RunConfig};
use dbpress_core::error::{self, Result};
use dbpress_core::{signals, verbosity};
use dbpress_driver::Driver;
use dbpress_report::OutputFormat;
use dbpress_workload::lua::commands::MainScript;
use dbpress_workload::{Context, Workload};
use std::io::Write;

pub fn main(call: &Call<'_>) -> Result<u8> {
    let force_lua = dbpress_core::options::boolean(call.opts, "lua")?;
    // sysbench applies --verbosity before it looks for the test: its refusal of an unknown
    // one is said at that verbosity.
    if let Ok(v) = call.opts.int(dbpress_config::keys::VERBOSITY) {
        verbosity::set(v as u8);
    }
    let (workload, command, note) = match cli::workload_call_with(call.words, force_lua)? {
        WorkloadCall::Help(name) => return workload_help(call, &name),
        WorkloadCall::Lua {
            path,
            command,
            note,
        } => return lua(call, &path, command, &note),
        WorkloadCall::Run {
            workload,
            command,
            note,
        } => (workload, command, note),
    };
    let (opts, args) = (call.opts, call.argv);
    verbosity::set(opts.int(dbpress_config::keys::VERBOSITY)? as u8);
    cli::print_notices(opts);
    if let Some(note) = note.filter(|_| !dbpress_core::personality::is_sysbench()) {
        // Which script ran as which workload is said before anything runs (as sysbench, not
        // at all: sysbench runs the file, and dbpress does the same work).
        eprintln!("dbpress: notice: {note}");
    }
    // An unknown name is reported before any option problem it would otherwise hide.
    dbpress_workload::registry::known(&workload)?;
    let machine_test = dbpress_workload::machine::is_machine_test(&workload);
    if let Some(levels) = sweep::levels(opts)? {
        if machine_test {
            let threads = opts.text(dbpress_config::keys::THREADS);
            return Err(error::usage(dbpress_core::personality::words(
                || format!("Invalid value for the 'threads' option: '{threads}'"),
                || {
                    format!("--threads={threads}: {workload} takes one thread count (a sweep of a test of the machine is not built yet): run it once per count")
                },
            )));
        }
        if command != Command::Run {
            return Err(error::usage(format!(
                "--threads={} is a list, which only `run` takes (a thread sweep): give {} one number",
                opts.text(dbpress_config::keys::THREADS),
                command.name()
            )));
        }
        let build = |cfg: &RunConfig| {
            dbpress_workload::registry::build(&workload, opts, cfg.shape.threads, cfg.keys.seed)
        };
        return sweep::run(&workload, opts, &levels, args, &build, &|_| {});
    }
    // As sysbench, an unknown --db-driver fails only where a script asks for its driver.
    let unknown_driver = run::unknown_driver::named(opts);
    let driverless = unknown_driver
        .as_ref()
        .map(|_| run::unknown_driver::without(opts));
    let read = driverless.as_ref().unwrap_or(opts);
    let mut cfg = RunConfig::from_options(&workload, command, read)?;
    let w = dbpress_workload::registry::build(&workload, read, cfg.shape.threads, cfg.keys.seed)?;
    if let Some(name) = unknown_driver.filter(|_| w.needs_database()) {
        let mut out = dbpress_core::out::Stdout;
        let refusal = run::unknown_driver::refusal(&mut out, &cfg, w.as_ref(), &name);
        // Elsewhere dbpress's own line, with the fix.
        let own = || dbpress_config::resolve_driver(opts).err();
        return Err(refusal.or_else(own).unwrap_or_else(|| error::failed(name)));
    }
    if command == Command::Run {
        w.runnable()?;
    }
    if !w.needs_database() {
        // A test of the machine: its sessions send nothing, whatever target the options name.
        cfg.connection.target = dbpress_config::Target::DryRun;
    }
    if let Some(each) = w.events_per_thread(cfg.shape.threads) {
        if each == 0 {
            // 0 would mean no limit to the runner.
            return Err(error::usage(format!(
                "{workload}: the work asked leaves each of the {} threads nothing to do: raise --memory-total-size or lower --threads",
                cfg.shape.threads
            )));
        }
        cfg.shape.events_per_thread = each;
        cfg.shape.events = each * u64::from(cfg.shape.threads);
    }
    run_command(&cfg, w.as_ref(), args)
}

/// A Lua script run as written (#41): its top level (already run while the command line was
/// read), then its command, as `lua_commands` runs it.
fn lua(call: &Call<'_>, path: &str, command: Option<String>, note: &str) -> Result<u8> {
    let opts = call.opts;
    verbosity::set(opts.int(dbpress_config::keys::VERBOSITY)? as u8);
    cli::print_notices(opts);
    let parked = cli::lua_script::take(path);
    if verbosity::warnings() {
        for w in parked.iter().flat_map(|p| &p.warnings) {
            eprintln!("dbpress: warning: {w}");
        }
        // As sysbench (#42) nothing says which ran: sysbench runs the file, and so does dbpress.
        if !note.is_empty() && !dbpress_core::personality::is_sysbench() {
            eprintln!("dbpress: notice: {note}");
        }
    }
    let main = match parked {
        Some(p) => p.main,
        None => MainScript::load(path, None, command.as_deref().unwrap_or(""))?,
    };
    match command {
        // No command: the script is loaded (its top level ran), and that is all, as in sysbench.
        None => Ok(0),
        Some(command) => super::lua_commands::run(call, main, &command, &|cfg, w| {
            run_command(cfg, w, call.argv)
        }),
    }
}

/// `help` of a built-in workload: dbpress's options for it; as sysbench (#42), the stock
/// script's own help, found as sysbench finds it (`/usr/share/sysbench`, LUA_PATH), when the
/// machine has it.
fn workload_help(call: &Call<'_>, name: &str) -> Result<u8> {
    // The test as given: a stock script's path was read as its workload's name.
    let given = call.words.first().map_or(name, String::as_str);
    let stock = cli::lua_path::find(given).filter(|_| dbpress_core::personality::is_sysbench());
    let Some(path) = stock else {
        if dbpress_core::personality::is_sysbench()
            && dbpress_workload::machine::is_machine_test(name)
        {
            dbpress_core::out!("{}", help::sysbench_test_help(name));
            return Ok(0);
        }
        return help::workload(name);
    };
    let mut main = MainScript::load(&path, None, "help")?;
    if !given.ends_with(".lua") {
        main = main.named_as(given);
    }
    // A stock script's help asks for no driver: sysbench gives it whatever --db-driver says.
    let driverless =
        run::unknown_driver::named(call.opts).map(|_| run::unknown_driver::without(call.opts));
    let call = &Call {
        opts: driverless.as_ref().unwrap_or(call.opts),
        ..*call
    };
    super::lua_commands::run(call, main, "help", &|cfg, w| run_command(cfg, w, call.argv))
}

fn run_command(cfg: &RunConfig, w: &dyn Workload, args: &[String]) -> Result<u8> {
    let driver = make_driver(cfg)?;
    let ctx = Context {
        driver: driver.as_ref(),
        threads: cfg.shape.threads,
        dist: &cfg.keys.dist,
        invocation: cfg.invocation(&cfg.workload),
    };
    // Header and interval lines go to stdout, unless stdout carries the JSON result.
    let mut stdout = dbpress_core::out::Stdout;
    let mut stderr = std::io::stderr();
    let mut quiet = std::io::sink();
    let out: &mut dyn Write = match cfg.reporting.format {
        _ if !verbosity::notices() => &mut quiet,
        OutputFormat::Text => &mut stdout,
        _ => &mut stderr,
    };
    let _ = write!(out, "{}", dbpress_core::personality::first_line_block());
    if let Some(refused) = as_sysbench_session_refused(cfg, driver.as_ref()) {
        return Err(refused);
    }
    match cfg.command {
        Command::Prepare => {
            // As sysbench (#42), no line of dbpress's after its own.
            let as_sysbench = dbpress_core::personality::is_sysbench();
            if let Some(usage) = w.prepare(&ctx)?.filter(|_| !as_sysbench) {
                dbpress_report::text::host::report_prepare(&usage);
            }
            Ok(0)
        }
        Command::Cleanup => {
            w.cleanup(&ctx)?;
            Ok(0)
        }
        Command::Check => {
            w.check(&ctx)?;
            Ok(0)
        }
        Command::Prewarm => {
            // Missing or half-loaded tables get run's message (prepare first), not a raw
            // server error from the first read.
            let mut probe = dbpress_run::probe(driver.as_ref())?;
            for warning in w.check_ready(probe.as_mut(), &ctx)? {
                if verbosity::warnings() {
                    eprintln!("dbpress: warning: {warning}");
                }
            }
            drop(probe);
            w.prewarm(&ctx)?;
            Ok(0)
        }
        Command::Run => run_benchmark(cfg, w, driver.as_ref(), &ctx, args, out),
    }
}

fn run_benchmark(
    cfg: &RunConfig,
    w: &dyn Workload,
    driver: &dyn Driver,
    ctx: &Context<'_>,
    args: &[String],
    out: &mut dyn Write,
) -> Result<u8> {
    let signals = signals::Signals::install();
    let m = run::measure(cfg, w, ctx, args, out, &signals, &|m| {
        run::exit_forced(cfg, &m, driver.hints(), w)
    })?;
    run::finish(cfg, &m, driver.hints(), w)
}

/// As sysbench (#42), a stock OLTP test's prepare (one thread) or cleanup whose session the
/// server refuses, or that finds no server: sysbench's lines for it, from one session opened
/// first (the work then opens its own, as it would have).
fn as_sysbench_session_refused(
    cfg: &RunConfig,
    driver: &dyn dbpress_driver::Driver,
) -> Option<error::Error> {
    let one_session = match cfg.command {
        Command::Prepare => cfg.shape.threads == 1,
        Command::Cleanup => true,
        _ => false,
    };
    if !dbpress_core::personality::is_sysbench() || !one_session {
        return None;
    }
    let e = dbpress_driver::connect_checked(driver, 0).err()?;
    dbpress_run::as_sysbench::failure(cfg, &e).map(error::failed)
}
