//! The event loop of a generator that drives its own loop (`EventGen::run_loop`: a Lua script's
//! `thread_run`, one LuaJIT trace with its event): the general loop's claim, pacing, start and
//! record (`worker.rs`) handed to it as `EventSteps`, and its failed attempts retried or ending
//! the run here, as the general loop would.

use super::pacing::Schedule;
use super::worker::{claim, paced_start, record, Attempted, Counts, PacedStart, Recovery, Worker};
use crate::shared::Shared;
use dbpress_core::rand::Rng;
use dbpress_driver::{DbError, DbErrorKind};
use dbpress_measure::stats::{now_ns, ThreadCell};
use dbpress_workload::{EventSteps, Exec};
use std::sync::atomic::Ordering;

impl Worker<'_> {
    /// The loop a generator drives itself (`EventGen::run_loop`, a Lua script's `thread_run`):
    /// the claim, pacing, start and record of `run_events` as its `EventSteps`. A failed
    /// attempt comes back here, where it is retried (the loop entered again, resuming that
    /// event: retries stay inside one timed event) or ends the run, as in `run_event`.
    pub(super) fn run_driven(&mut self) -> Option<DbError> {
        // The schedule's random stream, lent to the steps for the loop (`recover` needs the
        // whole worker) and given back after.
        let mut rng = std::mem::replace(&mut self.rng, Rng::new(0, 0));
        let fatal = self.drive(&mut rng);
        self.rng = rng;
        fatal
    }

    fn drive(&mut self, rng: &mut Rng) -> Option<DbError> {
        let mut d = Driven {
            cell: self.cell,
            shared: self.shared,
            schedule: self.schedule,
            rng,
            mine: 0,
            open: None,
            fresh: false,
            resume: false,
            restart: false,
            over: false,
            error_codes: Vec::new(),
            counts: Counts::default(),
            skipped_at_us: Vec::new(),
        };
        loop {
            let measuring = self.shared.measuring.load(Ordering::Relaxed);
            let mut exec = Exec::new(self.conn.as_mut(), &mut self.stmts, measuring);
            let r = self.events.run_loop(&mut exec, &mut d);
            let Err(e) = r else {
                return None;
            };
            // The failed attempt's statements count with the event.
            d.counts.add(&exec);
            if d.open.is_none() {
                // Outside any event (the loop itself failed): nothing to retry.
                return Some(e);
            }
            // The generator counted its failed statements as they failed (`error`): the
            // recovery must not count them again. A restart the script asked for is retried
            // whatever the ignore list says (its hook accepted the error), unless the session
            // is lost: then the list decides, as for any event, and the session is opened again.
            let restart = std::mem::take(&mut d.restart);
            let recovery = if restart && e.kind != DbErrorKind::ConnectionLost {
                if self.shared.stop.load(Ordering::Relaxed) {
                    Recovery::Stop
                } else {
                    Recovery::Retry
                }
            } else {
                self.recover(e, &mut Vec::new(), &mut d.counts.reconnects)
            };
            let (fatal, stop) = match recovery {
                Recovery::Retry => {
                    d.resume = true;
                    continue;
                }
                Recovery::Stop => (None, true),
                Recovery::Fatal(e) => (Some(e), true),
            };
            debug_assert!(stop);
            let open = d.open.take().expect("checked above");
            let done = Attempted {
                succeeded: false,
                fatal: None,
                counts: std::mem::take(&mut d.counts),
                started: open.started,
                end: now_ns(),
                label: None,
            };
            d.close(&done, &open);
            return fatal;
        }
    }
}

/// The event started and not yet recorded.
struct Open {
    /// Its slot in the schedule under --rate, else when it started (ns on the `now_ns` clock).
    intended: u64,
    started: u64,
    /// Whether it counts (false during the warm-up).
    measuring: bool,
}

/// `EventSteps` of a worker whose generator drives its loop (`Worker::run_driven`).
struct Driven<'a> {
    cell: &'a ThreadCell,
    shared: &'a Shared,
    /// --rate's schedule: each event waits for its slot, its latency counted from there.
    schedule: Option<&'a Schedule>,
    rng: &'a mut Rng,
    /// This worker's measured events, against its own share.
    mine: u64,
    open: Option<Open>,
    /// `open` was claimed and not started yet (`start` takes its time from then).
    fresh: bool,
    /// The next `next` resumes `open` (a failed attempt is retried).
    resume: bool,
    /// The generator's error is a restart it asked for (`EventSteps::restart`).
    restart: bool,
    /// The deadline passed at the last event's end.
    over: bool,
    error_codes: Vec<String>,
    /// Statements of the open event's failed attempts.
    counts: Counts,
    /// When each slot --latency-limit skipped since the generator last asked (Unix µs).
    skipped_at_us: Vec<u64>,
}

impl Driven<'_> {
    /// Record a finished (or abandoned) event, and leave the flight under --rate.
    #[inline(always)]
    fn close(&mut self, done: &Attempted, open: &Open) {
        if self.schedule.is_some() {
            self.shared.in_flight.fetch_sub(1, Ordering::Relaxed);
        }
        if open.measuring {
            let paced = self.schedule.is_some();
            record(
                self.cell,
                self.shared,
                paced,
                done,
                open.intended,
                &self.error_codes,
            );
        } else {
            let c = &done.counts;
            let failed = self.error_codes.len() as u64;
            self.cell
                .record_warmup(done.succeeded, c.reads, c.writes, c.other, failed);
        }
    }
}

