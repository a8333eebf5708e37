//! Thread-count sweeps: `--threads 1,2,4,8` runs one step per level, each a complete run (its
//! own connections, warm-up and duration), and ends with one table: threads, TPS, QPS, p95,
//! p99, errors/s and the ratio to the best level. A level that cannot start (the server's
//! max_connections, say) is reported in the table with its reason and the sweep goes on.

use crate::cli::{Command, OptionValues};
use crate::config::redact::redact_args;
use crate::config::to_driver::make_driver;
use crate::config::{OutputFormat, RunConfig};
use crate::error::{environment, usage, Result};
use crate::result::VERSION;
use crate::result::{RunResult, Tool, SCHEMA_VERSION};
use crate::run;
use crate::runner::signals::{self, Signals};
use crate::workload::{Context, Workload};
use serde::{Deserialize, Serialize};
use std::io::Write;

/// A sweep's JSON document (docs/sweep.schema.json); each step's `result` is a run result as
/// docs/results.schema.json describes.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct SweepResult {
    pub schema_version: u32,
    /// Always "sweep": tells a sweep file from a single run's.
    pub kind: String,
    pub tool: Tool,
    pub command_line: Vec<String>,
    pub workload: String,
    pub levels: Vec<u32>,
    pub steps: Vec<Step>,
    pub table: Vec<Row>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Step {
    pub threads: u32,
    /// `dbpress slap --engine`: the MySQL storage engine this step's tables were created with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
    /// None when the level could not run.
    pub result: Option<RunResult>,
    /// Why the level did not start, or the server error that stopped it.
    pub error: Option<String>,
}

/// One line of the closing table; numbers are None for a level that did not run.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Row {
    pub threads: u32,
    /// The step's storage engine (`dbpress slap --engine`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
    pub tps: Option<f64>,
    pub qps: Option<f64>,
    pub p95_ms: Option<f64>,
    pub p99_ms: Option<f64>,
    pub errors_per_s: Option<f64>,
    /// TPS divided by the best level's TPS.
    pub ratio_to_best: Option<f64>,
    pub error: Option<String>,
    /// A level that ran short or not at all: interrupted by a signal, cut by --forced-shutdown,
    /// or never reached because the sweep stopped before it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Average CPUs busy on this machine over the level, and of them the server's process's
    /// and dbpress's (`host_usage` of its result): where the curve flattens because the
    /// machine, not the server, ran out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu: Option<RowCpu>,
    /// The disk under the data over the level (`host_usage.disk` of its result): where the
    /// curve flattens because the disk, not the CPUs, ran out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disk: Option<RowDisk>,
    /// KiB per event through the sessions' network interface, both ways together
    /// (`host_usage.network` of its result): what a protocol option or a version sends.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub net_kib_per_event: Option<f64>,
    /// The server's most frequent wait event over the level (`server_waits` of its result):
    /// where a curve bends because sessions queue for a lock rather than for a CPU.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub top_wait: Option<crate::waits::WaitShare>,
    /// Share of the server cache's page requests it missed over the level, percent (its
    /// `server_counters`): where a curve changes because the data left memory.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_miss_pct: Option<f64>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct RowDisk {
    /// Share of the time with a request in flight, 0..1.
    pub busy: f64,
    /// KiB written to the device per event.
    pub kib_per_event: f64,
    /// Cache flushes per event (what a commit's fsync costs); absent where the kernel does
    /// not count them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flushes_per_event: Option<f64>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct RowCpu {
    pub busy: f64,
    pub server: Option<f64>,
    pub dbpress: f64,
    /// The server's CPU time per event, microseconds: what a version or a setting costs per
    /// transaction, whatever the throughput.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_us_per_event: Option<f64>,
}

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

