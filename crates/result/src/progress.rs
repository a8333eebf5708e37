//! What a run tells as it goes, handed to whatever the command chose to render it with
//! (sysbench's text lines, or nothing when stdout carries a JSON result): the runner renders
//! nothing itself.

use crate::{Checkpoint, Interval};

/// A moment of the run worth a line of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The workers are being set up (connections, statements).
    Initializing,
    /// Every worker is ready and released.
    Started,
    /// The `--warmup-time` before measurement begins.
    WarmingUp { seconds: u64 },
    /// The run's limit was met by its `threads` workers, each of which stops: `--time` ran
    /// out (`events`: false), or `--events` did.
    LimitExceeded { events: bool, threads: u32 },
    /// Some seconds after the run stopped, `running` of `threads` workers are still inside an
    /// event, waiting for the server (said once).
    StillWaiting {
        running: u32,
        threads: u32,
        seconds: u64,
    },
    /// `--forced-shutdown` ended the run with workers still waiting on the server.
    ForcedShutdown,
    /// Every worker has stopped.
    Done,
}

/// The command's renderer of a run in progress.
pub trait Progress {
    fn phase(&mut self, phase: Phase);
    /// One `--report-interval` period, as the result keeps it.
    fn interval(&mut self, interval: &Interval);
    /// A `--report-checkpoints` report: the totals of the period since the last one.
    fn checkpoint(&mut self, checkpoint: &Checkpoint);
}
