//! TPC-C's figures of a run (clause 5.4 and the audit checks of 5.5.1.5), from the run's
//! per-transaction latencies and the terminals' counts.

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Default)]
pub struct TpccFigures {
    pub warehouses: u32,
    /// "terminal" (a home warehouse per connection) or "random" (per transaction).
    pub home_warehouse: String,
    /// NURand C constants: the load's C_LAST and the run's (C_LAST, C_ID, OL_I_ID).
    pub c_load: u32,
    pub c_run: [u32; 3],
    pub measured_s: f64,
    /// New-Orders completed per minute, the rolled-back 1% included, truncated (5.4.2).
    pub tpmc: u64,
    /// New-Orders committed per minute (HammerDB's NOPM: the rise of sum(d_next_o_id)).
    pub nopm: u64,
    /// Every completed transaction per minute.
    pub tpm_total: f64,
    /// tpmC against the 12.86 per warehouse that ten terminals with keying and think times can
    /// reach (divided by `think_time` when scaled). Meaningful only with think times on.
    pub efficiency_pct: f64,
    /// `--think-time`'s factor of the spec's keying and think times; 0: none.
    #[serde(default)]
    pub think_time: f64,
    pub transactions: Vec<TpccTransaction>,
    pub new_order_rollbacks: u64,
    pub rollback_pct: f64,
    pub lines_per_order: f64,
    pub remote_lines_pct: f64,
    pub payment_remote_pct: f64,
    pub payment_by_name_pct: f64,
    pub order_status_by_name_pct: f64,
    pub delivery_skipped_districts: u64,
    /// Every line of the response-time constraint (90th percentile within its limit) held.
    pub response_time_ok: bool,
    /// tpmC of each reported interval (New-Orders in it × 60 / its seconds).
    #[serde(default)]
    pub interval_tpmc: Vec<f64>,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Default)]
pub struct TpccTransaction {
    pub name: String,
    pub count: u64,
    /// Share of all completed transactions.
    pub mix_pct: f64,
    /// The spec's minimum share (0 for New-Order).
    pub min_mix_pct: f64,
    pub retries: u64,
    pub failed: u64,
    pub p50_ms: f64,
    pub p90_ms: f64,
    pub p95_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
    pub avg_ms: f64,
    /// The 90th-percentile limit (5 s; Stock-Level 20 s).
    pub limit_s: f64,
}
