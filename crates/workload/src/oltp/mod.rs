//! sysbench's OLTP family. One engine, configured per variant: the variants differ only in which
//! statement groups an event runs (ref sysbench.md §2.4–2.5, §2.10), so each is a few lines here.

mod blocks;
mod event;
pub mod keys;
pub mod options;
pub mod prepare;
pub mod sql;
mod workload;

use dbpress_core::error::{usage, Result};
use dbpress_core::options::IntOpt;
use dbpress_core::options::OptionValues;
use dbpress_core::rand::UniqueSequence;
use std::sync::Arc;

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
                point_selects: 1,
                ..m.only()
            }
        },
    },
    Variant {
        name: "oltp_read_write",
        description: "BEGIN, 10 point selects, 4 range selects, 2 updates, delete+insert, COMMIT (sysbench oltp_read_write)",
        shape: |_| {},
    },
    Variant {
        name: "oltp_read_only",
        description: "BEGIN, 10 point selects, 4 range selects, COMMIT (sysbench oltp_read_only)",
        shape: |m| {
            m.index_updates = 0;
            m.non_index_updates = 0;
            m.delete_inserts = 0;
        },
    },
    Variant {
        name: "oltp_write_only",
        description: "BEGIN, UPDATE of k, UPDATE of c, delete+insert, COMMIT (sysbench oltp_write_only)",
        shape: |m| {
            m.point_selects = 0;
            m.clear_ranges();
        },
    },
    Variant {
        name: "oltp_update_index",
        description: "UPDATE of the indexed column k, autocommit (sysbench oltp_update_index)",
        shape: |m| {
            *m = Mix {
                index_updates: m.index_updates,
                ..m.only()
            }
        },
    },
    Variant {
        name: "oltp_update_non_index",
        description: "UPDATE of the non-indexed column c, autocommit (sysbench oltp_update_non_index)",
        shape: |m| {
            *m = Mix {
                non_index_updates: m.non_index_updates,
                ..m.only()
            }
        },
    },
    Variant {
        name: "oltp_delete",
        description: "DELETE of a random id, autocommit; the table drains (sysbench oltp_delete)",
        shape: |m| {
            *m = Mix {
                deletes: 1,
                ..m.only()
            }
        },
    },
    Variant {
        name: "oltp_insert",
        description: "INSERT of a new row as text SQL, autocommit (sysbench oltp_insert)",
        shape: |m| {
            *m = Mix {
                text_inserts: 1,
                ..m.only()
            }
        },
    },
    Variant {
        name: "select_random_points",
        description: "SELECT … WHERE k IN (10 random values) on sbtest1 (sysbench select_random_points)",
        shape: |m| {
            *m = Mix {
                random_select: Some(RandomSelect::Points),
                ..m.only()
            }
        },
    },
    Variant {
        name: "select_random_ranges",
        description: "SELECT count(k) … WHERE k BETWEEN … OR … (10 ranges) on sbtest1 (sysbench select_random_ranges)",
        shape: |m| {
            *m = Mix {
                random_select: Some(RandomSelect::Ranges),
                ..m.only()
            }
        },
    },
    Variant {
        name: "oltp",
        description: "sysbench 0.5's legacy oltp.lua: text SQL, one table per transaction, --oltp-test-mode",
        shape: |m| {
            m.legacy = true;
            match m.test_mode {
                TestMode::Complex => {}
                TestMode::Nontrx => m.trx = false,
                TestMode::Simple => {
                    *m = Mix {
                        point_selects: 1,
                        legacy: true,
                        ..m.only()
                    }
                }
            }
        },
    },
];

/// sysbench 0.4's `--oltp-test-mode` for the legacy workload.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TestMode {
    Complex,
    Simple,
    Nontrx,
}

/// The single statement of select_random_points / select_random_ranges.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RandomSelect {
    Points,
    Ranges,
}

/// Which id the INSERT of a delete+insert pair uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReinsertId {
    /// The id just deleted (sysbench): the table keeps exactly `table_size` rows.
    Same,
    /// A new id from the server's AUTO_INCREMENT: the table moves to new pages.
    New,
}

/// Statements per event, by group, and how they are sent.
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
    /// DELETE without re-insert (oltp_delete).
    pub deletes: u32,
    /// INSERT of a new row as text (oltp_insert).
    pub text_inserts: u32,
    /// select_random_points / select_random_ranges, for those variants only.
    pub random_select: Option<RandomSelect>,
    /// Values in the IN list (--random-points).
    pub random_points: u32,
    /// Ranges (--number-of-ranges), each `delta` wide.
    pub random_ranges: u32,
    pub delta: u32,
    /// sysbench 0.5's oltp.lua: text SQL, one table for the whole event, `SUM(K)`.
    pub legacy: bool,
    pub test_mode: TestMode,
    pub reinsert: ReinsertId,
    /// Reconnect after every N events (0 = never), inside the timed event.
    pub reconnect_every: u64,
    /// The statement groups each session prepares whatever their counts, as sysbench's
    /// scripts prepare them (a count of 0 still prepares its statement).
    pub prepared: PreparedGroups,
}

