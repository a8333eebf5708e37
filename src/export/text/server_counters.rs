//! The report's section on the server's own counters over the run.

use crate::counters::ServerCounters;
use std::fmt::Write;

/// `events`: the run's events, for the per-event column.
pub fn section(c: &ServerCounters, events: u64) -> String {
    let mut o = String::new();
    if let Some(why) = &c.unavailable {
        let _ = writeln!(o, "Server counters ({}): not read: {why}\n", c.source);
        return o;
    }
    if let Some(why) = &c.not_comparable {
        let _ = writeln!(o, "Server counters ({}): not comparable: {why}\n", c.source);
        return o;
    }
    if c.deltas.is_empty() {
        return o;
    }
    let _ = writeln!(o, "Server counters over the run ({}):", c.source);
    // The readings include the warm-up's events, so the per-event column counts them too.
    let warmup_events = c.warmup.map_or(0, |w| w.events);
    let _ = writeln!(
        o,
        "    {:<24} {:>12} {:>12}",
        "counter", "delta", "per event"
    );
    // Statement counters that stayed at 0 would only bury the ones that moved; the others
    // (lock waits, deadlocks) are worth a 0.
    let shown = c
        .deltas
        .iter()
        .filter(|(name, delta)| **delta > 0 || !name.starts_with("Com_"));
    for (name, delta) in shown {
        let per_event = *delta as f64 / (events + warmup_events).max(1) as f64;
        let _ = writeln!(o, "    {name:<24} {delta:>12} {per_event:>12.3}");
    }
    for check in &c.checks {
        let verdict = match check.server as i128 - check.dbpress as i128 {
            0 => "equal".to_string(),
            d => format!("the server counted {d:+}"),
        };
        let moved: Vec<&str> = check
            .counters
            .iter()
            .filter(|n| c.deltas.get(*n).is_some_and(|d| *d > 0))
            .map(String::as_str)
            .collect();
        let _ = writeln!(
            o,
            "    {:<7} dbpress {}, server {} ({}): {verdict}",
            format!("{}:", check.what),
            check.dbpress,
            check.server,
            match (check.what.as_str(), moved.is_empty()) {
                ("total", _) => "every counter above".to_string(),
                // Eight counters that all stayed at 0 would only make a long line.
                (_, true) if check.counters.len() > 3 => format!(
                    "{} + … + {}, {} counters: none moved",
                    check.counters[0],
                    check.counters[check.counters.len() - 1],
                    check.counters.len()
                ),
                (_, true) => check.counters.join(" + "),
                (_, false) => moved.join(" + "),
            }
        );
    }
    for note in &c.notes {
        let _ = writeln!(o, "    Note: {note}");
    }
    let _ = writeln!(o);
    o
}
