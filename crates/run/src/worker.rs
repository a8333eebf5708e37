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
        // A generator that drives its own loop (a Lua script's thread_run) does so without
        // pauses, paced by --rate inside its loop's steps as the general loop paces events.
        let driven = !self.events.pauses() && self.events.drives_loop();
        let events = match keyed {
            Some(k) => self.run_keyed(k),
            None if driven => self.run_driven(),
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
        // Before `self.conn` closes, on return.
        self.shared.worker_left(fatal.is_some());
        fatal
    }

    /// The general event loop: stop, pause, claim, start (paced or not), attempt, record.
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
            // A terminal's keying and think time: not part of any event's latency.
            if pauses && !self.pause() {
                return None;
            }
            let measuring = shared.measuring.load(Ordering::Relaxed);
            if measuring && !self.claim(&mut mine) {
                return None;
            }
            // (intended start, actual start); 0 = not known yet.
            let (intended, started) = match self.schedule {
                None if bound => (0, 0),
                None => {
                    let now = now_ns();
                    (now, now)
                }
                Some(s) => match paced_start(shared, self.cell, s, &mut self.rng, measuring) {
                    PacedStart::At(intended, started) => (intended, started),
                    PacedStart::Skipped => continue,
                    PacedStart::Stop => return None,
                },
            };
            let done = self.run_event(&mut error_codes, started, bound, measuring);
            let intended = if self.schedule.is_some() {
                shared.in_flight.fetch_sub(1, Ordering::Relaxed);
                intended
            } else {
                done.started
            };
            // Whether an event counts is decided when it starts: warm-up events, including
            // those still running when measurement begins, are excluded from every figure.
            if measuring {
                self.record(&done, intended, &error_codes);
            } else {
                let (c, failed) = (&done.counts, error_codes.len() as u64);
                self.cell
                    .record_warmup(done.succeeded, c.reads, c.writes, c.other, failed);
            }
            if done.fatal.is_some() {
                return done.fatal;
            }
            if shared.past_deadline(done.end) {
                return None;
            }
        }
    }

    /// Sleep for the workload's keying and think time; false if the run stopped meanwhile.
    #[inline(always)]
    fn pause(&mut self) -> bool {
        let pause = self.events.pause_ns();
        pause == 0 || sleep_until(now_ns() + pause, self.shared)
    }

    /// Take one measured event of `--events` (and of this worker's own share); false when
    /// none is left.
    #[inline(always)]
    fn claim(&self, mine: &mut u64) -> bool {
        claim(self.shared, mine)
    }
}

/// Take one measured event of `--events` (and of this worker's own share); false when none is
/// left.
#[inline(always)]
pub(super) fn claim(shared: &Shared, mine: &mut u64) -> bool {
    if shared.events_limit == 0 {
        return true;
    }
    // Its own share first: a worker past it must not take one of the common count that
    // another worker's share still needs.
    if shared.events_per_thread > 0 && *mine >= shared.events_per_thread {
        return false;
    }
    // Claimed before the event, like sysbench, so exactly `--events` events run.
    if shared.events_claimed.fetch_add(1, Ordering::Relaxed) >= shared.events_limit {
        return false;
    }
    *mine += 1;
    true
}

/// Under `--rate`: wait for the event's slot in the schedule and start it (counted in flight),
/// skip it when already later than `--latency-limit`, or stop at the deadline. Both the general
/// loop and the one a generator drives (`driven.rs`) start paced events here.
#[inline(always)]
pub(super) fn paced_start(
    shared: &Shared,
    cell: &ThreadCell,
    s: &Schedule,
    rng: &mut Rng,
    measuring: bool,
) -> PacedStart {
    let at_ns = s.claim(rng);
    let deadline = shared.deadline_ns.load(Ordering::Relaxed);
    if deadline > 0 && at_ns >= deadline {
        return PacedStart::Stop;
    }
    let at = shared.epoch_ns + at_ns;
    if !sleep_until(at, shared) {
        return PacedStart::Stop;
    }
    let now = now_ns();
    // pgbench's -L under -R: an event already later than the limit when due would only
    // add to the backlog; it is counted and not run.
    let limit = shared.latency_limit_ns;
    if limit > 0 && now.saturating_sub(at) > limit {
        if measuring {
            cell.record_skipped();
        }
        return PacedStart::Skipped;
    }
    shared.in_flight.fetch_add(1, Ordering::Relaxed);
    PacedStart::At(at, now)
}

