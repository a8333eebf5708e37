//! One tpcc-mysql client: its prepared statements, random stream and buffers, and what every
//! transaction shares — the statement calls, the step it reached (for tpcc-mysql's error
//! lines), a missing row as an error of code 0.

use super::statements::{kind, PeerStatements, COMMIT};
use crate::events::Exec;
use crate::tpcc::gen::{self, CConstants};
use dbpress_core::rand::Rng;
use dbpress_driver::{DbError, DbErrorKind, DbResult, ResultRows, Value};

pub struct PeerClient {
    pub s: PeerStatements,
    pub rng: Rng,
    pub c: CConstants,
    pub warehouses: u32,
    pub rows: ResultRows,
    /// tpcc-mysql's thread number (from 0), for its error lines.
    pub thread: u32,
    /// The step of the transaction reached, as tpcc-mysql numbers them.
    pub step: u32,
    /// The current second as a timestamp literal.
    pub now: Vec<u8>,
    pub text: Vec<u8>,
}

/// A row a statement should have found and did not: tpcc-mysql's error with no SQL error
/// (its line `0, 00000, `).
pub fn missing() -> DbError {
    DbError::new(DbErrorKind::Other, "0", "")
}

impl PeerClient {
    /// Statement `s` with `params`, its rows kept, at tpcc-mysql's step `step`.
    pub fn rows(
        &mut self,
        exec: &mut Exec<'_>,
        step: u32,
        s: usize,
        params: &[Value<'_>],
    ) -> DbResult<()> {
        self.step = step;
        exec.run_rows(kind(s), self.s.0[s], params, &mut self.rows)
            .map(|_| ())
    }

    /// Statement `s` with `params`, no rows wanted.
    pub fn run(
        &mut self,
        exec: &mut Exec<'_>,
        step: u32,
        s: usize,
        params: &[Value<'_>],
    ) -> DbResult<()> {
        self.step = step;
        exec.run(kind(s), self.s.0[s], params)
    }

    pub fn commit(&mut self, exec: &mut Exec<'_>) -> DbResult<()> {
        exec.run_query(COMMIT, "COMMIT")
    }

    /// The first row's integer in `col`, or a missing row.
    pub fn int(&self, col: usize) -> DbResult<i64> {
        match self.rows.is_dry_run() {
            true => Ok(1),
            false => self.rows.int(0, col).ok_or_else(missing),
        }
    }

    /// A uniform warehouse, and another one than `w` where there are several.
    pub fn warehouse(&mut self) -> u32 {
        self.rng.uniform(1, self.warehouses)
    }

    pub fn other_warehouse(&mut self, w: u32) -> u32 {
        if self.warehouses < 2 {
            return w;
        }
        let o = self.rng.uniform(1, self.warehouses - 1);
        if o >= w {
            o + 1
        } else {
            o
        }
    }

    /// A customer's last name, NURand(255, 0, 999)'s syllables, into `out`.
    pub fn last_name(&mut self, out: &mut Vec<u8>) {
        let n = gen::nurand(&mut self.rng, 255, 0, 999, self.c.c_last);
        gen::last_name(n, out);
    }

    /// The current second as tpcc-mysql's timestamp text.
    pub fn stamp(&mut self) {
        self.now.clear();
        gen::timestamp(gen::now_unix(), &mut self.now);
    }
}

/// Money in hundredths as decimal text.
pub fn money(cents: i64, out: &mut Vec<u8>) {
    out.clear();
    gen::decimal(cents, 2, out);
}
