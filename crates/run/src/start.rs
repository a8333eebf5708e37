//! The workers' start: each connects and prepares its statements (at most `SETUP_SLOTS` at
//! once), says it is ready, waits at the gate with the others, then runs its events.

use crate::pacing::Schedule;
use crate::setup_slots::SetupSlots;
use crate::shared::Shared;
use crate::worker::Worker;
use dbpress_config::RunConfig;
use dbpress_core::rand::{Distribution, Rng};
use dbpress_driver::{DbError, Driver};
use dbpress_measure::stats::{StmtStats, ThreadCell};
use dbpress_workload::Workload;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;

/// A worker's readiness: its number, and the server's id for its session (for the wait
/// sampler) or why it could not be set up.
pub type Ready = (u32, Result<Option<u64>, DbError>);

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
    let slot = slots.take();
    let setup = driver.connect(tid as usize).and_then(|mut conn| {
        let rng = Rng::new(cfg.seed, u64::from(tid) + 1);
        let events = workload.worker(
            conn.as_mut(),
            driver.dialect(),
            tid,
            rng.clone(),
            Distribution::new(&cfg.dist),
        )?;
        Ok((conn, events, rng))
    });
    drop(slot);
    let parts = match setup {
        Ok(p) => {
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
        ignore: &cfg.ignore,
        rng: pacing_rng,
        transactional,
        stmts: StmtStats::new(kinds),
    };
    let r = w.run();
    if r.is_some() {
        shared.stop.store(true, Ordering::Relaxed);
    }
    shared
        .last_finish_ns
        .fetch_max(dbpress_measure::stats::now_ns(), Ordering::Relaxed);
    shared.running.fetch_sub(1, Ordering::Relaxed);
    r
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
