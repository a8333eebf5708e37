//! The report's section on throughput over time: the per-interval rate's spread and the
//! stretches in which nothing finished (see `dbpress_result::stability`).

use dbpress_result::throughput::SlowIntervals;
use dbpress_result::throughput::{Stall, Stretched};
use dbpress_result::Throughput;
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
        let list: Vec<String> = t.stalls.iter().map(stretch).collect();
        let more = t.stall_count - t.stalls.len() as u64;
        let more = if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        };
        let _ = writeln!(
            o,
            "    stalls ({}): {} of {}, in {} {}{every}: {}{more}",
            if t.near_stops == 0 {
                "intervals in which no event finished"
            } else {
                "intervals in which no event finished, or so few that at the median rate most of a tick is unaccounted for"
            },
            t.stalled_intervals,
            t.intervals,
            t.stall_count,
            if t.stall_count == 1 {
                "stretch"
            } else {
                "stretches"
            },
            list.join(", ")
        );
        let missed: u64 = t.stalls.iter().map(|s| s.missed_ticks).sum();
        if missed > 0 {
            let _ = writeln!(
                o,
                "    the reporter missed {} during the stalls: dbpress itself was held up then too (no CPU time, a stopped process, its output blocked), so the stall may be the client's as much as the server's",
                ticks(missed)
            );
        }
        if let Some(c) = &t.stall_host_cpu {
            let _ = writeln!(o, "{}", super::host::during_stalls(c));
        }
        if let Some(d) = &t.stall_disk {
            let _ = writeln!(o, "{}", super::host::disk_during_stalls(d));
        }
        if !t.stall_waits.is_empty() {
            let _ = writeln!(
                o,
                "    the server's sessions during the stalls: {}",
                dbpress_result::wait_shares::top(&t.stall_waits, SHOWN_WAITS)
            );
        }
    }
    // Stretched intervals that are no stall: the workers went on, only the reporter was late.
    let late: Vec<&Stretched> = t.stretched.iter().filter(|s| !s.stall).collect();
    if !late.is_empty() {
        let missed: u64 = late.iter().map(|s| s.missed_ticks).sum();
        let list: Vec<String> = late
            .iter()
            .map(|s| {
                format!(
                    "{} to {} ({}, {:.2} events/s, {:.0}% of the median)",
                    seconds(s.from_s),
                    seconds(s.to_s),
                    ticks(s.missed_ticks),
                    s.eps,
                    100.0 * s.median_share
                )
            })
            .collect();
        let _ = writeln!(
            o,
            "    the reporter missed {} with no stall: {}; the workers went on at their rate while dbpress's reporter was held up (no CPU time, its output blocked), and no tick without progress fits in {}",
            ticks(missed),
            list.join(", "),
            if late.len() == 1 { "that interval" } else { "those intervals" }
        );
    }
    if let Some(s) = &t.slowest {
        o.push_str(&slowest(s));
    }
    let _ = writeln!(o);
    o
}

/// The slowest quarter of the intervals against the others: its rate, then what the disk and
/// the CPUs did in each.
fn slowest(s: &SlowIntervals) -> String {
    let mut o = String::new();
    let every = s
        .every_s
        .map(|e| format!(", in {} stretches about every {}", s.stretches, seconds(e)))
        .unwrap_or_default();
    let _ = writeln!(
        o,
        "    slowest quarter of the intervals ({} of {}{every}): median {:.2} events/s against {:.2} in the others",
        s.intervals,
        s.intervals + s.others,
        s.median_eps,
        s.others_median_eps
    );
    if let (Some(d), Some(e)) = (&s.disk, &s.others_disk) {
        let flushes = match (d.flushes_s, e.flushes_s) {
            (Some(a), Some(b)) => format!(", {a:.0} flushes/s against {b:.0}"),
            _ => String::new(),
        };
        let _ = writeln!(
            o,
            "        disk: {:.2} MiB/s written against {:.2}, {:.0} writes/s against {:.0}{flushes}, busy {:.0}% against {:.0}%",
            d.write_mib_s,
            e.write_mib_s,
            d.writes_s,
            e.writes_s,
            d.busy * 100.0,
            e.busy * 100.0
        );
    }
    if let (Some(c), Some(e)) = (&s.host_cpu, &s.others_host_cpu) {
        let _ = writeln!(
            o,
            "        CPUs: busy {:.2} against {:.2}, iowait {:.2} against {:.2}, idle {:.2} against {:.2}",
            c.busy(),
            e.busy(),
            c.iowait,
            e.iowait,
            c.idle,
            e.idle
        );
    }
    if !s.waits.is_empty() && !s.others_waits.is_empty() {
        let _ = writeln!(
            o,
            "        server waits: {}; in the others: {}",
            dbpress_result::wait_shares::top(&s.waits, SHOWN_WAITS),
            dbpress_result::wait_shares::top(&s.others_waits, SHOWN_WAITS)
        );
    }
    o
}

/// A stall stretch as the list gives it: `4s to 5s`, with the events that did finish and the
/// ticks the reporter missed in it when there were any (`5s to 10s (2 events; the reporter
/// missed 4 ticks)`).
fn stretch(s: &Stall) -> String {
    let mut what = Vec::new();
    if s.events > 0 {
        what.push(format!(
            "{} event{}",
            s.events,
            if s.events == 1 { "" } else { "s" }
        ));
    }
    if s.missed_ticks > 0 {
        what.push(format!("the reporter missed {}", ticks(s.missed_ticks)));
    }
    let what = if what.is_empty() {
        String::new()
    } else {
        format!(" ({})", what.join("; "))
    };
    format!("{} to {}{what}", seconds(s.from_s), seconds(s.to_s))
}

fn ticks(n: u64) -> String {
    format!("{n} tick{}", if n == 1 { "" } else { "s" })
}

/// Wait events named in one line.
const SHOWN_WAITS: usize = 3;

/// Interval boundaries fall on whole seconds (report intervals are whole seconds), as in
/// sysbench's `[ 4s ]`; the measured times drift by microseconds, which rounding hides.
fn seconds(s: f64) -> String {
    format!("{:.0}s", s)
}
