//! The server's wait events as shares of what was sampled: over one interval, over several
//! (a stall, the slowest quarter), and in one line. Derived from the result alone, so a report
//! of a result file derives them as the run did.

use crate::waits::WaitShare;
use crate::Interval;
use std::collections::BTreeMap;

/// Observation counts (of one interval, or summed over several) as shares, most frequent
/// first.
pub fn shares<'a>(tallies: impl IntoIterator<Item = &'a BTreeMap<String, u64>>) -> Vec<WaitShare> {
    let mut sum: BTreeMap<&str, u64> = BTreeMap::new();
    for t in tallies {
        for (event, n) in t {
            *sum.entry(event.as_str()).or_insert(0) += n;
        }
    }
    let total: u64 = sum.values().sum();
    let mut events: Vec<WaitShare> = sum
        .into_iter()
        .map(|(event, observations)| WaitShare {
            share: observations as f64 / total.max(1) as f64,
            event: event.to_string(),
            observations,
        })
        .collect();
    events.sort_by(|a, b| {
        b.observations
            .cmp(&a.observations)
            .then(a.event.cmp(&b.event))
    });
    events
}

/// "45% IO:WALSync, 20% LWLock:WALWrite, 10% running": the `n` most frequent, for one line.
pub fn top(events: &[WaitShare], n: usize) -> String {
    events
        .iter()
        .take(n)
        .map(|e| format!("{:.0}% {}", e.share * 100.0, e.event))
        .collect::<Vec<_>>()
        .join(", ")
}

/// How many wait events a group of intervals keeps: enough to name what dominated.
const WAITS_KEPT: usize = 5;

/// The server's wait events over these intervals, most frequent first (the first few); empty
/// where none was sampled.
pub fn most_of<'a>(intervals: impl Iterator<Item = &'a Interval>) -> Vec<WaitShare> {
    let mut w = shares(intervals.filter_map(|i| i.waits.as_ref()));
    w.truncate(WAITS_KEPT);
    w
}
