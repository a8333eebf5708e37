//! The event loop of a generator that drives its own loop (`EventGen::run_loop`: a Lua script's
//! `thread_run`, one LuaJIT trace with its event): the general loop's claim, start and record
//! (`worker.rs`) handed to it as `EventSteps`, and its failed attempts retried or ending the run
//! here, as the general loop would.

use super::worker::{claim, Attempted, Counts, Recovery, Worker};
use crate::shared::Shared;
use dbpress_driver::{DbError, DbErrorKind};
use dbpress_measure::stats::{now_ns, EventRecord, ThreadCell};
use dbpress_workload::{EventSteps, Exec};
use std::sync::atomic::Ordering;

impl Worker<'_> {
    /// The loop a generator drives itself (`EventGen::run_loop`, a Lua script's `thread_run`):
    /// the claim, start and record of `run_events` as its `EventSteps`. A failed attempt comes
    /// back here, where it is retried (the loop entered again, resuming that event: retries
    /// stay inside one timed event) or ends the run, as in `run_event`.
    pub(super) fn run_driven(&mut self) -> Option<DbError> {
        let mut d = Driven {
            cell: self.cell,
            shared: self.shared,
            mine: 0,
            open: None,
            resume: false,
            restart: false,
            over: false,
            error_codes: Vec::new(),
            counts: Counts::default(),
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
            // The generator counted its failed statements as they failed (`failed`): the
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
            let (started, measuring) = d.open.take().expect("checked above");
            let done = Attempted {
                succeeded: false,
                fatal: None,
                counts: std::mem::take(&mut d.counts),
                started,
                end: now_ns(),
                label: None,
            };
            if measuring {
                self.record(&done, started, &d.error_codes);
            } else {
                let c = &done.counts;
                self.cell.record_warmup(
                    false,
                    c.reads,
                    c.writes,
                    c.other,
                    d.error_codes.len() as u64,
                );
            }
            return fatal;
        }
    }
}

/// `EventSteps` of a worker whose generator drives its loop (`Worker::run_driven`).
struct Driven<'a> {
    cell: &'a ThreadCell,
    shared: &'a Shared,
    /// This worker's measured events, against its own share.
    mine: u64,
    /// The event started and not yet recorded: when it started, and whether it is measured.
    open: Option<(u64, bool)>,
    /// The next `next` resumes `open` (a failed attempt is retried).
    resume: bool,
    /// The generator's error is a restart it asked for (`EventSteps::restart`).
    restart: bool,
    /// The deadline passed at the last event's end.
    over: bool,
    error_codes: Vec<String>,
    /// Statements of the open event's failed attempts.
    counts: Counts,
}

impl EventSteps for Driven<'_> {
    #[inline]
    fn next(&mut self, exec: &mut Exec<'_>) -> bool {
        if self.resume {
            self.resume = false;
            if let Some((_, measuring)) = self.open {
                // Statements run between the attempts (a script's before_restart_event) count
                // with the event.
                self.counts.add(exec);
                exec.restart(measuring);
                return true;
            }
        }
        let shared = self.shared;
        if self.over || shared.stop.load(Ordering::Relaxed) {
            return false;
        }
        let measuring = shared.measuring.load(Ordering::Relaxed);
        if measuring && !claim(shared, &mut self.mine) {
            return false;
        }
        exec.restart(measuring);
        self.error_codes.clear();
        self.counts = Counts::default();
        self.open = Some((now_ns(), measuring));
        true
    }

    #[inline]
    fn done(&mut self, exec: &mut Exec<'_>) {
        let Some((started, measuring)) = self.open.take() else {
            return;
        };
        let end = now_ns();
        let mut counts = std::mem::take(&mut self.counts);
        counts.add(exec);
        if measuring {
            let limit = self.shared.latency_limit_ns;
            let response_ns = end.saturating_sub(started);
            self.cell.record_event(&EventRecord {
                completed: true,
                response_ns,
                service_ns: response_ns,
                reads: counts.reads,
                writes: counts.writes,
                other: counts.other,
                reconnects: counts.reconnects,
                late: false,
                lag_ns: 0,
                over_limit: limit > 0 && response_ns > limit,
                paced: false,
                error_codes: &self.error_codes,
                label: exec.label,
            });
        } else {
            self.cell.record_warmup(
                true,
                counts.reads,
                counts.writes,
                counts.other,
                self.error_codes.len() as u64,
            );
        }
        if self.shared.past_deadline(end) {
            self.over = true;
        }
    }

    #[cold]
    fn failed(&mut self, e: &DbError) {
        self.error_codes.push(e.code.clone());
    }

    #[cold]
    fn restart(&mut self) {
        self.restart = true;
    }
}
