//! Delivery (clause 2.7), run at once and as one database transaction over the ten districts
//! (as sysbench-tpcc and go-tpc do; the spec's deferred queue is not modelled): the oldest
//! undelivered order of each district is delivered; a district with none is skipped and
//! counted (5.4.5 wants skips at most 1%).

use super::statements::kind;
use super::{int, Terminal};
use crate::events::Exec;
use crate::tpcc::gen;
use dbpress_driver::{DbResult, QueryKind, Value};

impl Terminal {
    pub fn delivery(&mut self, exec: &mut Exec<'_>) -> DbResult<()> {
        let w = self.warehouse();
        let carrier = i64::from(self.rng.uniform(1, 10));
        self.stamp();
        let wi = i64::from(w);
        let s = &self.stmts;
        exec.run_query(kind::BEGIN, s.begin_write)?;
        let mut skipped = 0u64;
        for d in 1..=10i64 {
            exec.run_rows(
                kind::DELIVERY,
                s.oldest_new_order,
                &[Value::Int(wi), Value::Int(d)],
                &mut self.rows,
            )?;
            let Some(o_id) = self.rows.int(0, 0) else {
                skipped += 1;
                continue;
            };
            let deleted = exec.run_kind(
                kind::DELIVERY,
                s.new_order_delete,
                &[Value::Int(wi), Value::Int(d), Value::Int(o_id)],
            )?;
            if deleted != QueryKind::Write && !self.rows.is_dry_run() {
                // Another Delivery took it between the read and the delete (a read without
                // a row lock): nothing of this district is delivered.
                skipped += 1;
                continue;
            }
            let key = [Value::Int(wi), Value::Int(d), Value::Int(o_id)];
            exec.run_rows(
                kind::DELIVERY,
                s.order_carrier,
                &[Value::Int(carrier), key[0], key[1], key[2]],
                &mut self.rows,
            )?;
            if let Some(read) = s.order_customer {
                exec.run_rows(kind::DELIVERY, read, &key, &mut self.rows)?;
            }
            let c_id = int(&self.rows, 0, 0, "the delivered order")?;
            exec.run_rows(
                kind::DELIVERY,
                s.lines_deliver,
                &[Value::Str(&self.now_text), key[0], key[1], key[2]],
                &mut self.rows,
            )?;
            if let Some(sum) = s.lines_sum {
                exec.run_rows(kind::DELIVERY, sum, &key, &mut self.rows)?;
            }
            // One row (MySQL's SUM) or one per line (RETURNING ol_amount): their total.
            let cents: i64 = (0..self.rows.len())
                .filter_map(|r| self.rows.scaled(r, 0, 2))
                .sum();
            self.amount_text.clear();
            gen::decimal(cents, 2, &mut self.amount_text);
            exec.run(
                kind::DELIVERY,
                s.customer_deliver,
                &[
                    Value::Str(&self.amount_text),
                    Value::Int(wi),
                    Value::Int(d),
                    Value::Int(c_id),
                ],
            )?;
        }
        exec.run_query(kind::COMMIT, "COMMIT")?;
        if exec.measuring() {
            self.tally.delivery_skipped += skipped;
        }
        Ok(())
    }
}
