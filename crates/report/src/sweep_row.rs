//! A thread sweep's closing table: one row per level, computed from its result (or its
//! error), and a row's figures as cells, the same in the text table, CSV and Markdown.

use super::table::num;
use dbpress_result::sweep::{Row, RowCpu, RowDisk, Step};

/// The level's figures as the table writes them: threads, TPS, QPS, p95, p99, errors/s
/// and the ratio to the best level; empty where the level has none.
pub fn sweep_row_cells(row: &Row) -> Vec<String> {
    vec![
        row.threads.to_string(),
        num(row.tps, 2),
        num(row.qps, 2),
        num(row.p95_ms, 3),
        num(row.p99_ms, 3),
        num(row.errors_per_s, 2),
        num(row.ratio_to_best, 3),
    ]
}

pub fn row(threads: u32, step: &Step) -> Row {
    let Some(r) = &step.result else {
        return Row {
            threads,
            engine: step.engine.clone(),
            tps: None,
            qps: None,
            p95_ms: None,
            p99_ms: None,
            errors_per_s: None,
            tpmc: None,
            ratio_to_best: None,
            error: step.error.clone(),
            note: None,
            cpu: None,
            disk: None,
            net_kib_per_event: None,
            top_wait: None,
            cache_miss_pct: None,
        };
    };
    let s = &r.summary;
    let left = r
        .run
        .abandoned
        .as_ref()
        .map(|a| format!(", {} sessions left behind", a.sessions))
        .unwrap_or_default();
    let note = match (&r.run.interrupted_by, &r.run.forced_shutdown) {
        (Some(sig), _) => Some(format!(
            "interrupted by {sig} after {:.2}s{left}",
            s.total_time_s
        )),
        (None, _) if r.run.abandoned.is_some() => {
            Some(format!("the server stopped answering{left}"))
        }
        (None, Some(f)) => Some(format!(
            "forced shutdown: {} transactions unfinished",
            f.unfinished
        )),
        (None, None) => None,
    };
    // A level whose throughput fell to nothing for whole intervals is where a curve hides a
    // collapse (lock convoys, deadlock-detection storms); say so beside its averages.
    let stalls = r
        .throughput
        .as_ref()
        .filter(|t| t.stalled_intervals > 0)
        .map(|t| {
            // What the sessions were held on meanwhile, where the server was sampled.
            let waits = if t.stall_waits.is_empty() {
                String::new()
            } else {
                format!(
                    "; sessions: {}",
                    dbpress_result::wait_shares::top(&t.stall_waits, 2)
                )
            };
            format!(
                "stalled {} of {} intervals (no event{} finished{waits})",
                t.stalled_intervals,
                t.intervals,
                if t.near_stops > 0 {
                    ", or next to none,"
                } else {
                    ""
                }
            )
        });
    let note = match (note, stalls) {
        (Some(n), Some(st)) => Some(format!("{n}; {st}")),
        (n, st) => n.or(st),
    };
    Row {
        threads,
        engine: step.engine.clone(),
        tps: Some(s.tps),
        qps: Some(s.qps),
        p95_ms: Some(s.latency.p95_ms),
        p99_ms: Some(s.latency.p99_ms),
        errors_per_s: Some(s.errors as f64 / s.total_time_s.max(1e-9)),
        tpmc: r.tpcc.as_ref().map(|t| t.tpmc as f64),
        ratio_to_best: None,
        error: step.error.clone(),
        note,
        cpu: r.host_usage.as_ref().map(|h| RowCpu {
            busy: h.host.busy(),
            server: h.server.as_ref().map(|s| s.cpus()),
            dbpress: h.dbpress.cpus(),
            server_us_per_event: h
                .server
                .as_ref()
                .filter(|_| s.events > 0)
                .map(|sv| h.micros_per(sv.cpus(), s.events)),
        }),
        disk: r.host_usage.as_ref().and_then(|h| {
            let io = &h.disk.as_ref()?.io;
            let per_event = |rate: f64| h.per_item(rate, s.events);
            Some(RowDisk {
                busy: io.busy,
                kib_per_event: per_event(io.write_mib_s) * 1024.0,
                flushes_per_event: io.flushes_s.map(per_event),
            })
        }),
        net_kib_per_event: r.host_usage.as_ref().and_then(|h| {
            let n = h.network.as_ref()?;
            Some(h.per_item(n.both_ways_mib_s() * 1024.0, s.events))
        }),
        top_wait: r
            .server_waits
            .as_ref()
            .and_then(|w| w.events.first().cloned()),
        cache_miss_pct: r
            .server_counters
            .as_ref()
            .and_then(|c| dbpress_result::counters::CacheMisses::of(&c.deltas))
            .map(|c| c.pct()),
    }
}

/// One row per step (a level that ran or failed to start), then one per level the sweep never
/// reached (`stopped_by` says why it stopped).
pub fn table(steps: &[Step], not_reached: &[(Option<String>, u32)], stopped_by: &str) -> Vec<Row> {
    let mut rows: Vec<Row> = steps.iter().map(|s| row(s.threads, s)).collect();
    rows.extend(not_reached.iter().map(|(engine, threads)| Row {
        note: Some(format!("not run: {stopped_by}")),
        ..row(
            *threads,
            &Step {
                threads: *threads,
                engine: engine.clone(),
                result: None,
                error: None,
            },
        )
    }));
    let best = rows.iter().filter_map(|r| r.tps).fold(0.0f64, f64::max);
    for r in &mut rows {
        r.ratio_to_best = r.tps.filter(|_| best > 0.0).map(|t| t / best);
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stalled_level_names_what_its_sessions_waited_on() {
        let mut r = crate::text::tests::fixture();
        let mut intervals: Vec<dbpress_result::Interval> = (1..=4)
            .map(|k| dbpress_result::Interval {
                time_s: f64::from(k),
                duration_s: 1.0,
                events: if k == 2 { 0 } else { 1000 },
                ..Default::default()
            })
            .collect();
        intervals[1].waits = Some([("Lock:relation".to_string(), 40)].into());
        intervals[2].waits = Some([("running".to_string(), 40)].into());
        r.throughput = dbpress_result::stability::of(&intervals);
        let step = Step {
            threads: 4,
            engine: None,
            result: Some(r),
            error: None,
        };
        assert_eq!(
            row(4, &step).note.as_deref(),
            Some("stalled 1 of 4 intervals (no event finished; sessions: 100% Lock:relation)")
        );
    }
}
