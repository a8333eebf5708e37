//! A test of the machine itself, sysbench's compiled-in `cpu` and `memory` (#42): what it was
//! asked to do, so its own report section (events per second, MiB per second) can be printed
//! from the result alone.

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct MachineTest {
    /// The test, as sysbench names it: `cpu`, `memory`.
    pub test: String,
    /// `cpu`: `--cpu-max-prime`, the limit each event finds the primes under.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_max_prime: Option<u64>,
    /// `memory`: the block each event reads or writes, in bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub block_bytes: Option<u64>,
    /// `memory`: `read`, `write` or `none`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_oper: Option<String>,
}
