//! New-Order (clause 2.4): 5–15 lines, 1% remote supply warehouses, 1% rolled back on an
//! unused item id in the last line after every valid line was processed (2.4.2.3).

use super::statements::{self, kind, MAX_LINES};
use super::{int, missing, Terminal};
use crate::events::Exec;
use crate::tpcc::gen;
use dbpress_driver::SqlFamily;
use dbpress_driver::{DbResult, Value};

/// An item id no item has: the 1% rolled-back orders end with it.
const UNUSED_ITEM: u32 = 100_001;

#[derive(Clone, Copy, Default)]
struct Line {
    item: u32,
    supply: u32,
    qty: u32,
    price_cents: i64,
    original_item: bool,
    /// S_DIST_xx of the line's district, 24 letters.
    dist: [u8; 24],
    dist_len: u8,
    new_quantity: i64,
}

impl Terminal {
    /// One New-Order; true when it committed, false when it was the 1% rolled back.
    pub fn new_order(&mut self, exec: &mut Exec<'_>) -> DbResult<bool> {
        let w = self.warehouse();
        let d = self.rng.uniform(1, 10);
        let c = gen::nurand(&mut self.rng, 1023, 1, 3000, self.c.c_id);
        let n = self.rng.uniform(5, 15) as usize;
        let rollback = self.rng.uniform(1, 100) == 1;
        let mut lines = [Line::default(); MAX_LINES];
        let mut remote = 0u32;
        for (i, l) in lines.iter_mut().enumerate().take(n) {
            l.item = if rollback && i == n - 1 {
                UNUSED_ITEM
            } else {
                gen::nurand(&mut self.rng, 8191, 1, 100_000, self.c.ol_i_id)
            };
            l.supply = if self.warehouses > 1 && self.rng.uniform(1, 100) == 1 {
                remote += 1;
                self.other_warehouse(w)
            } else {
                w
            };
            l.qty = self.rng.uniform(1, 10);
        }
        let all_local = i64::from(remote == 0);
        self.stamp();
        let (wi, di) = (i64::from(w), i64::from(d));
        let s = &self.stmts;
        exec.run_query(kind::BEGIN, s.begin_write)?;

        exec.run_rows(
            kind::NO_CUSTOMER_WAREHOUSE,
            s.customer_warehouse,
            &[Value::Int(wi), Value::Int(di), Value::Int(i64::from(c))],
            &mut self.rows,
        )?;
        let discount = self
            .rows
            .scaled(0, 0, 4)
            .ok_or_else(|| missing("the customer"))?;
        let w_tax = self.rows.scaled(0, 3, 4).unwrap_or(0);

        exec.run_rows(
            kind::NO_DISTRICT,
            s.district_next,
            &[Value::Int(wi), Value::Int(di)],
            &mut self.rows,
        )?;
        let o_id = int(&self.rows, 0, 0, "the district")?;
        let d_tax = self.rows.scaled(0, 1, 4).unwrap_or(0);
        if let Some(bump) = s.district_bump {
            exec.run(
                kind::NO_DISTRICT_UPDATE,
                bump,
                &[Value::Int(wi), Value::Int(di)],
            )?;
        }
        exec.run(
            kind::NO_ORDER_INSERT,
            s.order_insert,
            &[
                Value::Int(o_id),
                Value::Int(di),
                Value::Int(wi),
                Value::Int(i64::from(c)),
                Value::Str(&self.now_text),
                Value::Int(n as i64),
                Value::Int(all_local),
            ],
        )?;
        exec.run(
            kind::NO_NEW_ORDER_INSERT,
            s.new_order_insert,
            &[Value::Int(o_id), Value::Int(di), Value::Int(wi)],
        )?;

        // Every line's item in one read, the list padded with the first id.
        let mut keys = [Value::Null; 2 * MAX_LINES];
        for (i, k) in keys.iter_mut().enumerate().take(MAX_LINES) {
            *k = Value::Int(i64::from(lines[i.min(n - 1)].item));
        }
        exec.run_rows(kind::NO_ITEMS, s.items, &keys[..MAX_LINES], &mut self.rows)?;
        let dry = self.rows.is_dry_run();
        let mut valid = n;
        for (i, l) in lines.iter_mut().enumerate().take(n) {
            let found = (0..self.rows.len())
                .find(|&r| dry || self.rows.int(r, 0) == Some(i64::from(l.item)));
            match found {
                Some(r) => {
                    l.price_cents = self.rows.scaled(r, 1, 2).unwrap_or(0);
                    l.original_item = self.rows.bytes(r, 3).is_some_and(has_original);
                }
                None if l.item == UNUSED_ITEM && i == n - 1 => valid = n - 1,
                None => return Err(missing(&format!("item {}", l.item))),
            }
        }

        // The valid lines' stock rows in one locking read.
        for (i, pair) in keys.chunks_exact_mut(2).enumerate() {
            let l = &lines[i.min(valid - 1)];
            pair[0] = Value::Int(i64::from(l.supply));
            pair[1] = Value::Int(i64::from(l.item));
        }
        exec.run_rows(kind::NO_STOCK_SELECT, s.stock, &keys, &mut self.rows)?;
        let dist_col = 3 + d as usize;
        let mut brand_generic = 0u32;
        for i in 0..valid {
            let (supply, item) = (lines[i].supply, lines[i].item);
            let r = (0..self.rows.len())
                .find(|&r| {
                    dry || (self.rows.int(r, 0) == Some(i64::from(supply))
                        && self.rows.int(r, 1) == Some(i64::from(item)))
                })
                .ok_or_else(|| missing(&format!("stock of item {item} in warehouse {supply}")))?;
            // A second line of the same item sees the first one's quantity.
            let earlier = lines[..i]
                .iter()
                .rev()
                .find(|e| e.supply == supply && e.item == item)
                .map(|e| e.new_quantity);
            let quantity = match earlier {
                Some(q) => q,
                None => self.rows.int(r, 2).unwrap_or(0),
            };
            let qty = i64::from(lines[i].qty);
            lines[i].new_quantity = if quantity >= qty + 10 {
                quantity - qty
            } else {
                quantity - qty + 91
            };
            let dist = self.rows.bytes(r, dist_col).unwrap_or_default();
            let len = dist.len().min(24);
            lines[i].dist[..len].copy_from_slice(&dist[..len]);
            lines[i].dist_len = len as u8;
            if lines[i].original_item && self.rows.bytes(r, 3).is_some_and(has_original) {
                brand_generic += 1;
            }
        }

        // Each stock row once: a second line of an item adds to the first one's counts, and
        // its quantity (computed after the first line's) is the row's last.
        let mut rows: [(u32, u32, i64, i64, i64, i64); MAX_LINES] = [(0, 0, 0, 0, 0, 0); MAX_LINES];
        let mut distinct = 0;
        for l in &lines[..valid] {
            let remote = i64::from(l.supply != w);
            match rows[..distinct]
                .iter_mut()
                .find(|r| r.0 == l.supply && r.1 == l.item)
            {
                Some(r) => {
                    r.2 = l.new_quantity;
                    r.3 += i64::from(l.qty);
                    r.4 += 1;
                    r.5 += remote;
                }
                None => {
                    rows[distinct] = (
                        l.supply,
                        l.item,
                        l.new_quantity,
                        i64::from(l.qty),
                        1,
                        remote,
                    );
                    distinct += 1;
                }
            }
        }
        let mut params = [Value::Null; 10 * MAX_LINES];
        let n_params = statements::stock_update_params(s.engine);
        for k in 0..MAX_LINES {
            let (sw, si, q, y, c, r) = rows[k.min(distinct - 1)];
            let (sw, si) = (i64::from(sw), i64::from(si));
            if s.engine == SqlFamily::Postgres {
                let p = &mut params[6 * k..6 * k + 6];
                p.copy_from_slice(&[
                    Value::Int(sw),
                    Value::Int(si),
                    Value::Int(q),
                    Value::Int(y),
                    Value::Int(c),
                    Value::Int(r),
                ]);
            } else {
                let key = Value::Int(sw * 1_000_000 + si);
                for (col, v) in [q, y, c, r].into_iter().enumerate() {
                    params[2 * MAX_LINES * col + 2 * k] = key;
                    params[2 * MAX_LINES * col + 2 * k + 1] = Value::Int(v);
                }
                params[8 * MAX_LINES + 2 * k] = Value::Int(sw);
                params[8 * MAX_LINES + 2 * k + 1] = Value::Int(si);
            }
        }
        exec.run(kind::NO_STOCK_UPDATE, s.stock_update, &params[..n_params])?;

        // The lines in one INSERT.
        self.amount_text.clear();
        let mut amount_at = [(0usize, 0usize); MAX_LINES];
        let mut total: i64 = 0;
        for (i, l) in lines.iter().enumerate().take(valid) {
            let amount = i64::from(l.qty) * l.price_cents;
            total += amount;
            let start = self.amount_text.len();
            gen::decimal(amount, 2, &mut self.amount_text);
            amount_at[i] = (start, self.amount_text.len());
        }
        // The order's total as the terminal would show it (2.4.2.2), in ten-thousandths.
        let shown =
            i128::from(total) * i128::from(10_000 - discount) * i128::from(10_000 + w_tax + d_tax);
        std::hint::black_box((shown, brand_generic));
        let insert = self.stmts.lines_insert(exec.conn, valid)?;
        let mut params = [Value::Null; 9 * MAX_LINES];
        for (i, l) in lines.iter().enumerate().take(valid) {
            let p = &mut params[9 * i..9 * i + 9];
            p[0] = Value::Int(o_id);
            p[1] = Value::Int(di);
            p[2] = Value::Int(wi);
            p[3] = Value::Int(i as i64 + 1);
            p[4] = Value::Int(i64::from(l.item));
            p[5] = Value::Int(i64::from(l.supply));
            p[6] = Value::Int(i64::from(l.qty));
            p[7] = Value::Str(&self.amount_text[amount_at[i].0..amount_at[i].1]);
            p[8] = Value::Str(&l.dist[..l.dist_len as usize]);
        }
        exec.run(kind::NO_LINES_INSERT, insert, &params[..9 * valid])?;

        if valid < n {
            exec.run_query(kind::ROLLBACK, "ROLLBACK")?;
        } else {
            exec.run_query(kind::COMMIT, "COMMIT")?;
        }
        if exec.measuring() {
            let t = &mut self.tally;
            t.new_order_lines += n as u64;
            t.new_order_remote_lines += u64::from(remote);
            if valid < n {
                t.new_order_rollbacks += 1;
            }
        }
        Ok(valid == n)
    }
}

fn has_original(data: &[u8]) -> bool {
    data.windows(8).any(|w| w == b"ORIGINAL")
}
