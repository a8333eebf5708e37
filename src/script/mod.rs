//! `dbpress script prepare|run|cleanup`: pgbench-style scripts on every engine.
//!
//! `-f FILE[@WEIGHT]` and `-b tpcb-like|simple-update|select-only[@WEIGHT]` (pgbench's built-in
//! scripts, `-S` and `-N` as in pgbench), `-D name=value`, `-s/--scale`; pgbench's run flags
//! `-c -T -t -M -P -R -n` map onto dbpress's options, and every dbpress option passes through.
//! Scripts are parsed, and every variable checked, before anything connects.

pub(crate) mod args;
mod pgbench_block;
mod pgbench_flags;
pub(crate) mod target;

use crate::run;
use args::Args;
use dbpress_config::to_driver::make_driver;
use dbpress_config::Command as RunCommand;
use dbpress_config::ConnectionFlags;
use dbpress_config::RunConfig;
use dbpress_core::error::{usage, Result};
use dbpress_core::signals::Signals;
use dbpress_report::OutputFormat;
use dbpress_result::VERSION;
use dbpress_workload::script::pgbench_tables::{self, PgbenchTables};
use dbpress_workload::script::workload::Tables;
use dbpress_workload::script::{builtin, expr, parse, workload};
use dbpress_workload::Context;
use dbpress_workload::Workload;
use expr::Value;
use parse::Script;
use std::collections::HashMap;
use std::io::Write;

pub const HELP: &str = "dbpress script: pgbench-style scripts on every engine\n\n\
Usage:\n  dbpress script prepare [-b tpcb-like] [-s SCALE] | [-f init.sql]   (pgbench -i, or your own setup)\n  \
dbpress script run [-f FILE[@W]]... [-b NAME[@W]]... [-D name=value]... [-c CLIENTS] [-T SECONDS | -t PER_CLIENT]\n  \
dbpress script cleanup [-b tpcb-like] | [-f drop.sql]\n\n\
Built-in scripts: tpcb-like (default), simple-update (-N), select-only (-S), as pgbench defines them.\n\
Script lines: SQL ending with ';', `\\set name expression`, `\\sleep n [us|ms|s]`; :name in SQL is a bound\n\
parameter. Connection: --db, --pgsql-*/--mysql-*/--sqlite-* or -h HOST -p PORT -U USER [DBNAME]\n\
(PostgreSQL unless --db/--db-driver says otherwise). A pgbench command line also works as pasted\n\
after `dbpress script`: with -i it prepares, otherwise it runs. See docs/GUIDE.md, scripts.\n";

fn builtin_names() -> String {
    let names: Vec<&str> = builtin::SCRIPTS.iter().map(|(n, _)| *n).collect();
    names.join(", ")
}

/// Every script, parsed (built-ins by name, files by path); pgbench's default is tpcb-like.
fn load_scripts(a: &Args) -> Result<Vec<Script>> {
    let mut out = Vec::new();
    for (path, w) in &a.files {
        let text = std::fs::read_to_string(path)
            .map_err(|e| usage(format!("cannot read script {path}: {e}")))?;
        out.push(parse::parse(path, &text, *w).map_err(|e| usage(parse::one_line(&e)))?);
    }
    for (name, w) in &a.builtins {
        let text = builtin::script(name).ok_or_else(|| {
            usage(format!(
                "unknown built-in script '{name}': use one of {}",
                builtin_names()
            ))
        })?;
        out.push(parse::parse(name, text, *w).map_err(|e| usage(parse::one_line(&e)))?);
    }
    if out.is_empty() && a.command == RunCommand::Run {
        out.push(
            parse::parse(
                "tpcb-like",
                builtin::script("tpcb-like").unwrap_or_default(),
                1,
            )
            .map_err(usage)?,
        );
    }
    Ok(out)
}

/// Prepare or cleanup, which the workload does: pgbench's own tables, or the user's scripts.
fn lifecycle(w: &workload::ScriptWorkload, command: RunCommand, ctx: &Context<'_>) -> Result<u8> {
    match command {
        RunCommand::Prepare => {
            if let Some(usage) = w.prepare(ctx)? {
                dbpress_report::text::host::report_prepare(&usage);
            }
        }
        _ => w.cleanup(ctx)?,
    }
    Ok(0)
}

