//! User-facing errors and the exit-code policy, in one place.
//!
//! Exit codes: 0 success; 1 the benchmark failed (a server error that is not ignorable);
//! 2 bad usage or environment (unknown option, bad value, unreachable server, bad credentials,
//! missing tables…); 130/143 interrupted by SIGINT/SIGTERM after writing what ran.

use dbpress_driver::{DbError, DbErrorKind, Hints};
use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// What the user typed is wrong. The message names the flag and the fix.
    Usage(String),
    /// The world is not as the command needs it (server down, credentials, tables).
    Environment(String),
    /// The benchmark itself failed.
    Failed(String),
    /// Stopped by a signal before it could finish; the exit code is the shell's 128 + signal.
    Interrupted(String, u8),
}

impl Error {
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Usage(_) | Error::Environment(_) => 2,
            Error::Failed(_) => 1,
            Error::Interrupted(_, code) => *code,
        }
    }

    /// The same error with `place: ` in front of its message (where the failing input is).
    pub fn located(self, place: Option<&str>) -> Error {
        let Some(place) = place else { return self };
        match self {
            Error::Usage(m) => Error::Usage(format!("{place}: {m}")),
            Error::Environment(m) => Error::Environment(format!("{place}: {m}")),
            Error::Failed(m) => Error::Failed(format!("{place}: {m}")),
            Error::Interrupted(m, code) => Error::Interrupted(format!("{place}: {m}"), code),
        }
    }

    /// The same error with `more` after its message (what it left behind, what to do next).
    pub fn followed_by(self, more: &str) -> Error {
        match self {
            Error::Usage(m) => Error::Usage(format!("{m}{more}")),
            Error::Environment(m) => Error::Environment(format!("{m}{more}")),
            Error::Failed(m) => Error::Failed(format!("{m}{more}")),
            Error::Interrupted(m, code) => Error::Interrupted(format!("{m}{more}"), code),
        }
    }

    pub fn message(&self) -> &str {
        match self {
            Error::Usage(m) | Error::Environment(m) | Error::Failed(m) => m,
            Error::Interrupted(m, _) => m,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;

pub fn usage(msg: impl Into<String>) -> Error {
    Error::Usage(msg.into())
}

pub fn environment(msg: impl Into<String>) -> Error {
    Error::Environment(msg.into())
}

pub fn failed(msg: impl Into<String>) -> Error {
    Error::Failed(msg.into())
}

/// The one-line message for a failure to open a session.
/// A statement refused for lack of privilege: the environment's to fix (exit 2), with the
/// grants to ask for on each kind of server.
pub fn permission_denied(what: &str, e: &DbError, credentials: &str) -> Error {
    environment(format!(
        "{what} was refused for lack of privilege (server error {}: {}): ask for the privileges it needs — \
         MySQL: GRANT CREATE, DROP, INDEX, SELECT, INSERT, UPDATE, DELETE ON <database>.* TO <user>; \
         PostgreSQL: GRANT CREATE ON SCHEMA <schema> TO <user> and GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA <schema> TO <user> — \
         or connect as another user with {credentials}",
        e.code, e.message
    ))
}

pub fn connect_failed(e: &DbError, h: &Hints) -> Error {
    match e.kind {
        // The driver's message already says what to fix (an embedded database's path).
        DbErrorKind::Setup => environment(e.message.clone()),
        // EMFILE: the client, not the server, is out of room.
        DbErrorKind::Unreachable if e.message.contains("(os error 24)") => environment(format!(
            "cannot open another session: this process has no file descriptors left ({}): use fewer --threads or raise ulimit -n",
            e.message
        )),
        // The message says which step did not answer and what sets the limit.
        DbErrorKind::NoAnswer => environment(format!("{} (error {})", e.message, e.code)),
        DbErrorKind::Unreachable => environment(format!(
            "{} (error {}): is the server running? Start it, or fix {}",
            e.message, e.code, h.address
        )),
        DbErrorKind::Auth if e.code == "1044" => environment(format!(
            "the server denied access to the database ({}; server error {}): it may not exist or the user lacks privileges; \
             create it and grant access (CREATE DATABASE ...; GRANT ALL ON db.* TO user) or choose another with {}",
            e.message, e.code, h.database
        )),
        DbErrorKind::Auth => environment(format!(
            "authentication failed (server error {}: {}): check {}{}",
            e.code,
            e.message,
            h.credentials,
            // MySQL says no more when an account's REQUIRE SSL/X509 is what failed.
            if e.code == "1045" {
                " (an account that REQUIREs SSL or X509 is refused this way too when the session has no TLS or no client certificate)"
            } else {
                ""
            }
        )),
        DbErrorKind::UnknownDatabase => environment(format!(
            "{} (server error {}): create it (CREATE DATABASE ...) or choose another with {}",
            e.message, e.code, h.database
        )),
        _ => environment(format!("cannot open a session: server error {}: {}", e.code, e.message)),
    }
}
