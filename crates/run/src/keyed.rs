//! The event loop for events that are one keyed statement (`dbpress_workload::KeyedStatement`:
//! oltp_point_select, oltp_update_index, oltp_delete), closed loop only.
//!
//! Figures are the general loop's (`worker.rs`), with less work to get them: the event is timed
//! by the statement's own two clock reads, its latency is recorded as the event's and as the
//! statement's at once, and nothing is assembled per event that only errors or --rate need. An
//! attempt that fails leaves this path for `retry`, which handles it exactly as the general loop
//! would: counted by code, reconnected or retried, or ending the run.

use super::worker::{Recovery, Worker};
use dbpress_driver::{DbError, DbResult, QueryKind, Value};
use dbpress_measure::stats::{now_ns, EventRecord};
use dbpress_workload::KeyedStatement;
use std::sync::atomic::Ordering;

impl Worker<'_> {
    /// Run keyed events until told to stop. Returns a fatal error, if one ended the run.
    pub(super) fn run_keyed(&mut self, mut k: KeyedStatement) -> Option<DbError> {
        let shared = self.shared;
        // --latency-limit, ns (u64::MAX when off: no event is slower).
        let limit = match shared.latency_limit_ns {
            0 => u64::MAX,
            l => l,
        };
        self.cell.set_statement_events_kind(k.kind);
        let mut mine = 0u64;
        loop {
            if shared.stop.load(Ordering::Relaxed) {
                return None;
            }
            // Whether an event counts is decided when it starts, as in the general loop.
            if !shared.measuring.load(Ordering::Relaxed) {
                if let Some(fatal) = self.warm_up_event(&mut k) {
                    return Some(fatal);
                }
                continue;
            }
            if shared.events_limit > 0 {
                // As in the general loop: the worker's own share first, then the common count.
                if shared.events_per_thread > 0 && mine >= shared.events_per_thread {
                    return None;
                }
                if shared.events_claimed.fetch_add(1, Ordering::Relaxed) >= shared.events_limit {
                    return None;
                }
                mine += 1;
            }
            let (t0, t1, r) = self.attempt(&mut k);
            match r {
                // CLOCK_MONOTONIC never goes back.
                Ok(q) => {
                    self.cell.record_statement_event(q, t1 - t0);
                    if t1 - t0 > limit {
                        self.cell.record_over_limit();
                    }
                }
                Err(e) => {
                    if let Some(fatal) = self.retry(&mut k, e, t0, t1, true) {
                        return Some(fatal);
                    }
                }
            }
            if shared.past_deadline(t1) {
                return None;
            }
        }
    }

    /// One event of the warm-up: counted only for the comparison with the server's counters.
    /// Out of line, so the measured loop above stays as lean as it was.
    #[cold]
    #[inline(never)]
    fn warm_up_event(&mut self, k: &mut KeyedStatement) -> Option<DbError> {
        let (t0, t1, r) = self.attempt(k);
        match r {
            Ok(q) => {
                let (reads, writes, other) = split(Some(q));
                self.cell.record_warmup(true, reads, writes, other, 0);
                if self.shared.past_deadline(t1) {
                    // The reporter, which ends the warm-up, has not run since: stop anyway.
                    self.shared.stop.store(true, Ordering::Relaxed);
                }
                None
            }
            Err(e) => self.retry(k, e, t0, t1, false),
        }
    }

    /// One execution with fresh parameters: (send time, reply time, result).
    #[inline(always)]
    fn attempt(&mut self, k: &mut KeyedStatement) -> (u64, u64, DbResult<QueryKind>) {
        let (stmt, key) = k.draw();
        let t0 = now_ns();
        let r = self.conn.execute(stmt, &[Value::Int(key)]);
        (t0, now_ns(), r)
    }

    /// The rest of an event whose first attempt, sent at `started`, failed with `first` at
    /// `failed_at`: recover and try again (with fresh parameters, as the general loop draws
    /// them) until it succeeds, the run stops, or an error ends the run, which is returned.
    #[cold]
    #[inline(never)]
    fn retry(
        &mut self,
        k: &mut KeyedStatement,
        first: DbError,
        started: u64,
        failed_at: u64,
        measuring: bool,
    ) -> Option<DbError> {
        if measuring {
            self.stmts
                .record(k.kind, failed_at.saturating_sub(started), true);
        }
        let mut codes = Vec::new();
        let mut reconnects = 0;
        let mut error = first;
        let mut done = None;
        let (succeeded, fatal, end) = loop {
            match self.recover(error, &mut codes, &mut reconnects) {
                Recovery::Retry => {
                    let (t0, t1, r) = self.attempt(k);
                    let ns = t1.saturating_sub(t0);
                    match r {
                        Ok(q) => {
                            if measuring {
                                self.stmts.record(k.kind, ns, false);
                            }
                            done = Some(q);
                            break (true, None, t1);
                        }
                        Err(e) => {
                            if measuring {
                                self.stmts.record(k.kind, ns, true);
                            }
                            error = e;
                        }
                    }
                }
                Recovery::Stop => break (false, None, now_ns()),
                Recovery::Fatal(e) => break (false, Some(e), now_ns()),
            }
        };
        let (reads, writes, other) = split(done);
        if !measuring {
            self.cell
                .record_warmup(succeeded, reads, writes, other, codes.len() as u64);
        } else {
            let ns = end.saturating_sub(started);
            self.cell.record_event(&EventRecord {
                completed: succeeded,
                response_ns: ns,
                service_ns: ns,
                reads,
                writes,
                other,
                reconnects,
                late: false,
                lag_ns: 0,
                over_limit: self.shared.latency_limit_ns > 0 && ns > self.shared.latency_limit_ns,
                paced: false,
                error_codes: &codes,
                label: None,
            });
        }
        fatal
    }
}

/// The one statement of a keyed event as (reads, writes, other): 1 in its column, if it ran.
fn split(done: Option<QueryKind>) -> (u64, u64, u64) {
    (
        u64::from(done == Some(QueryKind::Read)),
        u64::from(done == Some(QueryKind::Write)),
        u64::from(done == Some(QueryKind::Other)),
    )
}