impl Worker<'_> {
    /// Run the event, retrying it after ignorable errors (their codes in `error_codes`), until
    /// it succeeds, the run stops or an error ends the run. `started`: when it started, or 0
    /// for the first statement's send.
    #[inline(always)]
    fn run_event(
        &mut self,
        error_codes: &mut Vec<String>,
        mut started: u64,
        bound: bool,
        measuring: bool,
    ) -> Attempted {
        error_codes.clear();
        let mut counts = Counts::default();
        let mut end = 0;
        let mut label: Option<u8>;
        let (succeeded, fatal) = loop {
            let mut exec = Exec::new(self.conn.as_mut(), &mut self.stmts, measuring);
            let r = self.events.event(&mut exec);
            counts.reads += exec.reads;
            counts.writes += exec.writes;
            counts.other += exec.other;
            counts.reconnects += exec.reconnects;
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
                Err(e) => match self.recover(e, error_codes, &mut counts.reconnects) {
                    Recovery::Retry => {}
                    Recovery::Stop => break (false, None),
                    Recovery::Fatal(e) => break (false, Some(e)),
                },
            }
        };
        if end == 0 {
            end = now_ns();
        }
        Attempted {
            succeeded,
            fatal,
            counts,
            // A statement-bound event that sent nothing started when it ended.
            started: if started == 0 { end } else { started },
            end,
            label,
        }
    }

    /// A measured event into this worker's cell, its response time from `intended`.
    #[inline(always)]
    pub(super) fn record(&self, done: &Attempted, intended: u64, error_codes: &[String]) {
        record(
            self.cell,
            self.shared,
            self.schedule.is_some(),
            done,
            intended,
            error_codes,
        );
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
        if !self.ignore.restarts(&e) {
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

/// A measured event into `cell`: its latency from `intended` (its slot in the schedule when
/// `paced`, else its start), its service time from its actual start.
#[inline(always)]
pub(super) fn record(
    cell: &ThreadCell,
    shared: &Shared,
    paced: bool,
    done: &Attempted,
    intended: u64,
    error_codes: &[String],
) {
    let limit = shared.latency_limit_ns;
    let lag_ns = done.started.saturating_sub(intended);
    let response_ns = done.end.saturating_sub(intended);
    cell.record_event(&EventRecord {
        completed: done.succeeded,
        response_ns,
        service_ns: done.end.saturating_sub(done.started),
        reads: done.counts.reads,
        writes: done.counts.writes,
        other: done.counts.other,
        reconnects: done.counts.reconnects,
        late: paced && lag_ns > LATE_THRESHOLD_NS,
        lag_ns,
        over_limit: limit > 0 && response_ns > limit,
        paced,
        error_codes,
        label: done.label,
    });
}

/// How a paced event starts.
pub(super) enum PacedStart {
    /// At its intended time (ns on the `now_ns` clock), actually started at the second.
    At(u64, u64),
    /// Later than `--latency-limit` when due: counted, not run.
    Skipped,
    /// The run stopped, or the schedule reached the deadline.
    Stop,
}

/// The statements an event's attempts ran, by class, and the reconnects they needed.
#[derive(Default)]
pub(super) struct Counts {
    pub(super) reads: u64,
    pub(super) writes: u64,
    pub(super) other: u64,
    pub(super) reconnects: u64,
}

impl Counts {
    #[inline(always)]
    pub(super) fn of(exec: &Exec<'_>) -> Counts {
        Counts {
            reads: exec.reads,
            writes: exec.writes,
            other: exec.other,
            reconnects: exec.reconnects,
        }
    }

    #[inline(always)]
    pub(super) fn any(&self) -> bool {
        (self.reads | self.writes | self.other | self.reconnects) != 0
    }

    #[inline(always)]
    pub(super) fn add(&mut self, exec: &Exec<'_>) {
        self.reads += exec.reads;
        self.writes += exec.writes;
        self.other += exec.other;
        self.reconnects += exec.reconnects;
    }
}

/// An event once its attempts are over.
pub(super) struct Attempted {
    pub(super) succeeded: bool,
    /// The error that ends the run, if one did.
    pub(super) fatal: Option<DbError>,
    pub(super) counts: Counts,
    /// When it started and ended (ns on the `now_ns` clock).
    pub(super) started: u64,
    pub(super) end: u64,
    pub(super) label: Option<u8>,
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
