//! The server's own status, read once a second during a run: gauges (sessions running, open
//! tables, lock waits now, checkpoint age) and counters shown per second (slow queries, row-lock
//! waits, redo bytes, checkpoints). Each engine names its default set (`StatusSpec`); the user
//! adds more with `--server-status=NAME,…` (`NAME/s` for a counter to show per second).

pub use dbpress_result::status::StatusKind;

/// An engine's default status figures and where they come from.
pub struct StatusSpec {
    /// Where the figures are read, for the report ("SHOW GLOBAL STATUS").
    pub source: &'static str,
    pub items: &'static [(&'static str, StatusKind)],
}

/// A figure the user asked for: `NAME` a gauge, `NAME/s` a counter shown per second.
pub fn parse_extra(item: &str) -> (String, StatusKind) {
    match item.strip_suffix("/s") {
        Some(name) => (name.to_string(), StatusKind::Counter),
        None => (item.to_string(), StatusKind::Gauge),
    }
}
