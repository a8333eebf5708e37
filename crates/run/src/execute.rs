//! One run executed: the workers started behind a gate, the reporter loop (this thread) folding
//! their cells into intervals and checkpoints, the wait for the last events, and the run's
//! figures concluded.

use crate::conclude::{conclude, End, Joined, RunOutput};
use crate::samplers::Samplers;
use crate::shutdown::{wait_for_workers, Ending, Watch};
use crate::start::WorkerHandle;
use dbpress_config::RunConfig;
use dbpress_core::error::Result;
use dbpress_driver::{Connection, Driver, ServerInfo};
use dbpress_measure::counters;
use dbpress_result::progress::{Phase, Progress};
use dbpress_workload::Workload;
use std::sync::atomic::Ordering;
use std::sync::mpsc;
use std::time::Duration;

/// What a run that ended with workers still waiting on the server (`--forced-shutdown`, or
/// sessions abandoned) is handed to: it reports what finished and exits the process, since
/// those workers cannot be joined.
pub type OnForced<'a> = &'a dyn Fn(RunOutput) -> std::convert::Infallible;

/// What steers a run from outside its workers.
pub struct Controls<'a> {
    pub signals: &'a dbpress_core::signals::Signals,
    /// Watches the set-up; disarmed once every worker is ready.
    pub init: &'a crate::init_watchdog::InitWatchdog,
    pub on_forced: OnForced<'a>,
}

/// Run the benchmark: limits → workers started behind the gate → ready → release → samplers →
/// reporter → the wait for the last events → joined → concluded. Phases, intervals (when
/// `cfg.report_interval > 0`) and checkpoints go to `progress` as they happen.
pub fn run(
    cfg: &RunConfig,
    workload: &dyn Workload,
    driver: &dyn Driver,
    info: &ServerInfo,
    controls: &Controls<'_>,
    mut host: dbpress_measure::host::Sampler,
    progress: &mut dyn Progress,
) -> Result<RunOutput> {
    crate::limits::check_thread_room(u64::from(cfg.shape.threads))?;
    crate::limits::check_file_room(
        u64::from(cfg.shape.threads),
        driver.hints().files_per_session,
    )?;
    let parts = crate::start::Parts::new(cfg, workload);
    progress.phase(Phase::Initializing);
    background_debug_lines(cfg);
    let status_items = crate::samplers::status_items(&cfg.sampling, driver);
    let crew = parts.crew(cfg, workload, driver);
    let (shared, kinds) = (&parts.shared, crew.kinds);
    std::thread::scope(|s| -> Result<RunOutput> {
        let (ready_tx, ready_rx) = mpsc::channel();
        let spawned = std::time::Instant::now();
        let handles = crate::start::spawn_workers(s, &crew, ready_tx)?;
        let failed = crate::start::await_ready(&crew, ready_rx, controls.init);
        let sessions_ready_s = spawned.elapsed().as_secs_f64();
        // "Threads started!" before the workers go, as sysbench prints it at its start
        // barrier: a script's first event may print, and its lines come after (#41).
        let own = failed.is_none().then(|| {
            let own = crate::reporter::own_reports(cfg, workload, driver.dialect());
            progress.phase(Phase::Started);
            own
        });
        let (started, counters_before) = crew.release(failed.is_none(), &mut host, controls.init);
        if let Some(f) = failed {
            let h = driver.hints();
            let e = crate::diagnose::worker_setup_error(&f.error, f.alike, cfg, info, h, workload);
            return Err(e);
        }
        let own = own.expect("made when every worker was set up");
        let samplers = Samplers::start(s, cfg, driver, status_items.as_ref(), shared);
        let watched = crate::reporter::Watched {
            cfg,
            shared,
            cells: &parts.cells,
            schedule: parts.schedule.as_ref(),
            signals: controls.signals,
            own,
        };
        let result = crate::reporter::report(watched, kinds, started, &mut host, progress);
        shared.stop.store(true, Ordering::Relaxed);
        let probe = |within: Duration| answers_within(s, driver, within);
        let watch = Watch {
            cfg,
            shared,
            signals: controls.signals,
            probe: &probe,
        };
        let ending = wait_for_workers(&watch, result.interrupted_by, progress);
        let end = match ending {
            Ending::AllStopped => {
                let joined = join(handles, samplers, counters_before, driver, progress);
                End::Joined(Box::new(joined))
            }
            Ending::Forced { unfinished } => {
                // sysbench's words, where its report goes, then the report of what finished.
                progress.phase(Phase::ForcedShutdown);
                End::Forced { unfinished }
            }
            Ending::Abandoned { abandoned, signal } => End::Abandoned { abandoned, signal },
        };
        let left_behind = !matches!(end, End::Joined(_));
        let mut output = conclude(cfg, &parts.cells, shared, result, &mut host, end);
        output.sessions_ready_s = sessions_ready_s;
        crate::conclude::final_report(&mut output, workload, driver.dialect(), shared);
        if left_behind {
            // The workers still waiting on the server are left to the process's exit.
            match (controls.on_forced)(output) {}
        }
        Ok(output)
    })
}

/// A run whose workers all stopped: each joined (its session closed, the first error kept),
/// then the samplers, then the server's counters read again.
fn join(
    handles: Vec<WorkerHandle<'_>>,
    samplers: Samplers<'_>,
    counters_before: Option<counters::Snapshot>,
    driver: &dyn Driver,
    progress: &mut dyn Progress,
) -> Joined {
    let errors = handles.into_iter().filter_map(|h| h.join().ok().flatten());
    let fatal = errors.fold(None, |first, e| first.or(Some(e)));
    progress.phase(Phase::Done);
    let sampled = samplers.join();
    // Every worker and sampler has closed its session.
    let counters = counters_before.map(|before| {
        let after = match before {
            Ok(_) => counters::snapshot(driver, true),
            Err(_) => Err(String::new()),
        };
        (before, after)
    });
    Joined {
        fatal,
        counters,
        sampled,
    }
}

/// Ask the server for a new session within `within`, on a thread of the run's scope; the
/// answer (whether it answered) comes on the channel.
fn answers_within<'scope>(
    s: &'scope std::thread::Scope<'scope, '_>,
    driver: &'scope dyn Driver,
    within: Duration,
) -> mpsc::Receiver<bool> {
    let (tx, rx) = mpsc::channel();
    s.spawn(move || {
        let _ = tx.send(driver.answers_within(within));
    });
    rx
}

/// Open the probe session used for metadata and readiness checks.
pub fn probe(driver: &dyn Driver) -> Result<Box<dyn Connection>> {
    dbpress_driver::connect_checked(driver, 0)
        .map_err(|e| dbpress_config::diagnose::connect_failed(&e, driver.hints()))
}

/// sysbench's DEBUG lines (--verbosity=5) of its background threads, which start as its workers
/// do (their place among the workers' lines is a race in sysbench; here, first).
fn background_debug_lines(cfg: &RunConfig) {
    if !dbpress_core::verbosity::debug() {
        return;
    }
    if cfg.reporting.interval > 0 {
        dbpress_core::outln!("DEBUG: Reporting thread started");
    }
    if cfg.shape.rate.is_some() {
        dbpress_core::outln!("DEBUG: Event generating thread started");
    }
    if !cfg.reporting.checkpoints.is_empty() {
        dbpress_core::outln!("DEBUG: Checkpoints report thread started");
    }
}
