//! sysbench's OLTP family. One engine, configured per variant: the variants differ only in which
//! statement groups an event runs (ref sysbench.md §2.4–2.5).

mod event;
mod prepare;
pub mod sql;

use super::{Context, EventGen, Workload};
use crate::cli::OptionValues;
use crate::config::{boolean, int};
use crate::driver::{Connection, DbResult};
use crate::error::Result;
use crate::rand::{Distribution, Rng};

/// A named OLTP variant and how it shapes the options into a statement mix.
pub struct Variant {
    pub name: &'static str,
    pub description: &'static str,
    shape: fn(&mut Mix),
}

pub static VARIANTS: &[Variant] = &[
    Variant {
        name: "oltp_point_select",
        description: "one primary-key SELECT per event, autocommit (sysbench oltp_point_select)",
        shape: |m| {
            *m = Mix {
                trx: false,
                point_selects: 1,
                ..Mix::none()
            }
        },
    },
    Variant {
        name: "oltp_read_write",
        description: "BEGIN, 10 point selects, 4 range selects, 2 updates, delete+insert, COMMIT (sysbench oltp_read_write)",
        shape: |_| {},
    },
];

/// Statements per event, by group.
#[derive(Clone, Debug, PartialEq)]
pub struct Mix {
    pub trx: bool,
    pub point_selects: u32,
    pub simple_ranges: u32,
    pub sum_ranges: u32,
    pub order_ranges: u32,
    pub distinct_ranges: u32,
    pub index_updates: u32,
    pub non_index_updates: u32,
    pub delete_inserts: u32,
}

impl Mix {
    fn none() -> Mix {
        Mix {
            trx: false,
            point_selects: 0,
            simple_ranges: 0,
            sum_ranges: 0,
            order_ranges: 0,
            distinct_ranges: 0,
            index_updates: 0,
            non_index_updates: 0,
            delete_inserts: 0,
        }
    }

    /// Statements per event and how sysbench counts them when every statement finds its row:
    /// (reads, writes, other).
    pub fn expected_rwo(&self) -> (u32, u32, u32) {
        let reads = self.point_selects
            + self.simple_ranges
            + self.sum_ranges
            + self.order_ranges
            + self.distinct_ranges;
        let writes = self.index_updates + self.non_index_updates + 2 * self.delete_inserts;
        let other = if self.trx { 2 } else { 0 };
        (reads, writes, other)
    }
}

/// The table and data options shared by every OLTP variant.
#[derive(Clone, Debug)]
pub struct Schema {
    pub tables: u32,
    pub table_size: u32,
    pub range_size: u32,
    pub auto_inc: bool,
    pub secondary: bool,
    pub create_secondary: bool,
    pub create_table_options: String,
    pub storage_engine: String,
}

pub struct Oltp {
    variant: &'static Variant,
    pub mix: Mix,
    pub schema: Schema,
}

/// Statement kinds, in the order `statement_kinds()` names them.
pub mod kind {
    pub const POINT_SELECT: u8 = 0;
    pub const SIMPLE_RANGE: u8 = 1;
    pub const SUM_RANGE: u8 = 2;
    pub const ORDER_RANGE: u8 = 3;
    pub const DISTINCT_RANGE: u8 = 4;
    pub const INDEX_UPDATE: u8 = 5;
    pub const NON_INDEX_UPDATE: u8 = 6;
    pub const DELETE: u8 = 7;
    pub const INSERT: u8 = 8;
    pub const BEGIN: u8 = 9;
    pub const COMMIT: u8 = 10;
    pub const COUNT: usize = 11;
}

static KIND_NAMES: [&str; kind::COUNT] = [
    "point_select",
    "simple_range",
    "sum_range",
    "order_range",
    "distinct_range",
    "index_update",
    "non_index_update",
    "delete",
    "insert",
    "begin",
    "commit",
];

