//! A run's (or a checkpoint period's) summary from its folded totals: counts, rates,
//! latencies, and how evenly the threads shared the work.

use dbpress_config::RunConfig;
use dbpress_measure::stats::snapshot::{ThreadShare, Totals};
use dbpress_measure::stats::summary::{latency, mean_stddev};
use dbpress_result::{Fairness, Summary, ThreadFigures};

pub fn summarize(
    cfg: &RunConfig,
    t: &Totals,
    total_time: f64,
    per_thread: &[ThreadShare],
) -> Summary {
    let secs = total_time.max(1e-9);
    let events: Vec<f64> = per_thread.iter().map(|p| p.events as f64).collect();
    let times: Vec<f64> = per_thread
        .iter()
        .map(|p| p.lat_sum_ns as f64 / 1e9)
        .collect();
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
            events_per_thread: per_thread.iter().map(|p| p.events).collect(),
            threads: per_thread.iter().map(thread_figures).collect(),
        },
        overrun: None,
    }
}

/// A thread's own figures, in ms (its shortest and longest event 0 when it finished none).
fn thread_figures(p: &ThreadShare) -> ThreadFigures {
    let ms = |ns: u64| ns as f64 / 1e6;
    ThreadFigures {
        events: p.events,
        time_ms: ms(p.lat_sum_ns),
        min_ms: if p.events == 0 { 0.0 } else { ms(p.lat_min_ns) },
        max_ms: ms(p.lat_max_ns),
    }
}
