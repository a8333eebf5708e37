//! sysbench's `threads` test: the scheduler under threads that compete for a few mutexes. Each
//! event takes its thread's mutex (thread number modulo `--thread-locks`), yields the CPU and
//! lets the mutex go, `--thread-yields` times, as sysbench's manual describes it.

use crate::events::{EventGen, Exec};
use dbpress_core::error::Result;
use dbpress_core::options::OptionValues;
use dbpress_driver::DbResult;
use dbpress_result::machine::MachineTest;
use std::sync::{Arc, Mutex};

pub const NAME: &str = "threads";
pub const DESCRIPTION: &str =
    "lock a mutex, yield the CPU, unlock, --thread-yields times per event: the scheduler (sysbench threads; no database)";

pub struct Threads {
    yields: u64,
    /// The mutexes the threads share, `--thread-locks` of them.
    locks: Arc<[Mutex<()>]>,
}

impl Threads {
    pub fn new(opts: &OptionValues) -> Result<Threads> {
        use super::keys::*;
        let yields = opts.int(THREAD_YIELDS)?;
        let locks = opts.int(THREAD_LOCKS)?;
        Ok(Threads {
            yields,
            locks: (0..locks).map(|_| Mutex::new(())).collect(),
        })
    }

    pub fn asked(&self) -> MachineTest {
        MachineTest {
            thread_yields: Some(self.yields),
            thread_locks: Some(self.locks.len() as u64),
            ..MachineTest::of(NAME)
        }
    }

    /// The events of thread `thread` (from 0): on its own mutex of the shared ones.
    pub fn events(&self, thread: u32) -> ThreadsEvents {
        ThreadsEvents {
            locks: self.locks.clone(),
            mine: thread as usize % self.locks.len(),
            yields: self.yields,
        }
    }
}

pub struct ThreadsEvents {
    locks: Arc<[Mutex<()>]>,
    mine: usize,
    yields: u64,
}

impl EventGen for ThreadsEvents {
    fn event(&mut self, _exec: &mut Exec<'_>) -> DbResult<()> {
        let lock = &self.locks[self.mine];
        for _ in 0..self.yields {
            // A poisoned mutex (a panicking holder) still serialises: the test needs no data.
            let held = lock.lock().unwrap_or_else(|p| p.into_inner());
            std::thread::yield_now();
            drop(held);
        }
        Ok(())
    }
}
