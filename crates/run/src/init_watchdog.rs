//! `--thread-init-timeout`: a run's set-up (checking the tables, connecting every thread and
//! preparing its statements) must finish in this many seconds, as in sysbench master.
//!
//! A server that does not answer (a lock held on the tables, a server out of threads) would
//! otherwise leave dbpress waiting with nothing printed. The set-up blocks in the server's
//! sockets, on threads that cannot be abandoned and joined, so the watchdog, like sysbench's
//! alarm, ends the process with one line: there is nothing measured to report yet.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What the set-up is doing, for the message.
const CHECKING: usize = usize::MAX;

struct State {
    done: AtomicBool,
    /// Threads connected with their statements prepared, or `CHECKING` before they start.
    ready: AtomicUsize,
}

pub struct InitWatchdog {
    state: Arc<State>,
    thread: Option<std::thread::Thread>,
}

impl InitWatchdog {
    /// Start watching a set-up of `threads` workers; 0 seconds watches nothing.
    pub fn arm(seconds: u64, threads: u32) -> InitWatchdog {
        let state = Arc::new(State {
            done: AtomicBool::new(false),
            ready: AtomicUsize::new(CHECKING),
        });
        if seconds == 0 {
            return InitWatchdog {
                state,
                thread: None,
            };
        }
        let watched = Arc::clone(&state);
        let deadline = Instant::now() + Duration::from_secs(seconds);
        let spawned = std::thread::Builder::new()
            .name("dbpress-init-watchdog".into())
            .stack_size(64 * 1024)
            .spawn(move || loop {
                if watched.done.load(Ordering::Acquire) {
                    return;
                }
                let now = Instant::now();
                if now >= deadline {
                    let ready = watched.ready.load(Ordering::Relaxed);
                    give_up(seconds, ready, threads);
                }
                std::thread::park_timeout(deadline - now);
            });
        InitWatchdog {
            state,
            thread: spawned.ok().map(|h| h.thread().clone()),
        }
    }

    /// The tables are checked: the workers are connecting.
    pub fn workers_started(&self) {
        self.state.ready.store(0, Ordering::Relaxed);
    }

    /// One more worker is connected with its statements prepared.
    pub fn worker_ready(&self) {
        self.state.ready.fetch_add(1, Ordering::Relaxed);
    }

    /// The set-up is over (done or failed with its own message): stop watching.
    pub fn disarm(&self) {
        self.state.done.store(true, Ordering::Release);
        if let Some(t) = &self.thread {
            t.unpark();
        }
    }
}

impl Drop for InitWatchdog {
    fn drop(&mut self) {
        self.disarm();
    }
}

fn give_up(seconds: u64, ready: usize, threads: u32) -> ! {
    let stage = if ready == CHECKING {
        "still checking the tables".to_string()
    } else {
        format!("{ready} of {threads} threads connected with their statements prepared")
    };
    eprintln!(
        "dbpress: error: the run was not set up within --thread-init-timeout={seconds} s ({stage}): \
         the server is not answering (a lock held on the tables? a server out of connections or threads?); \
         check it, or raise --thread-init-timeout"
    );
    std::process::exit(2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_set_up_that_finishes_in_time_disarms_the_watchdog() {
        let w = InitWatchdog::arm(1, 2);
        w.workers_started();
        w.worker_ready();
        w.worker_ready();
        assert_eq!(w.state.ready.load(Ordering::Relaxed), 2);
        w.disarm();
        // Past the deadline: a watchdog that had not let go would have ended this test process
        // with exit code 2 by now (give_up), failing the run of the crate's tests. Surviving
        // the sleep is the check.
        std::thread::sleep(Duration::from_millis(1200));
    }
}
