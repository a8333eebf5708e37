//! Embedded SQLite (bundled, so nothing to install): dbpress's zero-setup target.
//!
//! Every thread opens its own connection to the same file. WAL journal by default, so readers
//! never wait for the writer; write transactions begin IMMEDIATE (see the dialect), so writers
//! queue on the busy timeout instead of failing on a lock upgrade. SQLITE_BUSY/LOCKED that still
//! surface are ignorable errors, retried and counted in err/s like a MySQL deadlock. Before
//! SQLite's lock, this process's connections queue for a write turn (`sqlite/write_queue.rs`), so no
//! writer starves while SQLite's busy handler sleeps.

mod write_queue;

use super::dialect::escape_standard;
use super::PsMode;
use super::{
    dialect, render_text, Connection, DbError, DbErrorKind, DbResult, Dialect, Driver, Hints,
    QueryKind, ResultRows, RowBatch, ServerInfo, StmtHandle, Value,
};
use rusqlite::types::{ToSqlOutput, ValueRef};
use rusqlite::{ffi, OpenFlags, TransactionState, DEFAULT_NAME};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use write_queue::WriteQueue;

pub static SQLITE_HINTS: Hints = Hints {
    address: "--sqlite-path",
    credentials: "--sqlite-path (SQLite has no users)",
    database: "--sqlite-path",
    schema: "--sqlite-path",
    ignore: "--sqlite-ignore-errors",
    max_connections_fix: "nothing to raise: SQLite has no connection limit",
    // The database file and its WAL; the shared-memory index is one per process.
    files_per_session: 2,
};

/// Where and how to open the database file.
#[derive(Clone, Debug)]
pub struct SqliteTarget {
    pub path: PathBuf,
    pub journal_mode: String,
    pub synchronous: String,
    pub busy_timeout_ms: u64,
    /// This process's connections queue for write turns (`sqlite/write_queue.rs`).
    pub write_queue: bool,
    /// Chosen because no target was given (the zero-setup default), said in the header.
    pub implicit: bool,
}

pub const JOURNAL_MODES: &str = "wal, delete, truncate, persist, memory, off";
pub const SYNCHRONOUS: &str = "off, normal, full, extra";

impl SqliteTarget {
    pub fn describe(&self) -> String {
        format!(
            "embedded SQLite database {} (journal_mode={}, synchronous={}, busy timeout {} ms, {}){}",
            self.path.display(),
            self.journal_mode,
            self.synchronous,
            self.busy_timeout_ms,
            if self.write_queue {
                "writers queue in this process"
            } else {
                "writers left to SQLite's busy handler"
            },
            if self.implicit {
                "; the zero-setup default, as no server was given (--db, --mysql-*, --pgsql-*)"
            } else {
                ""
            }
        )
    }
}

pub struct SqliteDriver {
    target: SqliteTarget,
    ps_mode: PsMode,
    sessions: crate::clients::SessionTally,
}

impl SqliteDriver {
    pub fn new(target: SqliteTarget, ps_mode: PsMode) -> SqliteDriver {
        SqliteDriver {
            target,
            ps_mode,
            sessions: crate::clients::SessionTally::default(),
        }
    }
}

impl Driver for SqliteDriver {
    fn server_socket(&self, _conn: &dyn Connection) -> Result<std::os::fd::RawFd, String> {
        Err("none apart from dbpress: the embedded engine's CPU is in dbpress's".into())
    }

    fn data_location(&self, _conn: &mut dyn Connection) -> super::DataLocation {
        super::DataLocation::File(self.target.path.clone())
    }

    fn connect(&self, _index: usize) -> DbResult<Box<dyn Connection>> {
        let c = SqliteConnection::open(&self.target, self.ps_mode == PsMode::Disable)?;
        self.sessions.opened(
            &format!(
                "SQLite {} (embedded, through rusqlite)",
                rusqlite::version()
            ),
            None,
        );
        Ok(Box::new(c))
    }

    fn clients(&self) -> Vec<crate::clients::ClientSessions> {
        self.sessions.snapshot()
    }

