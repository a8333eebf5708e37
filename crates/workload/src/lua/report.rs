//! A script's report hooks as the workload's own reports: `report_intermediate` in a state of
//! its own made on the reporter's thread (as sysbench's reporter makes one, running the script
//! again), called at each tick with the interval's figures; `report_cumulative` at each
//! --report-checkpoints checkpoint (in a state of its own too) and at the end with the period's. A hook's error is one warning line and the run goes on (the figures are kept in
//! the result either way).

use super::{driver_name, LuaWorkload, MainSlot};
use crate::workload::{CheckpointReport, IntervalReport};
use dbpress_core::rand::Rng;
use dbpress_driver::Dialect;
use dbpress_lua::{Hook, Reports, Stat, State};
use dbpress_result::{Checkpoint, Interval, Summary};

/// The reporter's state, with its `report_intermediate`.
pub(super) struct LuaIntervalReport {
    reports: Reports,
    warned: bool,
}

impl IntervalReport for LuaIntervalReport {
    fn report(&mut self, iv: &Interval) {
        // sysbench hands counts over the interval and latency in seconds; its reporters divide.
        let stat = Stat {
            threads_running: iv.threads,
            time_interval: iv.duration_s,
            time_total: iv.time_s,
            latency_pct: iv.latency_pct_ms / 1e3,
            events: iv.events,
            reads: iv.reads,
            writes: iv.writes,
            other: iv.other,
            errors: iv.errors,
            reconnects: iv.reconnects,
            queue: Some((iv.queue_length.unwrap_or(0), iv.concurrency.unwrap_or(0))),
            latency: None,
        };
        if let Err(e) = self.reports.report(&stat) {
            // Once: the same failure every second would bury the run's own output.
            if !self.warned {
                hook_failed(Hook::Intermediate, &e);
                self.warned = true;
            }
        }
    }
}

/// One line on a hook that failed (sysbench logs it and goes on too), and what stands in.
fn hook_failed(hook: Hook, e: &dbpress_lua::ScriptError) {
    let instead = match hook {
        Hook::Intermediate => "its lines are missing; the intervals are in the result",
        Hook::Cumulative => "dbpress's own summary is printed instead",
    };
    if dbpress_core::verbosity::warnings() {
        eprintln!(
            "dbpress: warning: the script's sysbench.hooks.{} failed: {e}; fix the hook ({instead})",
            hook.name()
        );
    }
}

impl LuaWorkload {
    fn main_slot(&self) -> std::sync::MutexGuard<'_, Option<State>> {
        self.main.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Run with the main state in `slot` (its lender takes it back from there).
    pub(super) fn share_main(&mut self, slot: MainSlot) {
        self.main = slot;
    }

    /// A state for `hook` on this thread, `tid` as sysbench numbers it; None when the script
    /// leaves the hook unset. A script that cannot run again here has already failed its
    /// workers' states, which report it.
    fn reports(&self, dialect: &Dialect, tid: u32, hook: Hook) -> Option<Reports> {
        let rng = Rng::new(self.seed, u64::from(tid));
        Reports::new(
            &self.script,
            driver_name(dialect),
            tid,
            rng,
            &self.dist,
            hook,
        )
        .unwrap_or_else(|e| {
            hook_failed(hook, &e);
            None
        })
    }

    /// `Workload::interval_report`: the reporter's state takes the slot after the workers'
    /// (sysbench.tid = --threads).
    pub(super) fn lua_interval_report(
        &self,
        dialect: &'static Dialect,
        threads: u32,
    ) -> Option<Box<dyn IntervalReport + '_>> {
        let reports = self.reports(dialect, threads, Hook::Intermediate)?;
        Some(Box::new(LuaIntervalReport {
            reports,
            warned: false,
        }))
    }

    /// `Workload::checkpoint_report`: `report_cumulative` in a state of its own, as sysbench's
    /// checkpoint thread has (its slot after the reporter's).
    pub(super) fn lua_checkpoint_report(
        &self,
        dialect: &'static Dialect,
        threads: u32,
    ) -> Option<Box<dyn CheckpointReport + '_>> {
        if !names_hook(&self.script.source, Hook::Cumulative) {
            return None;
        }
        let reports = self.reports(dialect, threads + 1, Hook::Cumulative)?;
        Some(Box::new(LuaCheckpointReport {
            reports,
            warned: false,
        }))
    }

    /// `Workload::final_report`: `report_cumulative` in the main state lent for the run, else
    /// (a run without one) in a main state (tid 0) made for it and closed after it, so a
    /// `report_json` hook's `]` ends its output; scripts that never name the hook are then not
    /// run again for it.
    pub(super) fn lua_final_report(
        &self,
        dialect: &'static Dialect,
        s: &Summary,
        elapsed_s: f64,
        threads_running: u32,
    ) -> bool {
        let stat = cumulative_stat(s, elapsed_s, threads_running);
        if let Some(main) = self.main_slot().as_mut() {
            return match Reports::call_in(main, Hook::Cumulative, &stat) {
                Ok(called) => called,
                Err(e) => {
                    hook_failed(Hook::Cumulative, &e);
                    false
                }
            };
        }
        if !names_hook(&self.script.source, Hook::Cumulative) {
            return false;
        }
        let Some(mut reports) = self.reports(dialect, 0, Hook::Cumulative) else {
            return false;
        };
        match reports.report(&stat) {
            Ok(()) => true,
            Err(e) => {
                hook_failed(Hook::Cumulative, &e);
                false
            }
        }
    }
}

/// The checkpoint thread's state, with its `report_cumulative`.
pub(super) struct LuaCheckpointReport {
    reports: Reports,
    warned: bool,
}

impl CheckpointReport for LuaCheckpointReport {
    fn report(&mut self, c: &Checkpoint, threads_running: u32) {
        // sysbench's own line comes first; the hook's report takes its block's place.
        dbpress_core::outln!("[ {:.0}s ] Checkpoint report:", c.time_s);
        let stat = cumulative_stat(&c.summary, c.time_s, threads_running);
        if let Err(e) = self.reports.report(&stat) {
            if !self.warned {
                hook_failed(Hook::Cumulative, &e);
                self.warned = true;
            }
        }
    }
}

/// `report_cumulative`'s `stat` for a period (`s`, the run or a checkpoint's), `elapsed_s`
/// after the start.
fn cumulative_stat(s: &Summary, elapsed_s: f64, threads_running: u32) -> Stat {
    let l = &s.latency;
    Stat {
        threads_running,
        time_interval: s.total_time_s,
        time_total: elapsed_s,
        latency_pct: l.pct_ms / 1e3,
        events: s.events,
        reads: s.reads,
        writes: s.writes,
        other: s.other,
        errors: s.errors,
        reconnects: s.reconnects,
        queue: None,
        latency: Some([l.min_ms, l.max_ms, l.avg_ms, l.sum_ms].map(|ms| ms / 1e3)),
    }
}

/// Whether a script's text names `hook` at all (it might set it).
fn names_hook(source: &[u8], hook: Hook) -> bool {
    let name = hook.name().as_bytes();
    source.windows(name.len()).any(|w| w == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_script_naming_the_hook_is_run_again_for_it() {
        let src = b"sysbench.hooks.report_cumulative = sysbench.report_json\n";
        assert!(names_hook(src, Hook::Cumulative));
        assert!(!names_hook(src, Hook::Intermediate));
    }
}
