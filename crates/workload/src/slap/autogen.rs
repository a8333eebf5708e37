//! mysqlslap's `--auto-generate-sql` (`-a`): its table `t1`, the rows it loads first and the list
//! of queries its clients cycle through, as Debian's mariadb-slap 10.11 makes them (read off its
//! `--only-print` output and the server's Com_* counters):
//!
//! - `t1`: an optional key (`id serial` with `--auto-generate-sql-add-autoincrement`, or
//!   `id varchar(36) primary key` filled by `uuid()` with `--auto-generate-sql-guid-primary`),
//!   `--auto-generate-sql-secondary-indexes` unique `idN varchar(36)` columns, `-y` INT(32) and
//!   `-x` VARCHAR(128) columns (one each by default).
//! - Before the clients start: `--auto-generate-sql-write-number` − 1 single-row INSERTs (99 by
//!   default; mariadb-slap loads one row fewer than the option says), cycling through
//!   `--auto-generate-sql-unique-write-number` + 1 distinct ones. Integers are random 31-bit
//!   numbers and strings 126 random letters and digits, fixed when the list is made.
//! - The query list, `--auto-generate-sql-unique-query-number` + 1 queries (11 by default):
//!   `mixed` alternates INSERT and a full-table SELECT starting with the INSERT, `read` is full
//!   SELECTs, `write` INSERTs, `key` SELECTs of one row by a key drawn at random for each
//!   execution from the keys `t1` holds when the round starts, `update` UPDATEs of every column
//!   (of one row by key when `t1` has a key, else of the whole table).
//! - Each client runs the list in order from its start, one query per event, until the round's
//!   total: `--number-of-queries` across all clients, or `--auto-generate-sql-execute-number` per
//!   client, or one pass over the list per client. dbpress's clients claim events from one
//!   counter, so a fast client may run more than its share; the n-th event claimed is therefore
//!   given the query that the (n / clients)-th of an even share would be, which keeps the round's
//!   mix exactly mysqlslap's.
//!
//! The SQL is MySQL's; on PostgreSQL and SQLite the same table and statements use their own
//! spelling of an auto-increment key, a UUID, INT and a unique column.

use super::glibc_random::GlibcRandom;
use crate::events::{EventGen, Exec};
use crate::workload::Workload;
use dbpress_core::error::{usage, Result};
use dbpress_core::rand::{Distribution, Rng};
use dbpress_driver::{Connection, DbResult, Dialect, SqlFamily, StmtHandle, Value};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// The table `-a` creates (and drops after each round unless `--no-drop`).
pub const TABLE: &str = "t1";

/// Statement kinds, as the per-statement report names them.
const KINDS: &[&str] = &["INSERT", "SELECT", "SELECT by key", "UPDATE"];
/// KINDS and `--commit`'s COMMIT, the statement kind after them.
const KINDS_WITH_COMMIT: &[&str] = &[
    "INSERT",
    "SELECT",
    "SELECT by key",
    "UPDATE",
    super::workload::COMMIT_KIND,
];
const INSERT: u8 = 0;
const SELECT: u8 = 1;
const SELECT_KEY: u8 = 2;
const UPDATE: u8 = 3;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoadType {
    Mixed,
    Read,
    Write,
    Key,
    Update,
}

impl LoadType {
    pub fn parse(s: &str) -> Option<LoadType> {
        Some(match s.to_ascii_lowercase().as_str() {
            "mixed" => LoadType::Mixed,
            "read" => LoadType::Read,
            "write" => LoadType::Write,
            "key" => LoadType::Key,
            "update" => LoadType::Update,
            _ => return None,
        })
    }

    /// Its name as mysqlslap writes it (the mode column of `--csv`).
    pub fn name(self) -> &'static str {
        match self {
            LoadType::Mixed => "mixed",
            LoadType::Read => "read",
            LoadType::Write => "write",
            LoadType::Key => "key",
            LoadType::Update => "update",
        }
    }
}