    fn dialect(&self) -> &'static Dialect {
        &dialect::SQLITE
    }

    fn describe(&self) -> String {
        self.target.describe()
    }

    fn hints(&self) -> &'static Hints {
        &SQLITE_HINTS
    }

    fn server_info(&self, conn: &mut dyn Connection) -> ServerInfo {
        let mut info = ServerInfo {
            product: "SQLite".into(),
            ..ServerInfo::default()
        };
        let one = |conn: &mut dyn Connection, sql: &str| -> Option<String> {
            conn.query_rows(sql)
                .ok()?
                .into_iter()
                .next()?
                .into_iter()
                .next()?
        };
        info.version = one(conn, "SELECT sqlite_version()").unwrap_or_default();
        for pragma in [
            "journal_mode",
            "synchronous",
            "busy_timeout",
            "page_size",
            "cache_size",
            "locking_mode",
        ] {
            if let Some(v) = one(conn, &format!("PRAGMA {pragma}")) {
                info.variables.insert(pragma.to_string(), v);
            }
        }
        info.variables
            .insert("path".into(), self.target.path.display().to_string());
        info
    }
}

struct Prepared {
    sql: String,
    text: bool,
    /// BEGIN IMMEDIATE or EXCLUSIVE: takes the write lock without writing.
    begins_write: bool,
}

/// Whether `sql` is a BEGIN that takes the write lock at once.
fn begins_write(sql: &str) -> bool {
    let mut words = sql
        .split(|c: char| c.is_ascii_whitespace() || c == ';')
        .filter(|w| !w.is_empty());
    words
        .next()
        .is_some_and(|w| w.eq_ignore_ascii_case("BEGIN"))
        && words.next().is_some_and(|w| {
            w.eq_ignore_ascii_case("IMMEDIATE") || w.eq_ignore_ascii_case("EXCLUSIVE")
        })
}

/// A connection's place in its file's write queue.
struct Turn {
    queue: Option<Arc<WriteQueue>>,
    held: bool,
    timeout: Duration,
}

impl Turn {
    /// Before a statement: wait for the write turn if it is about to take SQLite's write lock
    /// (`writes`: it changes the database, or is a BEGIN IMMEDIATE) while holding no lock. A
    /// connection that already read inside its transaction is left to SQLite's own rule (its
    /// busy handler, or SQLITE_BUSY at once where waiting could deadlock).
    fn before(&mut self, conn: &rusqlite::Connection, writes: bool) -> rusqlite::Result<()> {
        let Some(queue) = self.queue.as_ref().filter(|_| writes && !self.held) else {
            return Ok(());
        };
        if conn.transaction_state(DEFAULT_NAME)? != TransactionState::None {
            return Ok(());
        }
        if !queue.wait_turn(self.timeout) {
            return Err(rusqlite::Error::SqliteFailure(
                ffi::Error::new(ffi::SQLITE_BUSY),
                Some(format!(
                    "database is locked: no write turn within the busy timeout ({} ms) behind this run's other connections",
                    self.timeout.as_millis()
                )),
            ));
        }
        self.held = true;
        Ok(())
    }

    /// After a statement: the turn ends with the transaction that needed it.
    fn after(&mut self, conn: &rusqlite::Connection) {
        if self.held && conn.is_autocommit() {
            self.end();
        }
    }

    fn end(&mut self) {
        if let (true, Some(queue)) = (self.held, &self.queue) {
            // SAFETY: `held` is true only between a successful `wait_turn` and this call.
            unsafe { queue.end_turn() };
            self.held = false;
        }
    }
}

impl Drop for Turn {
    fn drop(&mut self) {
        // A connection dropped inside its transaction (the run stopped) rolls back: next writer.
        self.end();
    }
}

pub struct SqliteConnection {
    conn: rusqlite::Connection,
    turn: Turn,
    target: SqliteTarget,
    text_mode: bool,
    stmts: Vec<Prepared>,
    buf: Vec<u8>,
}