/// Help, or pgbench's --show-script, which it takes without anything else (so does dbpress,
/// command or not): the exit code when one of them was asked for.
fn help_or_show_script(raw: &[String]) -> Result<Option<u8>> {
    // `help` as the first word asks for help, as for every dbpress command (it is not taken as
    // pgbench's DBNAME).
    if raw.iter().any(|a| a == "--help" || a == "-?")
        || raw.is_empty()
        || raw.first().is_some_and(|a| a == "help")
    {
        dbpress_core::out!("{HELP}");
        return Ok(Some(if raw.is_empty() { 2 } else { 0 }));
    }
    let show = raw
        .iter()
        .enumerate()
        .find_map(|(i, arg)| match arg.as_str() {
            "--show-script" => raw.get(i + 1).cloned(),
            _ => arg.strip_prefix("--show-script=").map(str::to_string),
        });
    let Some(name) = show else {
        return Ok(None);
    };
    let text = builtin::script(&name).ok_or_else(|| {
        usage(format!(
            "unknown built-in script '{name}': use one of {}",
            builtin_names()
        ))
    })?;
    dbpress_core::out!("-- {name}\n{}\n", text.trim_end());
    Ok(Some(0))
}

/// The variables every client starts with: -D values (text, read when used, as pgbench
/// keeps them), random_seed, and default_seed drawn as pgbench draws it for `clients`.
pub(crate) fn globals(a: &Args, seed: u64, clients: u32) -> HashMap<String, Value> {
    let mut globals: HashMap<String, Value> = a
        .defines
        .iter()
        .map(|(k, v)| (k.clone(), Value::Text(v.clone())))
        .collect();
    let seeds = expr::prng::RunSeeds::new(seed, clients as usize);
    globals
        .entry("random_seed".into())
        .or_insert(Value::Int(seed as i64));
    globals
        .entry("default_seed".into())
        .or_insert(Value::Int(seeds.default_seed() as i64));
    globals
}

/// Unknown variables are found before connecting, with the script and line that use them.
fn check_variables(scripts: &[Script], globals: &HashMap<String, Value>) -> Result<()> {
    let known = |n: &str| globals.contains_key(n) || n == "scale" || n == "client_id";
    for s in scripts {
        if let Some((name, line)) = parse::free_variables(s)
            .into_iter()
            .find(|(n, _)| !known(n))
        {
            return Err(usage(format!(
                "{}:{}: variable :{name} is used but never set: \\set it in the script or give -D {name}=VALUE",
                s.name,
                line.max(1)
            )));
        }
    }
    Ok(())
}

pub fn main(raw: &[String]) -> Result<u8> {
    if let Some(code) = help_or_show_script(raw)? {
        return Ok(code);
    }
    let a = args::parse_args(raw)?;
    crate::cli::print_notices(&a.opts);
    let scripts = load_scripts(&a)?;
    // `-c 1,2,4` is a sweep; everything before the run uses its first level.
    let levels = crate::sweep::levels(&a.opts)?;
    let mut cfg = match &levels {
        Some(l) => crate::sweep::first_config("script", &a.opts, l[0])?,
        None => RunConfig::from_options("script", RunCommand::Run, &a.opts)?,
    };
    if a.pgbench_connection {
        cfg.connection.flags = ConnectionFlags::Pgbench;
    }
    let mut globals = globals(&a, cfg.keys.seed, cfg.shape.threads);
    check_variables(&scripts, &globals)?;
    let driver = make_driver(&cfg)?;
    let ctx = Context {
        driver: driver.as_ref(),
        threads: cfg.shape.threads,
        dist: &cfg.keys.dist,
        invocation: cfg.invocation("script"),
    };
    match a.command {
        RunCommand::Prepare | RunCommand::Cleanup => {
            let tables = match a.uses_builtin_tables() {
                true => Tables::Pgbench(PgbenchTables {
                    scale: a.scale.unwrap_or(1),
                    no_vacuum: a.no_vacuum(),
                }),
                false => Tables::Scripted {
                    seed: cfg.keys.seed,
                },
            };
            let w = workload::ScriptWorkload::new(scripts, globals).on_tables(tables);
            lifecycle(&w, a.command, &ctx)
        }
        _ => {
            let scale = match a.scale {
                Some(s) => s,
                // As pgbench: the scale is the number of branches prepare made.
                None if a.uses_builtin_tables() => pgbench_tables::scale(&ctx)?,
                None => 1,
            };
            globals.insert("scale".into(), Value::Int(scale as i64));
            let w =
                workload::ScriptWorkload::new(scripts, globals).in_mode(a.mode, cfg.shape.threads);
            run_scripts(&a, &cfg, levels.as_deref(), w, raw)
        }
    }
}