/// The `--auto-generate-sql*`, `-x` and `-y` options.
#[derive(Clone, Debug)]
pub struct AutoGenArgs {
    pub load: LoadType,
    pub int_cols: u32,
    pub char_cols: u32,
    pub autoinc: bool,
    pub guid: bool,
    pub secondary: u32,
    pub write_number: u64,
    pub unique_queries: u64,
    pub unique_writes: u64,
    /// Queries per client per round, instead of one pass over the list.
    pub execute_number: Option<u64>,
}

impl Default for AutoGenArgs {
    fn default() -> AutoGenArgs {
        AutoGenArgs {
            load: LoadType::Mixed,
            int_cols: 1,
            char_cols: 1,
            autoinc: false,
            guid: false,
            secondary: 0,
            write_number: 100,
            unique_queries: 10,
            unique_writes: 10,
            execute_number: None,
        }
    }
}

/// How each engine spells the parts of mysqlslap's table and rows.
struct Spelling {
    int_type: &'static str,
    autoinc_column: &'static str,
    /// The value an INSERT gives the auto-increment key so the engine assigns it.
    autoinc_value: &'static str,
    uuid: &'static str,
    unique: &'static str,
    /// The table's name in CREATE TABLE (quoted on MySQL, as mysqlslap writes it).
    table: &'static str,
}

fn spelling(family: SqlFamily) -> Spelling {
    match family {
        SqlFamily::Mysql => Spelling {
            int_type: "INT(32)",
            autoinc_column: "id serial",
            autoinc_value: "NULL",
            uuid: "uuid()",
            unique: "unique key",
            table: "`t1`",
        },
        SqlFamily::Postgres => Spelling {
            int_type: "INT",
            autoinc_column: "id serial",
            autoinc_value: "DEFAULT",
            uuid: "gen_random_uuid()::text",
            unique: "unique",
            table: TABLE,
        },
        SqlFamily::Sqlite => Spelling {
            int_type: "INT",
            autoinc_column: "id INTEGER PRIMARY KEY",
            autoinc_value: "NULL",
            uuid: "lower(hex(randomblob(16)))",
            unique: "unique",
            table: TABLE,
        },
    }
}

/// One query of the list.
#[derive(Clone, Debug)]
pub struct Query {
    kind: u8,
    /// With one `?` for the key when `keyed`.
    pub sql: String,
    keyed: bool,
}

/// Everything `-a` sends: the table, its first rows and the clients' query list.
#[derive(Debug)]
pub struct AutoSql {
    pub create: String,
    pub preload: Vec<String>,
    pub queries: Vec<Query>,
}