impl SqliteConnection {
    fn open(target: &SqliteTarget, text_mode: bool) -> DbResult<SqliteConnection> {
        let conn = open_file(target)?;
        Ok(SqliteConnection {
            conn,
            turn: Turn {
                // After the open, which created the file the queue is keyed by.
                queue: target
                    .write_queue
                    .then(|| WriteQueue::for_file(&target.path)),
                held: false,
                timeout: Duration::from_millis(target.busy_timeout_ms),
            },
            target: target.clone(),
            text_mode,
            stmts: Vec::new(),
            buf: Vec::new(),
        })
    }

    fn run(
        &mut self,
        stmt: StmtHandle,
        params: &[Value<'_>],
        rows: Option<&mut ResultRows>,
    ) -> rusqlite::Result<QueryKind> {
        let p = &self.stmts[stmt.0 as usize];
        if p.text || self.text_mode {
            render_text(&p.sql, params, escape_standard, &mut self.buf);
            let sql = std::str::from_utf8(&self.buf).unwrap_or_default();
            let mut s = self.conn.prepare(sql)?;
            return stepped(&mut self.turn, &self.conn, &mut s, p.begins_write, rows);
        }
        let mut s = self.conn.prepare_cached(&p.sql)?;
        for (i, v) in params.iter().enumerate() {
            let out = match *v {
                Value::Int(n) => ToSqlOutput::Borrowed(ValueRef::Integer(n)),
                Value::Str(b) => ToSqlOutput::Borrowed(ValueRef::Text(b)),
                Value::Null => ToSqlOutput::Borrowed(ValueRef::Null),
            };
            s.raw_bind_parameter(i + 1, out)?;
        }
        stepped(&mut self.turn, &self.conn, &mut s, p.begins_write, rows)
    }
}

/// `step` inside the statement's write turn, if it needs one.
fn stepped(
    turn: &mut Turn,
    conn: &rusqlite::Connection,
    s: &mut rusqlite::Statement<'_>,
    begins_write: bool,
    rows: Option<&mut ResultRows>,
) -> rusqlite::Result<QueryKind> {
    turn.before(conn, begins_write || !s.readonly())?;
    let r = match rows {
        Some(out) if s.column_count() > 0 => step_rows(s, out),
        _ => step(conn, s),
    };
    turn.after(conn);
    r
}

/// Run a bound statement that returns rows, keeping them in `out`.
fn step_rows(s: &mut rusqlite::Statement<'_>, out: &mut ResultRows) -> rusqlite::Result<QueryKind> {
    let columns = s.column_count();
    out.start(columns);
    let mut rows = s.raw_query();
    while let Some(row) = rows.next()? {
        for i in 0..columns {
            match row.get_ref(i)? {
                ValueRef::Null => out.push_null(),
                ValueRef::Integer(n) => out.push_int(n),
                ValueRef::Real(f) => out.push_float(f),
                ValueRef::Text(t) | ValueRef::Blob(t) => out.push_bytes(t),
            }
        }
    }
    Ok(QueryKind::Read)
}

/// Run a bound statement to the end: rows are read and dropped. A statement with result
/// columns is a read, one that changed rows a write, anything else "other" (as sysbench).
fn step(
    conn: &rusqlite::Connection,
    s: &mut rusqlite::Statement<'_>,
) -> rusqlite::Result<QueryKind> {
    if s.column_count() > 0 {
        let mut rows = s.raw_query();
        while rows.next()?.is_some() {}
        return Ok(QueryKind::Read);
    }
    // changes() keeps the count of the last INSERT/UPDATE/DELETE across a BEGIN or COMMIT;
    // the running total moves only when this statement changed rows.
    let before = conn.total_changes();
    s.raw_execute()?;
    Ok(if conn.total_changes() > before {
        QueryKind::Write
    } else {
        QueryKind::Other
    })
}

fn open_file(t: &SqliteTarget) -> DbResult<rusqlite::Connection> {
    let path = t.path.as_path();
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if !dir.is_dir() {
        return Err(DbError::new(
            DbErrorKind::Setup,
            "SQLITE_CANTOPEN",
            format!(
                "the directory of the SQLite database '{}' does not exist: create it or choose another --sqlite-path",
                path.display()
            ),
        ));
    }
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
        | OpenFlags::SQLITE_OPEN_CREATE
        | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = rusqlite::Connection::open_with_flags(path, flags)
        .map_err(|e| setup_error(e, t, t.busy_timeout_ms))?;
    // Threads open their connections together and each sets the journal mode, which needs a
    // lock for a moment: setup waits at least a second even under a shorter --sqlite-busy-timeout.
    let setup_timeout = t.busy_timeout_ms.max(1000);
    let setup = |e: rusqlite::Error| setup_error(e, t, setup_timeout);
    conn.busy_timeout(Duration::from_millis(setup_timeout))
        .map_err(setup)?;
    // Statements are looked up by text on every execute; keep every workload's set cached.
    conn.set_prepared_statement_cache_capacity(1024);
    // Setting the journal mode is the first write: it finds a read-only file or directory, or a
    // database another process holds locked.
    let mode: String = conn
        .query_row(
            &format!("PRAGMA journal_mode = {}", t.journal_mode),
            [],
            |r| r.get(0),
        )
        .map_err(setup)?;
    if t.journal_mode != "memory" && !mode.eq_ignore_ascii_case(&t.journal_mode) {
        return Err(DbError::new(
            DbErrorKind::Setup,
            "SQLITE_MISUSE",
            format!(
                "SQLite kept journal_mode={mode} for '{}' instead of {}: another process may have it open; close it or choose --sqlite-journal-mode={mode}",
                path.display(),
                t.journal_mode
            ),
        ));
    }
    conn.execute_batch(&format!("PRAGMA synchronous = {}", t.synchronous))
        .map_err(setup)?;
    conn.busy_timeout(Duration::from_millis(t.busy_timeout_ms))
        .map_err(setup)?;
    Ok(conn)
}

/// A failure while opening or configuring the file, as a one-line cause and fix.
fn setup_error(e: rusqlite::Error, t: &SqliteTarget, waited_ms: u64) -> DbError {
    let mut err = db_error(e);
    let path = t.path.display();
    let fix = match err.code.as_str() {
        "SQLITE_BUSY" | "SQLITE_LOCKED" => format!(
            "the SQLite database '{path}' is locked by another process (still locked after {waited_ms} ms): \
             close that process, or raise --sqlite-busy-timeout"
        ),
        "SQLITE_READONLY" | "SQLITE_CANTOPEN" | "SQLITE_PERM" => format!(
            "cannot write the SQLite database '{path}' ({}): the file or its directory is read-only or not a file; \
             choose a writable --sqlite-path",
            err.message
        ),
        "SQLITE_NOTADB" => format!(
            "'{path}' is not an SQLite database: choose another --sqlite-path"
        ),
        _ => return err,
    };
    err.kind = DbErrorKind::Setup;
    err.message = fix;
    err
}

fn code_name(code: ffi::ErrorCode) -> &'static str {
    use ffi::ErrorCode::*;
    match code {
        DatabaseBusy => "SQLITE_BUSY",
        DatabaseLocked => "SQLITE_LOCKED",
        ConstraintViolation => "SQLITE_CONSTRAINT",
        ReadOnly => "SQLITE_READONLY",
        CannotOpen => "SQLITE_CANTOPEN",
        PermissionDenied => "SQLITE_PERM",
        NotADatabase => "SQLITE_NOTADB",
        DatabaseCorrupt => "SQLITE_CORRUPT",
        DiskFull => "SQLITE_FULL",
        SystemIoFailure => "SQLITE_IOERR",
        SchemaChanged => "SQLITE_SCHEMA",
        TooBig => "SQLITE_TOOBIG",
        TypeMismatch => "SQLITE_MISMATCH",
        OutOfMemory => "SQLITE_NOMEM",
        OperationInterrupted => "SQLITE_INTERRUPT",
        _ => "SQLITE_ERROR",
    }
}

