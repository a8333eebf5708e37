//! Thread-count sweeps: `--threads 1,2,4,8` runs one step per level, each a complete run (its
//! own connections, warm-up and duration), and ends with one table: threads, TPS, QPS, p95,
//! p99, errors/s and the ratio to the best level. A level that cannot start (the server's
//! max_connections, say) is reported in the table with its reason and the sweep goes on.

use crate::run;
use dbpress_config::redact::redact_args;
use dbpress_config::to_driver::make_driver;
use dbpress_config::Command;
use dbpress_config::{OutputFormat, RunConfig};
use dbpress_core::error::{environment, usage, Result};
use dbpress_core::options::OptionValues;
use dbpress_core::signals::{self, Signals};
use dbpress_measure::result::sweep::{Step, SweepResult};
use dbpress_measure::result::VERSION;
use dbpress_measure::result::{Tool, SCHEMA_VERSION};
use dbpress_report::sweep_row::table;
use dbpress_workload::{Context, Workload};
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
    workload_name: String,
}

impl Level {
    /// `seed`: the sweep's, drawn once so every level replays the same random streams (the
    /// level's options keep what the user gave, 0 for drawn at random, which `compare` reads).
    fn new(
        workload_name: &str,
        opts: &OptionValues,
        threads: u32,
        seed: u64,
        build: BuildWorkload<'_>,
        adjust: &dyn Fn(&mut RunConfig),
    ) -> Result<Level> {
        let mut o = opts.clone();
        o.set("threads", threads.to_string());
        let mut cfg = RunConfig::from_options(workload_name, Command::Run, &o)?;
        cfg.seed = seed;
        cfg.output_file = None;
        adjust(&mut cfg);
        // Workloads size per-thread state (tables per thread, key slices) from --threads.
        let workload = build(&o, &cfg)?;
        let driver = make_driver(&cfg)?;
        Ok(Level {
            cfg,
            workload,
            driver,
            workload_name: workload_name.to_string(),
        })
    }

    fn context(&self) -> Context<'_> {
        Context {
            driver: self.driver.as_ref(),
            threads: self.cfg.threads,
            dist: &self.cfg.dist,
            invocation: self.cfg.invocation(&self.workload_name),
        }
    }
}

/// Builds the workload of one step (its options carry that step's --threads).
pub type BuildWorkload<'a> = &'a dyn Fn(&OptionValues, &RunConfig) -> Result<Box<dyn Workload>>;

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
    let first = {
        let mut o = opts.clone();
        o.set("threads", levels[0].to_string());
        RunConfig::from_options(workload_name, Command::Run, &o)?
    };
    let mut stdout = dbpress_core::out::Stdout;
    let mut stderr = std::io::stderr();
    let mut quiet = std::io::sink();
    let out: &mut dyn Write = match first.output_format {
        _ if !dbpress_core::verbosity::notices() => &mut quiet,
        OutputFormat::Text => &mut stdout,
        _ => &mut stderr,
    };
    let _ = writeln!(out, "dbpress {VERSION} (sysbench-compatible)\n");
    preflight(&Level::new(
        workload_name,
        opts,
        levels[0],
        first.seed,
        build,
        adjust,
    )?)?;
    let mut steps = Vec::new();
    let mut failed = false;
    let mut interrupted = None;
    for (i, &level) in levels.iter().enumerate() {
        let step = Level::new(workload_name, opts, level, first.seed, build, adjust)?;
        let (cfg, w, driver) = (&step.cfg, &step.workload, &step.driver);
        let ctx = step.context();
        let _ = writeln!(
            out,
            "=== Sweep step {} of {}: {level} threads ===\n",
            i + 1,
            levels.len()
        );
        // A level --forced-shutdown cuts short, or one that left sessions behind, ends the
        // sweep there, with its table and file: its workers still wait on the server, and the
        // next level would queue behind them.
        let forced = |m: run::Measured| {
            if first.output_format == OutputFormat::Text && dbpress_core::verbosity::notices() {
                dbpress_core::out!(
                    "{}",
                    dbpress_report::text::summary(&m.result, cfg.histogram)
                );
            }
            let mut steps = steps.clone();
            steps.push(Step {
                threads: level,
                engine: None,
                result: Some(m.result),
                error: None,
            });
            let interrupted = m.interrupted_by;
            let code = conclude(
                &first,
                workload_name,
                levels,
                args,
                steps,
                interrupted,
                failed,
            )
            .unwrap_or_else(|e| {
                eprintln!("dbpress: error: {}", e.message());
                e.exit_code()
            });
            std::process::exit(i32::from(code))
        };
        match run::measure(cfg, w.as_ref(), &ctx, args, out, &signals, &forced) {
            Ok(m) => {
                if first.output_format == OutputFormat::Text {
                    let _ = write!(
                        out,
                        "{}",
                        dbpress_report::text::summary(&m.result, cfg.histogram)
                    );
                }
                let error = m.fatal.as_ref().map(|e| {
                    failed = true;
                    dbpress_run::fatal_message(e, driver.hints(), w.as_ref())
                        .message()
                        .to_string()
                });
                steps.push(Step {
                    threads: level,
                    engine: None,
                    result: Some(m.result),
                    error,
                });
                if m.interrupted_by.is_some() {
                    interrupted = m.interrupted_by;
                    break;
                }
            }
            Err(e) => {
                // The level could not start (connections refused, a limit reached): say why in
                // the table and go on with the next level.
                let _ = writeln!(out, "dbpress: level {level} did not run: {}\n", e.message());
                steps.push(Step {
                    threads: level,
                    engine: None,
                    result: None,
                    error: Some(e.message().to_string()),
                });
            }
        }
        if signals.caught().is_some() {
            interrupted = signals.caught();
            break;
        }
    }
    conclude(
        &first,
        workload_name,
        levels,
        args,
        steps,
        interrupted,
        failed,
    )
}

