//! At most `SETUP_SLOTS` workers connect and prepare at once. A server takes new connections
//! from a listen queue of `back_log` entries (MariaDB: 50 + max_connections / 5, at most 900);
//! 2 048 workers connecting at once overflowed it, and Linux then drops a connection the client
//! already sees as established: the client waits for a greeting that never comes (98 of 2 048
//! here, the run stuck in its set-up with the server idle). Taking turns costs a run of 2 048
//! connections about a second of set-up and a run of 32 or fewer nothing.

use std::sync::{Condvar, Mutex};

/// Workers setting up at once.
pub const SETUP_SLOTS: usize = 32;

pub struct SetupSlots {
    free: Mutex<usize>,
    cv: Condvar,
}

/// A slot held; given back when dropped.
pub struct Slot<'a>(&'a SetupSlots);

impl SetupSlots {
    pub fn new(n: usize) -> SetupSlots {
        SetupSlots {
            free: Mutex::new(n.max(1)),
            cv: Condvar::new(),
        }
    }

    /// Wait for a free slot.
    pub fn take(&self) -> Slot<'_> {
        let mut free = self.free.lock().unwrap_or_else(|p| p.into_inner());
        while *free == 0 {
            free = self.cv.wait(free).unwrap_or_else(|p| p.into_inner());
        }
        *free -= 1;
        Slot(self)
    }
}

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        *self.0.free.lock().unwrap_or_else(|p| p.into_inner()) += 1;
        self.0.cv.notify_one();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn no_more_than_the_slots_hold_at_once() {
        let slots = SetupSlots::new(3);
        let (inside, most) = (AtomicUsize::new(0), AtomicUsize::new(0));
        std::thread::scope(|s| {
            for _ in 0..12 {
                s.spawn(|| {
                    let _slot = slots.take();
                    let n = inside.fetch_add(1, Ordering::SeqCst) + 1;
                    most.fetch_max(n, Ordering::SeqCst);
                    std::thread::sleep(std::time::Duration::from_millis(5));
                    inside.fetch_sub(1, Ordering::SeqCst);
                });
            }
        });
        assert_eq!(most.load(Ordering::SeqCst), 3);
    }
}
