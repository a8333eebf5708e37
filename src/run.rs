//! One measured run: the header sysbench prints, the workers, and the `RunResult` assembled from
//! what they measured. A single `run` and each step of a thread sweep go through here.

use dbpress_config::redact::redact_args;
use dbpress_config::RunConfig;
use dbpress_core::error::Result;
use dbpress_core::signals::{self, Signals};
use dbpress_driver::{DbError, Driver, ServerInfo};
use dbpress_measure::result::VERSION;
use dbpress_measure::result::{self, Histograms, RunInfo, RunResult, StatementSummary, Tool};
use dbpress_measure::{environment, stats};
use dbpress_workload::{Context, Workload};
use std::convert::Infallible;
use std::io::Write;

pub fn stop_condition(cfg: &RunConfig) -> String {
    match (cfg.time, cfg.events) {
        (0, 0) => "none (--time=0 --events=0: runs until interrupted, Ctrl-C)".into(),
        (t, 0) => format!("time ({t}s)"),
        (0, e) => format!("events ({e})"),
        (t, e) => format!("time ({t}s) or events ({e}), whichever comes first"),
    }
}

/// What one measured run produced.
pub struct Measured {
    pub result: RunResult,
    /// The server error that stopped the run early, if one did.
    pub fatal: Option<DbError>,
    pub interrupted_by: Option<&'static str>,
}

