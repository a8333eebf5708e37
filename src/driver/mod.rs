//! How dbpress reaches a database: object-safe `Driver`/`Connection` traits, a normalised error
//! kind that keeps the server's own code, and one module per backend.
//!
//! Workloads see only these traits. A `Connection` owns its prepared statements and hands out
//! `StmtHandle`s; after a reconnect it re-prepares them itself, so handles stay valid.

pub mod dialect;
pub mod dry_run;
pub mod flag_hints;
pub mod mysql;
pub mod mysql_target;
mod mysql_wire;
pub mod option_file;
pub mod pgsql;
pub mod pgsql_target;
mod pgsql_wire;
pub mod rows;
pub mod sqlite;
pub mod sqlite_queue;
mod stream;
mod tls;

pub use dialect::Dialect;
pub use rows::RowBatch;
use std::fmt;

/// A bound parameter. Strings are borrowed so that generating an event allocates nothing.
#[derive(Clone, Copy, Debug)]
pub enum Value<'a> {
    Int(i64),
    Str(&'a [u8]),
    /// SQL NULL (e.g. to let the server assign an AUTO_INCREMENT id).
    Null,
}

/// sysbench's classification of an executed statement (ref §2.11): a result set is a read,
/// affected rows > 0 is a write, anything else (BEGIN, COMMIT, an UPDATE that matched nothing)
/// is "other".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueryKind {
    Read,
    Write,
    Other,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StmtHandle(pub u32);

/// Errors normalised across servers; the runner's retry/reconnect/fail policy reads `kind`,
/// the user's ignore list reads `code`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DbErrorKind {
    Deadlock,
    LockTimeout,
    DuplicateKey,
    ConnectionLost,
    TooManyConnections,
    Auth,
    UnknownDatabase,
    NoSuchTable,
    /// The statement itself is wrong (a syntax error, an unknown column or function): the
    /// same text fails every time, so retrying cannot help.
    BadStatement,
    /// The user lacks a privilege the statement needs (not a login failure: that is `Auth`).
    PermissionDenied,
    TableExists,
    TooManyPreparedStatements,
    /// The server cannot prepare this statement (MySQL 1295); fall back to text.
    UnsupportedPrepare,
    Unreachable,
    /// The session could not be set up for a reason the message states with its fix (an
    /// embedded database's directory, permissions or lock).
    Setup,
    /// Not the server's: the workload's own input failed while running (a script expression
    /// dividing by zero, say). Never retried; the message says what and where.
    Input,
    /// The client or server does not offer this path (e.g. no bulk load on a TLS session).
    Unsupported,
    Other,
}

/// A failed database operation. Boxed so a `DbResult` stays two words, returned in registers:
/// every statement returns one, and an 80-byte error carried through memory on each success
/// cost about 10 instructions per statement. Fields read through `Deref`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DbError(Box<DbErrorFields>);

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DbErrorFields {
    pub kind: DbErrorKind,
    /// The server's own code (MySQL error number, later SQLSTATE), or a client-side code.
    pub code: String,
    pub message: String,
    /// Where the failing statement is written (`FILE:LINE` of a script), when the workload
    /// knows; messages put it first.
    pub origin: Option<String>,
}

impl DbError {
    pub fn new(kind: DbErrorKind, code: impl Into<String>, message: impl Into<String>) -> DbError {
        DbError(Box::new(DbErrorFields {
            kind,
            code: code.into(),
            message: message.into(),
            origin: None,
        }))
    }

    /// The same error, noted as coming from the statement written at `origin`.
    pub fn at(mut self, origin: String) -> DbError {
        self.origin = Some(origin);
        self
    }
}

impl std::ops::Deref for DbError {
    type Target = DbErrorFields;
    fn deref(&self) -> &DbErrorFields {
        &self.0
    }
}

impl std::ops::DerefMut for DbError {
    fn deref_mut(&mut self) -> &mut DbErrorFields {
        &mut self.0
    }
}

impl fmt::Display for DbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "error {}: {}", self.code, self.message)
    }
}

pub type DbResult<T> = std::result::Result<T, DbError>;

