//! User-facing errors and the exit-code policy, in one place.
//!
//! Exit codes: 0 success; 1 the benchmark failed (a server error that is not ignorable);
//! 2 bad usage or environment (unknown option, bad value, unreachable server, bad credentials,
//! missing tables…); 130/143 interrupted by SIGINT/SIGTERM after writing what ran.

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
