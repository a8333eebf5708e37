//! tpcc-mysql's Payment: the warehouse and district year-to-date added to and read, the
//! customer found (by last name in 60%: the count, then the list in first-name order, the
//! middle one taken), locked and read, its balance written (with its data, read first, for
//! bad credit), the history row inserted.

use super::client::{missing, money, PeerClient};
use crate::events::Exec;
use crate::tpcc::gen;
use dbpress_driver::{DbResult, Value};

pub struct PaymentIn {
    w: u32,
    d: u32,
    c_w: u32,
    c_d: u32,
    c_id: u32,
    by_name: bool,
    c_last: Vec<u8>,
    /// Whole dollars, 1..=5000.
    amount: i64,
}

impl PeerClient {
    pub fn payment_inputs(&mut self) -> PaymentIn {
        let w = self.warehouse();
        let d = self.rng.uniform(1, 10);
        let (c_w, c_d) = match self.rng.uniform(1, 100) <= 85 {
            true => (w, d),
            false => (self.other_warehouse(w), self.rng.uniform(1, 10)),
        };
        let c_id = gen::nurand(&mut self.rng, 1023, 1, 3000, self.c.c_id);
        let mut c_last = Vec::new();
        self.last_name(&mut c_last);
        PaymentIn {
            w,
            d,
            c_w,
            c_d,
            c_id,
            by_name: self.rng.uniform(1, 100) <= 60,
            c_last,
            amount: i64::from(self.rng.uniform(1, 5000)),
        }
    }

    pub fn payment(&mut self, exec: &mut Exec<'_>, i: &PaymentIn) -> DbResult<()> {
        let (w, d) = (i64::from(i.w), i64::from(i.d));
        let (c_w, c_d) = (Value::Int(i64::from(i.c_w)), Value::Int(i64::from(i.c_d)));
        let amount = Value::Int(i.amount);
        self.stamp();
        self.run(exec, 1, 9, &[amount, Value::Int(w)])?;
        self.rows(exec, 2, 10, &[Value::Int(w)])?;
        let mut h_data = self.rows.bytes(0, 5).unwrap_or_default().to_vec();
        self.run(exec, 3, 11, &[amount, Value::Int(w), Value::Int(d)])?;
        self.rows(exec, 4, 12, &[Value::Int(w), Value::Int(d)])?;
        h_data.extend_from_slice(self.rows.bytes(0, 5).unwrap_or_default());
        let c_id = match i.by_name {
            true => self.customer_by_name(exec, c_w, c_d, &i.c_last)?,
            false => i64::from(i.c_id),
        };
        let c = Value::Int(c_id);
        self.rows(exec, 6, 15, &[c_w, c_d, c])?;
        let bad_credit = self.rows.bytes(0, 9) == Some(b"BC");
        let balance = self.rows.scaled(0, 12, 2).unwrap_or(0) - i.amount * 100;
        let mut text = std::mem::take(&mut self.text);
        money(balance, &mut text);
        let written = if bad_credit {
            self.rows(exec, 7, 16, &[c_w, c_d, c])?;
            let mut data = format!(
                "| {} {} {} {} {} {}.00 ",
                c_id, i.c_d, i.c_w, i.d, i.w, i.amount
            )
            .into_bytes();
            data.extend_from_slice(self.rows.bytes(0, 0).unwrap_or_default());
            data.truncate(500);
            self.run(
                exec,
                8,
                17,
                &[Value::Str(&text), Value::Str(&data), c_w, c_d, c],
            )
        } else {
            self.run(exec, 9, 18, &[Value::Str(&text), c_w, c_d, c])
        };
        self.text = text;
        written?;
        h_data.truncate(24);
        let now = std::mem::take(&mut self.now);
        let history = [
            c_d,
            c_w,
            c,
            Value::Int(d),
            Value::Int(w),
            Value::Str(&now),
            amount,
            Value::Str(&h_data),
        ];
        let done = self.run(exec, 10, 19, &history);
        self.now = now;
        done?;
        self.commit(exec)
    }

    /// The customer of a last name: how many there are, then all of them in first-name order,
    /// the one at the middle (position ⌈n/2⌉) taken, as tpcc-mysql takes it.
    fn customer_by_name(
        &mut self,
        exec: &mut Exec<'_>,
        c_w: Value<'_>,
        c_d: Value<'_>,
        c_last: &[u8],
    ) -> DbResult<i64> {
        self.rows(exec, 5, 13, &[c_w, c_d, Value::Str(c_last)])?;
        let n = self.int(0)?;
        self.rows(exec, 5, 14, &[c_w, c_d, Value::Str(c_last)])?;
        if self.rows.is_dry_run() {
            return Ok(1);
        }
        let at = ((n + 1) / 2).max(1) as usize - 1;
        self.rows
            .int(at.min(self.rows.len().saturating_sub(1)), 0)
            .ok_or_else(missing)
    }
}