/// Which of sysbench's statement groups a variant's sessions prepare: its point selects, its
/// range selects (unless `--range-selects=off`), its writes (updates, delete and insert).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct PreparedGroups {
    pub selects: bool,
    pub ranges: bool,
    pub writes: bool,
}

impl PreparedGroups {
    /// As oltp_read_write.lua, oltp_read_only.lua and oltp_write_only.lua prepare them; the
    /// other variants prepare what they send.
    fn of(variant: &str, range_selects: bool) -> PreparedGroups {
        let (selects, writes) = match variant {
            "oltp_read_write" => (true, true),
            "oltp_read_only" => (true, false),
            "oltp_write_only" => (false, true),
            _ => return PreparedGroups::default(),
        };
        PreparedGroups {
            selects,
            ranges: selects && range_selects,
            writes,
        }
    }
}

impl Mix {
    /// Whether an event changes rows (its transaction then begins as a write transaction).
    pub fn writes(&self) -> bool {
        self.index_updates
            + self.non_index_updates
            + self.delete_inserts
            + self.deletes
            + self.text_inserts
            > 0
    }

    /// This mix with every statement group off and no transaction (options kept).
    fn only(&self) -> Mix {
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
            deletes: 0,
            text_inserts: 0,
            random_select: None,
            ..self.clone()
        }
    }

    fn clear_ranges(&mut self) {
        self.simple_ranges = 0;
        self.sum_ranges = 0;
        self.order_ranges = 0;
        self.distinct_ranges = 0;
    }

    /// Statements per event and how sysbench counts them when every statement finds its row:
    /// (reads, writes, other).
    pub fn expected_rwo(&self) -> (u32, u32, u32) {
        let reads = self.point_selects
            + self.simple_ranges
            + self.sum_ranges
            + self.order_ranges
            + self.distinct_ranges
            + u32::from(self.random_select.is_some());
        let writes = self.index_updates
            + self.non_index_updates
            + 2 * self.delete_inserts
            + self.deletes
            + self.text_inserts;
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
    /// sysbench 0.5's DDL (UNSIGNED columns, MAX_ROWS).
    pub legacy: bool,
    /// --prepare-fast: unique/foreign-key checks and binary logging off while loading.
    pub prepare_fast: bool,
    /// Refresh planner statistics after loading (PostgreSQL VACUUM ANALYZE, SQLite ANALYZE);
    /// off with --no-vacuum.
    pub vacuum: bool,
    /// Rows prepare loads per table: `table_size`, except 0 for oltp_insert with
    /// --auto-inc=off (as sysbench: client ids from unique() would collide with loaded ones).
    pub load_rows: u32,
}

pub struct Oltp {
    variant: &'static Variant,
    pub mix: Mix,
    pub schema: Schema,
    /// --threads, which select_random_* use to give each thread its own slice of k.
    threads: u32,
    /// Ids for oltp_insert with --auto-inc=off, shared by all threads.
    unique: Arc<UniqueSequence>,
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
    pub const RANDOM_POINTS: u8 = 11;
    pub const RANDOM_RANGES: u8 = 12;
    pub const COUNT: usize = 13;
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
    "random_points",
    "random_ranges",
];

