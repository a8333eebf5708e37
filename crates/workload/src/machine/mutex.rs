//! sysbench's `mutex` test: threads that run alone most of the time and take a mutex only
//! briefly. Each thread runs one event: `--mutex-locks` times, an empty loop of
//! `--mutex-loops` steps, then one of `--mutex-num` mutexes drawn at random taken, a shared
//! counter incremented under it, and let go — as sysbench's manual describes it.

use crate::events::{EventGen, Exec};
use dbpress_core::error::Result;
use dbpress_core::options::OptionValues;
use dbpress_core::rand::Rng;
use dbpress_driver::DbResult;
use dbpress_result::machine::MachineTest;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};

pub const NAME: &str = "mutex";
pub const DESCRIPTION: &str =
    "an empty loop, then a random mutex taken briefly, --mutex-locks times per thread: mutex cost (sysbench mutex; no database)";

/// A mutex on its own cache lines, so neighbours in the array do not share one (sysbench's
/// array elements are 296 bytes apart).
#[repr(align(128))]
struct Padded(Mutex<()>);

pub struct MutexTest {
    locks: u64,
    loops: u64,
    mutexes: Arc<[Padded]>,
    /// What the mutexes guard: a counter every thread increments.
    counter: Arc<AtomicU64>,
}

impl MutexTest {
    pub fn new(opts: &OptionValues) -> Result<MutexTest> {
        use super::keys::*;
        let num = opts.int(MUTEX_NUM)?;
        Ok(MutexTest {
            locks: opts.int(MUTEX_LOCKS)?,
            loops: opts.int(MUTEX_LOOPS)?,
            mutexes: (0..num).map(|_| Padded(Mutex::new(()))).collect(),
            counter: Arc::new(AtomicU64::new(0)),
        })
    }

    pub fn asked(&self) -> MachineTest {
        MachineTest {
            mutex_num: Some(self.mutexes.len() as u64),
            mutex_locks: Some(self.locks),
            mutex_loops: Some(self.loops),
            ..MachineTest::of(NAME)
        }
    }

    pub fn events(&self, rng: Rng) -> MutexEvents {
        MutexEvents {
            mutexes: self.mutexes.clone(),
            counter: self.counter.clone(),
            locks: self.locks,
            loops: self.loops,
            rng,
        }
    }
}

pub struct MutexEvents {
    mutexes: Arc<[Padded]>,
    counter: Arc<AtomicU64>,
    locks: u64,
    loops: u64,
    rng: Rng,
}

impl EventGen for MutexEvents {
    fn event(&mut self, _exec: &mut Exec<'_>) -> DbResult<()> {
        let last = self.mutexes.len() as u32 - 1;
        for _ in 0..self.locks {
            let m = self.rng.uniform(0, last) as usize;
            empty_loop(self.loops);
            let held = self.mutexes[m].0.lock().unwrap_or_else(|p| p.into_inner());
            // A plain load and store, as sysbench's increment (not a locked one: threads under
            // different mutexes may lose each other's, as sysbench's do).
            self.counter.store(self.counter.load(Relaxed) + 1, Relaxed);
            drop(held);
        }
        Ok(())
    }
}

/// `n` steps of a loop that does nothing, kept: a counter in a register moved and compared
/// with the bound each step, the loop a C compiler makes of sysbench's (three instructions a
/// step, one step a cycle, whatever the optimizer would make of a Rust loop).
#[inline(always)]
fn empty_loop(n: u64) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: arithmetic on two registers, nothing else.
    unsafe {
        std::arch::asm!(
            "xor {i}, {i}",
            "test {n}, {n}",
            "jz 3f",
            // Aligned, as a C compiler aligns a loop's head: a loop that happens to straddle a
            // 32-byte boundary runs at half the speed on some Intel cores (the JCC erratum).
            ".p2align 5",
            "2:",
            "add {i}, 1",
            "cmp {i}, {n}",
            "jb 2b",
            "3:",
            i = out(reg) _,
            n = in(reg) n,
            options(nostack, nomem),
        );
    }
    #[cfg(not(target_arch = "x86_64"))]
    for i in 0..n {
        std::hint::black_box(i);
    }
}
