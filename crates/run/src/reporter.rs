//! The reporter (the run's own thread while the workers run): the warm-up, then a reading of
//! every worker's cell at each `--report-interval` tick folded into an interval (and the
//! checkpoints), until the run finishes: `--time`, a signal, a fatal error, the workers done.

use crate::checkpoints::CheckpointClock;
use crate::pacing::Schedule;
use crate::shared::Shared;
use dbpress_config::RunConfig;
use dbpress_core::signals::Signals;
use dbpress_driver::Dialect;
use dbpress_measure::host::Sampler;
use dbpress_measure::stats::snapshot::{collect, ThreadShare, Totals};
use dbpress_measure::stats::summary::percentile_ms;
use dbpress_measure::stats::ThreadCell;
use dbpress_result::progress::{Phase, Progress};
use dbpress_result::Interval;
use dbpress_workload::workload::{CheckpointReport, IntervalReport};
use dbpress_workload::Workload;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// What the reporter watches.
pub struct Watched<'a> {
    pub cfg: &'a RunConfig,
    pub shared: &'a Shared,
    pub cells: &'a [ThreadCell],
    pub schedule: Option<&'a Schedule>,
    pub signals: &'a Signals,
    /// The workload's own reports, printed in place of dbpress's.
    pub own: OwnReports<'a>,
}

/// The workload's own reports of the ticks and the checkpoints (a script's hooks), where it
/// has them.
pub struct OwnReports<'a> {
    interval: Option<Box<dyn IntervalReport + 'a>>,
    checkpoint: Option<Box<dyn CheckpointReport + 'a>>,
}

/// The workload's own reports of what this run reports as it goes (the ticks with
/// --report-interval, the checkpoints). Made before the run's start is announced, as
/// sysbench's reporter and checkpoint threads make their states (their scripts' top-level
/// output comes before "Threads started!"), on the thread that then reports.
pub fn own_reports<'a>(
    cfg: &RunConfig,
    workload: &'a dyn Workload,
    dialect: &'static Dialect,
) -> OwnReports<'a> {
    let threads = cfg.shape.threads;
    OwnReports {
        interval: (cfg.reporting.interval > 0)
            .then(|| workload.interval_report(dialect, threads))
            .flatten(),
        checkpoint: (!cfg.reporting.checkpoints.is_empty())
            .then(|| workload.checkpoint_report(dialect, threads))
            .flatten(),
    }
}

/// What the reporter saw, for the run's conclusion.
pub struct LoopOutput {
    pub intervals: Vec<Interval>,
    pub totals: Totals,
    pub interrupted_by: Option<&'static str>,
    /// Each thread's share, for the fairness figures.
    pub per_thread: Vec<ThreadShare>,
    pub measure_start: Instant,
    pub last_tick: Instant,
    /// When the reporter saw the run end (past --time, a signal, the workers gone).
    pub saw_end: Instant,
    pub checkpoints: CheckpointClock,
}

/// The reporter's state between ticks.
struct Reporter<'a> {
    run: Watched<'a>,
    tick: Duration,
    /// The end of --time, counted from the start of measurement.
    deadline: Option<Instant>,
    /// The next tick's number.
    n: u32,
    running_at_tick: u32,
    iv: Totals,
    out: LoopOutput,
}

/// Warm up, then report until the run finishes. `started`: when the workers were released.
pub fn report(
    run: Watched<'_>,
    kinds: usize,
    started: Instant,
    host: &mut Sampler,
    progress: &mut dyn Progress,
) -> LoopOutput {
    let measure_start = warm_up(&run, started, host, progress);
    let mut r = Reporter::new(run, kinds, measure_start);
    while !r.tick(host, progress) {}
    host.end();
    let Reporter { run, out, .. } = r;
    // The workload's reports end with the ticks (a script's reporter state is closed, so a
    // `report_json` hook's `]` comes now), before the final report, as in sysbench.
    drop(run);
    out
}

/// `--warmup-time`: workers run but record nothing, then measurement starts. Returns when it
/// started: the workers' release without a warm-up (not when this thread next ran: with hundreds
/// of workers just woken it can wait a good part of a second for a CPU, and the workers' own
/// deadline, `Shared::past_deadline`, counts from the release).
fn warm_up(
    run: &Watched<'_>,
    started: Instant,
    host: &mut Sampler,
    progress: &mut dyn Progress,
) -> Instant {
    let (cfg, shared, signals) = (run.cfg, run.shared, run.signals);
    if cfg.shape.warmup == 0 {
        return started;
    }
    progress.phase(Phase::WarmingUp {
        seconds: cfg.shape.warmup,
    });
    let warm_end = started + Duration::from_secs(cfg.shape.warmup);
    while Instant::now() < warm_end
        && !shared.stop.load(Ordering::Relaxed)
        && signals.caught().is_none()
    {
        std::thread::sleep(
            Duration::from_millis(20).min(warm_end.saturating_duration_since(Instant::now())),
        );
    }
    // Workers record nothing while `measuring` is false, so there is nothing to discard.
    // A run stopped during warm-up (a signal, a fatal error) measures nothing at all:
    // starting measurement on the way out would count a few ms of events as the run.
    if signals.caught().is_some() || shared.stop.load(Ordering::Relaxed) {
        shared.stop.store(true, Ordering::Relaxed);
    } else {
        shared.measuring.store(true, Ordering::Relaxed);
    }
    host.begin();
    Instant::now()
}

