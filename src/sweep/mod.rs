//! Thread-count sweeps: `--threads 1,2,4,8` runs one step per level, each a complete run (its
//! own connections, warm-up and duration), and ends with one table: threads, TPS, QPS, p95,
//! p99, errors/s and the ratio to the best level. A level that cannot start (the server's
//! max_connections, say) is reported in the table with its reason and the sweep goes on.

pub mod recorder;

use crate::run;
use dbpress_config::to_driver::make_driver;
use dbpress_config::Command;
use dbpress_config::{Reporting, RunConfig, RunShape};
use dbpress_core::error::{usage, Result};
use dbpress_core::options::OptionValues;
use dbpress_core::signals::Signals;
use dbpress_report::OutputFormat;
use dbpress_workload::{Context, Workload};
pub use recorder::{Ending, Sweep, MISSING_LEVEL_EXIT_CODE};
use std::collections::BTreeMap;
use std::io::Write;

/// The levels of `--threads` when it is a list (`1,2,4`); None for a single value.
pub fn levels(opts: &OptionValues) -> Result<Option<Vec<u32>>> {
    let raw = opts.get("threads");
    if !raw.contains(',') {
        return Ok(None);
    }
    let mut levels = Vec::new();
    for part in raw.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        match part.parse::<u32>() {
            Ok(n) if (1..=100_000).contains(&n) => levels.push(n),
            _ => {
                return Err(usage(format!(
                    "invalid level '{part}' in --threads={raw}: use whole numbers from 1 to 100000, like 1,2,4,8"
                )))
            }
        }
    }
    if levels.is_empty() {
        return Err(usage(format!(
            "--threads={raw} lists no level: use whole numbers like 1,2,4,8"
        )));
    }
    Ok(Some(levels))
}

/// The first level's configuration, from the options as given but for the thread count (a
/// list there, one number here); every other level's is derived from it by `level_config`.
pub fn first_config(workload: &str, opts: &OptionValues, threads: u32) -> Result<RunConfig> {
    RunConfig::at_threads(workload, Command::Run, opts, threads)
}

/// One level's configuration: the first level's with `threads`, and no result file of its own
/// (the sweep writes one). The seed stays the first level's, so every level replays the same
/// random streams.
pub fn level_config(first: &RunConfig, threads: u32) -> RunConfig {
    RunConfig {
        shape: RunShape {
            threads,
            ..first.shape
        },
        reporting: Reporting {
            file: None,
            ..first.reporting.clone()
        },
        echo: echo_with(&first.echo, &[("threads", threads.to_string())]),
        ..first.clone()
    }
}

/// The result's copy of the options with some values replaced: what a step ran with.
pub fn echo_with(
    echo: &BTreeMap<String, String>,
    values: &[(&str, String)],
) -> BTreeMap<String, String> {
    let mut echo = echo.clone();
    for (name, value) in values {
        echo.insert(name.to_string(), value.clone());
    }
    echo
}

/// What fails whatever the thread count (the server unreachable, a wrong password, tables not
/// prepared) fails the sweep at once, in one line, instead of once per level and again after
/// the table: one session, and the workload's check that its tables are ready (which only
/// reads).
fn preflight(level: &Level) -> Result<()> {
    let ctx = level.context();
    let mut probe = dbpress_run::probe(level.driver.as_ref())?;
    level.workload.check_ready(probe.as_mut(), &ctx).map(|_| ())
}

/// One level's configuration, workload and driver.
struct Level {
    cfg: RunConfig,
    workload: Box<dyn Workload>,
    driver: Box<dyn dbpress_driver::Driver>,
}

impl Level {
    fn new(
        first: &RunConfig,
        threads: u32,
        build: BuildWorkload<'_>,
        adjust: &dyn Fn(&mut RunConfig),
    ) -> Result<Level> {
        let mut cfg = level_config(first, threads);
        adjust(&mut cfg);
        let workload = build(&cfg)?;
        let driver = make_driver(&cfg)?;
        Ok(Level {
            cfg,
            workload,
            driver,
        })
    }

    fn context(&self) -> Context<'_> {
        Context {
            driver: self.driver.as_ref(),
            threads: self.cfg.shape.threads,
            dist: &self.cfg.keys.dist,
            invocation: self.cfg.invocation(&self.cfg.workload),
        }
    }
}

/// Builds the workload of one step from that step's configuration (workloads size per-thread
/// state, such as tables per thread, by its thread count).
pub type BuildWorkload<'a> = &'a dyn Fn(&RunConfig) -> Result<Box<dyn Workload>>;

