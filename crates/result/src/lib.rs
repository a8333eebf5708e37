//! dbpress's result contract, at the bottom of the workspace with serde alone: the drivers and
//! measurement fill it in, the store keeps it, the renderers read it, and none of them builds
//! another for its sake (tests/it/layers.rs checks).
//!
//! `RunResult` (here): everything a run measured, versioned. Every exporter renders from this
//! alone, so `dbpress report results.json` reproduces the text without re-running.
//! Schema: docs/results.schema.json (bump `SCHEMA_VERSION` on incompatible change).
//!
//! - `server`: what the server said about itself (`ServerInfo`)
//! - `clients`: which client library opened the run's sessions (`ClientSessions`)
//! - `host`, `counters`, `waits`, `status`: the machine, the server's counters, wait events and
//!   status figures over the run
//! - `throughput`: how steady the per-interval rate was; `stability` and `slow_intervals`
//!   derive it from the intervals, `wait_shares` the wait events' shares (a report of a result
//!   file derives them again, as the run did)
//! - `machine`: a test of the machine (sysbench's `cpu`), what it was asked to do
//! - `tpcc`: TPC-C's figures; `workload_figures`: a workload's own figures as the runner
//!   hands them on, each variant recorded in its place of the result
//! - `sweep`: a thread sweep's document (docs/sweep.schema.json)
//! - `progress`: the run's event vocabulary as it goes (`Phase`, and `Progress`, the sink a
//!   renderer implements), so a renderer of a run in progress needs nothing of the runner

pub mod clients;
pub mod counters;
pub mod host;
pub mod machine;
pub mod progress;
pub mod server;
pub mod slow_intervals;
pub mod stability;
pub mod status;
pub mod sweep;
pub mod throughput;
pub mod tpcc;
pub mod wait_shares;
pub mod waits;
pub mod workload_figures;

/// Which client opened a run's sessions (`Environment::clients`), and their one-line summary.
pub use clients::ClientSessions;
use counters::ServerCounters;
pub use host::{DiskIo, DiskUsage, HostCpu, HostUsage};
use serde::{Deserialize, Serialize};
pub use server::ServerInfo;
use std::collections::BTreeMap;
pub use throughput::Throughput;
pub use workload_figures::WorkloadFigures;

pub const SCHEMA_VERSION: u32 = 1;

/// This dbpress's version, as results and headers name it.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct RunResult {
    pub schema_version: u32,
    pub tool: Tool,
    /// argv with any password replaced by ***.
    pub command_line: Vec<String>,
    /// Every effective option (defaults included), passwords removed.
    pub config: BTreeMap<String, String>,
    pub environment: Environment,
    pub run: RunInfo,
    pub intervals: Vec<Interval>,
    pub summary: Summary,
    /// How steady the per-interval rate was and where it stalled, derived from `intervals`;
    /// absent when the run had fewer than three full intervals, and in earlier versions' results.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub throughput: Option<Throughput>,
    pub statements: Vec<StatementSummary>,
    pub errors_by_code: BTreeMap<String, u64>,
    pub histograms: Histograms,
    /// The server's own counters over the run, where there is a server to ask; absent in
    /// results of earlier versions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_counters: Option<ServerCounters>,
    /// `--report-checkpoints`: the reports taken during the run, and the period after the
    /// last one. `summary` stays the whole run's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checkpoints: Option<Checkpoints>,
    /// CPU over the measured time: the machine's, dbpress's and the server's process's when
    /// it runs on this machine; absent off Linux and in earlier versions' results.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host_usage: Option<HostUsage>,
    /// What the server said the run's sessions were doing, sampled during the measured time
    /// (`--server-waits`); absent where the server has no such view (SQLite, a dry run).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_waits: Option<waits::ServerWaits>,
    /// The server's status figures read once a second (`--server-status`): which, where from;
    /// each interval holds their values. Absent where the server keeps none, or when off.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_status: Option<status::ServerStatus>,
    /// TPC-C's figures (tpmC, mix, response-time check), for a tpcc run only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tpcc: Option<tpcc::TpccFigures>,
    /// A test of the machine (sysbench's `cpu`) rather than of a database.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub machine_test: Option<machine::MachineTest>,
    /// The run used no database (a sysbench script that never asked for a driver): its report
    /// has no SQL statistics, as sysbench's has none.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_database: bool,
}

impl RunResult {
    /// "MariaDB 10.11.19-MariaDB-0+deb12u1", "PostgreSQL 15.18 …", "dry-run".
    pub fn server_name(&self) -> String {
        let s = &self.environment.server;
        format!("{} {}", s.product, s.version).trim().to_string()
    }
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Tool {
    pub name: String,
    pub version: String,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Default)]
