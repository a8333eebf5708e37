//! The end of a run: waiting for the workers still inside an event once the run has stopped.
//!
//! A worker stops between events, so after `--time` it finishes the event it is in. When the
//! server does not answer (a lock held elsewhere, a stalled flush, a hung server, a network
//! cut) that wait has no end of its own. Three things bound it:
//! - `--forced-shutdown`, as in sysbench: after its grace the run ends with the events that
//!   finished, and says how many were left unfinished;
//! - a stop signal: the run waits at most the grace (`grace`), then leaves the sessions still
//!   inside an event behind and ends with what finished;
//! - after the run's own end, the server is asked for a new session: one that answers is busy
//!   with the sessions (they are waited for, and a notice says so once); one out of reach (no
//!   answer within the grace) will not answer them either, and they are left behind.

use super::shared::Shared;
use dbpress_config::{RunConfig, RunShape};
use dbpress_measure::stats::now_ns;
use dbpress_result::progress::{Phase, Progress};
use dbpress_result::Abandoned;
use std::sync::atomic::Ordering;
use std::sync::mpsc;
use std::time::Duration;

/// How long workers may take to leave their events before the notice says so.
const NOTICE_AFTER_NS: u64 = 5_000_000_000;
/// The least time a stop signal gives the sessions still inside an event.
pub const GRACE_MIN_S: f64 = 2.0;
/// After the run's own end, how long workers may take before the server is asked whether it
/// answers: most last events finish well within it, and they need no probe.
const PROBE_AFTER_NS: u64 = 1_000_000_000;
/// The same after a stop signal, within its grace: sessions that stop at once (nearly always)
/// cost the server no probe session, and a working server still answers well before the grace
/// has passed.
const PROBE_AFTER_SIGNAL_NS: u64 = 500_000_000;
/// While the server answers, how often it is asked again.
const PROBE_EVERY_NS: u64 = 5_000_000_000;

#[derive(Debug, PartialEq)]
pub enum Ending {
    /// Every worker left its event loop.
    AllStopped,
    /// `--forced-shutdown`'s grace ran out with these workers still inside an event.
    Forced { unfinished: u32 },
    /// Sessions left behind; `signal`: the stop signal that ended the run, if one did.
    Abandoned {
        abandoned: Abandoned,
        signal: Option<&'static str>,
    },
}

/// How long a stop signal lets sessions finish: `GRACE_MIN_S`, or `--forced-shutdown`'s grace
/// when that is longer.
pub fn grace_s(shape: &RunShape) -> f64 {
    shape.forced_shutdown.unwrap_or(0.0).max(GRACE_MIN_S)
}

/// When `--forced-shutdown` gives up on the workers (ns on the `now_ns` clock): the grace
/// period after the end of `--time` (warm-up included), or None when nothing bounds the wait.
fn forced_at(cfg: &RunConfig, shared: &Shared) -> Option<u64> {
    let deadline = shared.deadline_ns.load(Ordering::Relaxed);
    let grace = cfg.shape.forced_shutdown?;
    (deadline > 0).then(|| shared.epoch_ns + deadline + (grace * 1e9) as u64)
}

/// What the wait needs from the run around it.
pub struct Watch<'a> {
    pub cfg: &'a RunConfig,
    pub shared: &'a Shared,
    pub signals: &'a dbpress_core::signals::Signals,
    /// Asks the server for a new session within the given time, on a thread of its own; the
    /// answer (whether it answered) comes on the channel.
    pub probe: &'a dyn Fn(Duration) -> mpsc::Receiver<bool>,
}

/// Wait until every worker has left its event loop, or until a bound above gives up on them.
/// `stopped_by`: the signal that stopped the run, if one did.
pub fn wait_for_workers(
    watch: &Watch<'_>,
    stopped_by: Option<&'static str>,
    progress: &mut dyn Progress,
) -> Ending {
    let Watch {
        cfg,
        shared,
        signals,
        probe,
    } = *watch;
    let forced_at = forced_at(cfg, shared);
    let grace = Duration::from_secs_f64(grace_s(&cfg.shape));
    let waiting_since = now_ns();
    let mut signal = stopped_by.map(|s| (s, waiting_since));
    let mut asking: Option<mpsc::Receiver<bool>> = None;
    let mut answered: Option<bool> = None;
    // --forced-shutdown bounds the end of a --time run by itself: no probe there.
    let mut next_probe = match (signal, forced_at) {
        (Some(_), _) => Some(waiting_since + PROBE_AFTER_SIGNAL_NS),
        (None, None) => Some(waiting_since + PROBE_AFTER_NS),
        (None, Some(_)) => None,
    };
    let mut told = false;
    loop {
        let running = shared.running.load(Ordering::Relaxed) as u32;
        if running == 0 {
            return Ending::AllStopped;
        }
        let now = now_ns();
        if forced_at.is_some_and(|at| now >= at) {
            return Ending::Forced {
                unfinished: running,
            };
        }
        if signal.is_none() {
            if let Some(sig) = signals.caught() {
                // A signal while waiting: its grace starts now, with a fresh question.
                signal = Some((sig, now));
                (asking, answered, next_probe) = (None, None, Some(now + PROBE_AFTER_SIGNAL_NS));
            }
        }
        if let Some(r) = asking.as_ref().and_then(|rx| rx.try_recv().ok()) {
            asking = None;
            answered = Some(r);
            next_probe = next_probe.map(|_| now + PROBE_EVERY_NS);
        }
        let left_behind = |signal: Option<&'static str>, answered: bool| Ending::Abandoned {
            abandoned: Abandoned {
                sessions: running,
                after: signal.unwrap_or("end").to_string(),
                waited_s: (now - waiting_since) as f64 / 1e9,
                server_answered: answered,
            },
            signal,
        };
        match signal {
            Some((sig, at)) if now >= at + grace.as_nanos() as u64 => {
                return left_behind(Some(sig), answered.unwrap_or(false));
            }
            None if answered == Some(false) => return left_behind(None, false),
            _ => {}
        }
        if asking.is_none() && next_probe.is_some_and(|at| now >= at) {
            asking = Some(probe(grace));
        }
        if signal.is_none()
            && forced_at.is_none()
            && !told
            && now - waiting_since >= NOTICE_AFTER_NS
        {
            progress.phase(Phase::StillWaiting {
                running,
                threads: cfg.shape.threads,
                seconds: NOTICE_AFTER_NS / 1_000_000_000,
            });
            told = true;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}
