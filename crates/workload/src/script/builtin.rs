//! pgbench's built-in scripts and its four tables, so `-b tpcb-like` runs the same transaction
//! on every engine.

/// (name, script text) as pgbench defines them (`pgbench --show-script=NAME`).
pub const SCRIPTS: &[(&str, &str)] = &[
    (
        "tpcb-like",
        "\\set aid random(1, 100000 * :scale)
\\set bid random(1, 1 * :scale)
\\set tid random(1, 10 * :scale)
\\set delta random(-5000, 5000)
BEGIN;
UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
UPDATE pgbench_tellers SET tbalance = tbalance + :delta WHERE tid = :tid;
UPDATE pgbench_branches SET bbalance = bbalance + :delta WHERE bid = :bid;
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);
END;
",
    ),
    (
        "simple-update",
        "\\set aid random(1, 100000 * :scale)
\\set bid random(1, 1 * :scale)
\\set tid random(1, 10 * :scale)
\\set delta random(-5000, 5000)
BEGIN;
UPDATE pgbench_accounts SET abalance = abalance + :delta WHERE aid = :aid;
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (:tid, :bid, :aid, :delta, CURRENT_TIMESTAMP);
END;
",
    ),
    (
        "select-only",
        "\\set aid random(1, 100000 * :scale)
SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
",
    ),
];

/// How pgbench describes each built-in script (`transaction type:`, `-b list`).
pub const DESCRIPTIONS: &[(&str, &str)] = &[
    ("tpcb-like", "<builtin: TPC-B (sort of)>"),
    ("simple-update", "<builtin: simple update>"),
    ("select-only", "<builtin: select only>"),
];

pub fn description(name: &str) -> Option<&'static str> {
    DESCRIPTIONS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, d)| *d)
}

pub fn script(name: &str) -> Option<&'static str> {
    SCRIPTS.iter().find(|(n, _)| *n == name).map(|(_, s)| *s)
}

/// The tables, created in this order and dropped in the reverse one.
pub const TABLES: &[(&str, &str)] = &[
    (
        "pgbench_history",
        "CREATE TABLE pgbench_history (tid INTEGER, bid INTEGER, aid INTEGER, delta INTEGER, mtime TIMESTAMP, filler CHAR(22))",
    ),
    (
        "pgbench_tellers",
        "CREATE TABLE pgbench_tellers (tid INTEGER NOT NULL, bid INTEGER, tbalance INTEGER, filler CHAR(84))",
    ),
    (
        "pgbench_accounts",
        "CREATE TABLE pgbench_accounts (aid INTEGER NOT NULL, bid INTEGER, abalance INTEGER, filler CHAR(84))",
    ),
    (
        "pgbench_branches",
        "CREATE TABLE pgbench_branches (bid INTEGER NOT NULL, bbalance INTEGER, filler CHAR(88))",
    ),
];

/// Primary keys, added after the load as pgbench -i does: (table, column).
pub const KEYS: &[(&str, &str)] = &[
    ("pgbench_branches", "bid"),
    ("pgbench_tellers", "tid"),
    ("pgbench_accounts", "aid"),
];

/// Rows per scale unit: branches, tellers, accounts.
pub const BRANCHES: u64 = 1;
pub const TELLERS: u64 = 10;
pub const ACCOUNTS: u64 = 100_000;
