//! One database session as the rest of dbpress sees it, whatever the engine: the `Connection`
//! trait, bound `Value`s, sysbench's `QueryKind`, and `DbError` with a normalised kind that keeps
//! the server's own code. The protocol clients (dbpress-mysql, dbpress-pg) implement
//! `Connection` here, as sqlx's drivers implement sqlx-core's traits, so a statement on the hot
//! path goes from the workload to the wire with no adapter between them.
//!
//! - `rows`: typed row batches for bulk loads and the text multi-row INSERT any session can take
//! - `text`: `?` placeholders rendered as literals, standard SQL quoting, decimal integers
//! - `secret`: a password that never prints

pub mod rows;
pub mod secret;
pub mod text;

pub use rows::RowBatch;
pub use secret::Secret;
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