pub struct Environment {
    pub os: String,
    pub kernel: String,
    pub cpu_model: String,
    pub cpu_count: u32,
    pub hostname: String,
    /// How connections reached the server (transport, user, database; never the password).
    pub target: String,
    pub server: ServerInfo,
    /// The client library that opened each of the run's sessions (dbpress's own unless a
    /// server asked for what it does not speak), with how many; absent in earlier results.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub clients: Vec<ClientSessions>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct RunInfo {
    pub workload: String,
    pub threads: u32,
    /// "time", "events", "time or events" or "none".
    pub stop_condition: String,
    pub time_limit_s: u64,
    pub events_limit: u64,
    pub warmup_s: u64,
    pub rate: Option<f64>,
    pub rate_arrival: Option<String>,
    pub rand_type: String,
    pub seed: u64,
    pub ps_mode: String,
    pub percentile: u32,
    pub started_at_unix_s: u64,
    /// "SIGINT"/"SIGTERM"/"SIGHUP" when the run was stopped by a signal.
    pub interrupted_by: Option<String>,
    /// The error that stopped the run, if one did.
    pub fatal_error: Option<String>,
    /// What let the run go but must be known to read its figures (tables prepared smaller
    /// than --table-size); absent in results of earlier versions.
    #[serde(default)]
    pub warnings: Vec<String>,
    /// Set when `--forced-shutdown` ended the run with events still unfinished.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forced_shutdown: Option<ForcedShutdown>,
    /// Set when the run ended with sessions left behind, still waiting for the server.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abandoned: Option<Abandoned>,
    /// Seconds from the workers' start until every session was connected and set up (its
    /// statements prepared): pgbench's "initial connection time"; absent in earlier results.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sessions_ready_s: Option<f64>,
}

/// Sessions a run left behind at its end, each inside an event the server never answered: after
/// a stop signal once the grace had passed, or after the run's own end (--time, --events, an
/// error) once the server no longer answered a new session either. Their events are in no
/// figure; total_time_s ends when the run stopped (or at the last event that finished after).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Abandoned {
    /// Sessions left behind (one unfinished event each).
    pub sessions: u32,
    /// What stopped the run: "SIGINT", "SIGTERM", "SIGHUP", or "end" (its own end).
    pub after: String,
    /// Seconds the run waited for them once it had stopped.
    pub waited_s: f64,
    /// Whether the server answered a new session while the run waited: true means the
    /// sessions were waiting on a server that works (a lock, a long statement); false, on one
    /// out of reach (a cut network, a stopped or hung server).
    pub server_answered: bool,
}

/// sysbench's `--report-checkpoints` reports: each covers the time since the one before.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Checkpoints {
    pub reports: Vec<Checkpoint>,
    /// From the last checkpoint to the end: what the final sysbench block reports.
    pub last_period: Summary,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Checkpoint {
    /// Seconds since the start of measurement (the tick at which it was taken).
    pub time_s: f64,
    /// The period since the previous checkpoint; `total_time_s` is the period's length.
    pub summary: Summary,
}

/// A run `--forced-shutdown` ended: the events still running were left out of every figure.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct ForcedShutdown {
    /// Seconds waited after the end of --time.
    pub grace_s: f64,
    /// Threads still inside an event (one unfinished event each).
    pub unfinished: u32,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Default)]
