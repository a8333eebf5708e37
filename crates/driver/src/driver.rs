//! The `Driver` trait every engine implements, and the plain values it speaks in: server facts,
//! the option names its messages quote, prepared-statement mode, counters, where data lives.

use crate::dialect::Dialect;
/// The server's facts are the result's (`dbpress_result::server`); a driver reads them.
pub use dbpress_result::server::ServerInfo;
use dbpress_session::{Connection, DbResult};
use std::os::fd::RawFd;
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PsMode {
    /// Server-side prepared statements (sysbench's `auto`).
    Auto,
    /// Text SQL with values escaped client-side.
    Disable,
}

/// What an engine's counters are and how they line up with dbpress's own counts.
pub struct CounterSpec {
    /// Where the numbers come from, for the report's heading.
    pub source: &'static str,
    /// dbpress's reads/writes/other, each set against the sum of these counters.
    pub checks: &'static [(&'static str, &'static [&'static str])],
    /// What the deltas include besides the run's own statements.
    pub notes: &'static [&'static str],
    /// Values read with the counters that name one lifetime of them, in seconds since the epoch
    /// (when the server started, when its statistics were last reset), each with what a change
    /// means. They are not counters: a change between the two readings means the counters may
    /// have started again from zero, and the deltas would be meaningless.
    pub lifetime: &'static [(&'static str, &'static str)],
}

/// Where an engine keeps the data a run reads and writes.
pub enum DataLocation {
    /// In the server's data directory, on the server's machine; `reported` is the directory
    /// the server names (`datadir`, `data_directory`), used when its process's directory
    /// cannot be seen.
    Server { reported: Option<String> },
    /// In a file dbpress opens itself (SQLite).
    File(PathBuf),
    /// Nowhere: a dry run.
    Nowhere,
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
    /// A session of dbpress's own that reads the server while a run works (status, wait
    /// events, counters). An engine that names its sessions names this one apart from the
    /// run's, so the server's count of sessions at work leaves it out.
    fn connect_monitor(&self) -> DbResult<Box<dyn Connection>> {
        self.connect(0)
    }
    fn dialect(&self) -> &'static Dialect;
    /// Whether the server answers a new session within `limit` (a login refused is an answer;
    /// silence, a refused or lost connection is not): asked when a run's sessions do not come
    /// back from the server, to tell a server busy with them from one out of reach. The session
    /// is closed at once. An engine without a server always answers.
    fn answers_within(&self, _limit: std::time::Duration) -> bool {
        true
    }
    /// How connections reach the server, for the run header.
    fn describe(&self) -> String;
    /// The sessions this driver opened so far, by the client library that opened them.
    fn clients(&self) -> Vec<crate::clients::ClientSessions>;
    /// Check over a fresh session what the server would accept silently and then work
    /// elsewhere than asked (PostgreSQL's search_path naming no schema that exists).
    fn check_session(&self, _conn: &mut dyn Connection) -> DbResult<()> {
        Ok(())
    }
    /// The server's status figures sampled once a second during a run, and where they come
    /// from; None where the server keeps none (an embedded engine, a dry run) or several
    /// servers share the run.
    fn status_spec(&self) -> Option<&'static crate::status::StatusSpec> {
        None
    }
    /// The current values of `names` (the spec's and the user's), read over `conn`; a name the
    /// server does not have is left out.
    fn read_status(
        &self,
        _conn: &mut dyn Connection,
        _names: &[String],
    ) -> DbResult<Vec<(String, f64)>> {
        Ok(Vec::new())
    }
    /// How this server's global settings are changed and put back; None where there are none
    /// to change (an embedded engine, a dry run).
    fn global_settings(&self) -> Option<&'static dyn crate::settings::GlobalSettings> {
        None
    }
    /// Version and key settings, read over `conn`.
    fn server_info(&self, conn: &mut dyn Connection) -> ServerInfo;
    /// The options a user changes to fix a connection problem, for error messages.
    fn hints(&self) -> &'static Hints;
    /// The server's counters a run's figures can be set against; None where there is no
    /// server to ask (an embedded engine, a dry run) or no single one (several hosts).
    fn counters(&self) -> Option<&'static CounterSpec> {
        None
    }
    /// The socket through which the server's process on this machine can be found (over
    /// `conn`), or why it cannot be (the reason is shown as is, in place of the server's CPU).
    fn server_socket(&self, conn: &dyn Connection) -> Result<RawFd, String> {
        conn.socket_fd().ok_or_else(|| {
            "not measured: this kind of session does not expose its socket".to_string()
        })
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
    fn data_location(&self, _conn: &mut dyn Connection) -> DataLocation {
        DataLocation::Server { reported: None }
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

/// A setup or probe session: opened, then checked once (`Driver::check_session`). Workers'
/// sessions skip the check, which would add a statement to the server's counters per session.
pub fn connect_checked(driver: &dyn Driver, index: usize) -> DbResult<Box<dyn Connection>> {
    let mut conn = driver.connect(index)?;
    driver.check_session(conn.as_mut())?;
    Ok(conn)
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
    /// The schema option, where the engine has one inside a database (PostgreSQL).
    pub schema: &'static str,
    /// The ignorable-errors option.
    pub ignore: &'static str,
    /// How to let the server accept more connections.
    pub max_connections_fix: &'static str,
    /// File descriptors one session keeps open (checked against the process limit before a
    /// run starts its threads).
    pub files_per_session: u64,
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
}
