//! sysbench's `memory` test: each event reads or writes one block of `--memory-block-size`
//! bytes, word by word (64-bit words), in order or at random words, in one block all threads
//! share (`--memory-scope=global`) or one of each thread's own; the run ends at
//! `--memory-total-size` bytes (or `--time`). Its report is the operations and MiB per second.

use crate::events::{EventGen, Exec};
use dbpress_core::error::{environment, failed, Result};
use dbpress_core::options::{size_bytes, OptionValues};
use dbpress_core::rand::Rng;
use dbpress_driver::DbResult;
use dbpress_result::machine::MachineTest;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Arc;

pub const NAME: &str = "memory";
pub const DESCRIPTION: &str =
    "a block read or written per event, in order or at random: memory speed (sysbench memory; no database)";

const WORD: usize = std::mem::size_of::<u64>();

#[derive(Clone, Copy, PartialEq)]
enum Oper {
    Read,
    Write,
    None,
}

pub struct Memory {
    block: usize,
    total: u64,
    oper: Oper,
    random: bool,
    /// The block every thread reads and writes (`--memory-scope=global`); None: each its own.
    shared: Option<Arc<[AtomicU64]>>,
}

impl Memory {
    pub fn new(opts: &OptionValues) -> Result<Memory> {
        use super::keys::*;
        let block = size_of(opts, MEMORY_BLOCK_SIZE.name)?;
        if block == 0 || block % WORD as u64 != 0 {
            return Err(failed(format!(
                "Invalid value for memory-block-size: {}",
                opts.text(MEMORY_BLOCK_SIZE)
            )));
        }
        let total = size_of(opts, MEMORY_TOTAL_SIZE.name)?;
        let oper = opts.choice(MEMORY_OPER, "read, write, none", |v| match v {
            "read" => Some(Oper::Read),
            "write" => Some(Oper::Write),
            "none" => Some(Oper::None),
            _ => None,
        })?;
        let random = opts.choice(MEMORY_ACCESS_MODE, "seq, rnd", |v| match v {
            "seq" => Some(false),
            "rnd" => Some(true),
            _ => None,
        })?;
        let global = opts.choice(MEMORY_SCOPE, "global, local", |v| match v {
            "global" => Some(true),
            "local" => Some(false),
            _ => None,
        })?;
        if opts.flag(MEMORY_HUGETLB)? {
            return Err(environment(
                "--memory-hugetlb: dbpress takes the block from the ordinary heap; run without it",
            ));
        }
        let words = block as usize / WORD;
        Ok(Memory {
            block: block as usize,
            total,
            oper,
            random,
            shared: global.then(|| words_of(words)),
        })
    }

    /// The lines sysbench prints before its threads start.
    pub fn preamble(&self) -> Vec<String> {
        vec![
            "Running memory speed test with the following options:".into(),
            format!("  block size: {}KiB", self.block / 1024),
            format!("  total size: {}MiB", self.total / (1024 * 1024)),
            format!("  operation: {}", self.oper_name()),
            format!(
                "  scope: {}",
                if self.shared.is_some() { "global" } else { "local" }
            ),
        ]
    }

    fn oper_name(&self) -> &'static str {
        match self.oper {
            Oper::Read => "read",
            Oper::Write => "write",
            Oper::None => "none",
        }
    }

    pub fn block_bytes(&self) -> u64 {
        self.block as u64
    }

    /// The events `--memory-total-size` makes: one block each.
    pub fn events(&self) -> u64 {
        self.total / self.block as u64
    }

    pub fn asked(&self) -> MachineTest {
        MachineTest {
            block_bytes: Some(self.block as u64),
            memory_oper: Some(self.oper_name().to_string()),
            ..super::asked(NAME)
        }
    }

    pub fn worker(&self, rng: Rng) -> MemoryEvents {
        let words = self.block / WORD;
        MemoryEvents {
            block: match &self.shared {
                Some(b) => b.clone(),
                None => words_of(words),
            },
            oper: self.oper,
            random: self.random,
            rng,
        }
    }
}

fn size_of(opts: &OptionValues, name: &str) -> Result<u64> {
    let text = opts.get(name);
    size_bytes(text).ok_or_else(|| failed(format!("Invalid value for {name}: {text}")))
}

/// A block of `words` zeroed words. Atomic with relaxed order: threads share the global block
/// as sysbench's do, and a relaxed load or store is the plain instruction.
fn words_of(words: usize) -> Arc<[AtomicU64]> {
    (0..words).map(|_| AtomicU64::new(0)).collect()
}

pub struct MemoryEvents {
    block: Arc<[AtomicU64]>,
    oper: Oper,
    random: bool,
    rng: Rng,
}

impl EventGen for MemoryEvents {
    fn event(&mut self, _exec: &mut Exec<'_>) -> DbResult<()> {
        let block = &self.block[..];
        let rng = &mut self.rng;
        let n = block.len();
        // A word of the block at random.
        let mut at = || (rng.next_u64() % n as u64) as usize;
        match (self.oper, self.random) {
            (Oper::None, _) => {}
            (Oper::Write, false) => store_each(block, n as u64),
            (Oper::Read, false) => {
                let mut sum = 0u64;
                for w in block {
                    sum = sum.wrapping_add(w.load(Relaxed));
                }
                std::hint::black_box(sum);
            }
            (Oper::Write, true) => {
                for _ in 0..n {
                    block[at()].store(n as u64, Relaxed);
                }
            }
            (Oper::Read, true) => {
                let mut sum = 0u64;
                for _ in 0..n {
                    sum = sum.wrapping_add(block[at()].load(Relaxed));
                }
                std::hint::black_box(sum);
            }
        }
        Ok(())
    }
}

/// Store `value` in every word of `block`, one word a step, not unrolled or vectorized: the
/// loop a C compiler makes of sysbench's (a store, the pointer moved, the end compared). An
/// unrolled Rust loop moved up to twice sysbench's MiB/s for the same bytes, a figure that
/// does not compare with a sysbench result of the same host.
#[inline(always)]
fn store_each(block: &[AtomicU64], value: u64) {
    #[cfg(target_arch = "x86_64")]
    {
        let range = block.as_ptr_range();
        if range.start == range.end {
            return;
        }
        // SAFETY: plain 8-byte stores to the words of `block`, which live for the call; other
        // threads store to the same words only with such stores (relaxed atomics are plain
        // moves on x86-64), and nothing reads them in write mode.
        unsafe {
            std::arch::asm!(
                "2:",
                "mov qword ptr [{p}], {v}",
                "add {p}, 8",
                "cmp {p}, {end}",
                "jb 2b",
                p = inout(reg) range.start => _,
                end = in(reg) range.end,
                v = in(reg) value,
                options(nostack),
            );
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    for w in block {
        w.store(value, Relaxed);
    }
}