/// pgbench's -t counts per client: each runs exactly its own t, however fast the others go.
pub(crate) fn per_client(a: &Args, cfg: &mut RunConfig) {
    if a.pgbench_connection {
        cfg.connection.flags = ConnectionFlags::Pgbench;
    }
    if let Some(t) = a.per_client {
        cfg.shape.events = t * u64::from(cfg.shape.threads);
        cfg.shape.events_per_thread = t;
        cfg.shape.time = 0;
    }
}

/// The run, or with `-c 1,2,4` the sweep, of the scripts.
fn run_scripts(
    a: &Args,
    cfg: &RunConfig,
    levels: Option<&[u32]>,
    w: workload::ScriptWorkload,
    raw: &[String],
) -> Result<u8> {
    if w.statements() > 250 {
        return Err(usage(
            "scripts hold more than 250 SQL statements in all; dbpress takes at most 250",
        ));
    }
    let args: Vec<String> = std::iter::once("script".to_string())
        .chain(raw.iter().cloned())
        .collect();
    let Some(levels) = levels else {
        return run_single(a, cfg, &w, &args);
    };
    // `-c 1,2,4`: one step per client count, each with its own connections.
    let build = |_: &RunConfig| -> Result<Box<dyn Workload>> {
        Ok(Box::new(
            workload::ScriptWorkload::new(w.scripts.clone(), w.globals.clone())
                .in_mode(w.mode, w.clients),
        ))
    };
    crate::sweep::run("script", &a.opts, levels, &args, &build, &|cfg| {
        per_client(a, cfg)
    })
}

/// One run of the scripts, closed by pgbench's own report block.
fn run_single(
    a: &Args,
    cfg: &RunConfig,
    w: &workload::ScriptWorkload,
    args: &[String],
) -> Result<u8> {
    let mut cfg = cfg.clone();
    per_client(a, &mut cfg);
    let driver = make_driver(&cfg)?;
    let ctx = Context {
        driver: driver.as_ref(),
        threads: cfg.shape.threads,
        dist: &cfg.keys.dist,
        invocation: cfg.invocation("script"),
    };
    let signals = Signals::install();
    let mut stdout = dbpress_core::out::Stdout;
    let mut stderr = std::io::stderr();
    let out: &mut dyn Write = match cfg.reporting.format {
        OutputFormat::Text => &mut stdout,
        _ => &mut stderr,
    };
    let _ = writeln!(out, "dbpress {VERSION} script (pgbench-style)\n");
    let m = run::measure(&cfg, w, &ctx, args, out, &signals, &|m| {
        run::exit_forced(&cfg, &m, driver.hints(), w)
    })?;
    let code = run::finish(&cfg, &m, driver.hints(), w)?;
    if cfg.reporting.format == OutputFormat::Text {
        let names: Vec<String> = w.scripts.iter().map(|s| s.name.clone()).collect();
        let scale = match w.globals.get("scale") {
            Some(Value::Int(n)) => *n,
            _ => 1,
        };
        dbpress_core::out!(
            "{}",
            pgbench_block::block(
                &m.result,
                &pgbench_block::transaction_type(&names),
                scale,
                a.per_client
            )
        );
    }
    Ok(code)
}
