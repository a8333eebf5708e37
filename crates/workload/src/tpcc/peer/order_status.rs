//! tpcc-mysql's Order-Status: the customer read (by last name in 60%: the count, then the list
//! in first-name order), its last order and that order's lines. Its by-name list has no
//! customer id, so tpcc-mysql looks up the drawn customer's order, as this does: the same
//! statements, the same rows read.

use super::client::{missing, PeerClient};
use crate::events::Exec;
use crate::tpcc::gen;
use dbpress_driver::{DbResult, Value};

pub struct OrderStatusIn {
    w: u32,
    d: u32,
    c_id: u32,
    by_name: bool,
    c_last: Vec<u8>,
}

impl PeerClient {
    pub fn order_status_inputs(&mut self) -> OrderStatusIn {
        let w = self.warehouse();
        let d = self.rng.uniform(1, 10);
        let c_id = gen::nurand(&mut self.rng, 1023, 1, 3000, self.c.c_id);
        let mut c_last = Vec::new();
        self.last_name(&mut c_last);
        OrderStatusIn {
            w,
            d,
            c_id,
            by_name: self.rng.uniform(1, 100) <= 60,
            c_last,
        }
    }

    pub fn order_status(&mut self, exec: &mut Exec<'_>, i: &OrderStatusIn) -> DbResult<()> {
        let (w, d, c) = (
            Value::Int(i64::from(i.w)),
            Value::Int(i64::from(i.d)),
            Value::Int(i64::from(i.c_id)),
        );
        if i.by_name {
            self.rows(exec, 1, 20, &[w, d, Value::Str(&i.c_last)])?;
            if self.int(0)? == 0 {
                return Err(missing());
            }
            self.rows(exec, 2, 21, &[w, d, Value::Str(&i.c_last)])?;
        } else {
            self.rows(exec, 6, 22, &[w, d, c])?;
            if !self.rows.is_dry_run() && self.rows.is_empty() {
                return Err(missing());
            }
        }
        self.rows(exec, 7, 23, &[w, d, c, w, d, c])?;
        let o_id = self.int(0)?;
        self.rows(exec, 8, 24, &[w, d, Value::Int(o_id)])?;
        self.step = 10;
        self.commit(exec)
    }
}
