//! The engines the conformance suite runs against, each with dbpress's flags to reach it and an
//! independent client (not dbpress's driver) to check what really happened in the database.

use crate::common::*;
use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard};

/// An independent session on the engine under test.
enum Client {
    Mysql(Server),
    Pgsql(postgres::Client),
    Sqlite(rusqlite::Connection),
}

pub struct Engine {
    pub name: &'static str,
    /// dbpress's flags to reach this engine.
    pub flags: Vec<String>,
    client: Client,
    /// Kept for the engine's lifetime (SQLite's file lives here).
    _dir: Option<PathBuf>,
    _guard: Option<MutexGuard<'static, ()>>,
}

impl Engine {
    /// Run one statement that returns no rows.
    pub fn exec(&mut self, sql: &str) {
        match &mut self.client {
            Client::Mysql(s) => {
                use mysql::prelude::Queryable;
                s.conn
                    .query_drop(sql)
                    .unwrap_or_else(|e| panic!("{sql}: {e}"));
            }
            Client::Sqlite(c) => c
                .execute_batch(sql)
                .unwrap_or_else(|e| panic!("{sql}: {e}")),
            Client::Pgsql(c) => c
                .batch_execute(sql)
                .unwrap_or_else(|e| panic!("{sql}: {e}")),
        }
    }

    /// The first column of the first row, as an integer (0 for NULL or no row).
    pub fn scalar(&mut self, sql: &str) -> i64 {
        let text: Option<String> = match &mut self.client {
            Client::Mysql(s) => {
                use mysql::prelude::Queryable;
                s.conn
                    .query_first::<Option<String>, _>(sql)
                    .unwrap_or_else(|e| panic!("{sql}: {e}"))
                    .flatten()
            }
            Client::Sqlite(c) => c
                .query_row(sql, [], |r| {
                    Ok(match r.get_ref(0)? {
                        rusqlite::types::ValueRef::Integer(n) => Some(n.to_string()),
                        rusqlite::types::ValueRef::Real(f) => Some(f.to_string()),
                        rusqlite::types::ValueRef::Text(t) => {
                            Some(String::from_utf8_lossy(t).into_owned())
                        }
                        _ => None,
                    })
                })
                .unwrap_or_else(|e| panic!("{sql}: {e}")),
            Client::Pgsql(c) => pg_scalar(c, sql),
        };
        text.map_or(0, |t| {
            t.parse::<f64>()
                .unwrap_or_else(|_| panic!("{sql}: not a number: {t}")) as i64
        })
    }

    /// Rows the server has read so far, by its own count: the next-row reads of index and
    /// table scans (`Handler_read_next + Handler_read_rnd_next`; reading them adds a handful)
    /// on MariaDB, `seq_tup_read + idx_tup_fetch` of the sbtest tables in pg_stat_user_tables
    /// on PostgreSQL (once dbpress's sessions have left, so their counts are in). None for
    /// SQLite, which counts nothing across processes.
    pub fn rows_read(&mut self) -> Option<i64> {
        match self.client {
            Client::Mysql(_) => Some(self.scalar(
                "SELECT SUM(VARIABLE_VALUE) FROM information_schema.GLOBAL_STATUS \
                 WHERE VARIABLE_NAME IN ('HANDLER_READ_NEXT', 'HANDLER_READ_RND_NEXT')",
            )),
            Client::Pgsql(_) => {
                self.wait_for_pg_sessions_to_leave();
                self.exec("SELECT pg_stat_clear_snapshot()");
                Some(self.scalar(
                    "SELECT COALESCE(SUM(seq_tup_read + COALESCE(idx_tup_fetch, 0)), 0) \
                     FROM pg_stat_user_tables WHERE relname LIKE 'sbtest%'",
                ))
            }
            Client::Sqlite(_) => None,
        }
    }

