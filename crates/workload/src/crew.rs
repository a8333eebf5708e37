//! A lifecycle command's crew: N sessions working side by side (loading tables, prewarming them),
//! each on a connection of its own, all stopping at the first error or at a stop signal. The
//! harness owns the threads; the workload says what one session does.

use crate::workload::Context;
use dbpress_core::error::{Error, Result};
use dbpress_core::signals::Signals;
use dbpress_driver::Connection;
use std::sync::Mutex;

/// Run `work(worker, conn, stopped)` on `workers` threads, worker `i` on connection `i`.
/// `stopped()` turns true once a worker failed or, with `signals`, a stop signal came: `work`
/// asks it between units and returns. The first error (connecting included) is returned.
pub fn crew<W>(ctx: &Context<'_>, workers: usize, signals: Option<&Signals>, work: W) -> Result<()>
where
    W: Fn(usize, &mut dyn Connection, &dyn Fn() -> bool) -> Result<()> + Sync,
{
    let first_error: Mutex<Option<Error>> = Mutex::new(None);
    let failed = || {
        first_error
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .is_some()
    };
    let stopped = || signals.is_some_and(|s| s.caught().is_some()) || failed();
    std::thread::scope(|scope| {
        for worker in 0..workers {
            let (work, stopped, first_error) = (&work, &stopped, &first_error);
            scope.spawn(move || {
                let r = ctx
                    .connect(worker)
                    .and_then(|mut conn| work(worker, conn.as_mut(), stopped));
                if let Err(e) = r {
                    first_error
                        .lock()
                        .unwrap_or_else(|p| p.into_inner())
                        .get_or_insert(e);
                }
            });
        }
    });
    match first_error.into_inner().unwrap_or_else(|p| p.into_inner()) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}
