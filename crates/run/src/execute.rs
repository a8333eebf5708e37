//! One run executed: the workers started behind a gate, the reporter loop (this thread) folding
//! their cells into intervals and checkpoints, the wait for the last events, and the run's
//! figures concluded.

use crate::conclude::RunOutput;
use crate::pacing::Schedule;
use crate::progress::{Phase, Progress};
use crate::shared::Shared;
use dbpress_config::RunConfig;
use dbpress_core::error::{environment, Result};
use dbpress_driver::{Connection, DbError, Driver, ServerInfo};
use dbpress_measure::counters;
use dbpress_measure::stats::ThreadCell;
use dbpress_workload::Workload;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

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

/// Run the benchmark. Phases, intervals (when `cfg.report_interval > 0`) and checkpoints go to
/// `progress` as they happen.
pub fn run(
    cfg: &RunConfig,
    workload: &dyn Workload,
    driver: &dyn Driver,
    info: &ServerInfo,
    controls: &Controls<'_>,
    mut host: dbpress_measure::host::Sampler,
    progress: &mut dyn Progress,
) -> Result<RunOutput> {
    let Controls {
        signals,
        init,
        on_forced,
    } = *controls;
    crate::limits::check_thread_room(u64::from(cfg.threads))?;
    crate::limits::check_file_room(u64::from(cfg.threads), driver.hints().files_per_session)?;
    let kinds = workload.statement_kinds().len();
    let threads = cfg.threads as usize;
    let cells: Vec<ThreadCell> = (0..threads).map(|_| ThreadCell::new(kinds)).collect();
    let epoch = Instant::now();
    let schedule = cfg.rate.map(|r| Schedule::new(r, cfg.arrival));
    // Each worker's readiness, with the server's id for its session (for the wait sampler).
    let (ready_tx, ready_rx) = mpsc::channel::<(u32, std::result::Result<Option<u64>, DbError>)>();
    let go = crate::start::Gate::default();
    let slots = crate::setup_slots::SetupSlots::new(crate::setup_slots::SETUP_SLOTS);
    let setup_failed = AtomicBool::new(false);
    let shared = Shared {
        stop: AtomicBool::new(false),
        measuring: AtomicBool::new(cfg.warmup == 0),
        events_limit: cfg.events,
        events_per_thread: cfg.events_per_thread,
        events_claimed: AtomicU64::new(0),
        in_flight: AtomicU64::new(0),
        running: AtomicUsize::new(threads),
        last_finish_ns: AtomicU64::new(0),
        epoch,
        epoch_ns: dbpress_measure::stats::now_ns(),
        deadline_ns: AtomicU64::new(0),
        latency_limit_ns: cfg.latency_limit_ns.unwrap_or(0),
        session_ids: std::sync::Mutex::new(Vec::new()),
    };

    progress.phase(Phase::Initializing);
    let status_items = driver.status_spec().and_then(|spec| {
        let extra = cfg.server_status.as_ref()?;
        Some((
            dbpress_measure::status::items(spec, extra),
            spec.source.to_string(),
        ))
    });
    let crew = crate::start::Crew {
        cfg,
        workload,
        driver,
        shared: &shared,
        cells: &cells,
        schedule: schedule.as_ref(),
        go: &go,
        slots: &slots,
        setup_failed: &setup_failed,
        kinds,
        transactional: workload.transactional(),
    };
    let outcome = std::thread::scope(|s| -> Result<RunOutput> {
        let mut handles = Vec::with_capacity(threads);
        for tid in 0..threads as u32 {
            let (crew, tx) = (&crew, ready_tx.clone());
            let builder = std::thread::Builder::new()
                .name(format!("dbpress-w{tid}"))
                .stack_size(256 * 1024);
            let spawned = builder.spawn_scoped(s, move || crate::start::worker_main(crew, tid, tx));
            match spawned {
                Ok(h) => handles.push(h),
                Err(e) => {
                    setup_failed.store(true, Ordering::Relaxed);
                    go.open();
                    return Err(environment(format!(
                        "cannot start worker thread {} of {}: {e}: use fewer --threads or raise the process limits (ulimit -u)",
                        tid + 1,
                        threads
                    )));
                }
            }
        }
        drop(ready_tx);
        let mut first_err: Option<(u32, DbError)> = None;
        let mut failed_kinds = Vec::new();
        init.workers_started();
        let mut session_ids = Vec::with_capacity(threads);
        for (tid, r) in ready_rx.iter().take(threads) {
            init.worker_ready();
            match r {
                Ok(id) => session_ids.extend(id),
                Err(e) => {
                    failed_kinds.push(e.kind);
                    if first_err.as_ref().is_none_or(|(t, _)| tid < *t) {
                        first_err = Some((tid, e));
                    }
                }
            }
        }
        // Every session's id, or none: a partial list would leave sessions out of the samples.
        if session_ids.len() < threads {
            session_ids.clear();
        }
        session_ids.sort_unstable();
        *shared.session_ids.lock().unwrap_or_else(|p| p.into_inner()) = session_ids;
        if first_err.is_some() {
            setup_failed.store(true, Ordering::Relaxed);
        }
        // Every session is connected with its statements prepared: from here the server's
        // counters grow by what the run sends (and by whatever else the server is doing).
        let counters_before = match (&first_err, driver.counters()) {
            (None, Some(_)) => Some(counters::snapshot(driver, false)),
            _ => None,
        };
        host.before_start();
        // Without a warm-up, measurement starts at the release below: the machine is read
        // now, not when the reporter next gets a CPU (on a machine with hundreds of busy
        // threads per core, that can be a second later).
        if cfg.warmup == 0 {
            host.begin();
        }
        init.disarm();
        // Workers are parked at the barrier: the schedule and deadline start now.
        let started = Instant::now();
        let start_ns = dbpress_measure::stats::now_ns().saturating_sub(shared.epoch_ns);
        if let Some(s) = &schedule {
            s.start_at(start_ns);
        }
        if cfg.time > 0 {
            shared.deadline_ns.store(
                start_ns + (cfg.time + cfg.warmup) * 1_000_000_000,
                Ordering::Relaxed,
            );
        }
        go.open();
        if let Some((_, e)) = first_err {
            let alike = failed_kinds.iter().filter(|k| **k == e.kind).count();
            return Err(crate::diagnose::worker_setup_error(
                &e,
                alike,
                cfg,
                info,
                driver.hints(),
                workload,
            ));
        }
        progress.phase(Phase::Started);
        // The server's view of the sessions, sampled on a thread and a session of its own.
        let shared_ref = &shared;
        let waits = driver
            .wait_source()
            .filter(|_| cfg.server_waits)
            .map(|source| {
                s.spawn(move || dbpress_measure::waits::sample(driver, source, threads, shared_ref))
            });
        // The server's status, read once a second on a thread and a session of their own.
        let status = status_items.as_ref().map(|(items, source)| {
            s.spawn(move || dbpress_measure::status::sample(driver, items, source, shared_ref))
        });
        let watched = crate::reporter::Watched {
            cfg,
            shared: &shared,
            cells: &cells,
            schedule: schedule.as_ref(),
            signals,
        };
        let result = crate::reporter::report(watched, kinds, started, &mut host, progress);
        shared.stop.store(true, Ordering::Relaxed);
        let probe = |within: Duration| {
            let (tx, rx) = mpsc::channel();
            s.spawn(move || {
                let _ = tx.send(driver.answers_within(within));
            });
            rx
        };
        let watch = crate::shutdown::Watch {
            cfg,
            shared: &shared,
            signals,
            probe: &probe,
        };
        match crate::shutdown::wait_for_workers(&watch, result.interrupted_by, progress) {
            crate::shutdown::Ending::AllStopped => {}
            // The workers still waiting on the server are left to the process's exit.
            crate::shutdown::Ending::Forced { unfinished } => {
                // sysbench's words, where its report goes, then the report of what finished.
                progress.phase(Phase::ForcedShutdown);
                let mut output = crate::conclude::conclude(
                    cfg,
                    &cells,
                    &shared,
                    result,
                    &mut host,
                    crate::conclude::End::Forced,
                );
                output.forced_unfinished = Some(unfinished);
                match on_forced(output) {}
            }
            crate::shutdown::Ending::Abandoned { abandoned, signal } => {
                let mut output = crate::conclude::conclude(
                    cfg,
                    &cells,
                    &shared,
                    result,
                    &mut host,
                    crate::conclude::End::Abandoned,
                );
                output.interrupted_by = output.interrupted_by.or(signal);
                output.abandoned = Some(abandoned);
                match on_forced(output) {}
            }
        }
        let mut fatal = None;
        for h in handles {
            if let Ok(Some(e)) = h.join() {
                fatal.get_or_insert(e);
            }
        }
        progress.phase(Phase::Done);
        // The sampler's session too is closed before the counters are read again (PostgreSQL's
        // reading waits until no dbpress session is left) and the server's CPU is read.
        let waits = waits.and_then(|h| h.join().ok());
        let status = status.and_then(|h| h.join().ok());
        // Every worker has closed its session.
        let counters = counters_before.map(|before| {
            let after = match before {
                Ok(_) => counters::snapshot(driver, true),
                Err(_) => Err(String::new()),
            };
            (before, after)
        });
        let mut output = crate::conclude::conclude(
            cfg,
            &cells,
            &shared,
            result,
            &mut host,
            crate::conclude::End::Joined,
        );
        output.fatal = fatal;
        output.counters = counters;
        output.waits = waits.map(|(w, timeline)| {
            timeline.assign(&mut output.intervals, output.measure_start);
            w
        });
        output.server_status = status.map(|(st, timeline)| {
            timeline.assign(&st.items, &mut output.intervals, output.measure_start);
            st
        });
        Ok(output)
    });
    outcome
}

/// Open the probe session used for metadata and readiness checks.
pub fn probe(driver: &dyn Driver) -> Result<Box<dyn Connection>> {
    dbpress_driver::connect_checked(driver, 0)
        .map_err(|e| dbpress_config::diagnose::connect_failed(&e, driver.hints()))
}
