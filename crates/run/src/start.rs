//! The workers' start: each connects and prepares its statements (at most `SETUP_SLOTS` at
//! once), says it is ready, waits at the gate with the others, then runs its events.

use crate::init_watchdog::InitWatchdog;
use crate::pacing::Schedule;
use crate::setup_slots::SetupSlots;
use crate::shared::Shared;
use crate::worker::Worker;
use dbpress_config::RunConfig;
use dbpress_core::error::{environment, Result};
use dbpress_core::rand::{Distribution, Rng};
use dbpress_driver::{DbError, DbErrorKind, Driver};
use dbpress_measure::counters::{self, Snapshot};
use dbpress_measure::host::Sampler;
use dbpress_measure::stats::{StmtStats, ThreadCell};
use dbpress_workload::Workload;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::thread::{Scope, ScopedJoinHandle};
use std::time::Instant;

/// A worker's readiness: its number, and the server's id for its session (for the wait
/// sampler) or why it could not be set up.
pub type Ready = (u32, std::result::Result<Option<u64>, DbError>);

/// What a run's threads share, made before any of them starts.
pub struct Parts {
    pub cells: Vec<ThreadCell>,
    pub shared: Shared,
    pub schedule: Option<Schedule>,
    go: Gate,
    slots: SetupSlots,
    setup_failed: AtomicBool,
    kinds: usize,
}

impl Parts {
    pub fn new(cfg: &RunConfig, workload: &dyn Workload) -> Parts {
        let kinds = workload.statement_kinds().len();
        let threads = cfg.shape.threads as usize;
        Parts {
            cells: (0..threads).map(|_| ThreadCell::new()).collect(),
            shared: Shared::for_run(cfg, threads),
            schedule: cfg.shape.rate.map(|r| Schedule::new(r, cfg.shape.arrival)),
            go: Gate::default(),
            slots: SetupSlots::new(crate::setup_slots::SETUP_SLOTS),
            setup_failed: AtomicBool::new(false),
            kinds,
        }
    }

    /// The workers' view of these parts.
    pub fn crew<'a>(
        &'a self,
        cfg: &'a RunConfig,
        workload: &'a dyn Workload,
        driver: &'a dyn Driver,
    ) -> Crew<'a> {
        Crew {
            cfg,
            workload,
            driver,
            shared: &self.shared,
            cells: &self.cells,
            schedule: self.schedule.as_ref(),
            go: &self.go,
            slots: &self.slots,
            setup_failed: &self.setup_failed,
            kinds: self.kinds,
            transactional: workload.transactional(),
        }
    }
}

/// What every worker of a run shares while it starts and runs.
pub struct Crew<'a> {
    pub cfg: &'a RunConfig,
    pub workload: &'a dyn Workload,
    pub driver: &'a dyn Driver,
    pub shared: &'a Shared,
    pub cells: &'a [ThreadCell],
    pub schedule: Option<&'a Schedule>,
    pub go: &'a Gate,
    pub slots: &'a SetupSlots,
    /// Set when a worker could not be set up (or started): the others then run nothing.
    pub setup_failed: &'a AtomicBool,
    /// The workload's statement kinds.
    pub kinds: usize,
    /// Whether events run inside BEGIN/COMMIT.
    pub transactional: bool,
}

/// Worker `tid`'s life: set up, say so on `ready`, wait at the gate, run. Returns the error
/// that ended the run, if its events met one.
pub fn worker_main(crew: &Crew<'_>, tid: u32, ready: mpsc::Sender<Ready>) -> Option<DbError> {
    let Crew {
        cfg,
        workload,
        driver,
        shared,
        cells,
        schedule,
        go,
        slots,
        setup_failed,
        kinds,
        transactional,
    } = *crew;
    let cell = &cells[tid as usize];
    // sysbench's DEBUG lines (--verbosity=5), one per worker as it starts and when it is set up.
    debug_line(tid, "started");
    let slot = slots.take();
    let setup = driver.connect(tid as usize).and_then(|mut conn| {
        let rng = Rng::new(cfg.keys.seed, u64::from(tid) + 1);
        let events = workload.worker(
            conn.as_mut(),
            driver.dialect(),
            tid,
            rng.clone(),
            Distribution::new(&cfg.keys.dist),
        )?;
        Ok((conn, events, rng))
    });
    drop(slot);
    let parts = match setup {
        Ok(p) => {
            debug_line(tid, "initialized");
            let _ = ready.send((tid, Ok(p.0.session_id())));
            Some(p)
        }
        Err(e) => {
            let _ = ready.send((tid, Err(e)));
            None
        }
    };
    drop(ready);
    go.wait();
    let (conn, events, mut rng) = parts?;
    if setup_failed.load(Ordering::Relaxed) {
        shared.running.fetch_sub(1, Ordering::Relaxed);
        return None;
    }
    // A distinct stream for pacing so it does not perturb the workload's draws.
    let pacing_rng = Rng::new(rng.next_u64(), 0xFACE);
    let w = Worker {
        conn,
        events,
        cell,
        shared,
        schedule,
        ignore: &cfg.connection.ignore,
        rng: pacing_rng,
        transactional,
        stmts: StmtStats::new(kinds),
    };
    w.run()
}