impl AutoSql {
    pub fn new(a: &AutoGenArgs, family: SqlFamily, seed: u64) -> Result<AutoSql> {
        let keyed = a.autoinc || a.guid;
        if a.load == LoadType::Key && !keyed {
            return Err(usage(
                "--auto-generate-sql-load-type=key needs a primary key: add --auto-generate-sql-add-autoincrement or --auto-generate-sql-guid-primary",
            ));
        }
        if a.int_cols + a.char_cols == 0 {
            return Err(usage(
                "--number-int-cols and --number-char-cols are both 0: the table needs a column",
            ));
        }
        check_memory(a)?;
        let sp = spelling(family);
        let mut cols = Vec::new();
        if a.guid {
            cols.push("id varchar(36) primary key".to_string());
        } else if a.autoinc {
            cols.push(sp.autoinc_column.to_string());
        }
        for n in 0..a.secondary {
            cols.push(format!("id{n} varchar(36) {}", sp.unique));
        }
        for n in 1..=a.int_cols {
            cols.push(format!("intcol{n} {} ", sp.int_type));
        }
        for n in 1..=a.char_cols {
            cols.push(format!("charcol{n} VARCHAR(128)"));
        }
        let create = format!("CREATE TABLE {} ({})", sp.table, cols.join(","));

        // mysqlslap's own generator and order of draws: its rows and statements, byte for byte.
        let mut rng = GlibcRandom::new(seed as u32);
        // The rows loaded first cycle through --auto-generate-sql-unique-write-number of them.
        let rows: Vec<String> = (0..a.unique_writes.max(1))
            .map(|_| insert_sql(&mut rng, a, &sp))
            .collect();
        let preload = (0..a.write_number.saturating_sub(1) as usize)
            .map(|i| rows[i % rows.len()].clone())
            .collect();

        let columns: Vec<String> = (1..=a.int_cols)
            .map(|n| format!("intcol{n}"))
            .chain((1..=a.char_cols).map(|n| format!("charcol{n}")))
            .collect();
        let select = format!("SELECT {} FROM {TABLE}", columns.join(","));
        let mut queries = Vec::new();
        for i in 0..=a.unique_queries as usize {
            // Each INSERT of the list is a row of its own, drawn after the loaded ones.
            let mut fresh_insert = || Query {
                kind: INSERT,
                sql: insert_sql(&mut rng, a, &sp),
                keyed: false,
            };
            queries.push(match a.load {
                LoadType::Write => fresh_insert(),
                LoadType::Mixed if i % 2 == 0 => fresh_insert(),
                LoadType::Mixed | LoadType::Read => Query {
                    kind: SELECT,
                    sql: select.clone(),
                    keyed: false,
                },
                LoadType::Key => Query {
                    kind: SELECT_KEY,
                    sql: format!("{select} WHERE id =  ?"),
                    keyed: true,
                },
                LoadType::Update => {
                    let (ints, strs) = row_values(&mut rng, a);
                    let sets: Vec<String> = ints
                        .iter()
                        .enumerate()
                        .map(|(n, v)| format!("intcol{} = {v}", n + 1))
                        .chain(
                            strs.iter()
                                .enumerate()
                                .map(|(n, s)| format!("charcol{} = '{s}'", n + 1)),
                        )
                        .collect();
                    let mut sql = format!("UPDATE {TABLE} SET {}", sets.join(","));
                    if keyed {
                        sql.push_str(" WHERE id =  ?");
                    }
                    Query {
                        kind: UPDATE,
                        sql,
                        keyed,
                    }
                }
            });
        }
        Ok(AutoSql {
            create,
            preload,
            queries,
        })
    }

    /// Whether the clients' queries need the table's keys (`key`, and `update` with a key).
    pub fn needs_keys(&self) -> bool {
        self.queries.iter().any(|q| q.keyed)
    }

    /// Queries per client in a round without --number-of-queries.
    pub fn per_client(&self, a: &AutoGenArgs) -> u64 {
        a.execute_number.unwrap_or(self.queries.len() as u64)
    }
}

/// 126 random letters and digits, as mysqlslap's generated strings.
/// Most memory the generated statements may take: like mysqlslap, dbpress keeps every one of
/// them, so counts pasted with a few zeros too many would otherwise end in an allocation abort.
const STATEMENTS_BUDGET: u64 = 1 << 30;

/// Refuse counts whose statements would not fit `STATEMENTS_BUDGET`, naming the options.
fn check_memory(a: &AutoGenArgs) -> Result<()> {
    // One INSERT or UPDATE: its text plus a String's own 24 bytes (a SELECT is shorter).
    let per_statement = 64
        + u64::from(a.secondary) * 40
        + u64::from(a.int_cols) * 12
        + u64::from(a.char_cols) * 150;
    let statements = a
        .write_number
        .saturating_add(a.unique_writes)
        .saturating_add(a.unique_queries)
        .saturating_add(2);
    let bytes = statements.saturating_mul(per_statement);
    if bytes > STATEMENTS_BUDGET {
        return Err(usage(format!(
            "-a would keep {statements} generated statements of about {per_statement} bytes ({} MiB) in memory, more than {} MiB: lower --auto-generate-sql-write-number, --auto-generate-sql-unique-query-number or --auto-generate-sql-unique-write-number (--number-of-queries sets how many run)",
            bytes >> 20,
            STATEMENTS_BUDGET >> 20
        )));
    }
    Ok(())
}

/// A row's INT and VARCHAR values, drawn in mysqlslap's order (the INTs, then each string).
fn row_values(rng: &mut GlibcRandom, a: &AutoGenArgs) -> (Vec<String>, Vec<String>) {
    let ints = (0..a.int_cols).map(|_| rng.next().to_string()).collect();
    let strs = (0..a.char_cols).map(|_| random_text(rng)).collect();
    (ints, strs)
}