impl Oltp {
    pub fn new(
        variant: &'static Variant,
        opts: &OptionValues,
        threads: u32,
        seed: u64,
    ) -> Result<Oltp> {
        let n = |k: IntOpt| -> Result<u32> { Ok(opts.int(k)? as u32) };
        let range_selects = opts.flag(keys::RANGE_SELECTS)?;
        let r = |k: IntOpt| -> Result<u32> {
            if range_selects {
                n(k)
            } else {
                Ok(0)
            }
        };
        let mut mix = Mix {
            trx: !opts.flag(keys::SKIP_TRX)?,
            point_selects: n(keys::POINT_SELECTS)?,
            simple_ranges: r(keys::SIMPLE_RANGES)?,
            sum_ranges: r(keys::SUM_RANGES)?,
            order_ranges: r(keys::ORDER_RANGES)?,
            distinct_ranges: r(keys::DISTINCT_RANGES)?,
            index_updates: n(keys::INDEX_UPDATES)?,
            non_index_updates: n(keys::NON_INDEX_UPDATES)?,
            delete_inserts: n(keys::DELETE_INSERTS)?,
            deletes: 0,
            text_inserts: 0,
            random_select: None,
            random_points: opts.int(keys::RANDOM_POINTS)? as u32,
            random_ranges: opts.int(keys::NUMBER_OF_RANGES)? as u32,
            delta: n(keys::DELTA)?,
            legacy: false,
            test_mode: opts.choice(
                keys::OLTP_TEST_MODE,
                "complex, simple, nontrx",
                |s| match s {
                    "complex" => Some(TestMode::Complex),
                    "simple" => Some(TestMode::Simple),
                    "nontrx" => Some(TestMode::Nontrx),
                    _ => None,
                },
            )?,
            reinsert: opts.choice(keys::REINSERT_ID, "same, new", |s| match s {
                "same" => Some(ReinsertId::Same),
                "new" => Some(ReinsertId::New),
                _ => None,
            })?,
            reconnect_every: opts.int(keys::RECONNECT)?,
            prepared: PreparedGroups::of(variant.name, range_selects),
        };
        (variant.shape)(&mut mix);
        let schema = Schema {
            tables: opts.int(keys::TABLES)? as u32,
            table_size: opts.int(keys::TABLE_SIZE)? as u32,
            range_size: opts.int(keys::RANGE_SIZE)? as u32,
            auto_inc: opts.flag(keys::AUTO_INC)?,
            secondary: opts.flag(keys::SECONDARY)?,
            create_secondary: opts.flag(keys::CREATE_SECONDARY)?,
            create_table_options: opts.text(keys::CREATE_TABLE_OPTIONS).to_string(),
            storage_engine: opts.text(keys::MYSQL_STORAGE_ENGINE).to_string(),
            legacy: mix.legacy,
            prepare_fast: opts.flag(keys::PREPARE_FAST)?,
            vacuum: !opts.flag(keys::NO_VACUUM)?,
            load_rows: 0,
        };
        let mut schema = schema;
        schema.load_rows = if mix.text_inserts > 0 && !schema.auto_inc {
            0
        } else {
            schema.table_size
        };
        if !schema
            .storage_engine
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            return Err(usage(format!(
                "invalid value '{}' for --mysql-storage-engine: use an engine name such as innodb",
                schema.storage_engine
            )));
        }
        if mix.reinsert == ReinsertId::New && mix.delete_inserts > 0 && !schema.auto_inc {
            return Err(usage(
                "--reinsert-id=new lets the server assign the id, which needs --auto-inc=on",
            ));
        }
        Ok(Oltp {
            variant,
            mix,
            schema,
            threads,
            unique: Arc::new(UniqueSequence::new(seed)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dbpress_core::options::scan::{scan_in, Scanned};

    /// The workload a command line names and its options.
    fn parse_workload(args: &[String]) -> Option<(String, (), OptionValues)> {
        match scan_in(&crate::registry::options(), args).ok()? {
            Scanned::Options(opts, words, _) => Some((words[0].clone(), (), opts)),
            _ => None,
        }
    }

    fn oltp(s: &str) -> Oltp {
        let args: Vec<String> = s.split_whitespace().map(String::from).collect();
        let (workload, _, opts) = parse_workload(&args).unwrap();
        let v = VARIANTS.iter().find(|v| v.name == workload).unwrap();
        Oltp::new(v, &opts, 1, 1).unwrap()
    }

    #[test]
    fn every_variant_has_sysbenchs_mix() {
        for (cmd, rwo, trx) in [
            ("oltp_read_write run", (14, 4, 2), true),
            ("oltp_read_only run", (14, 0, 2), true),
            ("oltp_write_only run", (0, 4, 2), true),
            ("oltp_point_select run --point-selects=10", (1, 0, 0), false),
            ("oltp_update_index run", (0, 1, 0), false),
            (
                "oltp_update_non_index run --non-index-updates=3",
                (0, 3, 0),
                false,
            ),
            ("oltp_delete run", (0, 1, 0), false),
            ("oltp_insert run", (0, 1, 0), false),
            ("select_random_points run", (1, 0, 0), false),
            ("select_random_ranges run", (1, 0, 0), false),
            ("oltp run", (14, 4, 2), true),
            ("oltp run --oltp-test-mode=simple", (1, 0, 0), false),
            ("oltp run --oltp-test-mode=nontrx", (14, 4, 0), false),
            (
                "oltp_read_write run --range-selects=off --skip-trx",
                (10, 4, 0),
                false,
            ),
        ] {
            let w = oltp(cmd);
            assert_eq!(w.mix.expected_rwo(), rwo, "{cmd}");
            assert_eq!(w.mix.trx, trx, "{cmd}");
        }
        assert!(oltp("oltp run").mix.legacy);
    }

    #[test]
    fn reinsert_new_needs_auto_inc() {
        let args: Vec<String> = "oltp_read_write run --reinsert-id=new --auto-inc=off"
            .split_whitespace()
            .map(String::from)
            .collect();
        let (_, _, opts) = parse_workload(&args).unwrap();
        let e = Oltp::new(&VARIANTS[1], &opts, 1, 1).err().unwrap();
        assert!(e.message().contains("--auto-inc=on"));
    }
}
