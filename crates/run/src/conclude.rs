//! The run's figures once its workers have ended (or been left behind): what finished after
//! the last tick as a last, closing interval, the summary, and where the measured time ends.

use crate::reporter::{interval_of, LoopOutput};
use crate::shared::Shared;
use crate::summary::summarize;
use dbpress_config::RunConfig;
use dbpress_driver::DbError;
use dbpress_measure::counters::{self, Snapshot};
use dbpress_measure::result::{Interval, Summary};
use dbpress_measure::stats::snapshot::{collect, Totals};
use dbpress_measure::stats::ThreadCell;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// What a run produced, for the caller to turn into a `RunResult`.
pub struct RunOutput {
    pub intervals: Vec<Interval>,
    pub summary: Summary,
    pub totals: Totals,
    pub interrupted_by: Option<&'static str>,
    pub fatal: Option<DbError>,
    /// The server's counters when the workers were released and after they disconnected.
    pub counters: Option<(Snapshot, Snapshot)>,
    /// `--forced-shutdown` ended the run with this many workers still inside an event.
    pub forced_unfinished: Option<u32>,
    /// The run ended with sessions left behind, still waiting for the server.
    pub abandoned: Option<dbpress_measure::result::Abandoned>,
    pub checkpoints: Option<dbpress_measure::result::Checkpoints>,
    /// The server's wait events of the run's sessions, where sampled.
    pub waits: Option<dbpress_measure::waits::ServerWaits>,
    /// The server's status figures, where read (their values are in the intervals).
    pub server_status: Option<dbpress_measure::status::ServerStatus>,
    /// What ran during the warm-up, for the comparison with the server's counters.
    pub warmup: counters::WarmupCounts,
    /// CPU over the measured time (machine, dbpress, the server's process).
    pub host_usage: Option<dbpress_measure::host::HostUsage>,
    /// The instant the intervals' times count from.
    pub measure_start: Instant,
}

/// How the workers' part of a run ended, for where its measured time ends.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum End {
    /// Every worker stopped: at the last one.
    Joined,
    /// `--forced-shutdown`: now, as sysbench counts (the unfinished events ran until now).
    Forced,
    /// Sessions left behind: when the run stopped, or at the last event that finished after
    /// it (the abandoned events are in no figure, and neither is the wait for them).
    Abandoned,
}

/// The run's figures once it has ended: what finished after the last tick as a last, closing
/// interval (so the intervals add up to the summary), and the summary.
pub fn conclude(
    cfg: &RunConfig,
    cells: &[ThreadCell],
    shared: &Shared,
    result: LoopOutput,
    host: &mut dbpress_measure::host::Sampler,
    ended: End,
) -> RunOutput {
    let LoopOutput {
        mut intervals,
        mut totals,
        interrupted_by,
        per_thread,
        measure_start,
        last_tick,
        saw_end,
        checkpoints,
    } = result;
    let end = Instant::now();
    let mut per_thread_tail = per_thread;
    let mut tail = Totals::new(0);
    collect(cells, &mut per_thread_tail, &mut totals.stmts, &mut tail);
    if tail.counts.any() {
        let mut interval = interval_of(
            cfg,
            &tail,
            end.saturating_duration_since(measure_start).as_secs_f64(),
            end.saturating_duration_since(last_tick).as_secs_f64(),
            shared.running.load(Ordering::Relaxed) as u32,
            None,
        );
        interval.closing = true;
        (interval.host_cpu, interval.disk) = host.interval();
        intervals.push(interval);
    }
    totals.add(&tail);
    let measured = end.saturating_duration_since(measure_start);
    let measure_start_ns = dbpress_measure::stats::now_ns().saturating_sub(
        Instant::now()
            .saturating_duration_since(measure_start)
            .as_nanos() as u64,
    );
    let last = shared.last_finish_ns.load(Ordering::Relaxed);
    let last_finish_s = last.saturating_sub(measure_start_ns) as f64 / 1e9;
    let total_time = match ended {
        End::Joined if last > measure_start_ns => last_finish_s,
        End::Joined | End::Forced => measured.as_secs_f64(),
        // The reporter's last reading was taken when the run stopped.
        End::Abandoned => last_finish_s.max(
            last_tick
                .saturating_duration_since(measure_start)
                .as_secs_f64(),
        ),
    };
    let checkpoints = checkpoints.finish(cfg, &tail, total_time, &per_thread_tail);
    let mut warmup = counters::WarmupCounts::default();
    for c in cells {
        warmup.add(&c.warmup());
    }
    let mut summary = summarize(cfg, &totals, total_time, &per_thread_tail);
    // A --time run that went on past its end says by how much and what held it: the
    // reporter's last tick (dbpress itself held up) or the events it waited for.
    let limit = Duration::from_secs(cfg.time);
    if dbpress_measure::result::Overrun::noted(limit.as_secs_f64(), total_time) {
        summary.overrun = Some(dbpress_measure::result::Overrun {
            by_s: total_time - limit.as_secs_f64(),
            last_tick_late_s: saw_end
                .saturating_duration_since(measure_start + limit)
                .as_secs_f64(),
            last_events_max_ms: tail.counts.lat_max_ns as f64 / 1e6,
        });
    }
    RunOutput {
        intervals,
        summary,
        totals,
        interrupted_by,
        fatal: None,
        counters: None,
        forced_unfinished: None,
        abandoned: None,
        checkpoints,
        warmup,
        // Every session has ended (or, forced, is left to the process's exit).
        host_usage: host.finish(),
        waits: None,
        server_status: None,
        measure_start,
    }
}