/// One client session.
pub trait Connection: Send {
    /// Prepare `sql` (with `?` placeholders). In text mode, or when the server cannot prepare
    /// this statement, the connection keeps it as a text template instead.
    fn prepare(&mut self, sql: &str) -> DbResult<StmtHandle>;
    /// Keep `sql` as a text template whatever the prepared-statement mode: executing it sends
    /// the statement with values substituted (sysbench's text-only workloads need exactly that).
    fn prepare_text(&mut self, sql: &str) -> DbResult<StmtHandle>;
    /// Execute a prepared statement, discarding any rows.
    fn execute(&mut self, stmt: StmtHandle, params: &[Value<'_>]) -> DbResult<QueryKind>;
    /// Run text SQL, discarding any rows.
    fn query(&mut self, sql: &str) -> DbResult<QueryKind>;
    /// Run text SQL and return its rows as text (for setup and metadata, never on the hot path).
    fn query_rows(&mut self, sql: &str) -> DbResult<Vec<Vec<Option<String>>>>;
    /// Drop the session, open a new one, and re-prepare every statement.
    fn reconnect(&mut self) -> DbResult<()>;
    /// Bulk-load rows into `table` (`columns` comma-separated, in the order the rows give
    /// values) by the engine's fastest path (prepared multi-row INSERTs with binary values,
    /// COPY, or prepared INSERTs in one transaction; text multi-row INSERTs where there is no
    /// other). `fill` adds rows to the batch until it `is_full` and returns false once it has
    /// added the last row. Returns the name of the path taken, for messages.
    fn bulk_load(
        &mut self,
        table: &str,
        columns: &str,
        fill: &mut dyn FnMut(&mut RowBatch) -> bool,
    ) -> DbResult<&'static str> {
        rows::load_as_text(self, table, columns, fill)
    }
    /// The server's id for this session (PostgreSQL's backend pid, MySQL's connection id), as
    /// its session views show it; None where there is none or it is not known.
    fn session_id(&self) -> Option<u64> {
        None
    }
    /// The session's socket, where the connection owns one (to find the server's process on
    /// this machine); None for an embedded engine or a session inside another client library.
    fn socket_fd(&self) -> Option<std::os::fd::RawFd> {
        None
    }
}

/// Facts about the server for the result file and the header.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize, PartialEq)]
pub struct ServerInfo {
    pub product: String,
    pub version: String,
    /// Settings that change benchmark results (durability, buffer pool, limits).
    pub variables: std::collections::BTreeMap<String, String>,
    /// When TLS was asked for: the protocol and cipher the session negotiated, or "" when it
    /// runs unencrypted (a "prefer" mode with a server that offers no TLS). Encryption changes
    /// what a run measures, so the header says which one ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_tls: Option<String>,
}

impl ServerInfo {
    /// The header's note on encryption: empty when TLS was not asked for.
    pub fn tls_note(&self) -> String {
        match self.session_tls.as_deref() {
            None => String::new(),
            Some("") => ", not encrypted (the server offered no TLS)".into(),
            Some(tls) => format!(", encrypted with {tls}"),
        }
    }
}

/// "TLSv1.3 TLS_AES_256_GCM_SHA384" from a session's protocol and cipher; "" when unencrypted.
pub fn tls_description(version: &str, cipher: &str) -> String {
    match (version.is_empty(), cipher.is_empty()) {
        (true, _) => String::new(),
        (false, true) => version.to_string(),
        (false, false) => format!("{version} {cipher}"),
    }
}

pub trait Driver: Send + Sync {
    /// Open connection number `index` (connections are spread over the target's addresses).
    fn connect(&self, index: usize) -> DbResult<Box<dyn Connection>>;
    fn dialect(&self) -> &'static Dialect;
    /// How connections reach the server, for the run header.
    fn describe(&self) -> String;
    /// Version and key settings, read over `conn`.
    fn server_info(&self, conn: &mut dyn Connection) -> ServerInfo;
    /// The options a user changes to fix a connection problem, for error messages.
    fn hints(&self) -> &'static Hints;
    /// The server's counters a run's figures can be set against; None where there is no
    /// server to ask (an embedded engine, a dry run) or no single one (several hosts).
    fn counters(&self) -> Option<&'static crate::counters::CounterSpec> {
        None
    }
    /// The server's process on this machine, found through `conn`'s socket, or why it cannot
    /// be (the reason is shown as is, in place of the server's CPU).
    fn server_process(&self, conn: &dyn Connection) -> crate::host::ServerProcess {
        conn.socket_fd().map_or_else(
            || Err("not measured: this kind of session does not expose its socket".to_string()),
            crate::host::server_process::locate,
        )
    }
    /// Where the server shows what each session is doing (`pg_stat_activity`), for the wait
    /// events sampled during a run; None where there is no such view (see `waits`).
    fn wait_source(&self) -> Option<&'static str> {
        None
    }
    /// One sample over `conn`: what each of the run's sessions (`sessions`, by `session_id`,
    /// sorted; empty when not known) is doing, in the server's words (a wait event, a thread state,
    /// waiting for the client).
    fn sample_waits(&self, _conn: &mut dyn Connection, _sessions: &[u64]) -> DbResult<Vec<String>> {
        Ok(Vec::new())
    }
    /// Where the data lives, to show its disk: by default the server's data directory (found
    /// from its process), with the directory the server names where it tells (over `conn`).
    fn data_location(&self, _conn: &mut dyn Connection) -> crate::host::disk::DataLocation {
        crate::host::disk::DataLocation::Server { reported: None }
    }
    /// The current values of those counters, read over `conn`; `settle`: first wait until the
    /// run's other sessions have ended, where the server publishes a session's counts only then.
    fn read_counters(
        &self,
        _conn: &mut dyn Connection,
        _settle: bool,
    ) -> DbResult<Vec<(String, u64)>> {
        Ok(Vec::new())
    }
}

