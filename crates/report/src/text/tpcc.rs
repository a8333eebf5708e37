//! The TPC-C section of a run's text report: tpmC and its companions, the mix against the
//! spec's minimums, the audit shares of clause 5.5.1.5, and the response-time constraint with
//! each transaction's 90th percentile against its limit (in seconds, where tpcc-mysql compared
//! milliseconds with seconds and printed [NG] for everything).

use dbpress_result::tpcc::TpccFigures;
use std::fmt::Write;

/// Efficiency against the ceiling the run's think times allow; none without them, where the
/// spec's 12.86 tpmC per warehouse does not bound anything.
pub fn efficiency(t: &TpccFigures) -> String {
    if t.think_time <= 0.0 {
        return "n/a without --think-time".into();
    }
    let scale = if t.think_time == 1.0 {
        String::new()
    } else {
        format!(" / {}", t.think_time)
    };
    format!(
        "{:.1}% of 12.86{scale} tpmC x {} warehouse(s)",
        t.efficiency_pct, t.warehouses
    )
}

pub fn section(t: &TpccFigures) -> String {
    let mut o = String::new();
    let _ = writeln!(o, "TPC-C (dbpress):");
    let _ = writeln!(
        o,
        "    tpmC: {}   NOPM: {}   tpmTotal: {:.0}   efficiency: {}",
        t.tpmc,
        t.nopm,
        t.tpm_total,
        efficiency(t)
    );
    let _ = writeln!(
        o,
        "    over {:.1}s measured; warehouses: {}; NURand C_LAST load {} run {}",
        t.measured_s,
        if t.home_warehouse == "random" {
            "random per transaction"
        } else {
            "home warehouse per connection"
        },
        t.c_load,
        t.c_run[0]
    );
    let _ = writeln!(
        o,
        "    {:<13} {:>9} {:>7} {:>7} {:>7} {:>9} {:>9} {:>9} {:>9} {:>9}  90th percentile limit",
        "transaction",
        "count",
        "mix %",
        "retry",
        "failed",
        "p50 ms",
        "p90 ms",
        "p95 ms",
        "p99 ms",
        "max ms",
    );
    for x in &t.transactions {
        let mix = if x.min_mix_pct > 0.0 {
            format!(
                "{:.2}{}",
                x.mix_pct,
                if x.mix_pct + 1e-9 >= x.min_mix_pct {
                    ""
                } else {
                    "!"
                }
            )
        } else {
            format!("{:.2}", x.mix_pct)
        };
        let verdict = if x.count == 0 {
            "none ran".to_string()
        } else if x.p90_ms <= x.limit_s * 1000.0 {
            format!("<= {:.0} s [OK]", x.limit_s)
        } else {
            format!("<= {:.0} s [NG]", x.limit_s)
        };
        let _ = writeln!(
            o,
            "    {:<13} {:>9} {:>7} {:>7} {:>7} {:>9.3} {:>9.3} {:>9.3} {:>9.3} {:>9.3}  {verdict}",
            x.name,
            x.count,
            mix,
            x.retries,
            x.failed,
            x.p50_ms,
            x.p90_ms,
            x.p95_ms,
            x.p99_ms,
            x.max_ms
        );
    }
    let _ = writeln!(
        o,
        "    mix minimums (5.2.3): payment 43%, order_status, delivery and stock_level 4% each{}",
        if t.transactions
            .iter()
            .any(|x| x.min_mix_pct > 0.0 && x.mix_pct + 1e-9 < x.min_mix_pct)
        {
            " — a share marked ! is below its minimum"
        } else {
            ""
        }
    );
    let _ = writeln!(
        o,
        "    New-Order: {:.2} lines per order, {:.2}% remote lines, {} rolled back ({:.2}%); Payment: {:.1}% remote, {:.1}% by last name; Order-Status: {:.1}% by last name; Delivery: {} district(s) skipped",
        t.lines_per_order,
        t.remote_lines_pct,
        t.new_order_rollbacks,
        t.rollback_pct,
        t.payment_remote_pct,
        t.payment_by_name_pct,
        t.order_status_by_name_pct,
        t.delivery_skipped_districts
    );
    let _ = writeln!(
        o,
        "    response-time constraint (90th percentile within its limit): {}",
        if t.response_time_ok { "[OK]" } else { "[NG]" }
    );
    let _ = writeln!(o);
    o
}