/// Run the benchmark once: header, workers, intervals, and the assembled result. Printing the
/// summary and choosing the exit code are the caller's (a single run, or a sweep step).
/// The driver is `ctx.driver`.
pub fn measure(
    cfg: &RunConfig,
    w: &dyn Workload,
    ctx: &Context<'_>,
    args: &[String],
    out: &mut dyn Write,
    signals: &Signals,
    on_forced: &dyn Fn(Measured) -> Infallible,
) -> Result<Measured> {
    let driver = ctx.driver;
    let init = dbpress_run::init_watchdog::InitWatchdog::arm(cfg.thread_init_timeout, cfg.threads);
    let sessions_before = driver.clients();
    let mut probe = dbpress_run::probe(driver)?;
    let probe_client = dbpress_driver::clients::since(&sessions_before, &driver.clients());
    let info = driver.server_info(probe.as_mut());
    let warnings = w.check_ready(probe.as_mut(), ctx)?;
    let server_process = dbpress_measure::host::server_process_of(driver, probe.as_ref());
    let data = dbpress_measure::host::disk::data_device(
        driver.data_location(probe.as_mut()),
        &server_process,
    );
    let network = dbpress_measure::host::network::link_of(probe.socket_fd());
    for warning in &warnings {
        warn_once(warning);
    }

    let _ = writeln!(out, "Running the test with following options:");
    let _ = writeln!(out, "Number of threads: {}", cfg.threads);
    if cfg.warmup > 0 {
        let _ = writeln!(out, "Warmup time: {}s", cfg.warmup);
    }
    if let Some(rate) = cfg.rate {
        let _ = writeln!(out, "Target transaction rate: {rate}/sec");
    }
    if let Some(limit) = cfg.latency_limit_ns {
        let _ = writeln!(
            out,
            "Latency limit: {} ms (slower events are counted{})",
            limit as f64 / 1e6,
            if cfg.rate.is_some() {
                "; events already later than it when due are skipped"
            } else {
                ""
            }
        );
    }
    if cfg.report_interval > 0 {
        let _ = writeln!(
            out,
            "Report intermediate results every {} second(s)",
            cfg.report_interval
        );
    }
    if !cfg.checkpoints.is_empty() {
        let list: Vec<String> = cfg.checkpoints.iter().map(u64::to_string).collect();
        let _ = writeln!(out, "Report checkpoint(s) at {} seconds", list.join(", "));
    }
    let _ = writeln!(
        out,
        "Initializing random number generator from seed ({}).",
        cfg.seed
    );
    if let Some(grace) = cfg.forced_shutdown {
        // sysbench counts from the start: --time (and warm-up) plus the grace period.
        let _ = writeln!(
            out,
            "Forcing shutdown in {} seconds",
            seconds(cfg.time as f64 + cfg.warmup as f64 + grace)
        );
    }
    let server = if info.version.is_empty() {
        String::new()
    } else {
        format!(" ({} {})", info.product, info.version)
    };
    let _ = writeln!(out, "Workload: {}", cfg.workload);
    let _ = writeln!(
        out,
        "Target: {}{}{server}",
        driver.describe(),
        info.tls_note()
    );
    // The probe's session opened on the client every session will use, unless the server
    // asks a later one for what that client does not speak (the result then names both).
    let _ = writeln!(
        out,
        "Client: {}",
        dbpress_driver::clients::describe(&probe_client)
    );
    let _ = writeln!(out, "Stop condition: {}", stop_condition(cfg));
    let statements = match (w.sends_text_as(), cfg.ps_mode, driver.dialect().name) {
        (Some(script), ..) => format!("text SQL, as {script}"),
        // An embedded engine has no server side: its statements are compiled once per
        // connection and re-run.
        (None, dbpress_config::PsMode::Auto, "sqlite") => "prepared".into(),
        (None, dbpress_config::PsMode::Auto, _) => "server-side prepared".into(),
        (None, dbpress_config::PsMode::Disable, _) => "text (--db-ps-mode=disable)".into(),
    };
    if w.draws_keys_from_rand_type() {
        let _ = writeln!(
            out,
            "Random ids: {}; statements: {statements}",
            cfg.dist.kind
        );
    } else {
        let _ = writeln!(out, "Statements: {statements}");
    }
    if let Some(rate) = cfg.rate {
        let _ = writeln!(
            out,
            "Pacing: open loop at {rate}/s, {} arrivals; latency measured from each event's intended start",
            match cfg.arrival {
                dbpress_config::Arrival::Poisson => "Poisson",
                dbpress_config::Arrival::Uniform => "uniform",
            }
        );
    }
    for line in w.describe() {
        let _ = writeln!(out, "{line}");
    }
    let _ = writeln!(out, "\n");
    drop(probe);

    let started_at = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let assemble = |output: dbpress_run::RunOutput| {
        let mut m = assemble(cfg, w, driver, &info, &warnings, started_at, args, output);
        m.result.environment.clients =
            dbpress_driver::clients::since(&sessions_before, &driver.clients());
        m
    };
    let forced = |output| on_forced(assemble(output));
    let controls = dbpress_run::Controls {
        signals,
        init: &init,
        on_forced: &forced,
    };
    let host = dbpress_measure::host::Sampler::new(server_process, data).with_network(network);
    let mut progress = dbpress_report::text::progress::TextProgress::new(out, cfg.percentile);
    let output = dbpress_run::run(cfg, w, driver, &info, &controls, host, &mut progress)?;
    Ok(assemble(output))
}

/// A warning on stderr, once per process: each level of a thread sweep checks the same tables,
/// and the same line ten times over hides whatever else stderr says. (Each level's result keeps
/// it in `run.warnings`.)
fn warn_once(warning: &str) {
    static SHOWN: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    let mut shown = SHOWN.lock().unwrap_or_else(|p| p.into_inner());
    if dbpress_core::verbosity::warnings() && !shown.iter().any(|w| w == warning) {
        eprintln!("dbpress: warning: {warning}");
        shown.push(warning.to_string());
    }
}

/// Seconds as sysbench prints a whole number, with a fraction only when there is one.
fn seconds(s: f64) -> String {
    if s.fract() == 0.0 {
        format!("{s:.0}")
    } else {
        format!("{s:.1}")
    }
}

