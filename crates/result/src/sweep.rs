//! A thread sweep's document (docs/sweep.schema.json): each level's run result, and the
//! closing table's rows computed from them.

use super::{RunResult, Tool};
use serde::{Deserialize, Serialize};

/// A sweep's JSON document (docs/sweep.schema.json); each step's `result` is a run result as
/// docs/results.schema.json describes.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct SweepResult {
    pub schema_version: u32,
    /// Always "sweep": tells a sweep file from a single run's.
    pub kind: String,
    pub tool: Tool,
    pub command_line: Vec<String>,
    pub workload: String,
    pub levels: Vec<u32>,
    pub steps: Vec<Step>,
    pub table: Vec<Row>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Step {
    pub threads: u32,
    /// `dbpress slap --engine`: the MySQL storage engine this step's tables were created with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
    /// None when the level could not run.
    pub result: Option<RunResult>,
    /// Why the level did not start, or the server error that stopped it.
    pub error: Option<String>,
}

/// One line of the closing table; numbers are None for a level that did not run.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Row {
    pub threads: u32,
    /// The step's storage engine (`dbpress slap --engine`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
    pub tps: Option<f64>,
    pub qps: Option<f64>,
    pub p95_ms: Option<f64>,
    pub p99_ms: Option<f64>,
    pub errors_per_s: Option<f64>,
    /// A TPC-C level's tpmC (New-Orders per minute, rollbacks included); absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tpmc: Option<f64>,
    /// TPS divided by the best level's TPS.
    pub ratio_to_best: Option<f64>,
    pub error: Option<String>,
    /// A level that ran short or not at all: interrupted by a signal, cut by --forced-shutdown,
    /// or never reached because the sweep stopped before it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Average CPUs busy on this machine over the level, and of them the server's process's
    /// and dbpress's (`host_usage` of its result): where the curve flattens because the
    /// machine, not the server, ran out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu: Option<RowCpu>,
    /// The disk under the data over the level (`host_usage.disk` of its result): where the
    /// curve flattens because the disk, not the CPUs, ran out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disk: Option<RowDisk>,
    /// KiB per event through the sessions' network interface, both ways together
    /// (`host_usage.network` of its result): what a protocol option or a version sends.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub net_kib_per_event: Option<f64>,
    /// The server's most frequent wait event over the level (`server_waits` of its result):
    /// where a curve bends because sessions queue for a lock rather than for a CPU.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub top_wait: Option<super::waits::WaitShare>,
    /// Share of the server cache's page requests it missed over the level, percent (its
    /// `server_counters`): where a curve changes because the data left memory.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache_miss_pct: Option<f64>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct RowDisk {
    /// Share of the time with a request in flight, 0..1.
    pub busy: f64,
    /// KiB written to the device per event.
    pub kib_per_event: f64,
    /// Cache flushes per event (what a commit's fsync costs); absent where the kernel does
    /// not count them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flushes_per_event: Option<f64>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct RowCpu {
    pub busy: f64,
    pub server: Option<f64>,
    pub dbpress: f64,
    /// The server's CPU time per event, microseconds: what a version or a setting costs per
    /// transaction, whatever the throughput.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_us_per_event: Option<f64>,
}
