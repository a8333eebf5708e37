//! sysbench's `cpu` test: each event finds the primes below `--cpu-max-prime` by trial
//! division, in 64-bit integers, as sysbench's manual describes it. Its report is the events
//! per second; the work per event is the same as sysbench's, so the figures compare.

use crate::events::{EventGen, Exec};
use dbpress_core::error::Result;
use dbpress_core::options::OptionValues;
use dbpress_driver::DbResult;
use dbpress_result::machine::MachineTest;

pub const NAME: &str = "cpu";
pub const DESCRIPTION: &str = "primes below --cpu-max-prime by trial division per event: the host's CPU speed (sysbench cpu; no database)";

pub struct Cpu {
    max_prime: u64,
}

impl Cpu {
    pub fn new(opts: &OptionValues) -> Result<Cpu> {
        let max_prime = opts.int(super::keys::CPU_MAX_PRIME)?;
        Ok(Cpu { max_prime })
    }

    /// The lines sysbench prints before its threads start.
    pub fn preamble(&self) -> Vec<String> {
        vec![
            format!("Prime numbers limit: {}", self.max_prime),
            String::new(),
        ]
    }

    pub fn asked(&self) -> MachineTest {
        MachineTest {
            cpu_max_prime: Some(self.max_prime),
            ..MachineTest::of(NAME)
        }
    }

    pub fn events(&self) -> CpuEvents {
        CpuEvents {
            max_prime: self.max_prime,
        }
    }
}

pub struct CpuEvents {
    max_prime: u64,
}

impl EventGen for CpuEvents {
    fn event(&mut self, _exec: &mut Exec<'_>) -> DbResult<()> {
        std::hint::black_box(primes_below(std::hint::black_box(self.max_prime)));
        Ok(())
    }
}

/// How many numbers from 3 up to `limit` (excluded) no number from 2 to their square root
/// divides.
pub fn primes_below(limit: u64) -> u64 {
    let mut found = 0;
    for c in 3..limit {
        let root = (c as f64).sqrt() as u64;
        let mut d = 2;
        while d <= root {
            if remainder(c, d) == 0 {
                break;
            }
            d += 1;
        }
        if d > root {
            found += 1;
        }
    }
    found
}

/// `a % b` as one 64-bit division, as sysbench's C compiles it. Written as `%`, LLVM checks
/// both operands for 32 bits and divides in 32 when they fit (always, here), which made an
/// event 10% cheaper than sysbench's (median pair ratio 1.11 events per second, where sysbench
/// against itself spreads 0.97–1.03): a faster figure for less work, not comparable with
/// sysbench's. `b` is never 0 (the divisors start at 2).
#[inline(always)]
fn remainder(a: u64, b: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        let r: u64;
        // SAFETY: `div` of rdx:rax (rdx 0) by a non-zero register: no fault, no memory.
        unsafe {
            std::arch::asm!(
                "div {b}",
                b = in(reg) b,
                inout("rax") a => _,
                inout("rdx") 0u64 => r,
                options(pure, nomem, nostack),
            );
        }
        r
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        a % b
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_primes_below_a_limit_are_counted_from_3() {
        // 3 5 7 11 13 17 19 23 29 (2 is not counted: the search starts at 3).
        assert_eq!(primes_below(30), 9);
        // 1 228 primes below 10 000, less 2.
        assert_eq!(primes_below(10_000), 1228);
    }
}