/// The result of one run from what its workers measured.
#[allow(clippy::too_many_arguments)]
fn assemble(
    cfg: &RunConfig,
    w: &dyn Workload,
    driver: &dyn Driver,
    info: &ServerInfo,
    warnings: &[String],
    started_at: u64,
    args: &[String],
    output: dbpress_run::RunOutput,
) -> Measured {
    let kinds = w.statement_kinds();
    let statements: Vec<StatementSummary> = output
        .totals
        .stmts
        .iter()
        .zip(kinds)
        .filter(|(s, _)| s.counts.count + s.counts.errors > 0)
        .map(|(s, name)| StatementSummary {
            name: name.to_string(),
            count: s.counts.count,
            errors: s.counts.errors,
            latency: stats::summary::latency(&s.latency, s.counts.exact_latency(), cfg.percentile),
        })
        .collect();
    let histograms = Histograms {
        unit: "us".into(),
        response: stats::summary::encode(&output.totals.response),
        service: cfg
            .rate
            .map(|_| stats::summary::encode(&output.totals.service)),
        statements: output
            .totals
            .stmts
            .iter()
            .zip(kinds)
            .filter(|(s, _)| s.counts.count > 0)
            .map(|(s, name)| (name.to_string(), stats::summary::encode(&s.latency)))
            .collect(),
    };
    let mut environment = environment::capture();
    environment.target = driver.describe();
    environment.server = info.clone();
    let mut config_echo = cfg.echo.clone();
    if let Some(db) = config_echo.get_mut("db") {
        *db = dbpress_config::mysql_target::redact_url(db);
    }
    let server_counters = match (driver.counters(), output.counters) {
        (Some(spec), Some((before, after))) => Some(dbpress_measure::counters::compare(
            spec,
            before,
            after,
            &output.summary,
            cfg.warmup,
            &output.warmup,
        )),
        _ => None,
    };
    let result = RunResult {
        schema_version: result::SCHEMA_VERSION,
        tool: Tool {
            name: "dbpress".into(),
            version: VERSION.into(),
        },
        command_line: redact_args(args),
        config: config_echo,
        environment,
        run: RunInfo {
            workload: cfg.workload.clone(),
            threads: cfg.threads,
            stop_condition: stop_condition(cfg),
            time_limit_s: cfg.time,
            events_limit: cfg.events,
            warmup_s: cfg.warmup,
            rate: cfg.rate,
            rate_arrival: cfg
                .rate
                .map(|_| format!("{:?}", cfg.arrival).to_lowercase()),
            rand_type: cfg.dist.kind.to_string(),
            seed: cfg.seed,
            ps_mode: format!("{:?}", cfg.ps_mode).to_lowercase(),
            percentile: cfg.percentile,
            started_at_unix_s: started_at,
            interrupted_by: output.interrupted_by.map(String::from),
            fatal_error: output.fatal.as_ref().map(|e| e.to_string()),
            warnings: warnings.to_vec(),
            forced_shutdown: output.forced_unfinished.zip(cfg.forced_shutdown).map(
                |(unfinished, grace_s)| result::ForcedShutdown {
                    grace_s,
                    unfinished,
                },
            ),
            abandoned: output.abandoned,
        },
        throughput: stats::stability::of(&output.intervals),
        intervals: output.intervals,
        summary: output.summary,
        statements,
        errors_by_code: output.totals.errors_by_code.clone(),
        histograms,
        server_counters,
        checkpoints: output.checkpoints,
        host_usage: output.host_usage,
        server_waits: output.waits,
        server_status: output.server_status,
        tpcc: None,
    };
    let mut result = result;
    result.tpcc = w.figures(&result);
    Measured {
        result,
        fatal: output.fatal,
        interrupted_by: output.interrupted_by,
    }
}

