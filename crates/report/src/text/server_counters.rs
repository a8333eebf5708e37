//! The report's section on the server's own counters over the run.

use dbpress_result::counters::ServerCounters;
use std::fmt::Write;

/// Counters (by prefix) listed only when they moved: statement kinds, and the signs of a cache
/// or a buffer too small, whose 0 is the normal case.
const SHOWN_WHEN_MOVED: &[&str] = &[
    "Com_",
    "Created_tmp_disk_tables",
    "Table_open_cache_misses",
    "Innodb_buffer_pool_wait_free",
    "Innodb_log_waits",
    "temp_",
];

/// Share of the page requests the server's cache did not hold, and where the misses went: the
/// line that says whether a run measured the server or the storage under it. `events`: the
/// run's (warm-up included, as the readings are); `disk_reads`: the disk under the data's reads
/// per event, where measured. None where the run made no request or the engine has no such
/// counters.
fn cache_misses(
    d: &std::collections::BTreeMap<String, u64>,
    events: u64,
    disk_reads: Option<f64>,
) -> Option<String> {
    let c = dbpress_result::counters::CacheMisses::of(d)?;
    let (pct, missed) = (c.pct(), c.missed);
    let mut line = format!(
        "{}: {pct:.2}% of {} page requests missed and were {} ({})",
        c.cache, c.requests, c.miss_means, c.counters
    );
    if pct >= 1.0 {
        let misses = missed as f64 / events.max(1) as f64;
        line.push_str(&match disk_reads {
            Some(r) if r >= 0.5 * misses => format!(
                "; the disk read {r:.2} per event for {misses:.2} misses: the disk served most of them (the data was not in memory: larger than it, or not read yet), so the run measured the storage as much as the server"
            ),
            Some(r) => format!(
                "; the disk read {r:.2} per event for {misses:.2} misses: the OS page cache served most of them (the data fits in the machine's memory, not in the server's cache)"
            ),
            None => "; each miss costs a read from the OS page cache or the storage".to_string(),
        });
    }
    Some(line)
}

/// `events`: the run's events, for the per-event column; `disk_reads`: the disk under the
/// data's reads per event over the run, where measured (to say where cache misses went).
pub fn section(c: &ServerCounters, events: u64, disk_reads: Option<f64>) -> String {
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
    // Counters that stayed at 0 would only bury the ones that moved, except those whose 0 says
    // something (no lock waits, no deadlocks, no fsyncs).
    let shown: Vec<(&String, &u64)> = c
        .deltas
        .iter()
        .filter(|(name, delta)| {
            **delta > 0 || !SHOWN_WHEN_MOVED.iter().any(|p| name.starts_with(p))
        })
        .collect();
    let w = shown
        .iter()
        .map(|(n, _)| n.chars().count())
        .fold(24, usize::max);
    let _ = writeln!(
        o,
        "    {:<w$} {:>12} {:>12}",
        "counter", "delta", "per event"
    );
    for (name, delta) in shown {
        let per_event = *delta as f64 / (events + warmup_events).max(1) as f64;
        let _ = writeln!(o, "    {name:<w$} {delta:>12} {per_event:>12.3}");
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
    if let Some(line) = cache_misses(&c.deltas, events + warmup_events, disk_reads) {
        let _ = writeln!(o, "    {line}");
    }
    for note in &c.notes {
        let _ = writeln!(o, "    Note: {note}");
    }
    let _ = writeln!(o);
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn deltas(pairs: &[(&str, u64)]) -> BTreeMap<String, u64> {
        pairs.iter().map(|(n, v)| (n.to_string(), *v)).collect()
    }

    #[test]
    fn cache_misses_say_whether_the_disk_or_the_page_cache_served_them() {
        let innodb = deltas(&[
            ("Innodb_buffer_pool_read_requests", 3000),
            ("Innodb_buffer_pool_reads", 1000),
        ]);
        let line = cache_misses(&innodb, 1000, Some(0.98)).unwrap();
        assert!(
            line.starts_with("buffer pool: 33.33% of 3000 page requests missed and were read from the data files"),
            "{line}"
        );
        assert!(
            line.contains(
                "the disk read 0.98 per event for 1.00 misses: the disk served most of them"
            ),
            "{line}"
        );
        let pg = deltas(&[("blks_hit", 900), ("blks_read", 100)]);
        let line = cache_misses(&pg, 100, Some(0.0)).unwrap();
        assert!(
            line.starts_with("shared_buffers: 10.00% of 1000 page requests"),
            "{line}"
        );
        assert!(
            line.contains("the OS page cache served most of them"),
            "{line}"
        );
        let line = cache_misses(&pg, 100, None).unwrap();
        assert!(line.ends_with("; each miss costs a read from the OS page cache or the storage"));
        // Below 1% the share alone: the cache held the data.
        let warm = deltas(&[("blks_hit", 100_000), ("blks_read", 10)]);
        let line = cache_misses(&warm, 100, Some(5.0)).unwrap();
        assert!(
            line.ends_with("(blks_read / (blks_hit + blks_read))"),
            "{line}"
        );
        // No requests, or an engine without these counters: no line.
        assert_eq!(
            cache_misses(&deltas(&[("blks_hit", 0), ("blks_read", 0)]), 1, None),
            None
        );
        assert_eq!(cache_misses(&deltas(&[("xact_commit", 5)]), 1, None), None);
    }

    #[test]
    fn signs_of_a_small_cache_are_listed_only_when_they_moved() {
        let c = ServerCounters {
            source: "test".into(),
            deltas: deltas(&[
                ("Innodb_buffer_pool_wait_free", 0),
                ("Created_tmp_disk_tables", 4),
                ("Table_open_cache_misses", 0),
                ("Innodb_row_lock_waits", 0),
            ]),
            ..Default::default()
        };
        let text = section(&c, 2, None);
        assert!(
            text.contains("\n    Created_tmp_disk_tables             4        2.000\n"),
            "{text}"
        );
        assert!(
            text.contains("\n    Innodb_row_lock_waits               0        0.000\n"),
            "{text}"
        );
        assert!(
            !text.contains("wait_free") && !text.contains("Table_open"),
            "{text}"
        );
    }
}