/// One generated row's INSERT.
fn insert_sql(rng: &mut GlibcRandom, a: &AutoGenArgs, sp: &Spelling) -> String {
    let (ints, strs) = row_values(rng, a);
    let mut v = Vec::new();
    if a.guid {
        v.push(sp.uuid.to_string());
    } else if a.autoinc {
        v.push(sp.autoinc_value.to_string());
    }
    v.extend((0..a.secondary).map(|_| sp.uuid.to_string()));
    v.extend(ints);
    v.extend(strs.iter().map(|s| format!("'{s}'")));
    format!("INSERT INTO {TABLE} VALUES ({})", v.join(","))
}

fn random_text(rng: &mut GlibcRandom) -> String {
    // mysqlslap's alphabet, which has no U or V.
    const ALPHABET: &[u8] = b"0123456789ABCDEFGHIJKLMNOPQRSTWXYZabcdefghijklmnopqrstuvwxyz";
    (0..126)
        .map(|_| ALPHABET[rng.next() as usize % ALPHABET.len()] as char)
        .collect()
}

/// The statement that reads the keys, as mysqlslap writes it.
pub const KEYS_QUERY: &str = "SELECT id from t1";

/// The keys of `t1` when a round starts, which `key` and `update` queries draw from.
pub fn fetch_keys(conn: &mut dyn Connection) -> DbResult<Vec<String>> {
    Ok(conn
        .query_rows(KEYS_QUERY)?
        .into_iter()
        .filter_map(|r| r.into_iter().next().flatten())
        .collect())
}

/// The query list as a workload: one query per event, each client walking the list in order.
pub struct AutoWorkload {
    queries: Vec<Query>,
    /// Shared by the clients: the table's keys can be many (--auto-generate-sql-write-number).
    keys: Arc<[String]>,
    clients: u64,
    /// Events claimed so far in the round, across clients.
    claimed: Arc<AtomicU64>,
    /// `--engine`: the header's line naming the storage engine of t1.
    pub engine_line: Option<String>,
    /// mysqlslap's `--commit=N` (0: autocommit): a COMMIT after every N queries.
    pub commit_every: u64,
    /// dbpress as mysqlslap: its text about the clients' statements.
    pub peer: Option<super::workload::PeerText>,
}

impl AutoWorkload {
    pub fn new(sql: &AutoSql, keys: Vec<String>, clients: u32) -> AutoWorkload {
        AutoWorkload {
            queries: sql.queries.clone(),
            keys: keys.into(),
            clients: u64::from(clients.max(1)),
            claimed: Arc::new(AtomicU64::new(0)),
            engine_line: None,
            commit_every: 0,
            peer: None,
        }
    }
}

impl Workload for AutoWorkload {
    fn name(&self) -> &'static str {
        "slap"
    }

    fn statement_kinds(&self) -> &'static [&'static str] {
        match self.commit_every {
            0 => KINDS,
            _ => KINDS_WITH_COMMIT,
        }
    }

    fn transactional(&self) -> bool {
        false
    }

    fn draws_keys_from_rand_type(&self) -> bool {
        false
    }

    fn describe(&self) -> Vec<String> {
        let mut lines = vec![format!(
            "Auto-generated SQL: {} queries in the list, one per event, sent as text",
            self.queries.len()
        )];
        if self.commit_every > 0 {
            lines.push(format!(
                "Commits: autocommit off, COMMIT after every {} queries and once at the end (--commit, as mysqlslap)",
                self.commit_every
            ));
        }
        lines.extend(self.engine_line.clone());
        lines
    }

    fn missing_table_fix(&self) -> String {
        format!("-a made {TABLE} for this run and something else dropped it: keep other sessions off it while dbpress slap runs")
    }

    fn worker(
        &self,
        conn: &mut dyn Connection,
        _dialect: &'static Dialect,
        _thread: u32,
        rng: Rng,
        _dist: Distribution,
    ) -> DbResult<Box<dyn EventGen>> {
        let stmts = self
            .queries
            .iter()
            .map(|q| Ok((q.kind, q.keyed, conn.prepare_text(&q.sql)?)))
            .collect::<DbResult<Vec<(u8, bool, StmtHandle)>>>()?;
        let echo = self.peer.is_some_and(|p| p.echo);
        if echo {
            dbpress_core::outln!("connected!");
            if self.commit_every > 0 {
                dbpress_core::outln!("SET AUTOCOMMIT=0;");
            }
        }
        let commit = match self.commit_every {
            0 => None,
            every => {
                let mut c = super::workload::Commits::start(conn, KINDS.len() as u8, every, 1)?;
                c.echo = echo;
                Some(c)
            }
        };
        let texts = self
            .peer
            .map(|_| (self.queries.iter().map(|q| q.sql.clone()).collect(), echo));
        Ok(Box::new(AutoEvents {
            stmts,
            commit,
            keys: Arc::clone(&self.keys),
            clients: self.clients,
            claimed: Arc::clone(&self.claimed),
            rng,
            texts,
        }))
    }
}

