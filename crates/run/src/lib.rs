//! Who executes the workload, and when: one OS thread and one connection per `--threads`,
//! closed loop or `--rate` schedule, `--time`/`--events` stop, warm-up, signals, and the
//! reporter loop (this thread) that folds per-thread statistics into intervals.
//!
//! - `execute`: `run` (workers, gate, reporter, conclusion), `probe`
//! - `reporter`: the warm-up and the reading of every cell into intervals and checkpoints
//! - `conclude`: the run's figures once its workers ended, and where its measured time ends
//! - `samplers`: the server's wait events and status, read while the run works
//! - `diagnose`: a worker's failed set-up and the error that stopped a run, as one line with the fix
//! - `start`: a worker's life (set up, ready, the gate, its events); `worker`, `keyed`: its
//!   event loop, general and for one keyed statement
//! - `pacing`: the `--rate` schedule; `shared`: what every worker reads
//! - `summary`, `checkpoints`: the run's and each checkpoint period's summary
//! - `limits`, `init_watchdog`, `shutdown`: file and thread limits, `--thread-init-timeout`,
//!   the wait for workers after the end
//! - `setup_slots`: how many workers connect and prepare at once

pub mod as_sysbench;
mod checkpoints;
mod conclude;
mod diagnose;
mod driven;
mod execute;
pub mod init_watchdog;
mod keyed;
mod limits;
mod pacing;
mod reporter;
mod samplers;
mod setup_slots;
mod shared;
mod shutdown;
mod start;
mod summary;
mod worker;

pub use conclude::RunOutput;
pub use diagnose::fatal_message;
pub use execute::{probe, run, Controls, OnForced};
pub use shared::Shared;