/// Rows of (name, value) as counter values; rows whose value is not a whole number are left out.
pub fn counter_rows(rows: Vec<Vec<Option<String>>>) -> Vec<(String, u64)> {
    rows.into_iter()
        .filter_map(|r| {
            let mut cols = r.into_iter();
            let name = cols.next().flatten()?;
            let value = cols.next().flatten()?.parse::<u64>().ok()?;
            Some((name, value))
        })
        .collect()
}

/// Option names quoted in error messages, so each names the flags of the engine in use.
#[derive(Debug)]
pub struct Hints {
    /// Where the server is ("--mysql-host/--mysql-port/--mysql-socket").
    pub address: &'static str,
    /// Who connects, with the other places a password may come from.
    pub credentials: &'static str,
    /// The database option.
    pub database: &'static str,
    /// The ignorable-errors option.
    pub ignore: &'static str,
    /// How to let the server accept more connections.
    pub max_connections_fix: &'static str,
    /// File descriptors one session keeps open (checked against the process limit before a
    /// run starts its threads).
    pub files_per_session: u64,
}

/// Substitute `?` placeholders with literal values, quoting strings with `escape`.
/// Used by text mode (`--db-ps-mode=disable`); `out` is reused across calls.
pub fn render_text(
    template: &str,
    params: &[Value<'_>],
    escape: fn(&[u8], &mut Vec<u8>),
    out: &mut Vec<u8>,
) {
    out.clear();
    let mut params = params.iter();
    let mut rest = template.as_bytes();
    // Literal runs are copied whole; only quotes and placeholders stop the copy.
    while let Some(i) = rest
        .iter()
        .position(|&b| matches!(b, b'?' | b'\'' | b'"' | b'`'))
    {
        out.extend_from_slice(&rest[..i]);
        let b = rest[i];
        rest = &rest[i + 1..];
        if b != b'?' {
            // A quoted literal: copy through its closing quote; a `?` inside is text.
            out.push(b);
            let end = rest
                .iter()
                .position(|&c| c == b)
                .map_or(rest.len(), |e| e + 1);
            out.extend_from_slice(&rest[..end]);
            rest = &rest[end..];
            continue;
        }
        match params.next() {
            Some(Value::Int(v)) => push_int(out, *v),
            Some(Value::Str(s)) => {
                out.push(b'\'');
                escape(s, out);
                out.push(b'\'');
            }
            Some(Value::Null) | None => out.extend_from_slice(b"NULL"),
        }
    }
    out.extend_from_slice(rest);
}

/// Decimal text of `v`, without going through `fmt`.
pub fn push_int(out: &mut Vec<u8>, v: i64) {
    let mut buf = [0u8; 20];
    let mut n = v.unsigned_abs();
    let mut at = buf.len();
    loop {
        at -= 1;
        buf[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    if v < 0 {
        out.push(b'-');
    }
    out.extend_from_slice(&buf[at..]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tls_note_tells_encrypted_from_plain_and_is_silent_when_not_asked() {
        let mut info = ServerInfo::default();
        assert_eq!(info.tls_note(), "");
        info.session_tls = Some(tls_description("", ""));
        assert_eq!(
            info.tls_note(),
            ", not encrypted (the server offered no TLS)"
        );
        info.session_tls = Some(tls_description("TLSv1.3", "TLS_AES_256_GCM_SHA384"));
        assert_eq!(
            info.tls_note(),
            ", encrypted with TLSv1.3 TLS_AES_256_GCM_SHA384"
        );
        assert_eq!(tls_description("TLSv1.2", ""), "TLSv1.2");
    }

    fn mysql_escape(s: &[u8], out: &mut Vec<u8>) {
        for &b in s {
            match b {
                b'\'' => out.extend_from_slice(b"''"),
                b'\\' => out.extend_from_slice(b"\\\\"),
                _ => out.push(b),
            }
        }
    }

    #[test]
    fn integers_render_like_display() {
        for v in [0i64, 7, -7, 10, 1_234_567, i64::MAX, i64::MIN] {
            let mut out = Vec::new();
            push_int(&mut out, v);
            assert_eq!(String::from_utf8(out).unwrap(), v.to_string());
        }
    }

    #[test]
    fn text_rendering_substitutes_in_order_and_escapes_strings() {
        let mut out = Vec::new();
        render_text(
            "UPDATE t SET c=? WHERE id=? AND x='?'",
            &[Value::Str(b"it's a \\ test"), Value::Int(-42)],
            mysql_escape,
            &mut out,
        );
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "UPDATE t SET c='it''s a \\\\ test' WHERE id=-42 AND x='?'"
        );
    }
}
