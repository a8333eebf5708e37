//! The end of a single run: the result file, the report, the store, the one line on how it
//! ended and the exit code.

use super::assemble::Measured;
use super::header::seconds;
use dbpress_config::RunConfig;
use dbpress_core::error::Result;
use dbpress_core::signals;
use std::convert::Infallible;
use std::io::Write;

/// Finish a single run: the result file, the report (text or JSON on stdout), and the exit code
/// (1 for a server error that stopped it, 130/143 for a signal).
pub fn finish(
    cfg: &RunConfig,
    m: &Measured,
    hints: &dbpress_driver::Hints,
    w: &dyn dbpress_workload::Workload,
) -> Result<u8> {
    if let Some(path) = &cfg.reporting.file {
        dbpress_report::write_run(path, &m.result)?;
    }
    // sysbench ends at a thread's fatal error, its report unprinted.
    let ended_by_error = m.fatal.is_some() && dbpress_core::personality::is_sysbench();
    match cfg.reporting.format {
        dbpress_report::OutputFormat::Text if !dbpress_core::verbosity::notices() => {}
        dbpress_report::OutputFormat::Text if ended_by_error => {}
        // A script's report_cumulative printed in place of sysbench's part.
        dbpress_report::OutputFormat::Text if m.own_final_report => {
            let text = dbpress_report::text::dbpress_summary(&m.result, cfg.reporting.histogram);
            dbpress_core::out!("{text}");
        }
        dbpress_report::OutputFormat::Text => {
            dbpress_core::out!(
                "{}",
                dbpress_report::text::summary(&m.result, cfg.reporting.histogram)
            );
        }
        other => dbpress_core::out!("{}", dbpress_report::run_as(other, &m.result)),
    }
    let _ = std::io::stdout().flush();
    if let Some(store) = &cfg.reporting.store {
        crate::store_option::save(store, &cfg.reporting.tags, &[&m.result], None)?;
    }
    // Said first: a fatal error's line would otherwise hide the sessions left behind.
    let abandoned = m.result.run.abandoned.as_ref().map(|a| {
        eprintln!("dbpress: {}", abandoned_message(a, cfg.shape.threads));
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
        eprintln!("dbpress: {}", forced_message(f, cfg.shape.threads));
        return Ok(FORCED_EXIT_CODE);
    }
    Ok(0)
}

/// sysbench's exit code for a forced shutdown.
pub const FORCED_EXIT_CODE: u8 = 2;

/// One line on a run `--forced-shutdown` ended.
pub fn forced_message(f: &dbpress_result::ForcedShutdown, threads: u32) -> String {
    format!(
        "forced shutdown: {} of {threads} threads were still inside an event {} s after --time ended (the server had not answered them); \
         the summary covers the events that finished",
        f.unfinished,
        seconds(f.grace_s)
    )
}

/// One line on a run that ended with sessions left behind: how many, after what, and what the
/// server's answer to a new session says about why.
pub fn abandoned_message(a: &dbpress_result::Abandoned, threads: u32) -> String {
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
pub fn abandoned_exit_code(a: &dbpress_result::Abandoned) -> u8 {
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
