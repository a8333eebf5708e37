//! The header a run prints before its workers start, as sysbench prints it (its lines first),
//! then what dbpress adds: the target and its client, the stop condition, the statements' form.

use dbpress_config::RunConfig;
use dbpress_driver::{Driver, ServerInfo, SqlFamily};
use dbpress_result::ClientSessions;
use dbpress_workload::Workload;
use std::io::Write;

/// The run's options and what it will reach, before the threads start.
pub fn print(
    out: &mut dyn Write,
    cfg: &RunConfig,
    w: &dyn Workload,
    driver: &dyn Driver,
    info: &ServerInfo,
    probe_client: &[ClientSessions],
) {
    sysbench_lines(out, cfg);
    // As sysbench (a link named after it), its lines and nothing more (#42).
    if !dbpress_core::personality::is_sysbench() {
        dbpress_lines(out, cfg, w, driver, info, probe_client);
    }
    forced_shutdown_line(out, cfg);
    print_preamble(out, w);
}

/// The header as sysbench prints it, with nothing of dbpress's (no server was reached to
/// describe).
pub fn print_sysbench(out: &mut dyn Write, cfg: &RunConfig, w: &dyn Workload) {
    sysbench_lines(out, cfg);
    forced_shutdown_line(out, cfg);
    print_preamble(out, w);
}

/// What the test itself says before its threads start (`cpu`'s prime limit), in both; its
/// blank lines are its own (sysbench's tests differ in them).
fn print_preamble(out: &mut dyn Write, w: &dyn Workload) {
    for line in &w.preamble() {
        let _ = writeln!(out, "{line}");
    }
}

/// sysbench's own header lines, in its order and words.
fn sysbench_lines(out: &mut dyn Write, cfg: &RunConfig) {
    let _ = writeln!(out, "Running the test with following options:");
    let _ = writeln!(out, "Number of threads: {}", cfg.shape.threads);
    if cfg.shape.warmup > 0 {
        let _ = writeln!(out, "Warmup time: {}s", cfg.shape.warmup);
    }
    if let Some(rate) = cfg.shape.rate {
        let _ = writeln!(out, "Target transaction rate: {rate}/sec");
    }
    if let Some(limit) = cfg.shape.latency_limit_ns {
        let _ = writeln!(
            out,
            "Latency limit: {} ms (slower events are counted{})",
            limit as f64 / 1e6,
            if cfg.shape.rate.is_some() {
                "; events already later than it when due are skipped"
            } else {
                ""
            }
        );
    }
    if cfg.reporting.interval > 0 {
        let _ = writeln!(
            out,
            "Report intermediate results every {} second(s)",
            cfg.reporting.interval
        );
    }
    if !cfg.reporting.checkpoints.is_empty() {
        let list: Vec<String> = cfg
            .reporting
            .checkpoints
            .iter()
            .map(u64::to_string)
            .collect();
        let _ = writeln!(out, "Report checkpoint(s) at {} seconds", list.join(", "));
    }
    if dbpress_core::personality::sysbench_debug() {
        let _ = writeln!(out, "Debug mode enabled.\n");
    }
    if cfg.shape.validate {
        let _ = writeln!(out, "Validation checks: on.\n");
    }
    if cfg.keys.seed_from_time && dbpress_core::personality::is_sysbench() {
        // sysbench's words for --rand-seed=0; dbpress itself prints the seed it drew, so the
        // run can be repeated.
        let _ = writeln!(
            out,
            "Initializing random number generator from current time"
        );
    } else {
        let _ = writeln!(
            out,
            "Initializing random number generator from seed ({}).",
            cfg.keys.seed
        );
    }
}

/// sysbench's line of `--forced-shutdown`, between blank lines after the header.
fn forced_shutdown_line(out: &mut dyn Write, cfg: &RunConfig) {
    let _ = writeln!(out);
    if let Some(grace) = cfg.shape.forced_shutdown {
        // sysbench counts from the start: --time (and warm-up) plus the grace period.
        let _ = writeln!(
            out,
            "Forcing shutdown in {} seconds",
            seconds(cfg.shape.time as f64 + cfg.shape.warmup as f64 + grace)
        );
    }
    let _ = writeln!(out);
}

/// What dbpress adds: the workload, the target and its client, the stop condition, the
/// statements' form, the pacing and the workload's own lines.
fn dbpress_lines(
    out: &mut dyn Write,
    cfg: &RunConfig,
    w: &dyn Workload,
    driver: &dyn Driver,
    info: &ServerInfo,
    probe_client: &[ClientSessions],
) {
    let server = if info.version.is_empty() {
        String::new()
    } else {
        format!(" ({} {})", info.product, info.version)
    };
    let _ = writeln!(out, "Workload: {}", cfg.workload);
    if !w.needs_database() {
        let _ = writeln!(out, "Target: this machine (no database)");
        let _ = writeln!(out, "Stop condition: {}", cfg.shape.stop_condition());
        return;
    }
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
        dbpress_result::clients::describe(probe_client)
    );
    let _ = writeln!(out, "Stop condition: {}", cfg.shape.stop_condition());
    let statements = statements_form(cfg, w, driver);
    if w.draws_keys_from_rand_type() {
        let _ = writeln!(
            out,
            "Random ids: {}; statements: {statements}",
            cfg.keys.dist.kind
        );
    } else {
        let _ = writeln!(out, "Statements: {statements}");
    }
    if let Some(rate) = cfg.shape.rate {
        let _ = writeln!(
            out,
            "Pacing: open loop at {rate}/s, {} arrivals; latency measured from each event's intended start",
            match cfg.shape.arrival {
                dbpress_config::Arrival::Poisson => "Poisson",
                dbpress_config::Arrival::Uniform => "uniform",
            }
        );
    }
    for line in w.describe() {
        let _ = writeln!(out, "{line}");
    }
}

/// How the run's statements reach the server.
fn statements_form(cfg: &RunConfig, w: &dyn Workload, driver: &dyn Driver) -> String {
    match (
        w.sends_text_as(),
        cfg.connection.ps_mode,
        driver.dialect().family,
    ) {
        (Some(script), ..) => format!("text SQL, as {script}"),
        // An embedded engine has no server side: its statements are compiled once per
        // connection and re-run.
        (None, dbpress_config::PsMode::Auto, SqlFamily::Sqlite) => "prepared".into(),
        (None, dbpress_config::PsMode::Auto, _) => "server-side prepared".into(),
        (None, dbpress_config::PsMode::Disable, _) => "text (--db-ps-mode=disable)".into(),
    }
}

/// Seconds as sysbench prints a whole number, with a fraction only when there is one.
pub fn seconds(s: f64) -> String {
    if s.fract() == 0.0 {
        format!("{s:.0}")
    } else {
        format!("{s:.1}")
    }
}
