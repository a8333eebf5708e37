//! One measured run: the header sysbench prints, the workers, and the `RunResult` assembled from
//! what they measured. A single `run` and each step of a thread sweep go through here.
//!
//! - `header`: the lines printed before the threads start
//! - `assemble`: the `RunResult` from what the run measured
//! - `finish`: the result file, the report, the exit code of a single run

mod assemble;
mod finish;
mod header;
pub mod unknown_driver;

pub use assemble::Measured;
pub use finish::{
    abandoned_exit_code, abandoned_message, exit_forced, finish, forced_message, FORCED_EXIT_CODE,
};

use dbpress_config::RunConfig;
use dbpress_core::error::Result;
use dbpress_core::signals::Signals;
use dbpress_workload::{Context, Workload};
use std::convert::Infallible;
use std::io::Write;

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
    measure_with(cfg, w, ctx, args, out, None, signals, on_forced)
}

/// `measure`, with the run's progress written by `progress` (a peer's progress lines) instead
/// of sysbench's interval lines on `out`.
#[allow(clippy::too_many_arguments)]
pub fn measure_with(
    cfg: &RunConfig,
    w: &dyn Workload,
    ctx: &Context<'_>,
    args: &[String],
    out: &mut dyn Write,
    progress: Option<&mut dyn dbpress_result::progress::Progress>,
    signals: &Signals,
    on_forced: &dyn Fn(Measured) -> Infallible,
) -> Result<Measured> {
    let driver = ctx.driver;
    let init = dbpress_run::init_watchdog::InitWatchdog::arm(
        cfg.shape.thread_init_timeout,
        cfg.shape.threads,
    );
    let sessions_before = driver.clients();
    let mut probe = probe(cfg, driver).map_err(|e| as_thread_init_failure(out, cfg, w, e))?;
    let probe_client = dbpress_result::clients::since(&sessions_before, &driver.clients());
    let info = driver.server_info(probe.as_mut());
    // As sysbench, nothing is checked before the threads start: its threads find a missing
    // table when they prepare their statements, and so do dbpress's.
    let warnings = match dbpress_core::personality::is_peer() {
        true => Vec::new(),
        false => w.check_ready(probe.as_mut(), ctx)?,
    };
    let server_process = dbpress_measure::host::server_process_of(driver, probe.as_ref());
    let location = w
        .data_location()
        .unwrap_or_else(|| driver.data_location(probe.as_mut()));
    let data = dbpress_measure::host::disk::data_device(location, &server_process);
    let network = dbpress_measure::host::network::link_of(probe.socket_fd());
    for warning in &warnings {
        warn_once(warning);
    }

    header::print(out, cfg, w, driver, &info, &probe_client);
    drop(probe);
    let _ = out.flush();
    w.before_threads()?;

    let started_at = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let before = assemble::Before {
        info: &info,
        warnings: &warnings,
        started_at_unix_s: started_at,
        args,
        sessions: &sessions_before,
    };
    let assemble = |output| assemble::assemble(cfg, w, driver, &before, output);
    let forced = |output| on_forced(assemble(output));
    let controls = dbpress_run::Controls {
        signals,
        init: &init,
        on_forced: &forced,
    };
    let host = dbpress_measure::host::Sampler::new(server_process, data).with_network(network);
    let output = match progress {
        Some(p) => dbpress_run::run(cfg, w, driver, &info, &controls, host, p)?,
        None => {
            let mut text =
                dbpress_report::text::progress::TextProgress::new(out, cfg.reporting.percentile);
            dbpress_run::run(cfg, w, driver, &info, &controls, host, &mut text)?
        }
    };
    Ok(assemble(output))
}

/// The session that reads the server's facts before the run; as sysbench, a login it is
/// refused gets sysbench's lines, as its threads' would.
fn probe(
    cfg: &RunConfig,
    driver: &dyn dbpress_driver::Driver,
) -> Result<Box<dyn dbpress_driver::Connection>> {
    if !dbpress_core::personality::is_sysbench() {
        return dbpress_run::probe(driver);
    }
    dbpress_driver::connect_checked(driver, 0).map_err(|e| match dbpress_run::as_sysbench::failure(
        cfg, &e,
    ) {
        Some(lines) => dbpress_core::error::failed(lines),
        None => dbpress_config::diagnose::connect_failed(&e, driver.hints()),
    })
}

/// As sysbench (#42), which checks nothing before its threads start: a server that cannot be
/// reached or tables that are not there fail after its header and `Initializing worker
/// threads...`, where sysbench's threads fail; dbpress's own check says it before. (The
/// error's words are still dbpress's, with the fix; sysbench prints its driver's lines.)
fn as_thread_init_failure(
    out: &mut dyn Write,
    cfg: &RunConfig,
    w: &dyn Workload,
    e: dbpress_core::error::Error,
) -> dbpress_core::error::Error {
    if dbpress_core::personality::is_sysbench() && dbpress_core::verbosity::notices() {
        header::print_sysbench(out, cfg, w);
        let _ = writeln!(out, "Initializing worker threads...\n");
        let _ = out.flush();
    }
    e
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
