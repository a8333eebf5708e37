//! `--report-checkpoints`: sysbench's full report at given seconds, each covering the time since
//! the previous checkpoint, after which the counts start again (so the final report covers the
//! time since the last one). Checkpoints are taken at the reporter's ticks: every second, or
//! every `--report-interval` seconds when that is longer, so a checkpoint between two ticks is
//! taken at the next one.

use super::summary::summarize;
use dbpress_config::{Reporting, RunConfig};
use dbpress_measure::stats::snapshot::{ThreadShare, Totals};
use dbpress_result::{Checkpoint, Checkpoints, Summary};

pub struct CheckpointClock {
    /// Seconds since the start of measurement, ascending.
    due: Vec<u64>,
    next: usize,
    /// What the current period has gathered.
    period: Totals,
    /// Per-thread (events, latency sum) at the start of the period.
    base: Vec<ThreadShare>,
    /// When the period began, in seconds since the start of measurement.
    began_s: f64,
    reports: Vec<Checkpoint>,
}

impl CheckpointClock {
    pub fn new(reporting: &Reporting, threads: usize) -> CheckpointClock {
        CheckpointClock {
            due: reporting.checkpoints.clone(),
            next: 0,
            period: Totals::new(0),
            base: vec![ThreadShare::default(); threads],
            began_s: 0.0,
            reports: Vec::new(),
        }
    }

    /// A tick's totals belong to the current period.
    pub fn add(&mut self, tick: &Totals) {
        if !self.due.is_empty() {
            self.period.add(tick);
        }
    }

    /// The report of a checkpoint due at the tick `time_s`, if one is, starting a new period.
    pub fn take(
        &mut self,
        cfg: &RunConfig,
        time_s: f64,
        per_thread: &[ThreadShare],
    ) -> Option<&Checkpoint> {
        // Ticks land a hair after their second; sysbench names them rounded, as here.
        let at = time_s.round() as u64;
        if self.due.get(self.next).is_none_or(|&d| d > at) {
            return None;
        }
        while self.due.get(self.next).is_some_and(|&d| d <= at) {
            self.next += 1;
        }
        let summary = self.close_period(cfg, time_s, per_thread);
        self.reports.push(Checkpoint { time_s, summary });
        self.reports.last()
    }

    /// The checkpoints taken and the period after the last one, which ended at `end_s` after
    /// `tail` finished; None when no checkpoint was taken.
    pub fn finish(
        mut self,
        cfg: &RunConfig,
        tail: &Totals,
        end_s: f64,
        per_thread: &[ThreadShare],
    ) -> Option<Checkpoints> {
        if self.reports.is_empty() {
            return None;
        }
        self.period.add(tail);
        let last_period = self.close_period(cfg, end_s, per_thread);
        Some(Checkpoints {
            reports: self.reports,
            last_period,
        })
    }

    fn close_period(&mut self, cfg: &RunConfig, now_s: f64, per_thread: &[ThreadShare]) -> Summary {
        let since: Vec<ThreadShare> = per_thread
            .iter()
            .zip(&self.base)
            .map(|(now, then)| now.since(then))
            .collect();
        let mut summary = summarize(cfg, &self.period, (now_s - self.began_s).max(0.0), &since);
        // A period's shortest and longest event per thread are not kept apart from the run's.
        summary.fairness.threads.clear();
        self.period.reset();
        self.base = per_thread.to_vec();
        self.began_s = now_s;
        summary
    }
}