struct AutoEvents {
    stmts: Vec<(u8, bool, StmtHandle)>,
    commit: Option<super::workload::Commits>,
    /// Shared by the clients: the table's keys can be many (--auto-generate-sql-write-number).
    keys: Arc<[String]>,
    clients: u64,
    claimed: Arc<AtomicU64>,
    rng: Rng,
    /// As mysqlslap: the queries' text, and whether to print each (-vvv).
    texts: Option<(Arc<[String]>, bool)>,
}

impl AutoEvents {
    /// As mysqlslap: the query printed (-vvv) and named in its error.
    fn said(&self, at: usize, key: Option<&str>, done: DbResult<()>) -> DbResult<()> {
        let Some((texts, echo)) = &self.texts else {
            return done;
        };
        // Written out only when printed or named in an error: not on every event.
        let sql = || match key {
            Some(k) => texts[at].replace("=  ?", &format!("=  '{k}'")),
            None => texts[at].clone(),
        };
        if *echo {
            dbpress_core::outln!("{};", sql());
        }
        done.map_err(|e| e.at(sql()))
    }
}

impl EventGen for AutoEvents {
    fn event(&mut self, exec: &mut Exec<'_>) -> DbResult<()> {
        let n = self.claimed.fetch_add(1, Ordering::Relaxed);
        let at = (n / self.clients) % self.stmts.len() as u64;
        let (kind, keyed, stmt) = self.stmts[at as usize];
        if keyed {
            // An empty table (write-number 1) still gets its query, matching no row.
            let key = match self.keys.len() {
                0 => "0",
                n => &self.keys[self.rng.uniform(0, n as u32 - 1) as usize],
            };
            let done = exec.run(kind, stmt, &[Value::Str(key.as_bytes())]);
            self.said(at as usize, Some(key), done)?;
        } else {
            let done = exec.run(kind, stmt, &[]);
            self.said(at as usize, None, done)?;
        }
        super::workload::Commits::after_event(&mut self.commit, exec)
    }

    fn finish(&mut self, exec: &mut Exec<'_>) -> DbResult<()> {
        super::workload::Commits::finish(&self.commit, exec)
    }

