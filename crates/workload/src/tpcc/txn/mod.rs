//! The five transactions of clauses 2.4–2.8, as one terminal runs them: its home warehouse
//! (and district, for Stock-Level), its random stream, the run's NURand constants, prepared
//! statements and reusable buffers. Each transaction's inputs are drawn as its clause says;
//! its statements go through `Exec`, so each is timed and counted.

mod delivery;
mod new_order;
mod order_status;
mod payment;
pub mod statements;
mod stock_level;

use super::gen::{self, CConstants};
use super::names::Names;
use super::tally::Tally;
use dbpress_core::rand::Rng;
use dbpress_driver::{Connection, DbError, DbErrorKind, DbResult, ResultRows};
use statements::Statements;

/// The five transactions, in the order of their statement kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Txn {
    NewOrder = 0,
    Payment = 1,
    OrderStatus = 2,
    Delivery = 3,
    StockLevel = 4,
}

pub const TXNS: [Txn; 5] = [
    Txn::NewOrder,
    Txn::Payment,
    Txn::OrderStatus,
    Txn::Delivery,
    Txn::StockLevel,
];

/// One terminal: everything a transaction needs besides the connection.
pub struct Terminal {
    pub stmts: Statements,
    pub rng: Rng,
    pub c: CConstants,
    pub warehouses: u32,
    /// None: a random warehouse per transaction (go-tpc's way).
    pub home: Option<u32>,
    /// The terminal's district for Stock-Level (2.8.1.1).
    pub stock_district: u32,
    pub rows: ResultRows,
    /// Scratch buffers for text parameters, reused by every transaction: amounts as decimal
    /// text (one or several side by side), and a customer's last name.
    pub amount_text: Vec<u8>,
    pub last_name: Vec<u8>,
    pub c_data: Vec<u8>,
    pub h_data: Vec<u8>,
    /// The current second as a timestamp literal, and that second.
    pub now_text: Vec<u8>,
    now_s: u64,
    pub tally: Tally,
    /// sysbench-tpcc's table sets: the statements of the others (prepared when first used),
    /// which one `stmts` is, and whether each transaction draws its set.
    sets: Vec<Option<Statements>>,
    names: Vec<Names>,
    current_set: usize,
    random_set: bool,
}

impl Terminal {
    pub fn new(
        stmts: Statements,
        rng: Rng,
        c: CConstants,
        warehouses: u32,
        home: Option<u32>,
        stock_district: u32,
    ) -> Terminal {
        Terminal {
            stmts,
            rng,
            c,
            warehouses,
            home,
            stock_district,
            rows: ResultRows::new(),
            amount_text: Vec::new(),
            last_name: Vec::new(),
            c_data: Vec::new(),
            h_data: Vec::new(),
            now_text: Vec::new(),
            now_s: 0,
            tally: Tally::default(),
            sets: Vec::new(),
            names: Vec::new(),
            current_set: 0,
            random_set: false,
        }
    }

    /// The table sets of the database; `current` is the one `stmts` was prepared for, and with
    /// `random` every transaction draws its set (sysbench-tpcc's way).
    pub fn set_sets(&mut self, names: Vec<Names>, current: usize, random: bool) {
        self.sets = names.iter().map(|_| None).collect();
        self.names = names;
        self.current_set = current;
        self.random_set = random;
    }

    /// Before a transaction: draw its table set, when there are several and they are drawn.
    pub fn pick_set(&mut self, conn: &mut dyn Connection) -> DbResult<()> {
        if !self.random_set || self.names.len() < 2 {
            return Ok(());
        }
        let k = self.rng.uniform(0, self.names.len() as u32 - 1) as usize;
        if k == self.current_set {
            return Ok(());
        }
        let next = match self.sets[k].take() {
            Some(s) => s,
            None => Statements::prepare(conn, self.stmts.engine, &self.names[k])?,
        };
        let previous = std::mem::replace(&mut self.stmts, next);
        self.sets[self.current_set] = Some(previous);
        self.current_set = k;
        Ok(())
    }

    /// The warehouse of this transaction.
    fn warehouse(&mut self) -> u32 {
        match self.home {
            Some(w) => w,
            None => self.rng.uniform(1, self.warehouses),
        }
    }

    /// A warehouse other than `w` (there must be two or more).
    fn other_warehouse(&mut self, w: u32) -> u32 {
        let o = self.rng.uniform(1, self.warehouses - 1);
        if o >= w {
            o + 1
        } else {
            o
        }
    }

    /// Refresh the timestamp literal when the second has changed.
    fn stamp(&mut self) {
        let now = gen::now_unix();
        if now != self.now_s || self.now_text.is_empty() {
            self.now_s = now;
            self.now_text.clear();
            gen::timestamp(now, &mut self.now_text);
        }
    }
}

/// The error for an answer that lacks a row the data must have.
pub fn missing(what: &str) -> DbError {
    DbError::new(
        DbErrorKind::Other,
        "tpcc-data",
        format!(
            "{what} is missing: the TPC-C tables do not hold what the load put there (run `check`)"
        ),
    )
}

/// A row's integer, or the error naming what was read.
fn int(rows: &ResultRows, row: usize, col: usize, what: &str) -> DbResult<i64> {
    rows.int(row, col).ok_or_else(|| missing(what))
}

/// Position ⌈n/2⌉ of n rows, 0-based (2.5.2.2).
fn middle(n: usize) -> usize {
    (n - 1) / 2
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_middle_customer_is_at_n_over_2_rounded_up() {
        assert_eq!(super::middle(1), 0);
        assert_eq!(super::middle(2), 0);
        assert_eq!(super::middle(3), 1);
        assert_eq!(super::middle(4), 1);
        assert_eq!(super::middle(5), 2);
    }
}
