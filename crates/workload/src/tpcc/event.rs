//! One TPC-C terminal as the runner's event generator: each event is the next card's
//! transaction. A deadlock, lock wait timeout or serialization failure rolls back and tries the
//! same transaction type again with fresh inputs (the 2.4.1.4 comment: a rolled-back input is
//! not reused), up to --max-tries attempts in all, counted as retries; the event's latency runs
//! from the first attempt's start. Any other error, or the last failed attempt, ends the event
//! with its error.

use super::deck::Deck;
use super::tally::Tally;
use super::txn::{Terminal, Txn};
use crate::events::{EventGen, Exec};
use dbpress_driver::{DbError, DbErrorKind, DbResult};
use dbpress_measure::stats::now_ns;
use std::sync::{Arc, Mutex};

pub struct TpccEvents {
    pub term: Terminal,
    pub deck: Deck,
    pub max_tries: u32,
    /// `--think-time`'s factor; 0: no keying or think times.
    pub think: f64,
    /// The card `pause_ns` drew for the next event, and the transaction before it.
    pub next: Option<Txn>,
    pub last: Option<Txn>,
    /// Where this terminal's counts go when it ends.
    pub sink: Arc<Mutex<Tally>>,
}

/// Whether a failed attempt is the server's concurrency control at work.
pub fn retryable(e: &DbError) -> bool {
    matches!(e.kind, DbErrorKind::Deadlock | DbErrorKind::LockTimeout)
}

impl EventGen for TpccEvents {
    fn pauses(&self) -> bool {
        self.think > 0.0
    }

    /// The next card is drawn here, since its keying time comes before it.
    fn pause_ns(&mut self) -> u64 {
        let next = self.deck.draw(&mut self.term.rng);
        self.next = Some(next);
        super::think::pause_ns(self.think, self.last, next, &mut self.term.rng)
    }

    fn event(&mut self, exec: &mut Exec<'_>) -> DbResult<()> {
        let txn = match self.next.take() {
            Some(t) => t,
            None => self.deck.draw(&mut self.term.rng),
        };
        self.last = Some(txn);
        self.term.pick_set(exec.conn)?;
        let t = txn as usize;
        let t0 = now_ns();
        let mut tries = 0;
        loop {
            tries += 1;
            let r = match txn {
                Txn::NewOrder => self.term.new_order(exec).map(|_| ()),
                Txn::Payment => self.term.payment(exec),
                Txn::OrderStatus => self.term.order_status(exec),
                Txn::Delivery => self.term.delivery(exec),
                Txn::StockLevel => self.term.stock_level(exec),
            };
            let measuring = exec.measuring();
            match r {
                Ok(()) => {
                    exec.label = Some(txn as u8);
                    exec.record_kind(txn as u8, now_ns().saturating_sub(t0), false);
                    if measuring {
                        self.term.tally.completed[t] += 1;
                    }
                    return Ok(());
                }
                Err(e) => {
                    // A deadlock has already rolled back; a lock wait timeout has not; any
                    // other error may have left the transaction open.
                    if txn != Txn::StockLevel {
                        let _ = exec.conn.query("ROLLBACK");
                    }
                    if retryable(&e) && tries < self.max_tries {
                        if measuring {
                            self.term.tally.retries[t] += 1;
                        }
                        continue;
                    }
                    exec.record_kind(txn as u8, now_ns().saturating_sub(t0), true);
                    if !retryable(&e) {
                        return Err(e);
                    }
                    if measuring {
                        self.term.tally.failed[t] += 1;
                    }
                    return Err(DbError::new(
                        DbErrorKind::Other,
                        "max-tries",
                        format!(
                            "{} failed {tries} times in a row (--max-tries={}), the last time with {} {}",
                            super::figures::TXN_NAMES[t],
                            self.max_tries,
                            e.code,
                            e.message
                        ),
                    ));
                }
            }
        }
    }
}

impl Drop for TpccEvents {
    fn drop(&mut self) {
        self.sink
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .add(&self.term.tally);
    }
}
