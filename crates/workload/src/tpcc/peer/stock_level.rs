//! tpcc-mysql's Stock-Level: the district's next order number, the distinct items of its last
//! 20 orders, then one count per item of its stock below the threshold (one statement per
//! item, as tpcc-mysql sends them: about 200 per transaction).

use super::client::PeerClient;
use crate::events::Exec;
use dbpress_driver::{DbResult, Value};

pub struct StockLevelIn {
    w: u32,
    d: u32,
    threshold: u32,
}

impl PeerClient {
    pub fn stock_level_inputs(&mut self) -> StockLevelIn {
        StockLevelIn {
            w: self.warehouse(),
            d: self.rng.uniform(1, 10),
            threshold: self.rng.uniform(10, 20),
        }
    }

    pub fn stock_level(&mut self, exec: &mut Exec<'_>, i: &StockLevelIn) -> DbResult<()> {
        let (w, d) = (Value::Int(i64::from(i.w)), Value::Int(i64::from(i.d)));
        self.rows(exec, 1, 32, &[d, w])?;
        let next = Value::Int(self.int(0)?);
        self.rows(exec, 2, 33, &[w, d, next, next])?;
        let items: Vec<i64> = (0..self.rows.len())
            .filter_map(|r| self.rows.int(r, 0))
            .collect();
        let threshold = Value::Int(i64::from(i.threshold));
        for item in items {
            self.rows(exec, 3, 34, &[w, Value::Int(item), threshold])?;
        }
        self.commit(exec)
    }
}
