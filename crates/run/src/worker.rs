//! One worker thread: one connection, one event generator, one stats cell. The loop has three
//! independent parameters — stop condition, pacing, latency origin — and no per-workload code.

use super::pacing::Schedule;
use super::shared::Shared;
use dbpress_config::IgnoreList;
use dbpress_core::rand::Rng;
use dbpress_driver::{Connection, DbError, DbErrorKind};
use dbpress_measure::stats::now_ns;
use dbpress_measure::stats::{EventRecord, StmtStats, ThreadCell};
use dbpress_workload::{EventGen, Exec};
use std::sync::atomic::Ordering;
use std::time::Duration;

/// The code of the error a worker ends with when the run stops while it is reconnecting.
pub const ENDED_RECONNECTING: &str = "reconnecting";

/// An event that starts this much after its intended time counts as late.
pub const LATE_THRESHOLD_NS: u64 = 1_000_000;

pub struct Worker<'a> {
    pub conn: Box<dyn Connection>,
    pub events: Box<dyn EventGen>,
    pub cell: &'a ThreadCell,
    pub shared: &'a Shared,
    pub schedule: Option<&'a Schedule>,
    pub ignore: &'a IgnoreList,
    pub rng: Rng,
    /// Whether events run inside BEGIN/COMMIT (so a failed attempt needs a ROLLBACK).
    pub transactional: bool,
    /// This worker's statement statistics, handed to `cell` when it stops.
    pub stmts: StmtStats,
}

