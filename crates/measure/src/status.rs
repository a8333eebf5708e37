//! The server's own status figures, sampled once a second while a run goes on (on a thread and
//! a session of their own, like the wait sampler), then set into the run's intervals: the level
//! of each gauge at the interval's end (sessions running, open tables, lock waits now) and each
//! counter's change per second over it (slow queries, row-lock waits, redo written). A stall in
//! throughput can then be read against what the server counted in the same seconds.

use crate::ticker::{session_lost, Ticker};
use crate::waits::WatchedRun;
use dbpress_driver::Driver;
use dbpress_result::status::StatusKind;
pub use dbpress_result::status::{ServerStatus, StatusItem};
use dbpress_result::Interval;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// How often the status is read.
pub const EVERY: Duration = Duration::from_secs(1);

/// The readings, by time, until they are set into the intervals.
#[derive(Default)]
pub struct StatusTimeline {
    samples: Vec<(Instant, BTreeMap<String, f64>)>,
}

impl StatusTimeline {
    /// Set each interval's figures from the readings nearest its start and end; `measure_start`
    /// is the instant the intervals' `time_s` count from.
    pub fn assign(&self, items: &[StatusItem], intervals: &mut [Interval], measure_start: Instant) {
        if self.samples.is_empty() {
            return;
        }
        let t = |at: &Instant| -> f64 {
            if *at >= measure_start {
                at.duration_since(measure_start).as_secs_f64()
            } else {
                -measure_start.duration_since(*at).as_secs_f64()
            }
        };
        // The last reading taken no later than half a period after `time`.
        let at_or_before = |time: f64| -> Option<usize> {
            let limit = time + EVERY.as_secs_f64() / 2.0;
            let n = self.samples.partition_point(|(at, _)| t(at) <= limit);
            n.checked_sub(1)
        };
        for i in intervals.iter_mut() {
            let Some(e) = at_or_before(i.time_s) else {
                continue;
            };
            let b = at_or_before(i.time_s - i.duration_s);
            let (end_at, end) = &self.samples[e];
            let mut figures = BTreeMap::new();
            for item in items {
                let value = match item.kind {
                    StatusKind::Gauge => end.get(&item.name).copied(),
                    StatusKind::Counter => b.filter(|&b| b < e).and_then(|b| {
                        let (start_at, start) = &self.samples[b];
                        let secs = end_at.duration_since(*start_at).as_secs_f64();
                        let (v0, v1) = (start.get(&item.name)?, end.get(&item.name)?);
                        // A counter that went down was reset (a restart): no rate for it.
                        (secs > 0.0 && v1 >= v0).then(|| (v1 - v0) / secs)
                    }),
                };
                if let Some(v) = value {
                    figures.insert(item.name.clone(), v);
                }
            }
            if !figures.is_empty() {
                i.server_status = Some(figures);
            }
        }
    }
}

/// Read the status every second until the run stops. The first reading is taken at once (the
/// base of the first interval's counters). A failure to connect or to read before the first
/// reading is the result's `unavailable`; a lost session is opened again.
pub fn sample(
    driver: &dyn Driver,
    items: &[StatusItem],
    source: &str,
    run: &dyn WatchedRun,
) -> (ServerStatus, StatusTimeline) {
    let mut status = ServerStatus {
        source: source.to_string(),
        every_ms: EVERY.as_millis() as u64,
        items: items.to_vec(),
        ..ServerStatus::default()
    };
    let names: Vec<String> = items.iter().map(|i| i.name.clone()).collect();
    let mut timeline = StatusTimeline::default();
    let mut conn = match driver.connect_monitor() {
        Ok(c) => c,
        Err(e) => {
            status.unavailable = Some(format!("not sampled: cannot connect: {}", e.message));
            return (status, timeline);
        }
    };
    let mut costs: Vec<f64> = Vec::new();
    let mut ticker = Ticker::new(EVERY);
    loop {
        // Once the run has stopped, one last reading closes its last interval.
        let stopping = !ticker.wait(&|| run.stopped());
        let at = Instant::now();
        match driver.read_status(conn.as_mut(), &names) {
            Ok(values) => {
                costs.push(at.elapsed().as_secs_f64() * 1e3);
                status.samples += 1;
                timeline.samples.push((at, values.into_iter().collect()));
            }
            Err(e) if status.samples == 0 => {
                status.unavailable = Some(format!("not sampled: {}", e.message));
                return (status, timeline);
            }
            Err(e) if session_lost(&e) => {
                let _ = conn.reconnect();
            }
            Err(_) => break,
        }
        if stopping {
            break;
        }
    }
    if !costs.is_empty() {
        costs.sort_by(|a, b| a.total_cmp(b));
        status.read_ms = costs[costs.len() / 2];
    }
    (status, timeline)
}

/// The figures to read: the engine's set (`spec`), then the user's `--server-status` names it
/// lacks (`extra`).
pub fn items(
    spec: &dbpress_driver::status::StatusSpec,
    extra: &[(String, dbpress_result::status::StatusKind)],
) -> Vec<StatusItem> {
    let mut items: Vec<StatusItem> = spec
        .items
        .iter()
        .map(|(name, kind)| StatusItem {
            name: name.to_string(),
            kind: *kind,
        })
        .collect();
    for (name, kind) in extra {
        if !items.iter().any(|i| &i.name == name) {
            items.push(StatusItem {
                name: name.clone(),
                kind: *kind,
            });
        }
    }
    items
}
