//! tpcc-mysql's transactions as a workload (dbpress as tpcc_start, #42): on tpcc-mysql's
//! tables, each session `SET autocommit=0` and its 35 statements prepared, transactions dealt
//! from one shared deck on a random warehouse each, no keying or think time; tpcc-mysql's
//! interval line on each tick.

use super::client::PeerClient;
use super::deck::SharedDeck;
use super::events::PeerEvents;
use super::figures::{percentile_ms, Figures};
use super::new_order_log::NewOrderLogs;
use super::statements::{PeerStatements, KIND_NAMES};
use crate::events::EventGen;
use crate::tpcc::gen::CConstants;
use crate::workload::{IntervalReport, Workload};
use dbpress_core::rand::{Distribution, Rng};
use dbpress_driver::{Connection, DbResult, Dialect, ResultRows};
use std::sync::Arc;

pub struct TpccMysql {
    pub warehouses: u32,
    pub seed: u64,
    pub deck: Arc<SharedDeck>,
    pub figures: Arc<Figures>,
    /// `-f`/`-t`'s files (none unless `with_logs`).
    pub logs: Arc<NewOrderLogs>,
}

impl TpccMysql {
    pub fn new(warehouses: u32, seed: u64, limits_s: [f64; 5]) -> TpccMysql {
        TpccMysql {
            warehouses: warehouses.max(1),
            seed,
            deck: Arc::new(SharedDeck::new(seed)),
            figures: Arc::new(Figures::new(limits_s)),
            logs: Arc::new(NewOrderLogs::default()),
        }
    }

    /// With tpcc_start's `-f`/`-t` files.
    pub fn with_logs(mut self, logs: NewOrderLogs) -> TpccMysql {
        self.logs = Arc::new(logs);
        self
    }
}

impl Workload for TpccMysql {
    fn name(&self) -> &'static str {
        "tpcc"
    }

    fn statement_kinds(&self) -> &'static [&'static str] {
        &KIND_NAMES
    }

    fn transactional(&self) -> bool {
        true
    }

    fn draws_keys_from_rand_type(&self) -> bool {
        false
    }

    fn describe(&self) -> Vec<String> {
        vec![format!(
            "TPC-C as tpcc-mysql runs it: {} warehouse(s), a random one per transaction, its 35 prepared statements, one shared 23-card deck, no keying or think time",
            self.warehouses
        )]
    }

    fn missing_table_fix(&self) -> String {
        "create tpcc-mysql's tables (its create_table.sql) and load them with tpcc_load".into()
    }

    fn interval_report(
        &self,
        _dialect: &'static Dialect,
        _threads: u32,
    ) -> Option<Box<dyn IntervalReport + '_>> {
        Some(Box::new(IntervalLine { w: self }))
    }

    fn worker(
        &self,
        conn: &mut dyn Connection,
        _dialect: &'static Dialect,
        thread: u32,
        mut rng: Rng,
        _dist: Distribution,
    ) -> DbResult<Box<dyn EventGen>> {
        conn.query("SET autocommit=0")?;
        let s = PeerStatements::prepare(conn)?;
        let c = CConstants::draw(&mut Rng::new(self.seed, 0xC0C0));
        let client = PeerClient {
            s,
            c,
            warehouses: self.warehouses,
            rows: ResultRows::new(),
            thread,
            step: 0,
            now: Vec::new(),
            text: Vec::new(),
            rng: Rng::new(rng.next_u64(), u64::from(thread)),
        };
        Ok(Box::new(PeerEvents {
            client,
            deck: Arc::clone(&self.deck),
            figures: Arc::clone(&self.figures),
            logs: Arc::clone(&self.logs),
        }))
    }
}

/// tpcc-mysql's line per tick: elapsed seconds, New-Orders, their 95th and 99th percentile
/// and slowest times, then each other type's count and slowest time (ms).
struct IntervalLine<'a> {
    w: &'a TpccMysql,
}

impl IntervalReport for IntervalLine<'_> {
    fn report(&mut self, interval: &dbpress_result::Interval) {
        if interval.closing {
            return;
        }
        let f = &self.w.figures;
        self.w.logs.tick(interval.time_s.round() as i64);
        if Figures::once(&f.measuring_said) {
            dbpress_core::out!("\nMEASURING START.\n\n");
        }
        let line = {
            let mut c = f.lock();
            let no = std::mem::take(&mut c.interval_new_order_ms);
            let line = format!(
                "{:4}, trx: {}, 95%: {:.3}, 99%: {:.3}, max_rt: {:.3}, {}|{:.3}, {}|{:.3}, {}|{:.3}, {}|{:.3}",
                interval.time_s.round() as i64,
                c.interval_count[0],
                percentile_ms(&no, 95.0),
                percentile_ms(&no, 99.0),
                c.interval_max_ms[0],
                c.interval_count[1],
                c.interval_max_ms[1],
                c.interval_count[2],
                c.interval_max_ms[2],
                c.interval_count[3],
                c.interval_max_ms[3],
                c.interval_count[4],
                c.interval_max_ms[4],
            );
            c.interval_count = [0; 5];
            c.interval_max_ms = [0.0; 5];
            line
        };
        dbpress_core::outln!("{line}");
    }
}