    /// A PostgreSQL backend flushes its statistics before it leaves pg_stat_activity: once
    /// dbpress's sessions are gone, their counts are in.
    fn wait_for_pg_sessions_to_leave(&mut self) {
        for _ in 0..100 {
            let left = self
                .scalar("SELECT COUNT(*) FROM pg_stat_activity WHERE application_name = 'dbpress'");
            if left == 0 {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        panic!("dbpress's sessions did not leave pg_stat_activity");
    }

    /// Tables whose name starts with `sbtest`.
    pub fn tables(&mut self) -> Vec<String> {
        let mut t = match &mut self.client {
            Client::Mysql(s) => s.tables(),
            Client::Sqlite(c) => {
                let mut st = c
                    .prepare(
                        "SELECT name FROM sqlite_master WHERE type='table' AND name LIKE 'sbtest%'",
                    )
                    .unwrap();
                let rows = st.query_map([], |r| r.get::<_, String>(0)).unwrap();
                rows.map(Result::unwrap).collect()
            }
            Client::Pgsql(c) => pg_tables(c),
        };
        t.sort();
        t
    }

    /// Whether a table of that name exists, from the engine's own catalog.
    pub fn table_exists(&mut self, table: &str) -> bool {
        let sql = match self.client {
            Client::Mysql(_) => format!(
                "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = '{table}'"
            ),
            Client::Pgsql(_) => format!(
                "SELECT COUNT(*) FROM pg_tables WHERE schemaname = current_schema() AND tablename = '{table}'"
            ),
            Client::Sqlite(_) => {
                format!("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = '{table}'")
            }
        };
        self.scalar(&sql) > 0
    }

    /// Set the mark an interrupted prepare leaves on a table, the engine's own way.
    pub fn mark_half_loaded(&mut self, table: &str) {
        let sql = match self.client {
            Client::Mysql(_) => format!("ALTER TABLE {table} COMMENT = 'dbpress: loading'"),
            Client::Sqlite(_) => {
                format!("CREATE INDEX dbpress_loading_{table} ON {table}(id) WHERE 0")
            }
            Client::Pgsql(_) => format!("COMMENT ON TABLE {table} IS 'dbpress: loading'"),
        };
        self.exec(&sql);
    }

    /// A table of the same naming family that dbpress did not create.
    pub fn create_foreign_table(&mut self, table: &str) {
        self.exec(&format!("CREATE TABLE {table} (x INTEGER)"));
    }

    /// dbpress's argument list: `head`, this engine's flags, then `tail`.
    pub fn args<'a>(&'a self, head: &[&'a str], tail: &[&'a str]) -> Vec<&'a str> {
        let mut v: Vec<&str> = head.to_vec();
        v.extend(self.flags.iter().map(String::as_str));
        v.extend_from_slice(tail);
        v
    }
}

/// The first column of the first row as text, through the simple protocol.
pub fn pg_scalar(c: &mut postgres::Client, sql: &str) -> Option<String> {
    c.simple_query(sql)
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
        .into_iter()
        .find_map(|m| match m {
            postgres::SimpleQueryMessage::Row(r) => Some(r.get(0).map(str::to_string)),
            _ => None,
        })
        .flatten()
}

fn pg_tables(c: &mut postgres::Client) -> Vec<String> {
    c.query(
        "SELECT tablename::text FROM pg_tables WHERE schemaname = current_schema() AND tablename LIKE 'sbtest%'",
        &[],
    )
    .unwrap()
    .iter()
    .map(|r| r.get::<_, String>(0))
    .collect()
}

/// PostgreSQL tests, like MariaDB's, run one at a time on the shared database.
static PG_LOCK: Mutex<()> = Mutex::new(());

/// dbpress's flags for the test PostgreSQL, over the socket.
pub const PG_CONN: &[&str] = &[
    "--pgsql-host=/var/run/postgresql",
    "--pgsql-user=sbtest",
    "--pgsql-password=sbtest",
    "--pgsql-db=sbtest",
];

/// An independent session on the test PostgreSQL (tables sbtest* dropped first), or None
/// outside CI when it is not running (SKIPPED is printed); in CI an unreachable server fails.
pub fn pg_server(test: &str) -> Option<(MutexGuard<'static, ()>, postgres::Client)> {
    let guard = PG_LOCK.lock().unwrap_or_else(|p| p.into_inner());
    match postgres::Client::connect(
        "host=/var/run/postgresql user=sbtest password=sbtest dbname=sbtest",
        postgres::NoTls,
    ) {
        Ok(mut c) => {
            for t in pg_tables(&mut c) {
                c.batch_execute(&format!("DROP TABLE {t}")).unwrap();
            }
            Some((guard, c))
        }
        Err(e) => {
            if std::env::var("CI").is_ok_and(|v| v == "true" || v == "1") {
                panic!("{test}: PostgreSQL is required in CI but unreachable: {e}");
            }
            eprintln!(
                "SKIPPED {test} on PostgreSQL: not reachable ({e}); start it with scripts/services.sh"
            );
            None
        }
    }
}

fn sqlite(test: &str) -> Engine {
    let dir = scratch(&format!("sqlite-{test}"));
    let path = dir.join("bench.sqlite");
    Engine {
        name: "sqlite",
        flags: vec![format!("--db=sqlite:{}", path.display())],
        client: Client::Sqlite(rusqlite::Connection::open(&path).unwrap()),
        _dir: Some(dir),
        _guard: None,
    }
}

/// Run `f` against every engine: embedded SQLite always, MariaDB and PostgreSQL when reachable
/// (required in CI). Engines are taken one at a time, so server locks are never held together.
pub fn each_engine(test: &str, mut f: impl FnMut(&mut Engine)) {
    let mut e = sqlite(test);
    f(&mut e);
    drop(e);
    if let Some(srv) = server(test) {
        let mut e = Engine {
            name: "mariadb",
            flags: CONN.iter().map(|s| s.to_string()).collect(),
            client: Client::Mysql(srv),
            _dir: None,
            _guard: None,
        };
        f(&mut e);
    }
    if let Some((guard, client)) = pg_server(test) {
        let mut e = Engine {
            name: "pgsql",
            flags: PG_CONN.iter().map(|s| s.to_string()).collect(),
            client: Client::Pgsql(client),
            _dir: None,
            _guard: Some(guard),
        };
        f(&mut e);
    }
}
