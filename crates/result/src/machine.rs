//! A test of the machine itself, sysbench's compiled-in `cpu`, `memory`, `threads`, `mutex` and `fileio` (#42): what it was
//! asked to do, so its own report section (events per second, MiB per second) can be printed
//! from the result alone.

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct MachineTest {
    /// The test, as sysbench names it: `cpu`, `memory`.
    pub test: String,
    /// `cpu`: `--cpu-max-prime`, the limit each event finds the primes under.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_max_prime: Option<u64>,
    /// `memory`: the block each event reads or writes, in bytes; `fileio`: `--file-block-size`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub block_bytes: Option<u64>,
    /// `fileio`: the bytes of one request — the block, or `--file-merged-requests` blocks in a
    /// sequential test — which the throughput counts, as sysbench's does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_bytes: Option<u64>,
    /// `memory`: `read`, `write` or `none`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_oper: Option<String>,
    /// `threads`: `--thread-yields`, the lock-yield-unlock rounds of an event.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thread_yields: Option<u64>,
    /// `threads`: `--thread-locks`, the mutexes the threads share.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thread_locks: Option<u64>,
    /// `mutex`: `--mutex-num`, the mutexes drawn from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mutex_num: Option<u64>,
    /// `mutex`: `--mutex-locks`, the locks each thread takes in its one event.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mutex_locks: Option<u64>,
    /// `mutex`: `--mutex-loops`, the empty loop's steps before each lock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mutex_loops: Option<u64>,
    /// `fileio`: `--file-test-mode` (None for prepare and cleanup without one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file_test_mode: Option<String>,
    /// `fileio`: `--file-num`, the files the requests spread over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file_num: Option<u64>,
    /// `fileio`: the bytes of all the files (`--file-total-size` rounded down to whole files).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file_total_bytes: Option<u64>,
}

impl MachineTest {
    /// The test `test`, with nothing of any one test's set.
    pub fn of(test: &str) -> MachineTest {
        MachineTest {
            test: test.to_string(),
            ..MachineTest::default()
        }
    }
}
