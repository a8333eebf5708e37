//! tpcc-mysql's New-Order: the customer and warehouse, the district locked and its next order
//! number taken, the order and new-order rows, then each line (sorted by supplying warehouse
//! and item, as tpcc-mysql sorts them against deadlocks) with four statements: the item, the
//! stock locked, the stock updated, the order line. 1% end on an unused item: ROLLBACK.

use super::client::{missing, money, PeerClient};
use super::statements::ROLLBACK;
use crate::events::Exec;
use crate::tpcc::gen;
use dbpress_driver::{DbResult, Value};

pub struct NewOrderIn {
    w: u32,
    d: u32,
    c: u32,
    /// (supplying warehouse, item, quantity), sorted.
    lines: Vec<(u32, u32, u32)>,
    all_local: bool,
}

impl NewOrderIn {
    /// Whether the order ends on the unused item, rolled back.
    pub fn rolls_back(&self) -> bool {
        self.lines.iter().any(|&(_, item, _)| item == UNUSED_ITEM)
    }
}

/// The item number no row has: the spec's 1% of New-Orders end on it.
const UNUSED_ITEM: u32 = 100_001;

impl PeerClient {
    pub fn new_order_inputs(&mut self) -> NewOrderIn {
        let w = self.warehouse();
        let d = self.rng.uniform(1, 10);
        let c = gen::nurand(&mut self.rng, 1023, 1, 3000, self.c.c_id);
        let n = self.rng.uniform(5, 15);
        let rollback = self.rng.uniform(1, 100) == 1;
        let mut lines = Vec::with_capacity(n as usize);
        for i in 0..n {
            let item = match rollback && i == n - 1 {
                true => UNUSED_ITEM,
                false => gen::nurand(&mut self.rng, 8191, 1, 100_000, self.c.ol_i_id),
            };
            let supply = match self.rng.uniform(1, 100) == 1 {
                true => self.other_warehouse(w),
                false => w,
            };
            lines.push((supply, item, self.rng.uniform(1, 10)));
        }
        lines.sort_unstable_by_key(|&(s, i, _)| (s, i));
        let all_local = lines.iter().all(|&(s, _, _)| s == w);
        NewOrderIn {
            w,
            d,
            c,
            lines,
            all_local,
        }
    }

    pub fn new_order(&mut self, exec: &mut Exec<'_>, i: &NewOrderIn) -> DbResult<()> {
        let (w, d, c) = (i64::from(i.w), i64::from(i.d), i64::from(i.c));
        self.stamp();
        self.rows(exec, 1, 0, &[Value::Int(w), Value::Int(d), Value::Int(c)])?;
        let dry = self.rows.is_dry_run();
        let discount = self
            .rows
            .scaled(0, 0, 4)
            .or(dry.then_some(0))
            .ok_or_else(missing)?;
        let w_tax = self.rows.scaled(0, 3, 4).unwrap_or(0);
        self.rows(exec, 2, 1, &[Value::Int(d), Value::Int(w)])?;
        let o_id = self.int(0)?;
        let d_tax = self.rows.scaled(0, 1, 4).unwrap_or(0);
        self.run(
            exec,
            3,
            2,
            &[Value::Int(o_id), Value::Int(d), Value::Int(w)],
        )?;
        let now = std::mem::take(&mut self.now);
        let header = [
            Value::Int(o_id),
            Value::Int(d),
            Value::Int(w),
            Value::Int(c),
            Value::Str(&now),
            Value::Int(i.lines.len() as i64),
            Value::Int(i64::from(i.all_local)),
        ];
        let done = self.run(exec, 4, 3, &header);
        self.now = now;
        done?;
        self.run(
            exec,
            5,
            4,
            &[Value::Int(o_id), Value::Int(d), Value::Int(w)],
        )?;
        // (1 + w_tax + d_tax) × (1 − discount), in ten-thousandths.
        let factor = (10_000 + w_tax + d_tax) as f64 * (10_000 - discount) as f64 / 1e8;
        for (n, &(supply, item, qty)) in i.lines.iter().enumerate() {
            self.rows(exec, 6, 5, &[Value::Int(i64::from(item))])?;
            if !dry && self.rows.is_empty() {
                // The unused item: the order is rolled back, as the spec's 1% are.
                return exec.run_query(ROLLBACK, "ROLLBACK");
            }
            let price_cents = self.rows.scaled(0, 0, 2).unwrap_or(0);
            let line = OrderLine {
                supply,
                item,
                qty,
                number: n + 1,
            };
            self.order_line(exec, i, o_id, line, price_cents as f64 * factor)?;
        }
        self.step = 9;
        self.commit(exec)
    }

    /// One line after its item was found: the stock locked and updated, the line inserted.
    fn order_line(
        &mut self,
        exec: &mut Exec<'_>,
        i: &NewOrderIn,
        o_id: i64,
        l: OrderLine,
        price_with_tax_cents: f64,
    ) -> DbResult<()> {
        let (item, supply) = (i64::from(l.item), i64::from(l.supply));
        self.rows(exec, 7, 6, &[Value::Int(item), Value::Int(supply)])?;
        let stock = self.int(0)?;
        let qty = i64::from(l.qty);
        let left = if stock > qty {
            stock - qty
        } else {
            stock - qty + 91
        };
        let mut dist = self
            .rows
            .bytes(0, 1 + i.d as usize)
            .unwrap_or_default()
            .to_vec();
        dist.truncate(24);
        self.run(
            exec,
            8,
            7,
            &[Value::Int(left), Value::Int(item), Value::Int(supply)],
        )?;
        let mut amount = std::mem::take(&mut self.text);
        money(
            (price_with_tax_cents * qty as f64).round() as i64,
            &mut amount,
        );
        let params = [
            Value::Int(o_id),
            Value::Int(i64::from(i.d)),
            Value::Int(i64::from(i.w)),
            Value::Int(l.number as i64),
            Value::Int(item),
            Value::Int(supply),
            Value::Int(qty),
            Value::Str(&amount),
            Value::Str(&dist),
        ];
        let done = self.run(exec, 9, 8, &params);
        self.text = amount;
        done
    }
}

#[derive(Clone, Copy)]
struct OrderLine {
    supply: u32,
    item: u32,
    qty: u32,
    number: usize,
}
