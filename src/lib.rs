//! dbpress: a database pressure-testing tool, sysbench-compatible.
//!
//! `main_with_args` is the whole program; `main.rs` only maps its return value to the exit code,
//! so tests can drive the tool in-process as well as through the binary.

pub mod cli;
pub mod compare;
pub mod config;
pub mod counters;

pub mod environment;
pub mod error;
pub mod export;
pub mod host;
pub mod rand;
pub mod report;
pub mod result;
pub mod run;
pub mod runner;
pub mod script;
pub mod slap;
pub mod stats;
pub mod sweep;
pub mod verbosity;
pub mod waits;
pub mod workload;

use cli::{Command, Invocation, OptionValues};
use config::to_driver::make_driver;
use config::{OutputFormat, RunConfig};
use dbpress_driver::Driver;
use error::Result;
use std::io::Write;
use workload::{Context, Workload};

pub use result::VERSION;

/// Run dbpress with `args` (without the program name); returns the exit code.
pub fn main_with_args(args: &[String]) -> u8 {
    match dispatch(args) {
        Ok(code) => code,
        Err(e) => {
            let _ = std::io::stdout().flush();
            eprintln!("dbpress: error: {}", e.message());
            e.exit_code()
        }
    }
}

fn dispatch(args: &[String]) -> Result<u8> {
    // mysqlslap's grammar (short flags, -pPASSWORD) is not sysbench's: slap parses its own.
    if args.first().map(String::as_str) == Some("slap") {
        return slap::main(&args[1..]);
    }
    // pgbench's grammar likewise (-f FILE@W, -D name=value, -c -T -t).
    if args.first().map(String::as_str) == Some("script") {
        return script::main(&args[1..]);
    }
    // Several files, and options of its own.
    if args.first().map(String::as_str) == Some("compare") {
        return compare::main(&args[1..]);
    }
    let inv = cli::parse(args)?;
    match inv {
        Invocation::Version => {
            println!("dbpress {VERSION}");
            Ok(0)
        }
        Invocation::Help => {
            print!("{}", general_help());
            Ok(0)
        }
        Invocation::List => {
            let all = workload::list();
            // Names in one column, however long the longest.
            let w = all.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
            for (name, desc) in all {
                println!("  {name:<w$}  {desc}");
            }
            Ok(0)
        }
        Invocation::HelpWorkload(name) => {
            workload::known(&name)?;
            print!("{}", workload_help(&name));
            Ok(0)
        }
        Invocation::Report(file, opts) => report::main(&file, &opts),
        Invocation::Workload {
            workload,
            command,
            opts,
        } => {
            verbosity::set(config::int(&opts, "verbosity", 0, 5)? as u8);
            cli::print_notices(&opts);
            // An unknown name is reported before any option problem it would otherwise hide.
            workload::known(&workload)?;
            if let Some(levels) = sweep::levels(&opts)? {
                if command != Command::Run {
                    return Err(error::usage(format!(
                        "--threads={} is a list, which only `run` takes (a thread sweep): give {} one number",
                        opts.get("threads"),
                        command.name()
                    )));
                }
                let build =
                    |o: &OptionValues, cfg: &RunConfig| workload::build(&workload, o, cfg.seed);
                return sweep::run(&workload, &opts, &levels, args, &build, &|_| {});
            }
            let cfg = RunConfig::from_options(&workload, command, &opts)?;
            let w = workload::build(&workload, &opts, cfg.seed)?;
            run_command(&cfg, w.as_ref(), args)
        }
    }
}

fn run_command(cfg: &RunConfig, w: &dyn Workload, args: &[String]) -> Result<u8> {
    let driver = make_driver(cfg)?;
    let ctx = Context {
        driver: driver.as_ref(),
        threads: cfg.threads,
        dist: &cfg.dist,
        invocation: format!("dbpress {}", cfg.workload),
    };
    // Header and interval lines go to stdout, unless stdout carries the JSON result.
    let mut stdout = std::io::stdout();
    let mut stderr = std::io::stderr();
    let mut quiet = std::io::sink();
    let out: &mut dyn Write = match cfg.output_format {
        _ if !verbosity::notices() => &mut quiet,
        OutputFormat::Text => &mut stdout,
        _ => &mut stderr,
    };
    let _ = writeln!(out, "dbpress {VERSION} (sysbench-compatible)\n");
    match cfg.command {
        Command::Prepare => {
            w.prepare(&ctx)?;
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
            let mut probe = runner::probe(driver.as_ref())?;
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
    let signals = runner::signals::Signals::install();
    let m = run::measure(cfg, w, ctx, args, out, &signals, &|m| {
        run::exit_forced(cfg, &m, driver.hints(), w)
    })?;
    run::finish(cfg, &m, driver.hints(), w)
}

fn general_help() -> String {
    let mut s = format!(
        "dbpress {VERSION}: database pressure testing, sysbench-compatible\n\n\
         Usage:\n  dbpress <workload> prepare|run|cleanup|check|prewarm [options]\n  \
         dbpress <workload> run --threads=1,2,4,8 [options]   (a thread sweep)\n  \
         dbpress slap [mysqlslap options]   (your own SQL; dbpress slap --help)\n  \
         dbpress script prepare|run|cleanup [pgbench options]   (dbpress script --help)\n  dbpress list\n  \
         dbpress help <workload>\n  dbpress report FILE [--output-format=text|json|csv|markdown|html]\n  \
         dbpress compare BASELINE.json OTHER.json… [--metrics=qps,p95]   (results side by side)\n  dbpress --version\n\n\
         Examples:\n  dbpress oltp_read_write prepare --mysql-host=127.0.0.1 --tables=4 --table-size=100000\n  \
         dbpress oltp_read_write run --mysql-host=127.0.0.1 --tables=4 --table-size=100000 --threads=8 --time=60 --report-interval=1\n  \
         dbpress oltp_point_select run --db mysql://sbtest@127.0.0.1:3306/sbtest --rate=5000 --output=result.json\n\n"
    );
    s.push_str(&options_help(GENERAL_GROUPS));
    s
}

/// Option groups every command accepts, after a workload's own options in its help.
const GENERAL_GROUPS: &[cli::options::Group] = &[
    cli::options::Group::General,
    cli::options::Group::Rand,
    cli::options::Group::Db,
    cli::options::Group::Mysql,
    cli::options::Group::Pgsql,
    cli::options::Group::Sqlite,
    cli::options::Group::Output,
];

fn workload_help(name: &str) -> String {
    let mut s = format!("{name} options:\n");
    s.push_str(&options_help(&[cli::options::Group::Oltp]));
    s.push_str(&options_help(GENERAL_GROUPS));
    s
}

fn options_help(groups: &[cli::options::Group]) -> String {
    use cli::options::{Kind, SPECS};
    let mut s = String::new();
    for &g in groups {
        s.push_str(&format!("{}:\n", g.title()));
        let mut specs: Vec<_> = SPECS.iter().filter(|o| o.group == g).collect();
        specs.sort_by_key(|o| o.name);
        for o in specs {
            let shape = match o.kind {
                Kind::Bool => "[=on|off]",
                Kind::Int | Kind::Float => "=N",
                Kind::Str => "=STRING",
                Kind::List => "=[LIST,...]",
            };
            let flag = format!("--{}{shape}", o.name);
            let default = if o.default.is_empty() {
                String::new()
            } else {
                format!(" [{}]", o.default)
            };
            s.push_str(&format!("  {flag:<34} {}{default}\n", o.help));
        }
        s.push('\n');
    }
    s
}
