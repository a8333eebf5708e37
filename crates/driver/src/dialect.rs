//! Per-engine SQL differences. Workloads ask the dialect instead of branching on a driver name,
//! so adding an engine means adding one value here, not editing every workload.

/// What differs between engines in the SQL a workload sends or its setup runs.
#[derive(Debug)]
pub struct Dialect {
    /// The SQL the engine speaks, for SQL that differs by more than the fields below (TPC-C's
    /// column types, row locks, UPDATE … FROM).
    pub family: SqlFamily,
    /// Column definition of an auto-assigned integer primary key.
    pub auto_increment_id: &'static str,
    /// Whether `/*! ENGINE = x */` is understood.
    pub storage_engine_clause: bool,
    /// Whether `KEY name (col)` may appear inside CREATE TABLE (MySQL); elsewhere a secondary
    /// key on id is a CREATE INDEX after the load.
    pub inline_key: bool,
    /// How an INSERT lets the server pick the id: false = pass 0/NULL for it (MySQL's
    /// AUTO_INCREMENT), true = leave the id column out (a SERIAL default, SQLite's rowid; there
    /// 0 would be stored as is and NULL refused).
    pub auto_id_by_omission: bool,
    /// BEGIN of a transaction that will write. SQLite takes the write lock up front
    /// (IMMEDIATE), so concurrent writers queue on the busy timeout instead of failing when a
    /// read lock cannot be upgraded.
    pub begin_write: &'static str,
    /// Statement that sets a table's loading mark ("" clears it); prepare marks tables while
    /// loading them, so an interrupted load is found later.
    pub set_table_comment: fn(table: &str, comment: &str) -> String,
    /// Statement listing tables named like the prefix with their marks: (name, mark) are the
    /// columns at `table_comments_columns`. On MySQL a SHOW, so it never counts in Com_select.
    pub table_comments: fn(prefix: &str) -> String,
    pub table_comments_columns: (usize, usize),
    /// Column of that listing holding the table's next auto-increment id, where it has one
    /// (MySQL's Auto_increment): the largest id without a SELECT, which would count in
    /// Com_select and blur the match between the server's counters and the run's figures.
    /// Elsewhere the largest id is a `SELECT MAX(id)`.
    pub table_next_id_column: Option<usize>,
    /// Statement returning at least one row when `index` exists on `table`.
    pub index_exists: fn(table: &str, index: &str) -> String,
    /// Statement listing `table`'s columns in order, one row each, the name first. On MySQL a
    /// SHOW, which Com_select does not count.
    pub table_columns: fn(table: &str) -> String,
    /// Session settings for `--prepare-fast`, each skipped with a notice if refused.
    pub fast_session: &'static [&'static str],
    /// Session settings before prewarming.
    pub prewarm_session: &'static [&'static str],
    /// Statements that read table `t` (of `rows` rows) and its primary key into the cache.
    pub prewarm: fn(t: u32, rows: u32) -> Vec<String>,
    /// Statement moving the auto-id generator past the loaded ids (prepare loads explicit ids;
    /// a PostgreSQL sequence, unlike AUTO_INCREMENT or a rowid, does not follow them).
    pub sync_auto_id: Option<fn(table: &str) -> String>,
    /// Statement refreshing the planner's statistics after a table is loaded (PostgreSQL's
    /// VACUUM ANALYZE); skipped with `--no-vacuum`.
    pub after_load: Option<fn(table: &str) -> String>,
    /// Statement giving a loaded table its primary key (SQLite cannot add one: a unique index).
    pub add_primary_key: fn(table: &str, column: &str) -> String,
    /// Quote a string literal's body for text-mode SQL.
    pub escape: fn(&[u8], &mut Vec<u8>),
    /// Statements are generated and timed but reach no server (the dry run): there is no data
    /// to check, load or drop.
    pub executes_nothing: bool,
}

/// The SQL an engine speaks. The dry run speaks MySQL's to nothing (`executes_nothing`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SqlFamily {
    Mysql,
    Postgres,
    Sqlite,
}

