//! What the server said the run's sessions were waiting on, as the result keeps it (sampled
//! by `waits`).

use serde::{Deserialize, Serialize};

/// The server's wait events over a run, as shares of the sessions sampled.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Default)]
pub struct ServerWaits {
    /// Where the samples come from (`pg_stat_activity`, `SHOW PROCESSLIST`).
    pub source: String,
    /// Samples taken, `every_ms` apart.
    pub samples: u64,
    pub every_ms: u64,
    /// Sessions seen per sample, on average.
    pub sessions_avg: f64,
    /// The events, most frequent first: each the share of all session observations.
    pub events: Vec<WaitShare>,
    /// Why there are no samples, when there are none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unavailable: Option<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct WaitShare {
    pub event: String,
    pub observations: u64,
    /// observations / every observation, 0..1.
    pub share: f64,
}