/// rusqlite's error as a `DbError`: the primary result code's name as the code (what
/// --sqlite-ignore-errors lists), the kind from the code and, for SQL errors, the message.
pub fn db_error(e: rusqlite::Error) -> DbError {
    match e {
        rusqlite::Error::SqliteFailure(f, msg) => {
            let code = code_name(f.code);
            let message = msg.unwrap_or_else(|| f.to_string());
            let kind = match f.code {
                ffi::ErrorCode::DatabaseBusy | ffi::ErrorCode::DatabaseLocked => {
                    DbErrorKind::LockTimeout
                }
                ffi::ErrorCode::ConstraintViolation
                    if f.extended_code == ffi::SQLITE_CONSTRAINT_PRIMARYKEY
                        || f.extended_code == ffi::SQLITE_CONSTRAINT_UNIQUE =>
                {
                    DbErrorKind::DuplicateKey
                }
                _ if message.starts_with("no such table") => DbErrorKind::NoSuchTable,
                _ if message.contains("already exists") => DbErrorKind::TableExists,
                _ if is_bad_statement(&message) => DbErrorKind::BadStatement,
                _ => DbErrorKind::Other,
            };
            DbError::new(kind, code, message)
        }
        rusqlite::Error::SqlInputError { error, msg, .. } => {
            let kind = if msg.starts_with("no such table") {
                DbErrorKind::NoSuchTable
            } else if is_bad_statement(&msg) {
                DbErrorKind::BadStatement
            } else {
                DbErrorKind::Other
            };
            DbError::new(kind, code_name(error.code), msg)
        }
        other => DbError::new(DbErrorKind::Other, "SQLITE_CLIENT", other.to_string()),
    }
}

