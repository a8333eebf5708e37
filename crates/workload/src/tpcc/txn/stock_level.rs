//! Stock-Level (clause 2.8): the terminal's own district; distinct items of its last 20
//! orders below a threshold in 10..=20. Read committed suffices (3.4.1 level 1), so its two
//! reads run without an explicit transaction.

use super::statements::kind;
use super::{int, Terminal};
use crate::events::Exec;
use dbpress_driver::{DbResult, Value};

impl Terminal {
    pub fn stock_level(&mut self, exec: &mut Exec<'_>) -> DbResult<()> {
        let w = i64::from(self.warehouse());
        let d = i64::from(match self.home {
            Some(_) => self.stock_district,
            None => self.rng.uniform(1, 10),
        });
        let threshold = i64::from(self.rng.uniform(10, 20));
        let s = &self.stmts;
        exec.run_rows(
            kind::STOCK_LEVEL_READ,
            s.district_next_read,
            &[Value::Int(w), Value::Int(d)],
            &mut self.rows,
        )?;
        let next = int(&self.rows, 0, 0, "the district")?;
        exec.run_rows(
            kind::STOCK_LEVEL_READ,
            s.low_stock,
            &[
                Value::Int(w),
                Value::Int(d),
                Value::Int(next),
                Value::Int(next - 20),
                Value::Int(w),
                Value::Int(threshold),
            ],
            &mut self.rows,
        )?;
        std::hint::black_box(self.rows.int(0, 0));
        Ok(())
    }
}
