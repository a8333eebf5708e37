//! The server's own counters over a run: read once when every worker is connected and ready,
//! once after the last one has disconnected, so the figures dbpress prints can be set against
//! what the server says it executed (MySQL's `SHOW GLOBAL STATUS` Com_* counters, PostgreSQL's
//! `pg_stat_database`).

use dbpress_driver::{Connection, DbResult, Driver};
use dbpress_result::Summary;
use std::collections::BTreeMap;

pub use dbpress_driver::CounterSpec;
pub use dbpress_result::counters::{CounterCheck, ServerCounters, WarmupCounts};

/// How far (seconds) two readings of a lifetime value may differ and still name the same
/// lifetime: MySQL's start time is derived from Uptime, which counts whole seconds.
const LIFETIME_SLACK_S: u64 = 2;

/// Counter values at one moment, or why they could not be read.
pub type Snapshot = Result<Vec<(String, u64)>, String>;

/// Read the counters on a connection of its own. `settle`: after the run, wait until the run's
/// sessions are gone (an engine that publishes a session's counts only when it ends needs it).
pub fn snapshot(driver: &dyn Driver, settle: bool) -> Snapshot {
    let read = |conn: &mut dyn Connection| -> DbResult<Vec<(String, u64)>> {
        driver.read_counters(conn, settle)
    };
    driver
        .connect_monitor()
        .and_then(|mut conn| read(conn.as_mut()))
        .map_err(|e| e.to_string())
}

/// Why the two readings belong to different lifetimes of the counters, if they do: a lifetime
/// value moved, or a counter (which only grows) went down.
fn lifetime_changed(
    spec: &CounterSpec,
    start: &BTreeMap<String, u64>,
    after: &[(String, u64)],
) -> Option<String> {
    let end: BTreeMap<&str, u64> = after.iter().map(|(n, v)| (n.as_str(), *v)).collect();
    for (marker, meaning) in spec.lifetime {
        if let (Some(b), Some(a)) = (start.get(*marker), end.get(marker)) {
            if b.abs_diff(*a) > LIFETIME_SLACK_S {
                return Some(format!(
                    "{meaning} during the run, so its counters may have started again from zero and are not set against dbpress's"
                ));
            }
        }
    }
    let fell = after.iter().find(|(name, value)| {
        !spec.lifetime.iter().any(|(m, _)| m == name) && start.get(name).is_some_and(|b| value < b)
    })?;
    Some(format!(
        "{} went down during the run ({} at the start, {} at the end): the server restarted or its statistics were reset, so its counters are not set against dbpress's",
        fell.0, start[&fell.0], fell.1
    ))
}

/// With reads, writes and other all checked, their sum: dbpress files a write that changed no
/// row under other, as sysbench does, while the server counts it as the statement it was, so the
/// two can differ line by line and still agree in total. Says so when that is all there is.
fn add_total(out: &mut ServerCounters, spec: &CounterSpec) {
    if out.checks.len() < 2 || out.checks.len() != spec.checks.len() {
        return;
    }
    let find = |what: &str| out.checks.iter().find(|c| c.what == what);
    if let (Some(w), Some(o)) = (find("writes"), find("other")) {
        let surplus = w.server as i128 - w.dbpress as i128;
        if surplus > 0 && o.dbpress as i128 - o.server as i128 == surplus {
            out.notes.push(format!(
                "{surplus} writes changed no row (their row was gone, or already held the new value): the server counts them as writes, dbpress as other, as sysbench does"
            ));
        }
    }
    let total = CounterCheck {
        what: "total".into(),
        counters: out.checks.iter().flat_map(|c| c.counters.clone()).collect(),
        server: out.checks.iter().map(|c| c.server).sum(),
        dbpress: out.checks.iter().map(|c| c.dbpress).sum(),
    };
    out.checks.push(total);
}

/// Set the deltas between `before` and `after` against the run's summary.
pub fn compare(
    spec: &CounterSpec,
    before: Snapshot,
    after: Snapshot,
    summary: &Summary,
    warmup_s: u64,
    warmup: &WarmupCounts,
) -> ServerCounters {
    let mut out = ServerCounters {
        source: spec.source.to_string(),
        ..ServerCounters::default()
    };
    let (before, after) = match (before, after) {
        (Ok(b), Ok(a)) => (b, a),
        (Err(e), _) | (_, Err(e)) => {
            out.unavailable = Some(e);
            return out;
        }
    };
    let start: BTreeMap<_, _> = before.into_iter().collect();
    if let Some(why) = lifetime_changed(spec, &start, &after) {
        out.not_comparable = Some(why);
        return out;
    }
    for (name, end) in after {
        if spec.lifetime.iter().any(|(marker, _)| *marker == name) {
            continue;
        }
        if let Some(begin) = start.get(&name) {
            out.deltas.insert(name, end.saturating_sub(*begin));
        }
    }
    for (what, names) in spec.checks {
        let present: Vec<&str> = names
            .iter()
            .copied()
            .filter(|n| out.deltas.contains_key(*n))
            .collect();
        if present.is_empty() {
            continue;
        }
        out.checks.push(CounterCheck {
            what: what.to_string(),
            counters: present.iter().map(|n| n.to_string()).collect(),
            server: present.iter().map(|n| out.deltas[*n]).sum(),
            dbpress: match *what {
                "reads" => summary.reads + warmup.reads,
                "writes" => summary.writes + warmup.writes,
                _ => summary.other + warmup.other,
            },
        });
    }
    out.notes = spec.notes.iter().map(|n| n.to_string()).collect();
    if warmup_s > 0 {
        out.notes.push(format!(
            "the {warmup_s}s warm-up ran inside this window: dbpress's figures here (and the per-event column) include its {} events ({} reads, {} writes, {} other), which the rest of the report leaves out",
            warmup.events, warmup.reads, warmup.writes, warmup.other
        ));
        out.warmup = Some(*warmup);
    }
    add_total(&mut out, spec);
    let errors = summary.errors + warmup.errors;
    if errors > 0 && !out.checks.is_empty() {
        out.notes.push(format!(
            "{errors} ignored errors: a failed statement, and the ROLLBACK dbpress sends after one inside a transaction, count on the server, not in dbpress's reads/writes/other"
        ));
    }
    out
}

#[cfg(test)]
mod tests;
