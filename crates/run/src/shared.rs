//! What every worker of a run reads, and the reporter (and the signal handlers) write: stop,
//! warm-up over, the event budget, the deadline, the sessions' server ids.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

/// State every worker reads; written by the reporter (this thread) and by signal handlers.
pub struct Shared {
    pub stop: AtomicBool,
    pub measuring: AtomicBool,
    pub events_limit: u64,
    /// Each worker's own limit (`RunConfig::events_per_thread`; 0 = none).
    pub events_per_thread: u64,
    pub events_claimed: AtomicU64,
    pub in_flight: AtomicU64,
    pub running: AtomicUsize,
    /// When the last worker left its event loop (ns on the `now_ns` clock): the end of the
    /// measured time, independent of how soon the reporter notices.
    pub last_finish_ns: AtomicU64,
    pub epoch: Instant,
    /// `epoch` on the `now_ns` clock.
    pub epoch_ns: u64,
    /// ns since `epoch` after which scheduled events are not issued (end of --time); 0 = none.
    pub deadline_ns: AtomicU64,
    /// `--latency-limit`, ns; 0 = off.
    pub latency_limit_ns: u64,
    /// The server's ids of the run's sessions, sorted (empty where the driver does not know
    /// them): set once every worker is connected, and changed by a worker that reconnects, so
    /// the wait sampler follows the sessions the run has now.
    pub session_ids: std::sync::Mutex<Vec<u64>>,
}

impl Shared {
    /// A worker has left its loop (`failed`: with the error that ends the run). Called before
    /// its session closes, so a sampler that still counts every worker running after a sample
    /// knows every session was open throughout it.
    pub fn worker_left(&self, failed: bool) {
        if failed {
            self.stop.store(true, Ordering::Relaxed);
        }
        self.last_finish_ns
            .fetch_max(dbpress_measure::stats::now_ns(), Ordering::Relaxed);
        self.running.fetch_sub(1, Ordering::Relaxed);
    }

    /// The state of a run of `threads` workers about to start.
    pub fn for_run(cfg: &dbpress_config::RunConfig, threads: usize) -> Shared {
        Shared {
            stop: AtomicBool::new(false),
            measuring: AtomicBool::new(cfg.shape.warmup == 0),
            events_limit: cfg.shape.events,
            events_per_thread: cfg.shape.events_per_thread,
            events_claimed: AtomicU64::new(0),
            in_flight: AtomicU64::new(0),
            running: AtomicUsize::new(threads),
            last_finish_ns: AtomicU64::new(0),
            epoch: Instant::now(),
            epoch_ns: dbpress_measure::stats::now_ns(),
            deadline_ns: AtomicU64::new(0),
            latency_limit_ns: cfg.shape.latency_limit_ns.unwrap_or(0),
            session_ids: std::sync::Mutex::new(Vec::new()),
        }
    }

    /// Whether `now_ns` (on the `now_ns` clock) is past the end of a `--time` run. Each worker
    /// checks its own clock after every event, as sysbench's do, so a reporter the scheduler
    /// starves (hundreds of busy threads on two cores) cannot stretch a 2 s run to 14 s.
    #[inline(always)]
    pub fn past_deadline(&self, now_ns: u64) -> bool {
        let d = self.deadline_ns.load(Ordering::Relaxed);
        d > 0 && now_ns >= self.epoch_ns + d
    }

    /// A worker's session was replaced by a new one (a reconnect): follow it. A session the
    /// list does not hold (ids unknown) changes nothing.
    pub fn session_replaced(&self, old: Option<u64>, new: Option<u64>) {
        let (Some(old), Some(new)) = (old, new) else {
            return;
        };
        let mut ids = self.session_ids.lock().unwrap_or_else(|p| p.into_inner());
        if let Ok(at) = ids.binary_search(&old) {
            ids.remove(at);
            let to = ids.binary_search(&new).unwrap_or_else(|i| i);
            ids.insert(to, new);
        }
    }

    /// The run's sessions now.
    pub fn sessions(&self) -> Vec<u64> {
        self.session_ids
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }
}

impl dbpress_measure::waits::WatchedRun for Shared {
    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
    fn measuring(&self) -> bool {
        self.measuring.load(Ordering::Relaxed)
    }
    fn running(&self) -> usize {
        self.running.load(Ordering::Relaxed)
    }
    fn sessions(&self) -> Vec<u64> {
        Shared::sessions(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reconnected_session_replaces_the_old_one_in_the_sampled_list() {
        let shared = Shared {
            stop: AtomicBool::new(false),
            measuring: AtomicBool::new(true),
            events_limit: 0,
            events_per_thread: 0,
            events_claimed: AtomicU64::new(0),
            in_flight: AtomicU64::new(0),
            running: AtomicUsize::new(3),
            last_finish_ns: AtomicU64::new(0),
            epoch: Instant::now(),
            epoch_ns: 0,
            deadline_ns: AtomicU64::new(0),
            latency_limit_ns: 0,
            session_ids: std::sync::Mutex::new(vec![10, 20, 30]),
        };
        shared.session_replaced(Some(20), Some(45));
        assert_eq!(shared.sessions(), [10, 30, 45]);
        // Not the run's (or ids unknown): nothing changes.
        shared.session_replaced(Some(99), Some(5));
        shared.session_replaced(None, Some(5));
        shared.session_replaced(Some(10), None);
        assert_eq!(shared.sessions(), [10, 30, 45]);
    }
}
