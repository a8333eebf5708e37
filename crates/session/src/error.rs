//! A failed database operation, with a kind normalised across servers and the server's own code.

use std::fmt;

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
    /// The server accepted the connection, but a step of the handshake (greeting, TLS, login)
    /// did not answer within the connect timeout: it runs, but is hung or overloaded, or is not
    /// the kind of server expected.
    NoAnswer,
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

impl DbErrorKind {
    /// The server is out of reach on this session: it went away, cannot be reached, or left a
    /// step unanswered. Worth a new session; any other error would only repeat.
    pub fn out_of_reach(self) -> bool {
        matches!(
            self,
            DbErrorKind::ConnectionLost | DbErrorKind::Unreachable | DbErrorKind::NoAnswer
        )
    }
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
    /// The server's SQLSTATE when its code is not one already (MySQL sends both; a sysbench
    /// script's error shows them together).
    pub sqlstate: Option<[u8; 5]>,
    /// The length of the server's primary message at the start of `message`, when more of
    /// the server's words follow it (PostgreSQL's DETAIL): what a sysbench script's
    /// `sql_errmsg` holds.
    pub primary_len: Option<usize>,
    /// PostgreSQL's cursor position in the statement (1-based, in characters) and its HINT,
    /// for a peer's text that shows them as libpq does (dbpress as pgbench).
    pub position: Option<u32>,
    pub hint: Option<String>,
    /// PostgreSQL's CONTEXT (where in a function, or a portal's parameters), for a peer's
    /// text that shows it as libpq does.
    pub context: Option<String>,
}

impl DbError {
    pub fn new(kind: DbErrorKind, code: impl Into<String>, message: impl Into<String>) -> DbError {
        DbError(Box::new(DbErrorFields {
            kind,
            code: code.into(),
            message: message.into(),
            origin: None,
            sqlstate: None,
            primary_len: None,
            position: None,
            hint: None,
            context: None,
        }))
    }

    /// The same error with the server's SQLSTATE.
    pub fn with_sqlstate(mut self, state: &[u8]) -> DbError {
        if let Ok(s) = <[u8; 5]>::try_from(state) {
            self.sqlstate = Some(s);
        }
        self
    }

    /// Whether the statement named a column its table lacks (MySQL 1054, PostgreSQL 42703,
    /// SQLite's "no such column"): a table of another shape than the statement expects.
    pub fn names_unknown_column(&self) -> bool {
        self.code == "1054" || self.code == "42703" || self.message.contains("no such column")
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