pub struct Interval {
    /// Seconds from the start of measurement to the end of this interval.
    pub time_s: f64,
    pub duration_s: f64,
    pub threads: u32,
    pub events: u64,
    pub reads: u64,
    pub writes: u64,
    pub other: u64,
    pub errors: u64,
    pub reconnects: u64,
    /// Latency at the configured percentile, ms (0 when the interval had no events).
    pub latency_pct_ms: f64,
    pub latency_p99_ms: f64,
    pub latency_max_ms: f64,
    /// The mean and standard deviation of the interval's event latencies, ms (pgbench's
    /// progress line); 0 in earlier versions' results.
    #[serde(default)]
    pub latency_avg_ms: f64,
    #[serde(default)]
    pub latency_stddev_ms: f64,
    /// Under --rate: estimated events due but not started, events in progress, schedule lag.
    pub queue_length: Option<u64>,
    pub concurrency: Option<u64>,
    pub lag_ms: Option<f64>,
    pub late_events: Option<u64>,
    /// Under --rate with --latency-limit: events skipped, already later than the limit when due.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skipped: Option<u64>,
    /// True for the short intervals that end the run: a stop between ticks (--events, a signal)
    /// and what finished after the last tick. No line was printed for them, as in sysbench, and
    /// `report` prints none. A --time run's last full tick is not closing: it got its line.
    #[serde(default)]
    pub closing: bool,
    /// The machine's CPUs over this interval (from /proc/stat); absent off Linux and in
    /// earlier versions' results.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host_cpu: Option<HostCpu>,
    /// The data's disk over this interval (from /proc/diskstats); absent where it is not
    /// measured (see `HostUsage::disk_unavailable`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disk: Option<DiskIo>,
    /// The server's wait events of the run's sessions in the samples taken during this
    /// interval: sessions seen in each (`--server-waits`); absent without samples in it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub waits: Option<BTreeMap<String, u64>>,
    /// The server's status figures (`RunResult::server_status` names them): gauges at the
    /// interval's end, counters per second over it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_status: Option<BTreeMap<String, f64>>,
    /// Finished events of each kind the workload labels (TPC-C: New-Order, Payment,
    /// Order-Status, Delivery, Stock-Level, in that order); absent for other workloads.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub events_by_kind: Vec<u64>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Default)]
pub struct Latency {
    pub count: u64,
    pub min_ms: f64,
    pub avg_ms: f64,
    pub max_ms: f64,
    pub sum_ms: f64,
    pub p50_ms: f64,
    pub p95_ms: f64,
    pub p99_ms: f64,
    pub p999_ms: f64,
    /// At --percentile.
    pub pct_ms: f64,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Summary {
    pub total_time_s: f64,
    pub events: u64,
    pub reads: u64,
    pub writes: u64,
    pub other: u64,
    pub errors: u64,
    pub reconnects: u64,
    pub tps: f64,
    pub qps: f64,
    /// Per event; under --rate measured from the intended start (response time).
    pub latency: Latency,
    /// Under --rate: per event from the actual start.
    pub service_time: Option<Latency>,
    pub late_events: u64,
    pub max_lag_ms: f64,
    /// Under --latency-limit (pgbench's -L): the events slower than it and those skipped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latency_limit: Option<LatencyLimit>,
    pub fairness: Fairness,
    /// A --time run that went on past --time by more than `Overrun::NOTED`: by how much and
    /// what held it; absent otherwise (and in a checkpoint's period, and earlier results).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub overrun: Option<Overrun>,
}

/// How far a --time run's measured time (`total_time_s`) went past --time, and what held it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Overrun {
    /// Seconds past --time.
    pub by_s: f64,
    /// How late the reporter's last tick came after --time's end, s: dbpress itself was held
    /// up across the end (no CPU time, a stopped process), its workers with it.
    pub last_tick_late_s: f64,
    /// The slowest of the events that finished after the last tick, ms (0 when none did):
    /// an event still running when --time ended is waited for, as sysbench waits for it.
    pub last_events_max_ms: f64,
}

impl Overrun {
    /// An overrun is worth a word from 1% of --time (the rates are that much lower for it)
    /// and 0.1 s: the last events of every run finish a few ms after the end.
    pub fn noted(time_limit_s: f64, total_time_s: f64) -> bool {
        let by = total_time_s - time_limit_s;
        time_limit_s > 0.0 && by > 0.1 && by > 0.01 * time_limit_s
    }
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct LatencyLimit {
    pub limit_ms: f64,
    /// Finished events whose latency (from the intended start under --rate) passed the limit.
    pub above: u64,
    /// Under --rate: events not run because they were already later than the limit when due.
    pub skipped: u64,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Fairness {
    pub events_avg: f64,
    pub events_stddev: f64,
    pub time_avg_s: f64,
    pub time_stddev_s: f64,
    pub events_per_thread: Vec<u64>,
    /// Each thread's figures, in thread order (sysbench's `--debug` statistics); empty in a
    /// checkpoint's summary and in results from before it was kept.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub threads: Vec<ThreadFigures>,
}

/// One thread's share of the run: its finished events, the time they took together, and its
/// shortest and longest event.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Default)]
pub struct ThreadFigures {
    pub events: u64,
    pub time_ms: f64,
    pub min_ms: f64,
    pub max_ms: f64,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct StatementSummary {
    pub name: String,
    pub count: u64,
    pub errors: u64,
    pub latency: Latency,
}

/// HdrHistograms (µs) in the V2 deflate format, base64: lossless, and readable by every
/// HdrHistogram implementation.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Default)]
pub struct Histograms {
    pub unit: String,
    pub response: String,
    pub service: Option<String>,
    pub statements: BTreeMap<String, String>,
}
