//! sysbench's `memory` test: each event reads or writes one block of `--memory-block-size`
//! bytes, word by word (64-bit words), in order or at random words, in one block all threads
//! share (`--memory-scope=global`) or one of each thread's own; the run ends at
//! `--memory-total-size` bytes (or `--time`). Its report is the operations and MiB per second.

use crate::events::{EventGen, Exec};
use dbpress_core::error::{environment, Error, Result};
use dbpress_core::options::TextOpt;
use dbpress_core::options::{size_bytes, OptionValues};
use dbpress_core::personality::{is_sysbench, refused};
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
        // Whole words, and a power of two as sysbench requires.
        if block < WORD as u64 || !block.is_power_of_two() {
            return Err(not_a_size(
                MEMORY_BLOCK_SIZE.name,
                opts.text(MEMORY_BLOCK_SIZE),
            ));
        }
        let total = size_of(opts, MEMORY_TOTAL_SIZE.name)?;
        let oper = pick(opts, MEMORY_OPER, "read, write, none", |v| match v {
            "read" => Some(Oper::Read),
            "write" => Some(Oper::Write),
            "none" => Some(Oper::None),
            _ => None,
        })?;
        let random = pick(opts, MEMORY_ACCESS_MODE, "seq, rnd", |v| match v {
            "seq" => Some(false),
            "rnd" => Some(true),
            _ => None,
        })?;
        let global = pick(opts, MEMORY_SCOPE, "global, local", |v| match v {
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
        if !can_allocate(block as usize) {
            return Err(environment(format!(
                "--memory-block-size={}: cannot allocate a block that large here; use a smaller one",
                opts.text(MEMORY_BLOCK_SIZE)
            )));
        }
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
                if self.shared.is_some() {
                    "global"
                } else {
                    "local"
                }
            ),
            String::new(),
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

    /// Each thread's share of `--memory-total-size` in blocks, as sysbench divides it (the
    /// rest not run); None for a total of 0, which `--time` ends.
    pub fn events_per_thread(&self, threads: u32) -> Option<u64> {
        (self.total > 0).then(|| self.total / self.block as u64 / u64::from(threads.max(1)))
    }

    pub fn asked(&self) -> MachineTest {
        MachineTest {
            block_bytes: Some(self.block as u64),
            memory_oper: Some(self.oper_name().to_string()),
            ..MachineTest::of(NAME)
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
    match size_bytes(text) {
        Some(n) => Ok(n),
        // sysbench reads what is not a size as 0 (for the total: no limit but --time).
        None if is_sysbench() => Ok(0),
        None => Err(not_a_size(name, text)),
    }
}

/// A size option that is not one: sysbench's words under its personality.
fn not_a_size(name: &str, text: &str) -> Error {
    refused(format!("Invalid value for {name}: {text}"), || {
        format!("invalid value '{text}' for --{name}: give a size such as 1K, 64K, 1M or 100G (K, M, G, T: KiB, MiB, GiB, TiB; a block a power of two from 8 bytes)")
    })
}

/// `choice`, with sysbench's words for a value it does not know under its personality.
fn pick<T>(
    opts: &OptionValues,
    k: TextOpt,
    known: &str,
    f: impl Fn(&str) -> Option<T>,
) -> Result<T> {
    opts.choice(k, known, f).map_err(|e| {
        refused(
            format!("Invalid value for {}: {}", k.name, opts.text(k)),
            || e.to_string(),
        )
    })
}

/// A block of `words` zeroed words. Atomic with relaxed order: threads share the global block
/// as sysbench's do, and a relaxed load or store is the plain instruction.
fn words_of(words: usize) -> Arc<[AtomicU64]> {
    (0..words).map(|_| AtomicU64::new(0)).collect()
}

/// Whether a block of `bytes` can be had, asked before any is made: a block of gigabytes is
/// refused in a line, not an abort.
fn can_allocate(bytes: usize) -> bool {
    let mut probe: Vec<u8> = Vec::new();
    probe.try_reserve_exact(bytes).is_ok()
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
            (Oper::Write, false) => store_each(block),
            (Oper::Read, false) => load_each(block),
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

/// Load every word of `block`, one 8-byte load a word, eight a step: the loop a C compiler makes
/// of sysbench's read (the words read and dropped). Loads of 16 bytes — a vectorized sum, the
/// loop Rust's compiler makes of `iter().sum()` — moved 1.5–1.7× sysbench's MiB/s for the same
/// bytes, a figure that does not compare with a sysbench result of the same host.
#[inline(always)]
fn load_each(block: &[AtomicU64]) {
    #[cfg(target_arch = "x86_64")]
    {
        let range = block.as_ptr_range();
        let whole = block.len() / 8 * 8;
        // SAFETY: 8-byte loads from the words of `block`, which live for the call; a plain
        // load is what a relaxed atomic load is on x86-64, whatever other threads store.
        unsafe {
            let eights_end = block.as_ptr().add(whole);
            std::arch::asm!(
                "cmp {p}, {e8}",
                "jae 3f",
                ".p2align 5",
                "2:",
                "mov {t}, qword ptr [{p}]",
                "mov {t}, qword ptr [{p} + 8]",
                "mov {t}, qword ptr [{p} + 16]",
                "mov {t}, qword ptr [{p} + 24]",
                "mov {t}, qword ptr [{p} + 32]",
                "mov {t}, qword ptr [{p} + 40]",
                "mov {t}, qword ptr [{p} + 48]",
                "mov {t}, qword ptr [{p} + 56]",
                "add {p}, 64",
                "cmp {p}, {e8}",
                "jb 2b",
                "3:",
                "cmp {p}, {end}",
                "jae 5f",
                ".p2align 5",
                "4:",
                "mov {t}, qword ptr [{p}]",
                "add {p}, 8",
                "cmp {p}, {end}",
                "jb 4b",
                "5:",
                p = inout(reg) range.start => _,
                e8 = in(reg) eights_end,
                end = in(reg) range.end,
                t = out(reg) _,
                options(nostack, readonly),
            );
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let mut sum = 0u64;
        for w in block {
            sum = sum.wrapping_add(w.load(Relaxed));
        }
        std::hint::black_box(sum);
    }
}

/// (Both loops here are aligned on 32 bytes, as a C compiler aligns a loop's head: one that
/// straddles a 32-byte boundary runs slower on some Intel cores, the JCC erratum.)
///
/// Store in every word of `block` the count of words left from it (the end less the word's
/// address, in words), eight words a step, each word's value computed from the end and stored
/// and the pointer moved: the loop a C compiler makes of sysbench's write. Its shape decides
/// the MiB/s at blocks of 64K and up, where stores are what an event is: a vectorized Rust loop
/// moved up to twice sysbench's figure; one store a step, 0.4–0.8× of it; eight stores of a
/// value counted down in a register, 1.3–1.6×. Only this one compares with a sysbench result
/// of the same host (bench/RESULTS.md).
#[inline(always)]
fn store_each(block: &[AtomicU64]) {
    #[cfg(target_arch = "x86_64")]
    {
        let range = block.as_ptr_range();
        let whole = block.len() / 8 * 8;
        // SAFETY: plain 8-byte stores to the words of `block`, which live for the call; other
        // threads store to the same words only with such stores (relaxed atomics are plain
        // moves on x86-64), and nothing reads them in write mode.
        unsafe {
            let eights_end = block.as_ptr().add(whole);
            std::arch::asm!(
                "cmp {p}, {e8}",
                "jae 3f",
                ".p2align 5",
                "2:",
                "mov {t}, {end}",
                "sub {t}, {p}",
                "sar {t}, 3",
                "mov qword ptr [{p}], {t}",
                "add {p}, 8",
                "mov {t}, {end}",
                "sub {t}, {p}",
                "sar {t}, 3",
                "mov qword ptr [{p}], {t}",
                "add {p}, 8",
                "mov {t}, {end}",
                "sub {t}, {p}",
                "sar {t}, 3",
                "mov qword ptr [{p}], {t}",
                "add {p}, 8",
                "mov {t}, {end}",
                "sub {t}, {p}",
                "sar {t}, 3",
                "mov qword ptr [{p}], {t}",
                "add {p}, 8",
                "mov {t}, {end}",
                "sub {t}, {p}",
                "sar {t}, 3",
                "mov qword ptr [{p}], {t}",
                "add {p}, 8",
                "mov {t}, {end}",
                "sub {t}, {p}",
                "sar {t}, 3",
                "mov qword ptr [{p}], {t}",
                "add {p}, 8",
                "mov {t}, {end}",
                "sub {t}, {p}",
                "sar {t}, 3",
                "mov qword ptr [{p}], {t}",
                "add {p}, 8",
                "mov {t}, {end}",
                "sub {t}, {p}",
                "sar {t}, 3",
                "mov qword ptr [{p}], {t}",
                "add {p}, 8",
                "cmp {p}, {e8}",
                "jb 2b",
                "3:",
                "cmp {p}, {end}",
                "jae 5f",
                ".p2align 5",
                "4:",
                "mov {t}, {end}",
                "sub {t}, {p}",
                "sar {t}, 3",
                "mov qword ptr [{p}], {t}",
                "add {p}, 8",
                "cmp {p}, {end}",
                "jb 4b",
                "5:",
                p = inout(reg) range.start => _,
                e8 = in(reg) eights_end,
                end = in(reg) range.end,
                t = out(reg) _,
                options(nostack),
            );
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    for (i, w) in block.iter().enumerate() {
        w.store((block.len() - i) as u64, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_stores_the_words_left_in_every_word_and_a_read_reaches_the_odd_tail() {
        for len in [1, 7, 8, 13, 64] {
            let block = words_of(len);
            store_each(&block);
            let got: Vec<u64> = block.iter().map(|w| w.load(Relaxed)).collect();
            let want: Vec<u64> = (1..=len as u64).rev().collect();
            assert_eq!(got, want, "{len} words");
            load_each(&block);
        }
    }
}