impl<'a> Reporter<'a> {
    fn new(run: Watched<'a>, kinds: usize, measure_start: Instant) -> Reporter<'a> {
        let cfg = run.cfg;
        let out = LoopOutput {
            intervals: Vec::new(),
            totals: Totals::new(kinds),
            interrupted_by: None,
            per_thread: vec![ThreadShare::default(); run.cells.len()],
            measure_start,
            last_tick: measure_start,
            saw_end: measure_start,
            checkpoints: CheckpointClock::new(&cfg.reporting, run.cells.len()),
        };
        Reporter {
            tick: Duration::from_secs(cfg.reporting.interval.max(1)),
            deadline: (cfg.shape.time > 0)
                .then(|| measure_start + Duration::from_secs(cfg.shape.time)),
            n: 1,
            running_at_tick: cfg.shape.threads,
            iv: Totals::new(0),
            out,
            run,
        }
    }

    /// Sleep in short steps until the next tick or the end of --time, waking early for a
    /// signal, a fatal error, or all workers finishing.
    fn wait(&mut self, next: Instant) {
        let shared = self.run.shared;
        let wake = self.deadline.map_or(next, |d| d.min(next));
        loop {
            if let Some(sig) = self.run.signals.caught() {
                self.out.interrupted_by = Some(sig);
                return;
            }
            if shared.stop.load(Ordering::Relaxed) || shared.running.load(Ordering::Relaxed) == 0 {
                return;
            }
            let now = Instant::now();
            if now >= wake {
                return;
            }
            // Ticks and the deadline are met exactly (`wake`); the cap only bounds how late a
            // signal or the end of an --events run is noticed, with few wakeups on busy hosts.
            std::thread::sleep((wake - now).min(Duration::from_millis(50)));
        }
    }

    /// One wake-up: an interval read where a tick came or the run finished. Returns whether
    /// the run has finished.
    fn tick(&mut self, host: &mut Sampler, progress: &mut dyn Progress) -> bool {
        let shared = self.run.shared;
        let next = self.out.measure_start + self.tick * self.n;
        self.wait(next);
        let now = Instant::now();
        let timed_out = self.deadline.is_some_and(|d| now >= d);
        let mut running_now = shared.running.load(Ordering::Relaxed) as u32;
        if timed_out {
            // Under --rate a worker leaves as soon as its next start falls after the end, so
            // by the last tick some have gone although they ran through the last second;
            // sysbench's stay until the end. The last tick counts the threads of its second.
            running_now = running_now.max(self.running_at_tick);
        }
        let stopped = shared.stop.load(Ordering::Relaxed);
        let all_left = shared.running.load(Ordering::Relaxed) == 0;
        let finished = self.out.interrupted_by.is_some() || stopped || all_left || timed_out;
        if finished {
            shared.stop.store(true, Ordering::Relaxed);
            self.out.saw_end = now;
        }
        // Every worker left because --events ran out (not a failure, a signal, or a budget
        // of each worker's own).
        let events_ran_out = all_left
            && !timed_out
            && !stopped
            && self.out.interrupted_by.is_none()
            && shared.events_limit > 0
            && shared.events_per_thread == 0
            && shared.events_claimed.load(Ordering::Relaxed) >= shared.events_limit;
        if timed_out || events_ran_out {
            progress.phase(Phase::LimitExceeded {
                events: !timed_out,
                threads: self.run.cfg.shape.threads,
            });
        }
        if now >= next || !finished {
            self.read_interval(now >= next, finished, running_now, host, progress);
        }
        finished
    }

    /// Read every cell into the interval ending now and hand it on; `full_tick`: a tick came
    /// (the interval gets its line), else the run finished between ticks.
    fn read_interval(
        &mut self,
        full_tick: bool,
        finished: bool,
        running_now: u32,
        host: &mut Sampler,
        progress: &mut dyn Progress,
    ) {
        let cfg = self.run.cfg;
        let out = &mut self.out;
        // The interval ends at the mean moment its cells were read: on a starved host
        // collecting can take a while, and each cell gives what its worker recorded up
        // to its own reading (see `collect`). Ending at the tick instead counted a late
        // collection's events as one second's (`tps: 202226` against a server doing
        // 35 000); ending at the last reading moved events into the next interval.
        let now = collect(
            self.run.cells,
            &mut out.per_thread,
            &mut out.totals.stmts,
            &mut self.iv,
        );
        let dur = now.saturating_duration_since(out.last_tick).as_secs_f64();
        let pacing = pacing_of(&self.run, &self.iv);
        let time_s = now
            .saturating_duration_since(out.measure_start)
            .as_secs_f64();
        let mut interval = interval_of(cfg, &self.iv, time_s, dur, running_now, pacing);
        // A full tick gets its line even when it ends the run: sysbench's reporter prints
        // the `[ 10s ]` of a `--time=10` run while its workers finish their last events.
        // A run that stops between ticks (--events, a signal) ends with a short interval
        // that no line reports; the result keeps it, marked closing.
        interval.closing = finished && !full_tick;
        (interval.host_cpu, interval.disk) = host.interval();
        out.checkpoints.add(&self.iv);
        // sysbench prints a checkpoint's report before that second's interval line; one
        // falling on the tick that ends the run is the final report itself.
        if full_tick && !finished {
            if let Some(c) = out.checkpoints.take(cfg, time_s, &out.per_thread) {
                match self.run.own.checkpoint.as_mut() {
                    Some(own) => own.report(c, running_now),
                    None => progress.checkpoint(c),
                }
            }
        }
        if cfg.reporting.interval > 0 && full_tick {
            // A workload's own report replaces the line, as a sysbench script's hook does
            // sysbench's; the interval is kept in the result all the same.
            match self.run.own.interval.as_mut() {
                Some(own) => own.report(&interval),
                None => progress.interval(&interval),
            }
        }
        out.totals.add(&self.iv);
        out.intervals.push(interval);
        out.last_tick = now;
        self.running_at_tick = running_now;
        self.n += 1;
        // Skip ticks that were missed (a stalled reporter), as sysbench does, but never
        // the tick at the end of --time: a reporter held up across it still ends the run
        // with that tick's line and a full interval (stretched over the ticks it missed),
        // not with a closing one that no line reports and the stall figures leave out.
        let now = Instant::now();
        let at = |n: u32| out.measure_start + self.tick * n;
        while at(self.n) <= now && self.deadline.is_none_or(|d| at(self.n) < d) {
            self.n += 1;
        }
    }
}

/// Under --rate: the schedule's backlog, the events in flight, the lag and the interval's late
/// events (`iv`'s).
fn pacing_of(run: &Watched<'_>, iv: &Totals) -> Option<PacingReading> {
    let shared = run.shared;
    // No event is due after the end of --time: a tick that comes late, past it, must not count
    // the schedule's slots beyond the end as a queue the server left behind.
    let now_ns = match shared.deadline_ns.load(Ordering::Relaxed) {
        0 => dbpress_measure::stats::now_ns().saturating_sub(shared.epoch_ns),
        end => dbpress_measure::stats::now_ns()
            .saturating_sub(shared.epoch_ns)
            .min(end),
    };
    run.schedule.map(|s| {
        (
            s.backlog(now_ns),
            shared.in_flight.load(Ordering::Relaxed),
            s.lag_ns(now_ns),
            iv.counts.late,
        )
    })
}

/// (queue length, events in flight, lag ns, late events) of an interval under --rate.
pub type PacingReading = (u64, u64, u64, u64);

pub fn interval_of(
    cfg: &RunConfig,
    iv: &Totals,
    time_s: f64,
    duration_s: f64,
    threads: u32,
    pacing: Option<PacingReading>,
) -> Interval {
    Interval {
        time_s,
        duration_s,
        threads,
        events: iv.counts.events,
        reads: iv.counts.reads,
        writes: iv.counts.writes,
        other: iv.counts.other,
        errors: iv.counts.errors,
        reconnects: iv.counts.reconnects,
        // --percentile=0: percentiles off, as in sysbench (its interval lines then say 0.00).
        latency_pct_ms: if cfg.reporting.percentile == 0 {
            0.0
        } else {
            percentile_ms(&iv.response, f64::from(cfg.reporting.percentile))
        },
        latency_p99_ms: percentile_ms(&iv.response, 99.0),
        latency_max_ms: if iv.counts.events > 0 {
            iv.counts.lat_max_ns as f64 / 1e6
        } else {
            0.0
        },
        latency_avg_ms: iv.response.mean() / 1e3,
        latency_stddev_ms: iv.response.stdev() / 1e3,
        queue_length: pacing.map(|p| p.0),
        concurrency: pacing.map(|p| p.1),
        lag_ms: pacing.map(|p| p.2 as f64 / 1e6),
        late_events: pacing.map(|p| p.3),
        skipped: (cfg.shape.rate.is_some() && cfg.shape.latency_limit_ns.is_some())
            .then_some(iv.counts.skipped),
        closing: false,
        host_cpu: None,
        disk: None,
        waits: None,
        server_status: None,
        events_by_kind: {
            let n = iv
                .counts
                .by_label
                .iter()
                .rposition(|&v| v > 0)
                .map_or(0, |i| i + 1);
            iv.counts.by_label[..n].to_vec()
        },
    }
}