pub(crate) fn row(threads: u32, step: &Step) -> Row {
    let Some(r) = &step.result else {
        return Row {
            threads,
            engine: step.engine.clone(),
            tps: None,
            qps: None,
            p95_ms: None,
            p99_ms: None,
            errors_per_s: None,
            ratio_to_best: None,
            error: step.error.clone(),
            note: None,
            cpu: None,
            disk: None,
            net_kib_per_event: None,
            top_wait: None,
            cache_miss_pct: None,
        };
    };
    let s = &r.summary;
    let note = match (&r.run.interrupted_by, &r.run.forced_shutdown) {
        (Some(sig), _) => Some(format!("interrupted by {sig} after {:.2}s", s.total_time_s)),
        (None, Some(f)) => Some(format!(
            "forced shutdown: {} transactions unfinished",
            f.unfinished
        )),
        (None, None) => None,
    };
    // A level whose throughput fell to nothing for whole intervals is where a curve hides a
    // collapse (lock convoys, deadlock-detection storms); say so beside its averages.
    let stalls = r
        .throughput
        .as_ref()
        .filter(|t| t.stalled_intervals > 0)
        .map(|t| {
            // What the sessions were held on meanwhile, where the server was sampled.
            let waits = if t.stall_waits.is_empty() {
                String::new()
            } else {
                format!("; sessions: {}", crate::waits::top(&t.stall_waits, 2))
            };
            format!(
                "stalled {} of {} intervals (no event finished{waits})",
                t.stalled_intervals, t.intervals
            )
        });
    let note = match (note, stalls) {
        (Some(n), Some(st)) => Some(format!("{n}; {st}")),
        (n, st) => n.or(st),
    };
    Row {
        threads,
        engine: step.engine.clone(),
        tps: Some(s.tps),
        qps: Some(s.qps),
        p95_ms: Some(s.latency.p95_ms),
        p99_ms: Some(s.latency.p99_ms),
        errors_per_s: Some(s.errors as f64 / s.total_time_s.max(1e-9)),
        ratio_to_best: None,
        error: step.error.clone(),
        note,
        cpu: r.host_usage.as_ref().map(|h| RowCpu {
            busy: h.host.busy(),
            server: h.server.as_ref().map(|s| s.cpus()),
            dbpress: h.dbpress.cpus(),
            server_us_per_event: h
                .server
                .as_ref()
                .filter(|_| s.events > 0)
                .map(|sv| h.micros_per(sv.cpus(), s.events)),
        }),
        disk: r.host_usage.as_ref().and_then(|h| {
            let io = &h.disk.as_ref()?.io;
            let per_event = |rate: f64| h.per_item(rate, s.events);
            Some(RowDisk {
                busy: io.busy,
                kib_per_event: per_event(io.write_mib_s) * 1024.0,
                flushes_per_event: io.flushes_s.map(per_event),
            })
        }),
        net_kib_per_event: r.host_usage.as_ref().and_then(|h| {
            let n = h.network.as_ref()?;
            Some(h.per_item(n.both_ways_mib_s() * 1024.0, s.events))
        }),
        top_wait: r
            .server_waits
            .as_ref()
            .and_then(|w| w.events.first().cloned()),
        cache_miss_pct: r
            .server_counters
            .as_ref()
            .and_then(|c| crate::counters::CacheMisses::of(&c.deltas))
            .map(|c| c.pct()),
    }
}

/// One row per step (a level that ran or failed to start), then one per level the sweep never
/// reached (`stopped_by` says why it stopped).
pub fn table(steps: &[Step], not_reached: &[(Option<String>, u32)], stopped_by: &str) -> Vec<Row> {
    let mut rows: Vec<Row> = steps.iter().map(|s| row(s.threads, s)).collect();
    rows.extend(not_reached.iter().map(|(engine, threads)| Row {
        note: Some(format!("not run: {stopped_by}")),
        ..row(
            *threads,
            &Step {
                threads: *threads,
                engine: engine.clone(),
                result: None,
                error: None,
            },
        )
    }));
    let best = rows.iter().filter_map(|r| r.tps).fold(0.0f64, f64::max);
    for r in &mut rows {
        r.ratio_to_best = r.tps.filter(|_| best > 0.0).map(|t| t / best);
    }
    rows
}

impl Row {
    /// The level's figures as the table writes them: threads, TPS, QPS, p95, p99, errors/s
    /// and the ratio to the best level; empty where the level has none.
    pub fn figure_cells(&self) -> Vec<String> {
        use crate::export::table::num;
        vec![
            self.threads.to_string(),
            num(self.tps, 2),
            num(self.qps, 2),
            num(self.p95_ms, 3),
            num(self.p99_ms, 3),
            num(self.errors_per_s, 2),
            num(self.ratio_to_best, 3),
        ]
    }
}