/// Run every level; `build` makes each step's workload and `adjust` finishes its configuration
/// (pgbench's per-client -t, say). Returns the exit code.
pub fn run(
    workload_name: &str,
    opts: &OptionValues,
    levels: &[u32],
    args: &[String],
    build: BuildWorkload<'_>,
    adjust: &dyn Fn(&mut RunConfig),
) -> Result<u8> {
    let signals = Signals::install();
    let first = first_config(workload_name, opts, levels[0])?;
    let mut stdout = dbpress_core::out::Stdout;
    let mut stderr = std::io::stderr();
    let mut quiet = std::io::sink();
    let out: &mut dyn Write = match first.reporting.format {
        _ if !dbpress_core::verbosity::notices() => &mut quiet,
        OutputFormat::Text => &mut stdout,
        _ => &mut stderr,
    };
    let _ = write!(out, "{}", dbpress_core::personality::first_line_block());
    let mut next = Some(Level::new(&first, levels[0], build, adjust)?);
    preflight(next.as_ref().expect("the first level"))?;
    let mut sweep = Sweep::new(&first, args, levels);
    let mut interrupted = None;
    for (i, &threads) in levels.iter().enumerate() {
        let level = match next.take() {
            Some(level) => level,
            None => Level::new(&first, threads, build, adjust)?,
        };
        let _ = writeln!(
            out,
            "=== Sweep step {} of {}: {threads} threads ===\n",
            i + 1,
            levels.len()
        );
        interrupted = step(&mut sweep, &level, args, out, &signals);
        if interrupted.is_some() {
            break;
        }
    }
    sweep.finish(interrupted)
}

/// One level measured and recorded; what interrupted it, if anything did.
fn step(
    sweep: &mut Sweep,
    level: &Level,
    args: &[String],
    out: &mut dyn Write,
    signals: &Signals,
) -> Option<&'static str> {
    let (cfg, w, hints) = (&level.cfg, level.workload.as_ref(), level.driver.hints());
    let text = cfg.reporting.format == OutputFormat::Text;
    // A level --forced-shutdown cuts short, or one that left sessions behind, ends the
    // sweep there, with its table and file: its workers still wait on the server, and the
    // next level would queue behind them.
    let forced = |m: run::Measured| {
        if text && dbpress_core::verbosity::notices() {
            dbpress_core::out!(
                "{}",
                dbpress_report::text::summary(&m.result, cfg.reporting.histogram)
            );
        }
        let mut sweep = sweep.clone();
        sweep.ran(cfg.shape.threads, None, m.result, None);
        let code = sweep.finish(m.interrupted_by).unwrap_or_else(|e| {
            eprintln!("dbpress: error: {}", e.message());
            e.exit_code()
        });
        std::process::exit(i32::from(code))
    };
    match run::measure(cfg, w, &level.context(), args, out, signals, &forced) {
        Ok(m) => {
            if text {
                let _ = write!(
                    out,
                    "{}",
                    dbpress_report::text::summary(&m.result, cfg.reporting.histogram)
                );
            }
            let fatal = m.fatal.as_ref().map(|e| {
                dbpress_run::fatal_message(e, hints, w)
                    .message()
                    .to_string()
            });
            sweep.ran(cfg.shape.threads, None, m.result, fatal);
            if m.interrupted_by.is_some() {
                return m.interrupted_by;
            }
        }
        Err(e) => {
            // The level could not start (connections refused, a limit reached): say why in
            // the table and go on with the next level.
            let _ = writeln!(
                out,
                "dbpress: level {} did not run: {}\n",
                cfg.shape.threads,
                e.message()
            );
            sweep.missed(cfg.shape.threads, None, e.message());
        }
    }
    signals.caught()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::parse_workload;

    fn opts(s: &str) -> OptionValues {
        let args: Vec<String> = s.split_whitespace().map(String::from).collect();
        parse_workload(&args).unwrap().2
    }

    #[test]
    fn a_thread_list_is_a_sweep_and_a_bad_level_is_named() {
        assert_eq!(
            levels(&opts("oltp_point_select run --threads=8")).unwrap(),
            None
        );
        assert_eq!(
            levels(&opts("oltp_point_select run --threads=1,2,16")).unwrap(),
            Some(vec![1, 2, 16])
        );
        let e = levels(&opts("oltp_point_select run --threads=1,x")).unwrap_err();
        assert!(e.message().contains("invalid level 'x'"));
        let e = levels(&opts("oltp_point_select run --threads=1,0")).unwrap_err();
        assert!(e.message().contains("invalid level '0'"));
    }
}
