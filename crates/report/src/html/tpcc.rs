//! A TPC-C run on its page: tpmC and its companions, the transactions against the mix and
//! response-time limits, and tpmC per interval (stalls shaded).

use super::esc;
use super::svg::{Band, Chart, Series, XAxis};
use dbpress_result::tpcc::TpccFigures;
use dbpress_result::Interval;
use std::fmt::Write;

pub fn section(o: &mut String, t: &TpccFigures) {
    o.push_str("<h2>TPC-C</h2>\n");
    let _ = writeln!(
        o,
        "<table><tr><th>tpmC</th><th>NOPM</th><th>tpmTotal</th><th>efficiency</th><th>warehouses</th><th>terminals</th><th>response times</th></tr>\
         <tr><td>{}</td><td>{}</td><td>{:.0}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr></table>",
        t.tpmc,
        t.nopm,
        t.tpm_total,
        esc(&crate::text::tpcc::efficiency(t)),
        t.warehouses,
        esc(if t.home_warehouse == "random" {
            "random warehouse per transaction"
        } else {
            "home warehouse per connection"
        }),
        if t.response_time_ok { "[OK]" } else { "[NG]" }
    );
    o.push_str(
        "<table><tr><th>transaction</th><th>count</th><th>mix %</th><th>minimum %</th><th>retries</th><th>failed</th>\
         <th>p50 ms</th><th>p90 ms</th><th>p99 ms</th><th>max ms</th><th>p90 limit</th></tr>",
    );
    for x in &t.transactions {
        let _ = write!(
            o,
            "<tr><td>{}</td><td>{}</td><td>{:.2}</td><td>{:.0}</td><td>{}</td><td>{}</td><td>{:.3}</td><td>{:.3}</td><td>{:.3}</td><td>{:.3}</td><td>{} s {}</td></tr>",
            esc(&x.name),
            x.count,
            x.mix_pct,
            x.min_mix_pct,
            x.retries,
            x.failed,
            x.p50_ms,
            x.p90_ms,
            x.p99_ms,
            x.max_ms,
            x.limit_s,
            if x.count == 0 || x.p90_ms <= x.limit_s * 1000.0 {
                "[OK]"
            } else {
                "[NG]"
            }
        );
    }
    o.push_str("</table>\n");
    let _ = writeln!(
        o,
        "<p>New-Order: {:.2} lines per order, {:.2}% remote lines, {} rolled back ({:.2}%); Payment: {:.1}% remote, {:.1}% by last name; Order-Status: {:.1}% by last name; Delivery: {} district(s) skipped.</p>",
        t.lines_per_order,
        t.remote_lines_pct,
        t.new_order_rollbacks,
        t.rollback_pct,
        t.payment_remote_pct,
        t.payment_by_name_pct,
        t.order_status_by_name_pct,
        t.delivery_skipped_districts
    );
}

/// tpmC per interval, for a run whose intervals count New-Orders.
pub fn interval_chart(o: &mut String, full: &[&Interval], bands: Vec<Band>) {
    if full.iter().all(|i| i.events_by_kind.is_empty()) {
        return;
    }
    let points = super::svg::steps_of(full, |i| {
        let n = i.events_by_kind.first().copied().unwrap_or(0);
        Some(n as f64 * 60.0 / i.duration_s.max(1e-9))
    });
    o.push_str(
        &Chart {
            title: "tpmC per interval (New-Orders per minute; stalls shaded)",
            y_label: "tpmC",
            x: XAxis::Time,
            series: vec![Series {
                name: "tpmC",
                points,
            }],
            bands,
            whiskers: vec![],
            y_at_least: 0.0,
        }
        .render(),
    );
}