pub fn render_table(s: &SweepResult) -> String {
    let cell = |v: Option<f64>, prec: usize| v.map_or("-".to_string(), |v| format!("{v:.prec$}"));
    // The CPU columns only when some level has them (not in results of earlier versions).
    let with_cpu = s.table.iter().any(|r| r.cpu.is_some());
    let cpu_head = if with_cpu {
        format!(" {:>10} {:>7} {:>7}", "CPUs busy", "server", "dbpress")
    } else {
        String::new()
    };
    let with_disk = s.table.iter().any(|r| r.disk.is_some());
    let disk_head = if with_disk {
        format!(" {:>9}", "disk busy")
    } else {
        String::new()
    };
    let with_wait = s.table.iter().any(|r| r.top_wait.is_some());
    let wait_head = if with_wait {
        format!("  {:<28}", "top server wait")
    } else {
        String::new()
    };
    // `dbpress slap --engine`: a first column names each row's storage engine.
    let engine_width = s
        .table
        .iter()
        .filter_map(|r| r.engine.as_ref().map(String::len))
        .max()
        .map(|w| w.max("engine".len()));
    let engine_cell = |e: Option<&str>| match engine_width {
        Some(w) => format!("{:<w$} ", e.unwrap_or("-")),
        None => String::new(),
    };
    let levels = match engine_width {
        Some(_) => {
            let mut engines: Vec<&str> =
                s.table.iter().filter_map(|r| r.engine.as_deref()).collect();
            engines.dedup();
            format!("{} engines x {} levels", engines.len(), s.levels.len())
        }
        None => format!("{} levels", s.levels.len()),
    };
    let mut out = format!(
        "\nThread sweep, {} ({levels}):\n    {}{:>7} {:>12} {:>12} {:>10} {:>10} {:>9} {:>8}{cpu_head}{disk_head}{}\n",
        s.workload,
        engine_cell(Some("engine")),
        "threads",
        "TPS",
        "QPS",
        "p95 ms",
        "p99 ms",
        "err/s",
        "vs best",
        wait_head.trim_end()
    );
    for r in &s.table {
        let f: Vec<String> = r
            .figure_cells()
            .into_iter()
            .map(|c| if c.is_empty() { "-".into() } else { c })
            .collect();
        out.push_str(&format!(
            "    {}{:>7} {:>12} {:>12} {:>10} {:>10} {:>9} {:>8}",
            engine_cell(r.engine.as_deref()),
            f[0],
            f[1],
            f[2],
            f[3],
            f[4],
            f[5],
            f[6]
        ));
        if with_cpu {
            let c = r.cpu.as_ref();
            out.push_str(&format!(
                " {:>10} {:>7} {:>7}",
                cell(c.map(|c| c.busy), 2),
                cell(c.and_then(|c| c.server), 2),
                cell(c.map(|c| c.dbpress), 2),
            ));
        }
        if with_disk {
            let busy = r.disk.as_ref().map(|d| format!("{:.0}%", d.busy * 100.0));
            out.push_str(&format!(" {:>9}", busy.as_deref().unwrap_or("-")));
        }
        if with_wait {
            let wait = r
                .top_wait
                .as_ref()
                .map(|w| format!("{:.0}% {}", w.share * 100.0, w.event));
            out.push_str(&format!("  {:<28}", wait.as_deref().unwrap_or("-")));
        }
        for text in [&r.note, &r.error].into_iter().flatten() {
            out.push_str("  ");
            out.push_str(text);
        }
        // The last column is padded for the notes after it; a row without any ends at its
        // last figure.
        out.truncate(out.trim_end_matches(' ').len());
        out.push('\n');
    }
    if let Some(cpus) = s
        .steps
        .iter()
        .find_map(|st| st.result.as_ref()?.host_usage.as_ref())
        .map(|h| h.cpus)
    {
        out.push_str(&format!(
            "    CPUs: average CPUs busy on this machine (of {cpus}), and of them the server's process's and dbpress's (from /proc)\n"
        ));
    }
    if let Some(w) = s
        .steps
        .iter()
        .find_map(|st| st.result.as_ref()?.server_waits.as_ref())
        .filter(|_| with_wait)
    {
        out.push_str(&format!(
            "    top server wait: the most frequent of what the server said the level's sessions were doing ({}, sampled every {} ms)\n",
            w.source, w.every_ms
        ));
    }
    if let Some(d) = s
        .steps
        .iter()
        .find_map(|st| st.result.as_ref()?.host_usage.as_ref()?.disk.as_ref())
    {
        out.push_str(&format!(
            "    disk busy: share of the time {} (holding {}) had a request in flight (from /proc/diskstats)\n",
            d.device, d.path
        ));
    }
    out
}

