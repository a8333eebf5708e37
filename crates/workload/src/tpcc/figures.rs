//! A run's TPC-C figures from its result (the five transactions' latency histograms) and the
//! terminals' counts: tpmC, NOPM, efficiency, the mix against its minimums, the audit shares of
//! 5.5.1.5, and the response-time constraint with each transaction's 90th percentile.

use super::tally::Tally;
use dbpress_result::tpcc::{TpccFigures, TpccTransaction};
use dbpress_result::RunResult;

pub const TXN_NAMES: [&str; 5] = [
    "new_order",
    "payment",
    "order_status",
    "delivery",
    "stock_level",
];
const MIN_MIX_PCT: [f64; 5] = [0.0, 43.0, 4.0, 4.0, 4.0];
const LIMIT_S: [f64; 5] = [5.0, 5.0, 5.0, 5.0, 20.0];
/// tpmC per warehouse at most, with the spec's keying and think times (4.1.3).
pub const MAX_TPMC_PER_WAREHOUSE: f64 = 12.86;

pub struct Setup {
    pub warehouses: u32,
    pub home_warehouse: &'static str,
    pub c_load: u32,
    pub c_run: [u32; 3],
    pub think_time: f64,
}

/// The most tpmC `warehouses` can reach with their ten terminals keying and thinking at
/// `think_time` times the spec's times (the spec's ceiling when they are off).
fn ceiling(warehouses: u32, think_time: f64) -> f64 {
    let per_warehouse = if think_time > 0.0 {
        MAX_TPMC_PER_WAREHOUSE / think_time
    } else {
        MAX_TPMC_PER_WAREHOUSE
    };
    per_warehouse * f64::from(warehouses.max(1))
}

pub fn figures(r: &RunResult, t: &Tally, setup: &Setup) -> TpccFigures {
    let secs = r.summary.total_time_s.max(1e-9);
    let minutes = secs / 60.0;
    let all: u64 = t.completed.iter().sum();
    let pct = |n: u64, of: u64| {
        if of == 0 {
            0.0
        } else {
            100.0 * n as f64 / of as f64
        }
    };
    let mut transactions = Vec::new();
    let mut response_time_ok = true;
    for (i, name) in TXN_NAMES.iter().enumerate() {
        let h = r
            .histograms
            .statements
            .get(*name)
            .and_then(|s| dbpress_measure::stats::summary::decode(s));
        let q = |p: f64| {
            h.as_ref()
                .map(|h| h.value_at_quantile(p) as f64 / 1000.0)
                .unwrap_or(0.0)
        };
        let (p90, max_ms, avg_ms) = (
            q(0.90),
            h.as_ref().map(|h| h.max() as f64 / 1000.0).unwrap_or(0.0),
            h.as_ref().map(|h| h.mean() / 1000.0).unwrap_or(0.0),
        );
        if t.completed[i] > 0 && p90 > LIMIT_S[i] * 1000.0 {
            response_time_ok = false;
        }
        transactions.push(TpccTransaction {
            name: name.to_string(),
            count: t.completed[i],
            mix_pct: pct(t.completed[i], all),
            min_mix_pct: MIN_MIX_PCT[i],
            retries: t.retries[i],
            failed: t.failed[i],
            p50_ms: q(0.50),
            p90_ms: p90,
            p95_ms: q(0.95),
            p99_ms: q(0.99),
            max_ms,
            avg_ms,
            limit_s: LIMIT_S[i],
        });
    }
    let new_orders = t.completed[0];
    let tpmc = new_orders as f64 / minutes;
    let committed = new_orders.saturating_sub(t.new_order_rollbacks);
    let interval_tpmc = r
        .intervals
        .iter()
        .filter(|i| !i.closing && i.duration_s > 0.0)
        .filter_map(|i| {
            i.events_by_kind
                .first()
                .map(|&n| n as f64 * 60.0 / i.duration_s)
        })
        .collect();
    TpccFigures {
        warehouses: setup.warehouses,
        home_warehouse: setup.home_warehouse.into(),
        c_load: setup.c_load,
        c_run: setup.c_run,
        measured_s: secs,
        tpmc: tpmc as u64,
        nopm: (committed as f64 / minutes) as u64,
        tpm_total: all as f64 / minutes,
        efficiency_pct: 100.0 * tpmc / ceiling(setup.warehouses, setup.think_time),
        think_time: setup.think_time,
        transactions,
        new_order_rollbacks: t.new_order_rollbacks,
        rollback_pct: pct(t.new_order_rollbacks, new_orders),
        lines_per_order: if new_orders == 0 {
            0.0
        } else {
            t.new_order_lines as f64 / new_orders as f64
        },
        remote_lines_pct: pct(t.new_order_remote_lines, t.new_order_lines),
        payment_remote_pct: pct(t.payment_remote, t.completed[1]),
        payment_by_name_pct: pct(t.payment_by_name, t.completed[1]),
        order_status_by_name_pct: pct(t.order_status_by_name, t.completed[2]),
        delivery_skipped_districts: t.delivery_skipped,
        response_time_ok,
        interval_tpmc,
    }
}