    /// An event is its one query, unless --commit adds a COMMIT to some.
    fn statements_bound_event(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(s: &AutoSql) -> Vec<u8> {
        s.queries.iter().map(|q| q.kind).collect()
    }

    #[test]
    fn default_list_is_mysqlslaps_mixed_one() {
        let s = AutoSql::new(&AutoGenArgs::default(), SqlFamily::Mysql, 1).unwrap();
        assert_eq!(
            s.create,
            "CREATE TABLE `t1` (intcol1 INT(32) ,charcol1 VARCHAR(128))"
        );
        assert_eq!(s.preload.len(), 99);
        // --auto-generate-sql-unique-write-number (10) distinct rows, cycled.
        let mut distinct = s.preload.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), 10);
        // mysqlslap's own first rows (mariadb-slap 10.11 --only-print -a): glibc's random()
        // sequence, strings of 126 of its 60 letters and digits.
        assert!(s.preload[0].starts_with(
            "INSERT INTO t1 VALUES (1804289383,'mxvtvmC9127qJNm06sGB8R92q2j7vTiiITRDGX"
        ));
        assert!(
            s.preload[1].starts_with("INSERT INTO t1 VALUES (822890675,'97RGHZ65mNzkSrYT3zWoSbg9")
        );
        assert_eq!(s.preload[10], s.preload[0]);
        // The list's INSERTs are rows of their own, after the loaded ones.
        assert!(s.queries[0]
            .sql
            .starts_with("INSERT INTO t1 VALUES (100669,'qnMdipW5KkXdTjGCh2PNzLoeR0527"));
        assert_eq!(kinds(&s), [0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0]);
        assert!(s.queries[1].sql == "SELECT intcol1,charcol1 FROM t1");
        let row = &s.preload[0];
        let text = row.split('\'').nth(1).unwrap();
        assert_eq!(text.len(), 126);
        assert!(text.bytes().all(|b| b.is_ascii_alphanumeric()));
        assert!(!s.needs_keys());
    }

    #[test]
    fn keyed_tables_and_load_types() {
        let a = AutoGenArgs {
            load: LoadType::Update,
            guid: true,
            secondary: 2,
            int_cols: 3,
            char_cols: 2,
            write_number: 7,
            unique_queries: 3,
            ..AutoGenArgs::default()
        };
        let s = AutoSql::new(&a, SqlFamily::Mysql, 1).unwrap();
        assert_eq!(
            s.create,
            "CREATE TABLE `t1` (id varchar(36) primary key,id0 varchar(36) unique key,id1 varchar(36) unique key,intcol1 INT(32) ,intcol2 INT(32) ,intcol3 INT(32) ,charcol1 VARCHAR(128),charcol2 VARCHAR(128))"
        );
        assert_eq!(s.preload.len(), 6);
        assert!(s.preload[0].starts_with("INSERT INTO t1 VALUES (uuid(),uuid(),uuid(),"));
        assert_eq!(kinds(&s), [3, 3, 3, 3]);
        assert!(s.queries[0].sql.starts_with("UPDATE t1 SET intcol1 = "));
        assert!(s.queries[0].sql.ends_with("' WHERE id =  ?"));
        assert!(s.needs_keys());

        let update_all = AutoGenArgs {
            load: LoadType::Update,
            ..AutoGenArgs::default()
        };
        let s = AutoSql::new(&update_all, SqlFamily::Mysql, 1).unwrap();
        assert!(!s.queries[0].sql.contains("WHERE"), "no key: every row");

        let key = AutoGenArgs {
            load: LoadType::Key,
            autoinc: true,
            ..AutoGenArgs::default()
        };
        let s = AutoSql::new(&key, SqlFamily::Postgres, 1).unwrap();
        assert_eq!(
            s.create,
            "CREATE TABLE t1 (id serial,intcol1 INT ,charcol1 VARCHAR(128))"
        );
        assert!(s.preload[0].starts_with("INSERT INTO t1 VALUES (DEFAULT,"));
        assert_eq!(
            s.queries[0].sql,
            "SELECT intcol1,charcol1 FROM t1 WHERE id =  ?"
        );
        let e = AutoSql::new(
            &AutoGenArgs {
                load: LoadType::Key,
                ..AutoGenArgs::default()
            },
            SqlFamily::Mysql,
            1,
        )
        .unwrap_err();
        assert!(
            e.message().contains("needs a primary key"),
            "{}",
            e.message()
        );
        for (lt, k) in [(LoadType::Read, SELECT), (LoadType::Write, INSERT)] {
            let a = AutoGenArgs {
                load: lt,
                ..AutoGenArgs::default()
            };
            let s = AutoSql::new(&a, SqlFamily::Sqlite, 1).unwrap();
            assert!(kinds(&s).iter().all(|&x| x == k));
            assert_eq!(s.queries.len(), 11);
        }
    }
}