impl Oltp {
    pub fn new(variant: &'static Variant, opts: &OptionValues) -> Result<Oltp> {
        let n = |name: &str| -> Result<u32> { Ok(int(opts, name, 0, 1_000_000)? as u32) };
        let range_selects = boolean(opts, "range-selects")?;
        let r = |name: &str| -> Result<u32> {
            if range_selects {
                n(name)
            } else {
                Ok(0)
            }
        };
        let mut mix = Mix {
            trx: !boolean(opts, "skip-trx")?,
            point_selects: n("point-selects")?,
            simple_ranges: r("simple-ranges")?,
            sum_ranges: r("sum-ranges")?,
            order_ranges: r("order-ranges")?,
            distinct_ranges: r("distinct-ranges")?,
            index_updates: n("index-updates")?,
            non_index_updates: n("non-index-updates")?,
            delete_inserts: n("delete-inserts")?,
        };
        (variant.shape)(&mut mix);
        let schema = Schema {
            tables: int(opts, "tables", 1, 100_000)? as u32,
            table_size: int(opts, "table-size", 1, u64::from(u32::MAX / 2))? as u32,
            range_size: int(opts, "range-size", 1, 1_000_000)? as u32,
            auto_inc: boolean(opts, "auto-inc")?,
            secondary: boolean(opts, "secondary")?,
            create_secondary: boolean(opts, "create-secondary")?,
            create_table_options: opts.get("create-table-options").to_string(),
            storage_engine: opts.get("mysql-storage-engine").to_string(),
        };
        if !schema
            .storage_engine
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            return Err(crate::error::usage(format!(
                "invalid value '{}' for --mysql-storage-engine: use an engine name such as innodb",
                schema.storage_engine
            )));
        }
        Ok(Oltp {
            variant,
            mix,
            schema,
        })
    }
}

impl Workload for Oltp {
    fn name(&self) -> &'static str {
        self.variant.name
    }

    fn statement_kinds(&self) -> &'static [&'static str] {
        &KIND_NAMES
    }

    fn transactional(&self) -> bool {
        self.mix.trx
    }

    fn describe(&self) -> Vec<String> {
        let m = &self.mix;
        let (r, w, o) = m.expected_rwo();
        vec![
            format!(
                "Tables: {} x {} rows, range size {}",
                self.schema.tables, self.schema.table_size, self.schema.range_size
            ),
            format!(
                "Statements per event: {} (read {r}, write {w}, other {o}){}",
                r + w + o,
                if m.trx { "" } else { ", autocommit" }
            ),
        ]
    }

    fn prepare(&self, ctx: &Context<'_>) -> Result<()> {
        prepare::prepare(self, ctx)
    }

    fn cleanup(&self, ctx: &Context<'_>) -> Result<()> {
        prepare::cleanup(self, ctx)
    }

    fn check_ready(&self, conn: &mut dyn Connection, ctx: &Context<'_>) -> Result<()> {
        prepare::check_ready(self, conn, ctx)
    }

    fn worker(
        &self,
        conn: &mut dyn Connection,
        _thread: u32,
        rng: Rng,
        dist: Distribution,
    ) -> DbResult<Box<dyn EventGen>> {
        Ok(Box::new(event::OltpEvents::new(self, conn, rng, dist)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::{parse, Invocation};

    fn oltp(s: &str) -> Oltp {
        let args: Vec<String> = s.split_whitespace().map(String::from).collect();
        let Invocation::Workload { workload, opts, .. } = parse(&args).unwrap() else {
            panic!()
        };
        let v = VARIANTS.iter().find(|v| v.name == workload).unwrap();
        Oltp::new(v, &opts).unwrap()
    }

    #[test]
    fn read_write_default_mix_is_14_4_2() {
        assert_eq!(oltp("oltp_read_write run").mix.expected_rwo(), (14, 4, 2));
    }

    #[test]
    fn point_select_is_one_read_without_transaction() {
        let m = oltp("oltp_point_select run --point-selects=10").mix;
        assert_eq!(m.expected_rwo(), (1, 0, 0));
        assert!(!m.trx);
    }

    #[test]
    fn range_selects_off_and_skip_trx() {
        let m = oltp("oltp_read_write run --range-selects=off --skip-trx").mix;
        assert_eq!(m.expected_rwo(), (10, 4, 0));
    }
}