pub use dbpress_session::text::escape_standard;

fn mysql_prewarm(t: u32, n: u32) -> Vec<String> {
    vec![
        format!("ANALYZE TABLE sbtest{t}"),
        format!("SELECT AVG(id) FROM (SELECT * FROM sbtest{t} FORCE KEY (PRIMARY) LIMIT {n}) t"),
        format!("SELECT COUNT(*) FROM (SELECT * FROM sbtest{t} WHERE k LIKE '%0%' LIMIT {n}) t"),
    ]
}

const MYSQL_SQL: Dialect = Dialect {
    family: SqlFamily::Mysql,
    auto_increment_id: "INTEGER NOT NULL AUTO_INCREMENT",
    storage_engine_clause: true,
    inline_key: true,
    auto_id_by_omission: false,
    begin_write: "BEGIN",
    set_table_comment: |table, comment| format!("ALTER TABLE {table} COMMENT = '{comment}'"),
    table_comments: |prefix| format!("SHOW TABLE STATUS LIKE '{prefix}%'"),
    // Name is the first column of SHOW TABLE STATUS and Comment the eighteenth, in MySQL and
    // MariaDB alike.
    table_comments_columns: (0, 17),
    // Auto_increment is the eleventh (NULL for a table without AUTO_INCREMENT).
    table_next_id_column: Some(10),
    index_exists: |table, index| format!("SHOW INDEX FROM {table} WHERE Key_name = '{index}'"),
    table_columns: |table| format!("SHOW COLUMNS FROM {table}"),
    fast_session: &[
        "SET SESSION unique_checks=0",
        "SET SESSION foreign_key_checks=0",
        "SET SESSION sql_log_bin=0",
    ],
    prewarm_session: &[
        "SET tmp_table_size=2*1024*1024*1024",
        "SET max_heap_table_size=2*1024*1024*1024",
    ],
    prewarm: mysql_prewarm,
    sync_auto_id: None,
    after_load: None,
    add_primary_key: |t, c| format!("ALTER TABLE {t} ADD PRIMARY KEY ({c})"),
    escape: dbpress_mysql::escape::escape_backslash,
    executes_nothing: false,
};

pub static MYSQL: Dialect = MYSQL_SQL;

/// The dry run speaks MySQL's SQL to nothing.
pub static DRY_RUN: Dialect = Dialect {
    executes_nothing: true,
    ..MYSQL_SQL
};

fn pgsql_prewarm(t: u32, _n: u32) -> Vec<String> {
    // An index-ordered scan reads the primary key and the heap pages it points to; the
    // sequential count reads every heap page.
    vec![
        format!("SELECT AVG(id) FROM (SELECT id FROM sbtest{t} ORDER BY id) t"),
        format!("SELECT COUNT(*) FROM sbtest{t} WHERE k::text LIKE '%0%'"),
    ]
}

pub static PGSQL: Dialect = Dialect {
    family: SqlFamily::Postgres,
    auto_increment_id: "SERIAL",
    storage_engine_clause: false,
    inline_key: false,
    auto_id_by_omission: true,
    begin_write: "BEGIN",
    set_table_comment: |table, comment| {
        if comment.is_empty() {
            format!("COMMENT ON TABLE {table} IS NULL")
        } else {
            format!("COMMENT ON TABLE {table} IS '{comment}'")
        }
    },
    table_comments: |prefix| {
        format!(
            "SELECT c.relname, obj_description(c.oid, 'pg_class') FROM pg_class c \
             WHERE c.relkind = 'r' AND pg_table_is_visible(c.oid) AND c.relname LIKE '{prefix}%'"
        )
    },
    table_comments_columns: (0, 1),
    table_next_id_column: None,
    index_exists: |table, index| {
        format!(
            "SELECT 1 FROM pg_indexes WHERE tablename = '{table}' AND indexname = '{index}' \
             AND schemaname = current_schema()"
        )
    },
    table_columns: |table| {
        format!(
            "SELECT column_name FROM information_schema.columns WHERE table_name = '{table}' \
             AND table_schema = current_schema() ORDER BY ordinal_position"
        )
    },
    // Commits return before the WAL is flushed; a crash during prepare loses the load, which
    // a new prepare redoes anyway.
    fast_session: &["SET synchronous_commit = off"],
    prewarm_session: &[],
    prewarm: pgsql_prewarm,
    sync_auto_id: Some(|table| {
        format!(
            "SELECT setval(pg_get_serial_sequence('{table}', 'id'), COALESCE(MAX(id), 0) + 1, false) FROM {table}"
        )
    }),
    after_load: Some(|table| format!("VACUUM ANALYZE {table}")),
    add_primary_key: |t, c| format!("ALTER TABLE {t} ADD PRIMARY KEY ({c})"),
    escape: escape_standard,
    executes_nothing: false,
};

