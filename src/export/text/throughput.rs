//! The report's section on throughput over time: the per-interval rate's spread and the
//! stretches in which nothing finished (see `stats::stability`).

use crate::result::Throughput;
use std::fmt::Write;

pub fn section(t: &Throughput) -> String {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "Throughput per {} interval ({} intervals, dbpress):",
        seconds(t.interval_s),
        t.intervals
    );
    let _ = writeln!(
        o,
        "    events/s: min {:.2}, p5 {:.2}, median {:.2}, max {:.2}; stddev/mean {:.1}%",
        t.min_eps, t.p5_eps, t.median_eps, t.max_eps, t.cv_percent
    );
    if t.stall_count == 0 {
        let _ = writeln!(o, "    stalls (intervals in which no event finished): none");
    } else {
        let every = t
            .stall_every_s
            .map(|s| format!(", about every {}", seconds(s)))
            .unwrap_or_default();
        let list: Vec<String> = t
            .stalls
            .iter()
            .map(|s| format!("{} to {}", seconds(s.from_s), seconds(s.to_s)))
            .collect();
        let more = t.stall_count - t.stalls.len() as u64;
        let more = if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        };
        let _ = writeln!(
            o,
            "    stalls (intervals in which no event finished): {} of {}, in {} {}{every}: {}{more}",
            t.stalled_intervals,
            t.intervals,
            t.stall_count,
            if t.stall_count == 1 { "stretch" } else { "stretches" },
            list.join(", ")
        );
        if let Some(c) = &t.stall_host_cpu {
            let _ = writeln!(o, "{}", super::host::during_stalls(c));
        }
        if let Some(d) = &t.stall_disk {
            let _ = writeln!(o, "{}", super::host::disk_during_stalls(d));
        }
    }
    let _ = writeln!(o);
    o
}

/// Interval boundaries fall on whole seconds (report intervals are whole seconds), as in
/// sysbench's `[ 4s ]`; the measured times drift by microseconds, which rounding hides.
fn seconds(s: f64) -> String {
    format!("{:.0}s", s)
}
