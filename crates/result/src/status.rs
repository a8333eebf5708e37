//! The server's status over a run, as the result keeps it: which figures were sampled, where
//! from and how often; each interval holds their values (`Interval::server_status`).

use serde::{Deserialize, Serialize};

/// Whether a figure is a level now, or a running total whose change per second is what counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StatusKind {
    Gauge,
    Counter,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct ServerStatus {
    /// Where the figures were read ("SHOW GLOBAL STATUS").
    pub source: String,
    pub every_ms: u64,
    /// The figures, in the order the report shows them: a gauge is the value at the interval's
    /// end, a counter its change per second over the interval.
    pub items: Vec<StatusItem>,
    pub samples: u64,
    /// The sampler's own cost: the median time one reading took, in ms.
    pub read_ms: f64,
    /// Why nothing was sampled, when nothing was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unavailable: Option<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct StatusItem {
    pub name: String,
    pub kind: StatusKind,
}
