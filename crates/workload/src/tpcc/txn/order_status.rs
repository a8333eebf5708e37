//! Order-Status (clause 2.6): read-only; 60% of customers by last name; the customer's latest
//! order and its lines.

use super::statements::kind;
use super::{int, middle, missing, Terminal};
use crate::events::Exec;
use crate::tpcc::gen;
use dbpress_driver::{DbResult, Value};

impl Terminal {
    pub fn order_status(&mut self, exec: &mut Exec<'_>) -> DbResult<()> {
        let w = self.warehouse();
        let d = self.rng.uniform(1, 10);
        let by_name = self.rng.uniform(1, 100) <= 60;
        let (wi, di) = (i64::from(w), i64::from(d));
        let s = &self.stmts;
        exec.run_query(kind::BEGIN, s.begin_read)?;
        let c_id = if by_name {
            gen::last_name(
                gen::nurand(&mut self.rng, 255, 0, 999, self.c.c_last),
                &mut self.last_name,
            );
            exec.run_rows(
                kind::CUSTOMER_BY_NAME,
                s.customer_by_name,
                &[Value::Int(wi), Value::Int(di), Value::Str(&self.last_name)],
                &mut self.rows,
            )?;
            if self.rows.is_empty() {
                return Err(missing("a customer named by C_LAST"));
            }
            int(&self.rows, middle(self.rows.len()), 0, "the customer")?
        } else {
            let c = i64::from(gen::nurand(&mut self.rng, 1023, 1, 3000, self.c.c_id));
            exec.run_rows(
                kind::CUSTOMER,
                s.customer_by_id,
                &[Value::Int(wi), Value::Int(di), Value::Int(c)],
                &mut self.rows,
            )?;
            if self.rows.is_empty() {
                return Err(missing("the customer"));
            }
            c
        };
        exec.run_rows(
            kind::OS_LAST_ORDER,
            s.last_order,
            &[Value::Int(wi), Value::Int(di), Value::Int(c_id)],
            &mut self.rows,
        )?;
        let o_id = int(&self.rows, 0, 0, "the customer's last order")?;
        exec.run_rows(
            kind::OS_LINES,
            s.order_lines,
            &[Value::Int(wi), Value::Int(di), Value::Int(o_id)],
            &mut self.rows,
        )?;
        exec.run_query(kind::COMMIT, "COMMIT")?;
        if exec.measuring() {
            self.tally.order_status_by_name += u64::from(by_name);
        }
        Ok(())
    }
}
