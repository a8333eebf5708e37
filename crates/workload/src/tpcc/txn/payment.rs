//! Payment (clause 2.5): 60% of customers found by last name, 15% in a remote warehouse;
//! warehouse, district and customer updated, one HISTORY row inserted.

use super::statements::kind;
use super::{middle, missing, Terminal};
use crate::events::Exec;
use crate::tpcc::gen;
use dbpress_driver::{DbResult, Value};

impl Terminal {
    pub fn payment(&mut self, exec: &mut Exec<'_>) -> DbResult<()> {
        let w = self.warehouse();
        let d = self.rng.uniform(1, 10);
        let (c_w, c_d, remote) = if self.warehouses > 1 && self.rng.uniform(1, 100) > 85 {
            let cw = self.other_warehouse(w);
            (cw, self.rng.uniform(1, 10), true)
        } else {
            (w, d, false)
        };
        let by_name = self.rng.uniform(1, 100) <= 60;
        let mut c_id = 0;
        if by_name {
            gen::last_name(
                gen::nurand(&mut self.rng, 255, 0, 999, self.c.c_last),
                &mut self.last_name,
            );
        } else {
            c_id = gen::nurand(&mut self.rng, 1023, 1, 3000, self.c.c_id);
        }
        let amount = i64::from(self.rng.uniform(100, 500_000));
        self.amount_text.clear();
        gen::decimal(amount, 2, &mut self.amount_text);
        self.stamp();
        let (wi, di) = (i64::from(w), i64::from(d));
        let (cwi, cdi) = (i64::from(c_w), i64::from(c_d));
        let s = &self.stmts;
        exec.run_query(kind::BEGIN, s.begin_write)?;

        exec.run_rows(
            kind::PAY_WAREHOUSE,
            s.warehouse_pay,
            &[Value::Str(&self.amount_text), Value::Int(wi)],
            &mut self.rows,
        )?;
        if let Some(read) = s.warehouse_read {
            exec.run_rows(kind::PAY_WAREHOUSE, read, &[Value::Int(wi)], &mut self.rows)?;
        }
        self.h_data.clear();
        self.h_data.extend_from_slice(
            self.rows
                .bytes(0, 0)
                .ok_or_else(|| missing("the warehouse"))?,
        );
        self.h_data.extend_from_slice(b"    ");
        exec.run_rows(
            kind::PAY_DISTRICT,
            s.district_pay,
            &[
                Value::Str(&self.amount_text),
                Value::Int(wi),
                Value::Int(di),
            ],
            &mut self.rows,
        )?;
        if let Some(read) = s.district_read {
            exec.run_rows(
                kind::PAY_DISTRICT,
                read,
                &[Value::Int(wi), Value::Int(di)],
                &mut self.rows,
            )?;
        }
        self.h_data.extend_from_slice(
            self.rows
                .bytes(0, 0)
                .ok_or_else(|| missing("the district"))?,
        );

        if by_name {
            exec.run_rows(
                kind::CUSTOMER_BY_NAME,
                s.customer_ids_by_name,
                &[
                    Value::Int(cwi),
                    Value::Int(cdi),
                    Value::Str(&self.last_name),
                ],
                &mut self.rows,
            )?;
            if self.rows.is_empty() {
                return Err(missing("a customer named by C_LAST"));
            }
            let at = middle(self.rows.len());
            c_id = self.rows.int(at, 0).unwrap_or(0) as u32;
        }
        let ci = i64::from(c_id);
        exec.run_rows(
            kind::CUSTOMER,
            s.customer_for_payment,
            &[Value::Int(cwi), Value::Int(cdi), Value::Int(ci)],
            &mut self.rows,
        )?;
        let bad_credit = self
            .rows
            .bytes(0, 9)
            .ok_or_else(|| missing("the customer"))?
            == b"BC";
        if bad_credit {
            exec.run_rows(
                kind::CUSTOMER,
                s.customer_data,
                &[Value::Int(cwi), Value::Int(cdi), Value::Int(ci)],
                &mut self.rows,
            )?;
            // The payment's particulars in front, the whole kept to 500 characters.
            self.c_data.clear();
            let head = format!("{c_id} {c_d} {c_w} {d} {w} ");
            self.c_data.extend_from_slice(head.as_bytes());
            self.c_data.extend_from_slice(&self.amount_text);
            self.c_data.extend_from_slice(b" | ");
            self.c_data
                .extend_from_slice(self.rows.bytes(0, 0).unwrap_or_default());
            self.c_data.truncate(500);
            exec.run(
                kind::PAY_CUSTOMER_UPDATE,
                s.customer_pay_bc,
                &[
                    Value::Str(&self.amount_text),
                    Value::Str(&self.amount_text),
                    Value::Str(&self.c_data),
                    Value::Int(cwi),
                    Value::Int(cdi),
                    Value::Int(ci),
                ],
            )?;
        } else {
            exec.run(
                kind::PAY_CUSTOMER_UPDATE,
                s.customer_pay,
                &[
                    Value::Str(&self.amount_text),
                    Value::Str(&self.amount_text),
                    Value::Int(cwi),
                    Value::Int(cdi),
                    Value::Int(ci),
                ],
            )?;
        }
        exec.run(
            kind::PAY_HISTORY_INSERT,
            s.history_insert,
            &[
                Value::Int(ci),
                Value::Int(cdi),
                Value::Int(cwi),
                Value::Int(di),
                Value::Int(wi),
                Value::Str(&self.now_text),
                Value::Str(&self.amount_text),
                Value::Str(&self.h_data),
            ],
        )?;
        exec.run_query(kind::COMMIT, "COMMIT")?;
        if exec.measuring() {
            self.tally.payment_remote += u64::from(remote);
            self.tally.payment_by_name += u64::from(by_name);
        }
        Ok(())
    }
}
