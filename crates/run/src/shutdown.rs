//! The end of a run: waiting for the workers still inside an event once the run has stopped.
//!
//! A worker stops between events, so after `--time` it finishes the event it is in. When the
//! server does not answer (a lock held elsewhere, a stalled flush, a hung server) that wait
//! has no end. `--forced-shutdown`, as in sysbench, bounds it: after the grace period the run
//! ends with the events that finished, and says how many were left unfinished. Without it,
//! dbpress keeps waiting but says once (`Phase::StillWaiting`) what it is waiting for.

use super::progress::{Phase, Progress};
use super::shared::Shared;
use dbpress_config::RunConfig;
use dbpress_measure::stats::now_ns;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// How long workers may take to leave their events before the notice says so.
const NOTICE_AFTER_NS: u64 = 5_000_000_000;

#[derive(Debug, PartialEq, Eq)]
pub enum Ending {
    /// Every worker left its event loop.
    AllStopped,
    /// `--forced-shutdown`'s grace ran out with these workers still inside an event.
    Forced { unfinished: u32 },
}

/// When `--forced-shutdown` gives up on the workers (ns on the `now_ns` clock): the grace
/// period after the end of `--time` (warm-up included), or None when nothing bounds the wait.
fn forced_at(cfg: &RunConfig, shared: &Shared) -> Option<u64> {
    let deadline = shared.deadline_ns.load(Ordering::Relaxed);
    let grace = cfg.forced_shutdown?;
    (deadline > 0).then(|| shared.epoch_ns + deadline + (grace * 1e9) as u64)
}

/// Wait until every worker has left its event loop, or until `--forced-shutdown` gives up.
pub fn wait_for_workers(cfg: &RunConfig, shared: &Shared, progress: &mut dyn Progress) -> Ending {
    let forced_at = forced_at(cfg, shared);
    let waiting_since = now_ns();
    let mut told = false;
    loop {
        let running = shared.running.load(Ordering::Relaxed) as u32;
        if running == 0 {
            return Ending::AllStopped;
        }
        let now = now_ns();
        match forced_at {
            Some(at) if now >= at => {
                return Ending::Forced {
                    unfinished: running,
                }
            }
            Some(_) => {}
            None if !told && now - waiting_since >= NOTICE_AFTER_NS => {
                progress.phase(Phase::StillWaiting {
                    running,
                    threads: cfg.threads,
                    seconds: NOTICE_AFTER_NS / 1_000_000_000,
                });
                told = true;
            }
            None => {}
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}
