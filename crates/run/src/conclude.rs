//! The run's figures once its workers have ended (or been left behind): what finished after
//! the last tick as a last, closing interval, the summary, and where the measured time ends.

use crate::reporter::{interval_of, LoopOutput};
use crate::samplers::Sampled;
use crate::shared::Shared;
use crate::summary::summarize;
use dbpress_config::RunConfig;
use dbpress_driver::{DbError, Dialect};
use dbpress_measure::counters::{self, Snapshot};
use dbpress_measure::stats::snapshot::{collect, Totals};
use dbpress_measure::stats::ThreadCell;
use dbpress_result::{Abandoned, Interval, Overrun, Summary};
use dbpress_workload::Workload;
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
    /// Seconds from the workers' start until every session was connected and set up.
    pub sessions_ready_s: f64,
    /// `--forced-shutdown` ended the run with this many workers still inside an event.
    pub forced_unfinished: Option<u32>,
    /// The run ended with sessions left behind, still waiting for the server.
    pub abandoned: Option<Abandoned>,
    pub checkpoints: Option<dbpress_result::Checkpoints>,
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
    /// The workload printed its own final report (`final_report`): the text summary leaves
    /// out sysbench's part.
    pub own_final_report: bool,
}

/// How the workers' part of a run ended, for where its measured time ends and what it adds.
pub enum End {
    /// Every worker stopped (measured time ends at the last one), with what the run gathered
    /// once they were joined.
    Joined(Box<Joined>),
    /// `--forced-shutdown` with this many workers still inside an event: now, as sysbench
    /// counts (the unfinished events ran until now).
    Forced { unfinished: u32 },
    /// Sessions left behind: when the run stopped, or at the last event that finished after
    /// it (the abandoned events are in no figure, and neither is the wait for them).
    Abandoned {
        abandoned: Abandoned,
        signal: Option<&'static str>,
    },
}

/// What a run whose workers were all joined gathered besides its cells.
pub struct Joined {
    /// The error that ended a worker's events, the first one joined.
    pub fatal: Option<DbError>,
    /// The server's counters when the workers were released and after they disconnected.
    pub counters: Option<(Snapshot, Snapshot)>,
    pub sampled: Sampled,
}

/// The run's figures once it has ended: what finished after the last tick as a last, closing
/// interval (so the intervals add up to the summary), the summary, and what the end adds.
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
        let running = shared.running.load(Ordering::Relaxed) as u32;
        let since = |t: Instant| end.saturating_duration_since(t).as_secs_f64();
        let mut interval = interval_of(
            cfg,
            &tail,
            since(measure_start),
            since(last_tick),
            running,
            None,
        );
        interval.closing = true;
        (interval.host_cpu, interval.disk) = host.interval();
        intervals.push(interval);
    }
    totals.add(&tail);
    let total_time = measured_time(shared, &ended, measure_start, last_tick, end);
    let checkpoints = checkpoints.finish(cfg, &tail, total_time, &per_thread_tail);
    let mut warmup = counters::WarmupCounts::default();
    for c in cells {
        warmup.add(&c.warmup());
    }
    let mut summary = summarize(cfg, &totals, total_time, &per_thread_tail);
    summary.overrun = overrun(cfg, total_time, saw_end, measure_start, &tail);
    let mut output = RunOutput {
        intervals,
        summary,
        totals,
        interrupted_by,
        fatal: None,
        counters: None,
        sessions_ready_s: 0.0,
        forced_unfinished: None,
        abandoned: None,
        checkpoints,
        warmup,
        // Every session has ended (or, forced, is left to the process's exit).
        host_usage: host.finish(),
        waits: None,
        server_status: None,
        measure_start,
        own_final_report: false,
    };
    output.add_end(ended);
    output
}

/// The workload's own final report of the run (a sysbench script's `report_cumulative`),
/// printed once the figures are known, in every output format: a script's hook prints as its
/// other output does (to stdout; `--output=FILE` keeps a JSON document apart). With one, the
/// text summary keeps dbpress's sections and leaves out sysbench's, which the hook replaced.
pub fn final_report(
    output: &mut RunOutput,
    workload: &dyn Workload,
    dialect: &'static Dialect,
    shared: &Shared,
) {
    let running = shared.running.load(Ordering::Relaxed) as u32;
    // sysbench's final report covers the time since the last checkpoint, as the text's does.
    let checkpoints = output.checkpoints.as_ref();
    let period = checkpoints.map_or(&output.summary, |c| &c.last_period);
    let elapsed = output.summary.total_time_s;
    output.own_final_report = workload.final_report(dialect, period, elapsed, running);
}

impl RunOutput {
    /// What the run's end adds to its figures: a joined run's error, counters and samples (the
    /// samples' timelines put into the intervals), a forced run's unfinished events, the
    /// sessions left behind and the signal that ended their wait.
    fn add_end(&mut self, ended: End) {
        match ended {
            End::Joined(joined) => {
                let Joined {
                    fatal,
                    counters,
                    sampled,
                } = *joined;
                self.fatal = fatal;
                self.counters = counters;
                let start = self.measure_start;
                self.waits = sampled.waits.map(|(w, timeline)| {
                    timeline.assign(&mut self.intervals, start);
                    w
                });
                self.server_status = sampled.status.map(|(st, timeline)| {
                    timeline.assign(&st.items, &mut self.intervals, start);
                    st
                });
            }
            End::Forced { unfinished } => self.forced_unfinished = Some(unfinished),
            End::Abandoned { abandoned, signal } => {
                self.interrupted_by = self.interrupted_by.or(signal);
                self.abandoned = Some(abandoned);
            }
        }
    }
}

/// Where the measured time ends, in seconds from `measure_start`.
fn measured_time(
    shared: &Shared,
    ended: &End,
    measure_start: Instant,
    last_tick: Instant,
    end: Instant,
) -> f64 {
    let measure_start_ns = dbpress_measure::stats::now_ns().saturating_sub(
        Instant::now()
            .saturating_duration_since(measure_start)
            .as_nanos() as u64,
    );
    let last = shared.last_finish_ns.load(Ordering::Relaxed);
    let last_finish_s = last.saturating_sub(measure_start_ns) as f64 / 1e9;
    match ended {
        End::Joined(_) if last > measure_start_ns => last_finish_s,
        End::Joined(_) | End::Forced { .. } => {
            end.saturating_duration_since(measure_start).as_secs_f64()
        }
        // The reporter's last reading was taken when the run stopped.
        End::Abandoned { .. } => last_finish_s.max(
            last_tick
                .saturating_duration_since(measure_start)
                .as_secs_f64(),
        ),
    }
}

/// A --time run that went on past its end says by how much and what held it: the reporter's
/// last tick (dbpress itself held up) or the events it waited for.
fn overrun(
    cfg: &RunConfig,
    total_time: f64,
    saw_end: Instant,
    measure_start: Instant,
    tail: &Totals,
) -> Option<Overrun> {
    let limit = Duration::from_secs(cfg.shape.time);
    Overrun::noted(limit.as_secs_f64(), total_time).then(|| Overrun {
        by_s: total_time - limit.as_secs_f64(),
        last_tick_late_s: saw_end
            .saturating_duration_since(measure_start + limit)
            .as_secs_f64(),
        last_events_max_ms: tail.counts.lat_max_ns as f64 / 1e6,
    })
}