/// `DEBUG: Worker thread (#0) started`, as sysbench logs it at --verbosity=5.
fn debug_line(tid: u32, what: &str) {
    if dbpress_core::verbosity::debug() {
        dbpress_core::outln!("DEBUG: Worker thread (#{tid}) {what}");
    }
}

/// A worker's thread, which returns the error that ended the run, if its events met one.
pub type WorkerHandle<'scope> = ScopedJoinHandle<'scope, Option<DbError>>;

/// Start one thread per worker in `s`, each reporting its readiness on `ready`. A thread that
/// cannot be started fails the set-up: the gate opens for the others to leave, and the error
/// says what to change.
pub fn spawn_workers<'scope, 'env>(
    s: &'scope Scope<'scope, 'env>,
    crew: &'env Crew<'env>,
    ready: mpsc::Sender<Ready>,
) -> Result<Vec<WorkerHandle<'scope>>> {
    let threads = crew.cells.len();
    let mut handles = Vec::with_capacity(threads);
    for tid in 0..threads as u32 {
        let tx = ready.clone();
        let builder = std::thread::Builder::new()
            .name(format!("dbpress-w{tid}"))
            .stack_size(256 * 1024);
        match builder.spawn_scoped(s, move || worker_main(crew, tid, tx)) {
            Ok(h) => handles.push(h),
            Err(e) => {
                crew.setup_failed.store(true, Ordering::Relaxed);
                crew.go.open();
                return Err(environment(format!(
                    "cannot start worker thread {} of {}: {e}: use fewer --threads or raise the process limits (ulimit -u)",
                    tid + 1,
                    threads
                )));
            }
        }
    }
    Ok(handles)
}

/// A worker whose set-up failed: the first one by number, and how many failed the same way.
pub struct SetupFailure {
    pub error: DbError,
    pub alike: usize,
}

/// Wait until every worker has said whether it is ready; their sessions' server ids go to
/// `shared` (for the wait sampler). A failed set-up stops the others at the gate.
pub fn await_ready(
    crew: &Crew<'_>,
    ready: mpsc::Receiver<Ready>,
    init: &InitWatchdog,
) -> Option<SetupFailure> {
    let threads = crew.cells.len();
    let mut first_err: Option<(u32, DbError)> = None;
    let mut failed_kinds: Vec<DbErrorKind> = Vec::new();
    init.workers_started();
    let mut session_ids = Vec::with_capacity(threads);
    for (tid, r) in ready.iter().take(threads) {
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
    *crew
        .shared
        .session_ids
        .lock()
        .unwrap_or_else(|p| p.into_inner()) = session_ids;
    let (_, error) = first_err?;
    crew.setup_failed.store(true, Ordering::Relaxed);
    let alike = failed_kinds.iter().filter(|k| **k == error.kind).count();
    Some(SetupFailure { error, alike })
}

impl Crew<'_> {
    /// Open the gate: the schedule and the deadline start now. Returns the instant of the
    /// start and, for a run whose workers are all set up, the server's counters just before.
    pub fn release(
        &self,
        set_up: bool,
        host: &mut Sampler,
        init: &InitWatchdog,
    ) -> (Instant, Option<Snapshot>) {
        // Every session is connected with its statements prepared: from here the server's
        // counters grow by what the run sends (and by whatever else the server is doing).
        let counters_before = match (set_up, self.driver.counters()) {
            (true, Some(_)) => Some(counters::snapshot(self.driver, false)),
            _ => None,
        };
        host.before_start();
        // Without a warm-up, measurement starts at the release below: the machine is read
        // now, not when the reporter next gets a CPU (on a machine with hundreds of busy
        // threads per core, that can be a second later).
        if self.cfg.shape.warmup == 0 {
            host.begin();
        }
        init.disarm();
        // Workers are parked at the barrier: the schedule and deadline start now.
        let started = Instant::now();
        let start_ns = dbpress_measure::stats::now_ns().saturating_sub(self.shared.epoch_ns);
        if let Some(s) = self.schedule {
            s.start_at(start_ns);
        }
        if self.cfg.shape.time > 0 {
            self.shared.deadline_ns.store(
                start_ns + (self.cfg.shape.time + self.cfg.shape.warmup) * 1_000_000_000,
                Ordering::Relaxed,
            );
        }
        self.go.open();
        (started, counters_before)
    }
}

/// Where workers wait after connecting until every worker is ready (or setup failed).
#[derive(Default)]
pub struct Gate {
    open: std::sync::Mutex<bool>,
    cv: std::sync::Condvar,
}

impl Gate {
    pub fn wait(&self) {
        let mut open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        while !*open {
            open = self.cv.wait(open).unwrap_or_else(|p| p.into_inner());
        }
    }

    pub fn open(&self) {
        *self.open.lock().unwrap_or_else(|p| p.into_inner()) = true;
        self.cv.notify_all();
    }
}
