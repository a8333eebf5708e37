//! The OLTP workloads' option rows: name, kind, default, help (their typed keys are in
//! `keys.rs`), and sysbench 0.4/0.5's spellings of them. The registry puts them into the option
//! table (`registry::options`).

use dbpress_core::options::table::{Alias, Group, Kind, Spec};

/// The help section of OLTP's options (every workload but TPC-C shows it).
pub const GROUP: Group = Group::Workload("OLTP workload options");

#[rustfmt::skip]
pub static OPTIONS: &[Spec] = &[
    Spec::new("mysql-storage-engine", Kind::Str, "innodb", GROUP, "storage engine, if MySQL is used"),
    Spec::new("tables", Kind::Int, "1", GROUP, "number of tables"),
    Spec::new("table-size", Kind::Int, "10000", GROUP, "number of rows per table"),
    Spec::new("range-size", Kind::Int, "100", GROUP, "range size for range SELECT queries"),
    Spec::new("point-selects", Kind::Int, "10", GROUP, "number of point SELECT queries per transaction"),
    Spec::new("simple-ranges", Kind::Int, "1", GROUP, "number of simple range SELECT queries per transaction"),
    Spec::new("sum-ranges", Kind::Int, "1", GROUP, "number of SELECT SUM() queries per transaction"),
    Spec::new("order-ranges", Kind::Int, "1", GROUP, "number of SELECT ORDER BY queries per transaction"),
    Spec::new("distinct-ranges", Kind::Int, "1", GROUP, "number of SELECT DISTINCT queries per transaction"),
    Spec::new("index-updates", Kind::Int, "1", GROUP, "number of UPDATE index queries per transaction"),
    Spec::new("non-index-updates", Kind::Int, "1", GROUP, "number of UPDATE non-index queries per transaction"),
    Spec::new("delete-inserts", Kind::Int, "1", GROUP, "number of DELETE/INSERT combinations per transaction"),
    Spec::new("range-selects", Kind::Bool, "on", GROUP, "enable/disable all range SELECT queries"),
    Spec::new("auto-inc", Kind::Bool, "on", GROUP, "use AUTO_INCREMENT column as primary key; off = client-generated ids"),
    Spec::new("create-table-options", Kind::Str, "", GROUP, "extra CREATE TABLE options"),
    Spec::new("skip-trx", Kind::Bool, "off", GROUP, "don't start explicit transactions and execute all queries in AUTOCOMMIT mode"),
    Spec::new("secondary", Kind::Bool, "off", GROUP, "use a secondary index in place of the PRIMARY KEY"),
    Spec::new("create-secondary", Kind::Bool, "on", GROUP, "create a secondary index in addition to the PRIMARY KEY"),
    Spec::new("prepare-fast", Kind::Bool, "off", GROUP, "prepare with unique_checks, foreign_key_checks and sql_log_bin off (see GUIDE)"),
    Spec::new("no-vacuum", Kind::Bool, "off", GROUP, "skip VACUUM ANALYZE (PostgreSQL) / ANALYZE (SQLite) after prepare"),
    Spec::new("reconnect", Kind::Int, "0", GROUP, "reconnect after every N events (0 = never)"),
    Spec::new("reinsert-id", Kind::Str, "same", GROUP, "id of the INSERT after a DELETE: same (sysbench) or new (server AUTO_INCREMENT)"),
    Spec::new("random-points", Kind::Int, "10", GROUP, "number of random points in the IN() clause (select_random_points)"),
    Spec::new("number-of-ranges", Kind::Int, "10", GROUP, "number of random ranges (select_random_ranges)"),
    Spec::new("delta", Kind::Int, "5", GROUP, "size of each random range (select_random_ranges)"),
    Spec::new("oltp-test-mode", Kind::Str, "complex", GROUP, "legacy oltp: complex, simple (point selects only) or nontrx (no BEGIN/COMMIT)"),
];

/// sysbench 0.4/0.5's spellings of OLTP's options.
pub static ALIASES: &[(&str, Alias)] = &[
    ("oltp-table-size", Alias::Rename("table-size")),
    ("oltp-tables-count", Alias::Rename("tables")),
    ("oltp-range-size", Alias::Rename("range-size")),
    ("oltp-point-selects", Alias::Rename("point-selects")),
    ("oltp-simple-ranges", Alias::Rename("simple-ranges")),
    ("oltp-sum-ranges", Alias::Rename("sum-ranges")),
    ("oltp-order-ranges", Alias::Rename("order-ranges")),
    ("oltp-distinct-ranges", Alias::Rename("distinct-ranges")),
    ("oltp-index-updates", Alias::Rename("index-updates")),
    ("oltp-non-index-updates", Alias::Rename("non-index-updates")),
    ("oltp-delete-inserts", Alias::Rename("delete-inserts")),
    ("oltp-range-selects", Alias::Rename("range-selects")),
    ("oltp-auto-inc", Alias::Rename("auto-inc")),
    ("oltp-skip-trx", Alias::Rename("skip-trx")),
    ("oltp-secondary", Alias::Rename("secondary")),
    ("oltp-create-secondary", Alias::Rename("create-secondary")),
    ("mysql-table-engine", Alias::Rename("mysql-storage-engine")),
    ("mysql-table-options", Alias::Rename("create-table-options")),
    (
        "oltp-read-only",
        Alias::Expand(&[
            ("index-updates", "0"),
            ("non-index-updates", "0"),
            ("delete-inserts", "0"),
        ]),
    ),
    (
        "oltp-write-only",
        Alias::Expand(&[("point-selects", "0"), ("range-selects", "off")]),
    ),
];