fn sqlite_prewarm(t: u32, _n: u32) -> Vec<String> {
    // NOT INDEXED: left to itself SQLite answers both from the smaller k index, which covers
    // id and k, and never reads the table's own pages.
    vec![
        format!("SELECT AVG(id) FROM sbtest{t} NOT INDEXED"),
        format!("SELECT COUNT(*) FROM sbtest{t} WHERE k LIKE '%0%'"),
    ]
}

/// SQLite has no table comments; the loading mark is an index that can never hold a row
/// (`WHERE 0`), which costs nothing during the load and goes away with DROP TABLE.
fn sqlite_mark(table: &str, comment: &str) -> String {
    if comment.is_empty() {
        format!("DROP INDEX IF EXISTS dbpress_loading_{table}")
    } else {
        format!("CREATE INDEX IF NOT EXISTS dbpress_loading_{table} ON {table}(id) WHERE 0")
    }
}

pub static SQLITE: Dialect = Dialect {
    family: SqlFamily::Sqlite,
    // A column declared exactly INTEGER PRIMARY KEY is the rowid, assigned when left out.
    auto_increment_id: "INTEGER",
    storage_engine_clause: false,
    inline_key: false,
    auto_id_by_omission: true,
    begin_write: "BEGIN IMMEDIATE",
    set_table_comment: sqlite_mark,
    table_comments: |prefix| {
        format!(
            "SELECT t.name, CASE WHEN i.name IS NULL THEN '' ELSE 'dbpress: loading' END \
             FROM sqlite_master t LEFT JOIN sqlite_master i \
             ON i.type = 'index' AND i.name = 'dbpress_loading_' || t.name \
             WHERE t.type = 'table' AND t.name LIKE '{prefix}%'"
        )
    },
    table_comments_columns: (0, 1),
    table_next_id_column: None,
    index_exists: |table, index| {
        format!(
            "SELECT 1 FROM sqlite_master WHERE type = 'index' AND tbl_name = '{table}' AND name = '{index}'"
        )
    },
    table_columns: |table| format!("SELECT name FROM pragma_table_info('{table}') ORDER BY cid"),
    // The journal still protects the file from corruption by the process; only an OS crash
    // or power loss during prepare can damage it.
    fast_session: &["PRAGMA synchronous = OFF"],
    prewarm_session: &[],
    prewarm: sqlite_prewarm,
    sync_auto_id: None,
    after_load: Some(|table| format!("ANALYZE {table}")),
    add_primary_key: |t, c| format!("CREATE UNIQUE INDEX {t}_pkey ON {t}({c})"),
    escape: escape_standard,
    executes_nothing: false,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_escape_doubles_quotes_only() {
        let mut out = Vec::new();
        escape_standard(b"it's a \\ 'test'", &mut out);
        assert_eq!(out, b"it''s a \\ ''test''");
    }

    #[test]
    fn sqlite_mark_sets_and_clears() {
        assert!(
            (SQLITE.set_table_comment)("sbtest1", "dbpress: loading").starts_with("CREATE INDEX")
        );
        assert!((SQLITE.set_table_comment)("sbtest1", "").starts_with("DROP INDEX"));
    }
}
