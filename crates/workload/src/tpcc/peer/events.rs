//! One tpcc-mysql client as the runner's event generator: each event is the shared deck's next
//! card's transaction, its inputs drawn once; a failed attempt — any error, or a row that
//! should be there and is not — prints tpcc-mysql's two lines on stderr (`neword T:P`, then
//! `CODE, SQLSTATE, MESSAGE`), rolls back and tries the same inputs again, up to 2000
//! attempts, as tpcc-mysql does. The event's time runs from the first attempt.

use super::client::PeerClient;
use super::deck::SharedDeck;
use super::delivery::DeliveryIn;
use super::figures::Figures;
use super::new_order::NewOrderIn;
use super::new_order_log::{Finished, NewOrderLogs};
use super::order_status::OrderStatusIn;
use super::payment::PaymentIn;
use super::statements::ROLLBACK;
use super::stock_level::StockLevelIn;
use crate::events::{EventGen, Exec};
use crate::tpcc::txn::Txn;
use dbpress_driver::{DbError, DbResult};
use dbpress_measure::stats::now_ns;
use std::sync::Arc;

/// tpcc-mysql's attempts at one transaction.
const MAX_ATTEMPTS: u32 = 2000;

pub struct PeerEvents {
    pub client: PeerClient,
    pub deck: Arc<SharedDeck>,
    pub figures: Arc<Figures>,
    pub logs: Arc<NewOrderLogs>,
}

enum Inputs {
    NewOrder(NewOrderIn),
    Payment(PaymentIn),
    OrderStatus(OrderStatusIn),
    Delivery(DeliveryIn),
    StockLevel(StockLevelIn),
}

impl PeerEvents {
    fn inputs(&mut self, t: Txn) -> Inputs {
        let c = &mut self.client;
        match t {
            Txn::NewOrder => Inputs::NewOrder(c.new_order_inputs()),
            Txn::Payment => Inputs::Payment(c.payment_inputs()),
            Txn::OrderStatus => Inputs::OrderStatus(c.order_status_inputs()),
            Txn::Delivery => Inputs::Delivery(c.delivery_inputs()),
            Txn::StockLevel => Inputs::StockLevel(c.stock_level_inputs()),
        }
    }

    fn attempt(&mut self, exec: &mut Exec<'_>, i: &Inputs) -> DbResult<()> {
        let c = &mut self.client;
        match i {
            Inputs::NewOrder(i) => c.new_order(exec, i),
            Inputs::Payment(i) => c.payment(exec, i),
            Inputs::OrderStatus(i) => c.order_status(exec, i),
            Inputs::Delivery(i) => c.delivery(exec, i),
            Inputs::StockLevel(i) => c.stock_level(exec, i),
        }
    }

    /// tpcc-mysql's two lines for a failed attempt.
    fn say_failure(&self, t: Txn, e: &DbError) {
        let c = &self.client;
        let at = match t {
            Txn::NewOrder => format!("neword {}:{}", c.thread, c.step),
            Txn::Payment => format!("payment {}:{}", c.thread, c.step),
            Txn::OrderStatus => format!("ordstat {}:{}", c.thread, c.step),
            Txn::Delivery => format!("delivery {}:{}", c.thread, c.step),
            Txn::StockLevel => "slev".to_string(),
        };
        let state = e
            .sqlstate
            .map(|s| String::from_utf8_lossy(&s).into_owned())
            .unwrap_or_else(|| "00000".into());
        eprintln!("{at}\n{}, {state}, {}", e.code, e.message);
    }
}

impl EventGen for PeerEvents {
    fn event(&mut self, exec: &mut Exec<'_>) -> DbResult<()> {
        let t = self.deck.deal();
        if exec.measuring() && Figures::once(&self.figures.measuring_said) {
            dbpress_core::out!("\nMEASURING START.\n\n");
        }
        let inputs = self.inputs(t);
        let t0 = now_ns();
        let logged = matches!(inputs, Inputs::NewOrder(_)) && self.logs.wanted();
        for attempt in 1..=MAX_ATTEMPTS {
            let attempt_start = logged.then(std::time::SystemTime::now);
            let failed = match self.attempt(exec, &inputs) {
                Ok(()) => {
                    let ns = now_ns().saturating_sub(t0);
                    exec.label = Some(t as u8);
                    exec.record_kind(t as u8, ns, false);
                    let ms = ns as f64 / 1e6;
                    if let (Some(attempt_start), Inputs::NewOrder(i)) = (attempt_start, &inputs) {
                        self.logs.finished(&Finished {
                            thread: self.client.thread,
                            ms,
                            committed: !i.rolls_back(),
                            attempt_start,
                        });
                    }
                    self.figures.record(
                        t as usize,
                        Some(ms),
                        u64::from(attempt - 1),
                        exec.measuring(),
                    );
                    return Ok(());
                }
                Err(e) => e,
            };
            self.say_failure(t, &failed);
            let _ = exec.run_query(ROLLBACK, "ROLLBACK");
            if attempt == MAX_ATTEMPTS {
                exec.record_kind(t as u8, now_ns().saturating_sub(t0), true);
                self.figures
                    .record(t as usize, None, u64::from(attempt - 1), exec.measuring());
                return Err(failed);
            }
        }
        Ok(())
    }

    /// A client's end: its open transaction committed, as tpcc-mysql's clients end.
    fn finish(&mut self, exec: &mut Exec<'_>) -> DbResult<()> {
        self.client.commit(exec)
    }
}
