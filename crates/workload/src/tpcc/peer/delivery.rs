//! tpcc-mysql's Delivery: for each of the ten districts, its oldest new order (none: nothing
//! more for that district, and no COMMIT), deleted, its customer read, its carrier and lines'
//! delivery date set, its amount summed and added to the customer's balance; a COMMIT per
//! district delivered, as tpcc-mysql commits them.

use super::client::{money, PeerClient};
use crate::events::Exec;
use dbpress_driver::{DbResult, Value};

pub struct DeliveryIn {
    w: u32,
    carrier: u32,
}

impl PeerClient {
    pub fn delivery_inputs(&mut self) -> DeliveryIn {
        DeliveryIn {
            w: self.warehouse(),
            carrier: self.rng.uniform(1, 10),
        }
    }

    pub fn delivery(&mut self, exec: &mut Exec<'_>, i: &DeliveryIn) -> DbResult<()> {
        let w = Value::Int(i64::from(i.w));
        self.stamp();
        for d in 1..=10i64 {
            let d = Value::Int(d);
            self.rows(exec, 1, 25, &[d, w])?;
            let o_id = self.int(0)?;
            if o_id == 0 {
                continue;
            }
            let o = Value::Int(o_id);
            self.run(exec, 2, 26, &[o, d, w])?;
            self.rows(exec, 3, 27, &[o, d, w])?;
            let c = Value::Int(self.int(0)?);
            self.run(exec, 4, 28, &[Value::Int(i64::from(i.carrier)), o, d, w])?;
            let now = std::mem::take(&mut self.now);
            let done = self.run(exec, 5, 29, &[Value::Str(&now), o, d, w]);
            self.now = now;
            done?;
            self.rows(exec, 6, 30, &[o, d, w])?;
            let total = self.rows.scaled(0, 0, 2).unwrap_or(0);
            let mut text = std::mem::take(&mut self.text);
            money(total, &mut text);
            let done = self.run(exec, 7, 31, &[Value::Str(&text), c, d, w]);
            self.text = text;
            done?;
            self.commit(exec)?;
        }
        Ok(())
    }
}