/// Why a sweep ended before its last level, for the rows of the levels it never reached.
pub fn stopped_by(interrupted: Option<&str>) -> String {
    match interrupted {
        Some(sig) => format!("the sweep was interrupted by {sig}"),
        None => "the sweep stopped at the forced shutdown".to_string(),
    }
}

/// The end of a sweep: the document (file and stdout), the table, and the exit code.
fn conclude(
    first: &RunConfig,
    workload_name: &str,
    levels: &[u32],
    args: &[String],
    steps: Vec<Step>,
    interrupted: Option<&'static str>,
    failed: bool,
) -> Result<u8> {
    let left_behind = steps
        .iter()
        .any(|s| s.result.as_ref().is_some_and(|r| r.run.abandoned.is_some()));
    let stopped_by = match interrupted {
        None if left_behind => "the sweep stopped: the server stopped answering".to_string(),
        _ => stopped_by(interrupted),
    };
    let not_reached: Vec<(Option<String>, u32)> = levels[steps.len().min(levels.len())..]
        .iter()
        .map(|&t| (None, t))
        .collect();
    let table = table(&steps, &not_reached, &stopped_by);
    let sweep = SweepResult {
        schema_version: SCHEMA_VERSION,
        kind: "sweep".into(),
        tool: Tool {
            name: "dbpress".into(),
            version: VERSION.into(),
        },
        command_line: redact_args(args),
        workload: workload_name.to_string(),
        levels: levels.to_vec(),
        steps,
        table,
    };
    if let Some(path) = &first.output_file {
        dbpress_report::write_sweep(path, &sweep)?;
    }
    match first.output_format {
        OutputFormat::Text if dbpress_core::verbosity::notices() => {
            dbpress_core::out!("{}", dbpress_report::text::sweep::render_table(&sweep))
        }
        OutputFormat::Text => {}
        other => dbpress_core::out!("{}", dbpress_report::sweep_as(other, &sweep)),
    }
    let _ = std::io::stdout().flush();
    if let Some(store) = &first.store {
        let runs: Vec<&dbpress_measure::result::RunResult> = sweep
            .steps
            .iter()
            .filter_map(|s| s.result.as_ref())
            .collect();
        crate::keep::save(
            store,
            &first.tags,
            &runs,
            Some(&crate::keep::batch_name("sweep")),
        )?;
    }
    if let Some((threads, a)) = sweep.steps.iter().find_map(|s| {
        let r = s.result.as_ref()?;
        Some((r.run.threads, r.run.abandoned.as_ref()?))
    }) {
        eprintln!(
            "dbpress: {}; the sweep stops at this level",
            run::abandoned_message(a, threads)
        );
        return Ok(run::abandoned_exit_code(a));
    }
    if let Some(sig) = interrupted {
        eprintln!("dbpress: interrupted by {sig}; the table covers the levels that ran");
        return Ok(signals::exit_code(sig));
    }
    if let Some((threads, f)) = sweep.steps.iter().find_map(|s| {
        let r = s.result.as_ref()?;
        Some((r.run.threads, r.run.forced_shutdown.as_ref()?))
    }) {
        eprintln!(
            "dbpress: {}; the sweep stops at this level",
            run::forced_message(f, threads)
        );
        return Ok(run::FORCED_EXIT_CODE);
    }
    if sweep.steps.iter().all(|s| s.result.is_none()) {
        return Err(environment(format!(
            "no level of the sweep could run: {}",
            sweep.steps[0].error.clone().unwrap_or_default()
        )));
    }
    // A level that could not start leaves a hole in the study: not a success, though every
    // level that ran is in the table and the file.
    let missing: Vec<String> = sweep
        .steps
        .iter()
        .filter(|s| s.result.is_none())
        .map(|s| s.threads.to_string())
        .collect();
    if !missing.is_empty() {
        eprintln!(
            "dbpress: level(s) {} did not run (see the table); the table and the result file cover the levels that ran",
            missing.join(", ")
        );
        return Ok(MISSING_LEVEL_EXIT_CODE);
    }
    Ok(if failed { 1 } else { 0 })
}

/// Exit code of a sweep in which a level could not start (connections refused, a limit
/// reached): an environment problem, as for a single run that cannot start.
pub const MISSING_LEVEL_EXIT_CODE: u8 = 2;

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
