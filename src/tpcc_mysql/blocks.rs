//! tpcc-mysql's closing blocks (`<Raw Results>`, `<Constraint Check>`, `<TpmC>`) from a dbpress
//! TPC-C result, so notes and scripts that read tpcc_start's output keep working. One thing
//! differs on purpose: the response-time check compares latencies with the limits in the same
//! unit (tpcc_start compares milliseconds with limits meant as seconds, so every line says [NG]).

use dbpress_measure::stats::summary::decode;
use dbpress_result::RunResult;
use std::fmt::Write;

const NAMES: [&str; 5] = [
    "New-Order",
    "Payment",
    "Order-Status",
    "Delivery",
    "Stock-Level",
];
const KINDS: [&str; 5] = [
    "new_order",
    "payment",
    "order_status",
    "delivery",
    "stock_level",
];
/// tpcc_start's limits (-0 … -4), in seconds: 5, 5, 5, 80 (Delivery's completion), 20.
pub const DEFAULT_LIMITS_S: [f64; 5] = [5.0, 5.0, 5.0, 80.0, 20.0];

/// (within the limit, over it) for each transaction, from its latency histogram.
fn split_counts(r: &RunResult, limits_s: &[f64; 5]) -> [(u64, u64); 5] {
    let mut out = [(0, 0); 5];
    for (i, kind) in KINDS.iter().enumerate() {
        if let Some(h) = r.histograms.statements.get(*kind).and_then(|s| decode(s)) {
            let limit_us = (limits_s[i] * 1e6) as u64;
            let within = h.count_between(0, limit_us);
            out[i] = (within, h.len().saturating_sub(within));
        }
    }
    out
}

pub fn blocks(r: &RunResult, limits_s: &[f64; 5]) -> String {
    let Some(t) = &r.tpcc else {
        return String::new();
    };
    let counts = split_counts(r, limits_s);
    let mut o = String::new();
    let _ = writeln!(o, "\n<Raw Results>");
    for (i, x) in t.transactions.iter().enumerate() {
        let (sc, lt) = counts[i];
        let _ = writeln!(
            o,
            "  [{i}] sc:{sc} lt:{lt}  rt:{}  fl:{} avg_rt: {:.1} ({})",
            x.retries, x.failed, x.avg_ms, limits_s[i]
        );
    }
    let _ = writeln!(o, " in {:.0} sec.", t.measured_s);
    let _ = writeln!(o, "\n<Raw Results2(sum ver.)>");
    for (i, x) in t.transactions.iter().enumerate() {
        let (sc, lt) = counts[i];
        let _ = writeln!(
            o,
            "  [{i}] sc:{sc}  lt:{lt}  rt:{}  fl:{}",
            x.retries, x.failed
        );
    }
    let _ = writeln!(o, "\n<Constraint Check> (all must be [OK])");
    let _ = writeln!(o, " [transaction percentage]");
    let all: u64 = counts.iter().map(|(a, b)| a + b).sum();
    for i in 1..5 {
        let pct = if all == 0 {
            0.0
        } else {
            100.0 * (counts[i].0 + counts[i].1) as f64 / all as f64
        };
        let min = if i == 1 { 43.0 } else { 4.0 };
        let _ = writeln!(
            o,
            "{:>15}: {pct:.2}% (>={min:>4.1}%) [{}]",
            NAMES[i],
            if pct >= min { "OK" } else { "NG" }
        );
    }
    let _ = writeln!(o, " [response time (at least 90% passed)]");
    for i in 0..5 {
        let (sc, lt) = counts[i];
        let pct = if sc + lt == 0 {
            100.0
        } else {
            100.0 * sc as f64 / (sc + lt) as f64
        };
        let mark = if pct >= 90.0 { "[OK]" } else { "[NG] *" };
        let _ = writeln!(o, "{:>15}: {pct:.2}%  {mark}", NAMES[i]);
    }
    let new_orders = counts[0].0 + counts[0].1;
    let _ = writeln!(o, "\n<TpmC>");
    let _ = writeln!(
        o,
        "                 {:.3} TpmC",
        new_orders as f64 * 60.0 / t.measured_s.max(1e-9)
    );
    o
}