impl Worker<'_> {
    /// Run events until told to stop, then the workload's final work. Returns a fatal error,
    /// if one ended the run.
    pub fn run(mut self) -> Option<DbError> {
        let keyed = match self.schedule {
            None => self.events.keyed_statement(),
            // Under --rate an event is timed from its intended start, which the general loop
            // handles.
            Some(_) => None,
        };
        let events = match keyed {
            Some(k) => self.run_keyed(k),
            None => self.run_events(),
        };
        let fatal = events.or_else(|| {
            let measuring = self.shared.measuring.load(Ordering::Relaxed);
            let mut exec = Exec::new(self.conn.as_mut(), &mut self.stmts, measuring);
            let r = self.events.finish(&mut exec);
            if measuring {
                self.cell
                    .record_statements(exec.reads, exec.writes, exec.other);
            } else {
                // A run that ended in its warm-up: the server still counted the final flush.
                self.cell
                    .record_warmup(false, exec.reads, exec.writes, exec.other, 0);
            }
            r.err()
        });
        self.cell.deposit_statements(self.stmts);
        fatal
    }

    fn run_events(&mut self) -> Option<DbError> {
        let shared = self.shared;
        let mut error_codes: Vec<String> = Vec::new();
        // A closed-loop event of such a workload is timed by its statements' own clock reads:
        // from the first send to the last reply (see `EventGen::statements_bound_event`).
        let bound = self.schedule.is_none() && self.events.statements_bound_event();
        // This worker's measured events, against its own share (slap's clients).
        let mut mine = 0u64;
        let pauses = self.events.pauses();
        loop {
            if shared.stop.load(Ordering::Relaxed) {
                return None;
            }
            if pauses {
                // A terminal's keying and think time: not part of any event's latency.
                let pause = self.events.pause_ns();
                if pause > 0 && !sleep_until(now_ns() + pause, shared) {
                    return None;
                }
            }
            let measuring = shared.measuring.load(Ordering::Relaxed);
            if measuring && shared.events_limit > 0 {
                // Its own share first: a worker past it must not take one of the common
                // count that another worker's share still needs.
                if shared.events_per_thread > 0 && mine >= shared.events_per_thread {
                    return None;
                }
                // Claimed before the event, like sysbench, so exactly `--events` events run.
                if shared.events_claimed.fetch_add(1, Ordering::Relaxed) >= shared.events_limit {
                    return None;
                }
                mine += 1;
            }
            // (intended start, actual start); 0 = not known yet.
            let (intended, mut started) = match self.schedule {
                None if bound => (0, 0),
                None => {
                    let now = now_ns();
                    (now, now)
                }
                Some(s) => {
                    let at_ns = s.claim(&mut self.rng);
                    let deadline = shared.deadline_ns.load(Ordering::Relaxed);
                    if deadline > 0 && at_ns >= deadline {
                        return None;
                    }
                    let at = shared.epoch_ns + at_ns;
                    if !sleep_until(at, shared) {
                        return None;
                    }
                    let now = now_ns();
                    // pgbench's -L under -R: an event already later than the limit when due
                    // would only add to the backlog; it is counted and not run.
                    let limit = shared.latency_limit_ns;
                    if limit > 0 && now.saturating_sub(at) > limit {
                        if measuring {
                            self.cell.record_skipped();
                        }
                        continue;
                    }
                    (at, now)
                }
            };
            if self.schedule.is_some() {
                shared.in_flight.fetch_add(1, Ordering::Relaxed);
            }

            error_codes.clear();
            let (mut reads, mut writes, mut other, mut reconnects) = (0, 0, 0, 0);
            let mut end = 0;
            let mut label: Option<u8>;
            let (succeeded, fatal) = loop {
                let mut exec = Exec::new(self.conn.as_mut(), &mut self.stmts, measuring);
                let r = self.events.event(&mut exec);
                reads += exec.reads;
                writes += exec.writes;
                other += exec.other;
                reconnects += exec.reconnects;
                if started == 0 {
                    started = exec.first_send_ns;
                }
                label = exec.label;
                match r {
                    Ok(()) => {
                        if bound && error_codes.is_empty() {
                            end = exec.last_reply_ns;
                        }
                        break (true, None);
                    }
                    Err(e) => match self.recover(e, &mut error_codes, &mut reconnects) {
                        Recovery::Retry => {}
                        Recovery::Stop => break (false, None),
                        Recovery::Fatal(e) => break (false, Some(e)),
                    },
                }
            };
            if end == 0 {
                end = now_ns();
            }
            if started == 0 {
                // A statement-bound event that sent nothing.
                started = end;
            }
            let intended = if self.schedule.is_some() {
                intended
            } else {
                started
            };
            if self.schedule.is_some() {
                shared.in_flight.fetch_sub(1, Ordering::Relaxed);
            }
            let lag_ns = started.saturating_sub(intended);
            // Whether an event counts is decided when it starts: warm-up events, including
            // those still running when measurement begins, are excluded from every figure.
            if !measuring {
                self.cell
                    .record_warmup(succeeded, reads, writes, other, error_codes.len() as u64);
                if let Some(e) = fatal {
                    return Some(e);
                }
                if shared.past_deadline(end) {
                    return None;
                }
                continue;
            }
            self.cell.record_event(&EventRecord {
                completed: succeeded,
                response_ns: end.saturating_sub(intended),
                service_ns: end.saturating_sub(started),
                reads,
                writes,
                other,
                reconnects,
                late: self.schedule.is_some() && lag_ns > LATE_THRESHOLD_NS,
                lag_ns,
                over_limit: shared.latency_limit_ns > 0
                    && end.saturating_sub(intended) > shared.latency_limit_ns,
                paced: self.schedule.is_some(),
                error_codes: &error_codes,
                label,
            });
            if let Some(e) = fatal {
                return Some(e);
            }
            if shared.past_deadline(end) {
                return None;
            }
        }
    }

    /// What to do after a failed attempt at an event: an ignorable error is added to `codes`
    /// and, after a reconnect (counted in `reconnects`) or a ROLLBACK as it needs, the event is
    /// tried again unless the run is stopping; any other error ends the run.
    pub(super) fn recover(
        &mut self,
        e: DbError,
        codes: &mut Vec<String>,
        reconnects: &mut u64,
    ) -> Recovery {
        // An error in the workload's own input would fail the same way on every retry: never
        // ignorable, even with an ignore list of "all".
        if e.kind == DbErrorKind::Input || !self.ignore.contains(&e.code) {
            return Recovery::Fatal(e);
        }
        codes.push(e.code.clone());
        if e.kind == DbErrorKind::ConnectionLost {
            if let Err(e) = self.reconnect() {
                return Recovery::Fatal(e);
            }
            *reconnects += 1;
        } else if self.transactional {
            // A deadlock already rolled back; a lock wait timeout did not. Either way start
            // the retry from a clean transaction.
            let _ = self.conn.query("ROLLBACK");
        }
        if self.shared.stop.load(Ordering::Relaxed) {
            Recovery::Stop
        } else {
            Recovery::Retry
        }
    }

    /// Reconnect after a lost connection, retrying until it works or the run stops.
    fn reconnect(&mut self) -> Result<(), DbError> {
        let mut wait = Duration::from_millis(1);
        let old = self.conn.session_id();
        let lost_at = std::time::Instant::now();
        loop {
            match self.conn.reconnect() {
                Ok(()) => {
                    self.shared.session_replaced(old, self.conn.session_id());
                    return Ok(());
                }
                Err(e) if e.kind.out_of_reach() => {
                    if self.shared.stop.load(Ordering::Relaxed) {
                        // Not the last connect error's fault: say where the run was and for how
                        // long the server had been out of reach.
                        return Err(DbError::new(
                            DbErrorKind::Unreachable,
                            ENDED_RECONNECTING,
                            format!(
                                "the run ended while reconnecting: the server had been unreachable for {:.1} s (last error {}: {})",
                                lost_at.elapsed().as_secs_f64(),
                                e.code,
                                e.message
                            ),
                        ));
                    }
                    std::thread::sleep(wait);
                    wait = (wait * 2).min(Duration::from_millis(200));
                }
                Err(e) => return Err(e),
            }
        }
    }
}

/// The outcome of `Worker::recover`.
pub(super) enum Recovery {
    Retry,
    /// The error was ignorable but the run is stopping: the event ends unfinished.
    Stop,
    Fatal(DbError),
}

/// Sleep until `at` (ns on the `now_ns` clock), waking early if the run stops.
/// Returns false if it stopped.
fn sleep_until(at: u64, shared: &Shared) -> bool {
    loop {
        if shared.stop.load(Ordering::Relaxed) {
            return false;
        }
        let now = now_ns();
        if now >= at {
            return true;
        }
        std::thread::sleep(Duration::from_nanos(at - now).min(Duration::from_millis(50)));
    }
}
