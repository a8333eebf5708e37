//! What the server says while the run works: its wait events of the run's sessions and its
//! status, each read on a thread and a session of its own from the workers' release to the
//! run's stop.

use crate::shared::Shared;
use dbpress_config::{RunConfig, Sampling};
use dbpress_driver::Driver;
use dbpress_measure::status::{ServerStatus, StatusItem, StatusTimeline};
use dbpress_measure::waits::{ServerWaits, Timeline};
use std::thread::{Scope, ScopedJoinHandle};

/// The status figures a run reads (the engine's set and `--server-status`'s additions) and
/// where they come from; None when the engine has none or `--server-status=off`.
pub fn status_items(sampling: &Sampling, driver: &dyn Driver) -> Option<(Vec<StatusItem>, String)> {
    let spec = driver.status_spec()?;
    let extra = sampling.status.as_ref()?;
    Some((
        dbpress_measure::status::items(spec, extra),
        spec.source.to_string(),
    ))
}

/// The sampler threads of a run.
pub struct Samplers<'scope> {
    waits: Option<ScopedJoinHandle<'scope, (ServerWaits, Timeline)>>,
    status: Option<ScopedJoinHandle<'scope, (ServerStatus, StatusTimeline)>>,
}

/// What the samplers read, once they have stopped.
pub struct Sampled {
    pub waits: Option<(ServerWaits, Timeline)>,
    pub status: Option<(ServerStatus, StatusTimeline)>,
}

impl<'scope> Samplers<'scope> {
    /// Start the samplers the run asks for; they stop with the run (`shared.stop`).
    pub fn start<'env>(
        s: &'scope Scope<'scope, 'env>,
        cfg: &RunConfig,
        driver: &'env dyn Driver,
        status_items: Option<&'env (Vec<StatusItem>, String)>,
        shared: &'env Shared,
    ) -> Samplers<'scope> {
        let threads = cfg.shape.threads as usize;
        let waits = driver
            .wait_source()
            .filter(|_| cfg.sampling.waits)
            .map(|source| {
                s.spawn(move || dbpress_measure::waits::sample(driver, source, threads, shared))
            });
        let status = status_items.map(|(items, source)| {
            s.spawn(move || dbpress_measure::status::sample(driver, items, source, shared))
        });
        Samplers { waits, status }
    }

    /// Wait for the samplers (after the run's stop) and take what they read. Their sessions
    /// are closed by then, before the counters are read again (PostgreSQL's reading waits
    /// until no dbpress session is left) and the server's CPU is read.
    pub fn join(self) -> Sampled {
        Sampled {
            waits: self.waits.and_then(|h| h.join().ok()),
            status: self.status.and_then(|h| h.join().ok()),
        }
    }
}