impl Driven<'_> {
    /// Claim and start the next event (`EventSteps::next`); `now`: the clock already read at
    /// the previous event's end, which is this one's start in a closed loop.
    #[inline(always)]
    fn begin(&mut self, exec: &mut Exec<'_>, now: Option<u64>) -> bool {
        if self.resume {
            self.resume = false;
            self.fresh = false;
            if let Some(open) = &self.open {
                // Statements run between the attempts (a script's before_restart_event) count
                // with the event.
                self.counts.add(exec);
                exec.restart(open.measuring);
                return true;
            }
        }
        let shared = self.shared;
        loop {
            if self.over || shared.stop.load(Ordering::Relaxed) {
                return false;
            }
            let measuring = shared.measuring.load(Ordering::Relaxed);
            if measuring && !claim(shared, &mut self.mine) {
                return false;
            }
            let (intended, started) = match self.schedule {
                None => {
                    let now = now.unwrap_or_else(now_ns);
                    (now, now)
                }
                Some(s) => match paced_start(shared, self.cell, s, self.rng, measuring) {
                    PacedStart::At(intended, started) => (intended, started),
                    // Later than --latency-limit when due: counted, not run; the next slot.
                    PacedStart::Skipped => {
                        self.skipped_at_us.push(unix_us());
                        continue;
                    }
                    PacedStart::Stop => return false,
                },
            };
            exec.restart(measuring);
            if !self.error_codes.is_empty() {
                self.error_codes.clear();
            }
            self.counts = Counts::default();
            self.open = Some(Open {
                intended,
                started,
                measuring,
            });
            self.fresh = true;
            return true;
        }
    }

    /// `step` in a closed loop's steady state (a measured event that succeeded at its first
    /// attempt, the next one measured too): the same record and claim as `finish` and `begin`,
    /// with the open event's slot reused in place. None, having done nothing, in any other case.
    #[inline(always)]
    fn steady_step(&mut self, exec: &mut Exec<'_>, now: u64) -> Option<bool> {
        let shared = self.shared;
        let open = self.open.as_mut()?;
        if self.schedule.is_some()
            || self.resume
            || !open.measuring
            || !self.error_codes.is_empty()
            || self.counts.any()
        {
            return None;
        }
        let done = Attempted {
            succeeded: true,
            fatal: None,
            counts: Counts::of(exec),
            started: open.started,
            end: now,
            label: exec.label,
        };
        record(self.cell, shared, false, &done, open.intended, &[]);
        let go_on = !shared.past_deadline(now)
            && !shared.stop.load(Ordering::Relaxed)
            && shared.measuring.load(Ordering::Relaxed);
        if go_on && claim(shared, &mut self.mine) {
            exec.restart(true);
            open.intended = now;
            open.started = now;
            self.fresh = true;
            return Some(true);
        }
        // The deadline, a stop, or no event left: what `finish` and `begin` decide then.
        self.open = None;
        if shared.past_deadline(now) {
            self.over = true;
        }
        Some(self.begin(exec, Some(now)))
    }

    /// Record the open event as succeeded, ended at `end` (`EventSteps::done`).
    #[inline(always)]
    fn finish(&mut self, exec: &mut Exec<'_>, end: u64) {
        let Some(open) = self.open.take() else {
            return;
        };
        let mut counts = std::mem::take(&mut self.counts);
        counts.add(exec);
        let done = Attempted {
            succeeded: true,
            fatal: None,
            counts,
            started: open.started,
            end,
            label: exec.label,
        };
        self.close(&done, &open);
        if self.shared.past_deadline(end) {
            self.over = true;
        }
    }
}

impl EventSteps for Driven<'_> {
    #[inline]
    fn next(&mut self, exec: &mut Exec<'_>) -> bool {
        self.begin(exec, None)
    }

    /// Under --rate the event's latency still counts from its slot; in a closed loop from now.
    #[inline]
    fn start(&mut self) {
        if std::mem::take(&mut self.fresh) {
            if let Some(open) = self.open.as_mut() {
                open.started = now_ns();
                if self.schedule.is_none() {
                    open.intended = open.started;
                }
            }
        }
    }

    fn error(&mut self, code: &str) {
        self.error_codes.push(code.to_string());
    }

    #[inline]
    fn done(&mut self, exec: &mut Exec<'_>) {
        self.finish(exec, now_ns());
    }

    /// One clock read: the end of this event is the start of the next (nothing runs between).
    #[inline]
    fn step(&mut self, exec: &mut Exec<'_>) -> bool {
        let now = now_ns();
        if let Some(more) = self.steady_step(exec, now) {
            return more;
        }
        self.finish(exec, now);
        self.begin(exec, Some(now))
    }

    #[cold]
    fn restart(&mut self) {
        self.restart = true;
    }

    fn stopping(&self) -> bool {
        self.over || self.shared.stop.load(Ordering::Relaxed)
    }

    fn take_skipped(&mut self) -> Vec<u64> {
        std::mem::take(&mut self.skipped_at_us)
    }

    fn lag_ns(&self) -> Option<u64> {
        self.schedule?;
        let open = self.open.as_ref()?;
        Some(open.started.saturating_sub(open.intended))
    }
}

/// The wall clock in µs since the Unix epoch (pgbench's log times).
fn unix_us() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_micros() as u64)
}