/// SQLite's messages for a statement that can never run as written (it has one error code,
/// SQLITE_ERROR, for these and for many other failures).
fn is_bad_statement(message: &str) -> bool {
    message.ends_with(": syntax error")
        || message.starts_with("no such column")
        || message.starts_with("no such function")
        || message.starts_with("incomplete input")
        || message.contains("ambiguous column name")
}

impl Connection for SqliteConnection {
    fn prepare(&mut self, sql: &str) -> DbResult<StmtHandle> {
        if !self.text_mode {
            // Compiled now so a missing table is reported at setup, as the servers do.
            self.conn.prepare_cached(sql).map_err(db_error)?;
        }
        self.stmts.push(Prepared {
            sql: sql.to_string(),
            text: false,
            begins_write: begins_write(sql),
        });
        Ok(StmtHandle(self.stmts.len() as u32 - 1))
    }

    fn prepare_text(&mut self, sql: &str) -> DbResult<StmtHandle> {
        self.stmts.push(Prepared {
            sql: sql.to_string(),
            text: true,
            begins_write: begins_write(sql),
        });
        Ok(StmtHandle(self.stmts.len() as u32 - 1))
    }

    fn execute(&mut self, stmt: StmtHandle, params: &[Value<'_>]) -> DbResult<QueryKind> {
        self.run(stmt, params, None).map_err(db_error)
    }

    fn execute_rows(
        &mut self,
        stmt: StmtHandle,
        params: &[Value<'_>],
        rows: &mut ResultRows,
    ) -> DbResult<QueryKind> {
        rows.start(0);
        self.run(stmt, params, Some(rows)).map_err(db_error)
    }

    fn query(&mut self, sql: &str) -> DbResult<QueryKind> {
        let mut s = self.conn.prepare(sql).map_err(db_error)?;
        stepped(&mut self.turn, &self.conn, &mut s, begins_write(sql), None).map_err(db_error)
    }

    fn query_into(&mut self, sql: &str, rows: &mut ResultRows) -> DbResult<QueryKind> {
        rows.start(0);
        let mut s = self.conn.prepare(sql).map_err(db_error)?;
        stepped(
            &mut self.turn,
            &self.conn,
            &mut s,
            begins_write(sql),
            Some(rows),
        )
        .map_err(db_error)
    }

    fn query_rows(&mut self, sql: &str) -> DbResult<Vec<Vec<Option<String>>>> {
        let mut s = self.conn.prepare(sql).map_err(db_error)?;
        let columns = s.column_count();
        let mut rows = s.raw_query();
        let mut out = Vec::new();
        while let Some(row) = rows.next().map_err(db_error)? {
            let mut r = Vec::with_capacity(columns);
            for i in 0..columns {
                r.push(match row.get_ref(i).map_err(db_error)? {
                    ValueRef::Null => None,
                    ValueRef::Integer(n) => Some(n.to_string()),
                    ValueRef::Real(f) => Some(f.to_string()),
                    ValueRef::Text(t) | ValueRef::Blob(t) => {
                        Some(String::from_utf8_lossy(t).into_owned())
                    }
                });
            }
            out.push(r);
        }
        Ok(out)
    }

    fn reconnect(&mut self) -> DbResult<()> {
        // Cached statements belong to the old handle and go with it; so does its transaction.
        self.conn = open_file(&self.target)?;
        self.turn.end();
        Ok(())
    }

    fn bulk_load(
        &mut self,
        table: &str,
        columns: &str,
        fill: &mut dyn FnMut(&mut RowBatch) -> bool,
    ) -> DbResult<&'static str> {
        let n = columns.split(',').count();
        let sql = dbpress_session::text::multi_row_insert(table, columns, n, 1);
        // One transaction per call: one fsync for the whole block instead of one per row.
        // Prepare threads queue for SQLite's one write lock; a loader that waited a whole busy
        // timeout behind the others asks again a few times before giving up.
        let mut attempts = 0;
        loop {
            let begin = self
                .turn
                .before(&self.conn, true)
                .and_then(|()| self.conn.execute_batch("BEGIN IMMEDIATE"));
            if begin.is_err() {
                self.turn.after(&self.conn);
            }
            match begin {
                Ok(()) => break,
                Err(e) => {
                    let e = db_error(e);
                    attempts += 1;
                    if e.kind != DbErrorKind::LockTimeout || attempts >= 6 {
                        return Err(e);
                    }
                }
            }
        }
        let r = (|| -> rusqlite::Result<()> {
            let mut s = self.conn.prepare_cached(&sql)?;
            let mut batch = RowBatch::new(n, 4096, 1 << 20);
            loop {
                batch.clear();
                let more = fill(&mut batch);
                for (i, v) in batch.values().enumerate() {
                    let v = match v {
                        Value::Int(n) => ValueRef::Integer(n),
                        Value::Str(s) => ValueRef::Text(s),
                        Value::Null => ValueRef::Null,
                    };
                    s.raw_bind_parameter(i % n + 1, ToSqlOutput::Borrowed(v))?;
                    if (i + 1) % n == 0 {
                        s.raw_execute()?;
                    }
                }
                if !more {
                    return Ok(());
                }
            }
        })();
        let r = match r {
            Ok(()) => self
                .conn
                .execute_batch("COMMIT")
                .map(|()| "prepared INSERTs, one transaction per block")
                .map_err(db_error),
            Err(e) => {
                let _ = self.conn.execute_batch("ROLLBACK");
                Err(db_error(e))
            }
        };
        self.turn.after(&self.conn);
        r
    }
}

#[cfg(test)]
mod tests {
    use super::begins_write;

    #[test]
    fn a_begin_that_takes_the_write_lock_is_recognised() {
        for sql in [
            "BEGIN IMMEDIATE",
            "begin immediate;",
            "  BEGIN\n EXCLUSIVE TRANSACTION",
        ] {
            assert!(begins_write(sql), "{sql}");
        }
        for sql in [
            "BEGIN",
            "BEGIN DEFERRED",
            "BEGIN;",
            "COMMIT",
            "SELECT 'BEGIN IMMEDIATE'",
        ] {
            assert!(!begins_write(sql), "{sql}");
        }
    }
}