/// Finish a single run: the result file, the report (text or JSON on stdout), and the exit code
/// (1 for a server error that stopped it, 130/143 for a signal).
pub fn finish(
    cfg: &RunConfig,
    m: &Measured,
    hints: &dbpress_driver::Hints,
    w: &dyn dbpress_workload::Workload,
) -> Result<u8> {
    if let Some(path) = &cfg.output_file {
        dbpress_report::write_run(path, &m.result)?;
    }
    match cfg.output_format {
        dbpress_config::OutputFormat::Text if !dbpress_core::verbosity::notices() => {}
        dbpress_config::OutputFormat::Text => {
            dbpress_core::out!(
                "{}",
                dbpress_report::text::summary(&m.result, cfg.histogram)
            );
        }
        other => dbpress_core::out!("{}", dbpress_report::run_as(other, &m.result)),
    }
    let _ = std::io::stdout().flush();
    if let Some(store) = &cfg.store {
        crate::keep::save(store, &cfg.tags, &[&m.result], None)?;
    }
    // Said first: a fatal error's line would otherwise hide the sessions left behind.
    let abandoned = m.result.run.abandoned.as_ref().map(|a| {
        eprintln!("dbpress: {}", abandoned_message(a, cfg.threads));
        abandoned_exit_code(a)
    });
    if let Some(e) = &m.fatal {
        return Err(dbpress_run::fatal_message(e, hints, w));
    }
    if let Some(code) = abandoned {
        return Ok(code);
    }
    if let Some(sig) = m.interrupted_by {
        eprintln!("dbpress: interrupted by {sig}; the summary covers what ran");
        return Ok(signals::exit_code(sig));
    }
    if let Some(f) = &m.result.run.forced_shutdown {
        eprintln!("dbpress: {}", forced_message(f, cfg.threads));
        return Ok(FORCED_EXIT_CODE);
    }
    Ok(0)
}

/// sysbench's exit code for a forced shutdown.
pub const FORCED_EXIT_CODE: u8 = 2;

/// One line on a run `--forced-shutdown` ended.
pub fn forced_message(f: &result::ForcedShutdown, threads: u32) -> String {
    format!(
        "forced shutdown: {} of {threads} threads were still inside an event {} s after --time ended (the server had not answered them); \
         the summary covers the events that finished",
        f.unfinished,
        seconds(f.grace_s)
    )
}

/// One line on a run that ended with sessions left behind: how many, after what, and what the
/// server's answer to a new session says about why.
pub fn abandoned_message(a: &result::Abandoned, threads: u32) -> String {
    let why = if a.server_answered {
        "the server answers new sessions: they were waiting on it, for a lock or a long statement"
    } else {
        "the server did not answer a new session either: a cut network, or a stopped or hung server"
    };
    let waited = format!("{:.1}", a.waited_s);
    let left = format!(
        "{} of {threads} sessions were still waiting for the server's answer {waited} s after",
        a.sessions
    );
    match a.after.as_str() {
        "end" => format!(
            "{left} the run ended and were left behind ({why}); the summary covers the events that finished"
        ),
        sig => format!(
            "interrupted by {sig}: {left} it and were left behind ({why}); the summary covers the events that finished"
        ),
    }
}

/// The exit code of a run that left sessions behind: the signal's, or 1 (the server stopped
/// answering: the run failed).
pub fn abandoned_exit_code(a: &result::Abandoned) -> u8 {
    match a.after.as_str() {
        "end" => 1,
        sig => signals::exit_code(sig),
    }
}

/// The end of a single run that `--forced-shutdown` cut short: its report as `finish` gives
/// it, then the exit, without waiting for the workers still blocked on the server.
pub fn exit_forced(
    cfg: &RunConfig,
    m: &Measured,
    hints: &dbpress_driver::Hints,
    w: &dyn dbpress_workload::Workload,
) -> Infallible {
    let code = finish(cfg, m, hints, w).unwrap_or_else(|e| {
        eprintln!("dbpress: error: {}", e.message());
        e.exit_code()
    });
    let _ = std::io::stdout().flush();
    let _ = std::io::stderr().flush();
    std::process::exit(i32::from(code))
}
