//! A run in progress as sysbench prints it: its phase lines, `[ 1s ] thds: …` per interval,
//! and checkpoint reports, written as they come.

use dbpress_result::progress::{Phase, Progress};
use dbpress_result::{Checkpoint, Interval};
use std::io::Write;

pub struct TextProgress<'a> {
    out: &'a mut dyn Write,
    /// `--percentile`: the latency column of the interval lines.
    percentile: u32,
}

impl<'a> TextProgress<'a> {
    pub fn new(out: &'a mut dyn Write, percentile: u32) -> TextProgress<'a> {
        TextProgress { out, percentile }
    }
}

impl Progress for TextProgress<'_> {
    fn phase(&mut self, phase: Phase) {
        let out = &mut self.out;
        let _ = match phase {
            Phase::Initializing => writeln!(out, "Initializing worker threads...\n"),
            Phase::Started => writeln!(out, "Threads started!\n"),
            Phase::WarmingUp { seconds } => writeln!(out, "Warming up for {seconds} seconds...\n"),
            // sysbench's INFO line, which each of its workers logs on meeting the limit, and
            // its log folds into one and a count of the repeats.
            Phase::LimitExceeded { events, threads } if dbpress_core::verbosity::info() => {
                let limit = if events { "Event" } else { "Time" };
                let _ = writeln!(out, "{limit} limit exceeded, exiting...");
                match threads {
                    0 | 1 => Ok(()),
                    n => writeln!(out, "(last message repeated {} times)", n - 1),
                }
            }
            // sysbench's words, where its report goes.
            Phase::ForcedShutdown => writeln!(
                out,
                "FATAL: The --max-time limit has expired, forcing shutdown..."
            ),
            Phase::Done if dbpress_core::verbosity::info() => writeln!(out, "Done.\n"),
            Phase::LimitExceeded { .. } | Phase::Done => Ok(()),
            // A notice, on stderr whatever carries the report.
            Phase::StillWaiting {
                running,
                threads,
                seconds,
            } => {
                if dbpress_core::verbosity::warnings() {
                    eprintln!(
                        "dbpress: notice: {running} of {threads} threads are still inside an event {seconds} s after the run stopped: \
                         waiting for the server to answer them (--forced-shutdown=N ends a --time run N seconds after its end without them; \
                         Ctrl-C twice quits at once)"
                    );
                }
                Ok(())
            }
        };
        if !matches!(
            phase,
            Phase::LimitExceeded { .. } | Phase::Done | Phase::StillWaiting { .. }
        ) {
            let _ = out.flush();
        }
    }

    fn interval(&mut self, interval: &Interval) {
        let _ = writeln!(
            self.out,
            "{}",
            super::interval_line(interval, self.percentile)
        );
        if let Some(extra) = super::rate_lines(interval) {
            let _ = writeln!(self.out, "{extra}");
        }
        let _ = self.out.flush();
    }

    fn checkpoint(&mut self, checkpoint: &Checkpoint) {
        let _ = write!(
            self.out,
            "{}",
            super::checkpoint_report(checkpoint, self.percentile)
        );
    }
}
