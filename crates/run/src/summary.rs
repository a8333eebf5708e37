//! A run's (or a checkpoint period's) summary from its folded totals: counts, rates,
//! latencies, and how evenly the threads shared the work.

use dbpress_config::RunConfig;
use dbpress_measure::stats::snapshot::Totals;
use dbpress_measure::stats::summary::{latency, mean_stddev};
use dbpress_result::{Fairness, Summary};

pub fn summarize(
    cfg: &RunConfig,
    t: &Totals,
    total_time: f64,
    per_thread: &[(u64, u64)],
) -> Summary {
    let secs = total_time.max(1e-9);
    let events: Vec<f64> = per_thread.iter().map(|p| p.0 as f64).collect();
    let times: Vec<f64> = per_thread.iter().map(|p| p.1 as f64 / 1e9).collect();
    let (events_avg, events_stddev) = mean_stddev(&events);
    let (time_avg_s, time_stddev_s) = mean_stddev(&times);
    let exact = t.counts.exact_latency();
    Summary {
        total_time_s: total_time,
        events: t.counts.events,
        reads: t.counts.reads,
        writes: t.counts.writes,
        other: t.counts.other,
        errors: t.counts.errors,
        reconnects: t.counts.reconnects,
        tps: t.counts.events as f64 / secs,
        qps: t.counts.queries() as f64 / secs,
        latency: latency(&t.response, exact, cfg.reporting.percentile),
        service_time: cfg
            .shape
            .rate
            .map(|_| latency(&t.service, None, cfg.reporting.percentile)),
        late_events: t.counts.late,
        max_lag_ms: t.counts.max_lag_ns as f64 / 1e6,
        latency_limit: cfg
            .shape
            .latency_limit_ns
            .map(|l| dbpress_result::LatencyLimit {
                limit_ms: l as f64 / 1e6,
                above: t.counts.over_limit,
                skipped: t.counts.skipped,
            }),
        fairness: Fairness {
            events_avg,
            events_stddev,
            time_avg_s,
            time_stddev_s,
            events_per_thread: per_thread.iter().map(|p| p.0).collect(),
        },
        overrun: None,
    }
}
