//! The `RunResult` of one run, assembled once from what its workers measured, the server's
//! counters, samples and the environment.

use dbpress_config::redact::redact_args;
use dbpress_config::RunConfig;
use dbpress_driver::{DbError, Driver, ServerInfo};
use dbpress_measure::stats::snapshot::Totals;
use dbpress_measure::{environment, stats};
use dbpress_result::ClientSessions;
use dbpress_result::VERSION;
use dbpress_result::{Histograms, RunInfo, RunResult, StatementSummary, Tool, WorkloadFigures};
use dbpress_workload::Workload;

/// What one measured run produced.
pub struct Measured {
    pub result: RunResult,
    /// The server error that stopped the run early, if one did.
    pub fatal: Option<DbError>,
    pub interrupted_by: Option<&'static str>,
    /// The workload printed its own final report (a script's `report_cumulative`).
    pub own_final_report: bool,
}

/// What a run knew before its workers started, for its result.
pub struct Before<'a> {
    pub info: &'a ServerInfo,
    /// The workload's warnings about its tables.
    pub warnings: &'a [String],
    pub started_at_unix_s: u64,
    /// The command line, redacted in the result.
    pub args: &'a [String],
    /// The driver's sessions before the run's probe opened, so the result names the clients
    /// of the run's own sessions.
    pub sessions: &'a [ClientSessions],
}

/// The result of one run from what its workers measured.
pub fn assemble(
    cfg: &RunConfig,
    w: &dyn Workload,
    driver: &dyn Driver,
    before: &Before<'_>,
    mut output: dbpress_run::RunOutput,
) -> Measured {
    let mut environment = environment::capture();
    environment.target = driver.describe();
    environment.server = before.info.clone();
    environment.clients = dbpress_result::clients::since(before.sessions, &driver.clients());
    let mut config_echo = cfg.echo.clone();
    if let Some(db) = config_echo.get_mut("db") {
        *db = dbpress_config::mysql_target::redact_url(db);
    }
    let server_counters = match (driver.counters(), output.counters.take()) {
        (Some(spec), Some((before, after))) => Some(dbpress_measure::counters::compare(
            spec,
            before,
            after,
            &output.summary,
            cfg.shape.warmup,
            &output.warmup,
        )),
        _ => None,
    };
    let kinds = w.statement_kinds();
    let mut result = RunResult {
        schema_version: dbpress_result::SCHEMA_VERSION,
        tool: Tool {
            name: "dbpress".into(),
            version: VERSION.into(),
        },
        command_line: redact_args(before.args),
        config: config_echo,
        environment,
        run: run_info(cfg, before, &output),
        throughput: dbpress_result::stability::of(&output.intervals),
        statements: statements(cfg, kinds, &output.totals),
        histograms: histograms(cfg, kinds, &output.totals),
        errors_by_code: output.totals.errors_by_code.clone(),
        intervals: output.intervals,
        summary: output.summary,
        server_counters,
        checkpoints: output.checkpoints,
        host_usage: output.host_usage,
        server_waits: output.waits,
        server_status: output.server_status,
        tpcc: None,
        machine_test: None,
        no_database: w.opened_database() == Some(false),
    };
    // Each workload's figures in their own place of the result.
    match w.figures(&result) {
        Some(WorkloadFigures::Tpcc(f)) => result.tpcc = Some(f),
        Some(WorkloadFigures::Machine(m)) => result.machine_test = Some(m),
        None => {}
    }
    Measured {
        result,
        fatal: output.fatal,
        interrupted_by: output.interrupted_by,
        own_final_report: output.own_final_report,
    }
}

/// The run's shape and how it ended.
fn run_info(cfg: &RunConfig, before: &Before<'_>, output: &dbpress_run::RunOutput) -> RunInfo {
    RunInfo {
        workload: cfg.workload.clone(),
        threads: cfg.shape.threads,
        stop_condition: cfg.shape.stop_condition(),
        time_limit_s: cfg.shape.time,
        events_limit: cfg.shape.events,
        warmup_s: cfg.shape.warmup,
        rate: cfg.shape.rate,
        rate_arrival: cfg
            .shape
            .rate
            .map(|_| format!("{:?}", cfg.shape.arrival).to_lowercase()),
        rand_type: cfg.keys.dist.kind.to_string(),
        seed: cfg.keys.seed,
        ps_mode: format!("{:?}", cfg.connection.ps_mode).to_lowercase(),
        percentile: cfg.reporting.percentile,
        started_at_unix_s: before.started_at_unix_s,
        interrupted_by: output.interrupted_by.map(String::from),
        fatal_error: output.fatal.as_ref().map(|e| e.to_string()),
        warnings: before.warnings.to_vec(),
        forced_shutdown: output.forced_unfinished.zip(cfg.shape.forced_shutdown).map(
            |(unfinished, grace_s)| dbpress_result::ForcedShutdown {
                grace_s,
                unfinished,
            },
        ),
        abandoned: output.abandoned.clone(),
        sessions_ready_s: Some(output.sessions_ready_s),
    }
}

/// Each statement kind that ran or failed: its count, errors and latency.
fn statements(cfg: &RunConfig, kinds: &[&str], totals: &Totals) -> Vec<StatementSummary> {
    totals
        .stmts
        .iter()
        .zip(kinds)
        .filter(|(s, _)| s.counts.count + s.counts.errors > 0)
        .map(|(s, name)| StatementSummary {
            name: name.to_string(),
            count: s.counts.count,
            errors: s.counts.errors,
            latency: stats::summary::latency(
                &s.latency,
                s.counts.exact_latency(),
                cfg.reporting.percentile,
            ),
        })
        .collect()
}

/// The run's latency histograms, encoded: response, service under `--rate`, each statement.
fn histograms(cfg: &RunConfig, kinds: &[&str], totals: &Totals) -> Histograms {
    Histograms {
        unit: "us".into(),
        response: stats::summary::encode(&totals.response),
        service: cfg
            .shape
            .rate
            .map(|_| stats::summary::encode(&totals.service)),
        statements: totals
            .stmts
            .iter()
            .zip(kinds)
            .filter(|(s, _)| s.counts.count > 0)
            .map(|(s, name)| (name.to_string(), stats::summary::encode(&s.latency)))
            .collect(),
    }
}