pub fn render_json(s: &SweepResult) -> String {
    serde_json::to_string_pretty(s).expect("SweepResult always serialises") + "\n"
}

/// What fails whatever the thread count (the server unreachable, a wrong password, tables not
/// prepared) fails the sweep at once, in one line, instead of once per level and again after
/// the table: one session, and the workload's check that its tables are ready (which only
/// reads).
fn preflight(level: &Level) -> Result<()> {
    let ctx = level.context();
    let mut probe = crate::runner::probe(level.driver.as_ref())?;
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
            invocation: format!("dbpress {}", self.workload_name),
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
    let mut stdout = std::io::stdout();
    let mut stderr = std::io::stderr();
    let mut quiet = std::io::sink();
    let out: &mut dyn Write = match first.output_format {
        _ if !crate::verbosity::notices() => &mut quiet,
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
        // A level --forced-shutdown cuts short ends the sweep there, with its table and file:
        // its workers still wait on the server, and the next level would queue behind them.
        let forced = |m: run::Measured| {
            if first.output_format == OutputFormat::Text && crate::verbosity::notices() {
                print!("{}", crate::export::text::summary(&m.result, cfg.histogram));
            }
            let mut steps = steps.clone();
            steps.push(Step {
                threads: level,
                engine: None,
                result: Some(m.result),
                error: None,
            });
            let code = conclude(&first, workload_name, levels, args, steps, None, failed)
                .map(|_| run::FORCED_EXIT_CODE)
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
                        crate::export::text::summary(&m.result, cfg.histogram)
                    );
                }
                let error = m.fatal.as_ref().map(|e| {
                    failed = true;
                    crate::runner::fatal_message(e, driver.hints(), w.as_ref())
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
    let stopped_by = stopped_by(interrupted);
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
        crate::export::write_sweep(path, &sweep)?;
    }
    match first.output_format {
        OutputFormat::Text if crate::verbosity::notices() => print!("{}", render_table(&sweep)),
        OutputFormat::Text => {}
        other => print!("{}", crate::export::sweep_as(other, &sweep)),
    }
    let _ = std::io::stdout().flush();
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
    Ok(if failed { 1 } else { 0 })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::{parse, Invocation};

    fn opts(s: &str) -> OptionValues {
        let args: Vec<String> = s.split_whitespace().map(String::from).collect();
        match parse(&args).unwrap() {
            Invocation::Workload { opts, .. } => opts,
            other => panic!("{other:?}"),
        }
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

    #[test]
    fn a_stalled_level_names_what_its_sessions_waited_on() {
        let mut r = crate::export::text::tests::fixture();
        let mut intervals: Vec<crate::result::Interval> = (1..=4)
            .map(|k| crate::result::Interval {
                time_s: f64::from(k),
                duration_s: 1.0,
                events: if k == 2 { 0 } else { 1000 },
                ..Default::default()
            })
            .collect();
        intervals[1].waits = Some([("Lock:relation".to_string(), 40)].into());
        intervals[2].waits = Some([("running".to_string(), 40)].into());
        r.throughput = crate::stats::stability::of(&intervals);
        let step = Step {
            threads: 4,
            engine: None,
            result: Some(r),
            error: None,
        };
        assert_eq!(
            row(4, &step).note.as_deref(),
            Some("stalled 1 of 4 intervals (no event finished; sessions: 100% Lock:relation)")
        );
    }
}
