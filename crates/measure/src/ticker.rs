//! The pace of the samplers that watch a run from a session of their own (server waits, server
//! status): a tick every period, never a burst to catch up, and an end as soon as the run stops.

use dbpress_driver::DbError;
use std::time::{Duration, Instant};

pub struct Ticker {
    every: Duration,
    next: Instant,
}

impl Ticker {
    /// The first tick is now.
    pub fn new(every: Duration) -> Ticker {
        Ticker {
            every,
            next: Instant::now(),
        }
    }

    /// Wait for the next tick; false as soon as `stopped` says the run has stopped. Sleeps in
    /// slices short enough to notice the stop.
    pub fn wait(&mut self, stopped: &dyn Fn() -> bool) -> bool {
        loop {
            if stopped() {
                return false;
            }
            let now = Instant::now();
            if now >= self.next {
                self.next += self.every;
                // A sampler the scheduler held up does not catch up with a burst of samples.
                if self.next < now {
                    self.next = now + self.every;
                }
                return true;
            }
            std::thread::sleep((self.next - now).min(Duration::from_millis(20)));
        }
    }
}

/// The sampler's session is gone (a restart, a failover, a killed session): worth opening
/// again, where any other error would only repeat.
pub fn session_lost(e: &DbError) -> bool {
    e.kind.out_of_reach()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_at_the_period_and_ends_at_the_stop() {
        let mut t = Ticker::new(Duration::from_millis(30));
        let t0 = Instant::now();
        assert!(t.wait(&|| false));
        assert!(t.wait(&|| false));
        assert!(t0.elapsed() >= Duration::from_millis(30));
        assert!(!t.wait(&|| true));
    }
}
