//! Tests of the machine rather than of a database, as sysbench has them compiled in (#42):
//! `cpu`, `memory`, `threads` and `mutex`, a file each. DBAs run them on the database host before the database, to compare hosts
//! and see a noisy neighbour. They run through the same runner as every workload — threads,
//! `--time`/`--events`, intervals, latency, fairness — on a session that sends nothing (the dry
//! run's), and print sysbench's report of each test from the result.

pub mod cpu;
pub mod fileio;
mod keys;
pub mod memory;
pub mod mutex;
pub mod options;
pub mod threads;

use crate::events::EventGen;
use crate::workload::{Context, IntervalReport, Workload};
use dbpress_core::error::{failed, Result};
use dbpress_core::options::OptionValues;
use dbpress_core::rand::{Distribution, Rng};
use dbpress_driver::{Connection, DbResult, Dialect};
use dbpress_measure::host::HostUsage;
use dbpress_result::{Interval, RunResult, WorkloadFigures};

/// Every test of the machine: name, description.
pub const TESTS: [(&str, &str); 5] = [
    (fileio::NAME, fileio::DESCRIPTION),
    (cpu::NAME, cpu::DESCRIPTION),
    (memory::NAME, memory::DESCRIPTION),
    (threads::NAME, threads::DESCRIPTION),
    (mutex::NAME, mutex::DESCRIPTION),
];

/// Whether `name` is a test of the machine (it needs no database).
pub fn is_machine_test(name: &str) -> bool {
    TESTS.iter().any(|(n, _)| *n == name)
}

/// The test `name` as its options configure it.
pub fn build(name: &str, opts: &OptionValues) -> Result<Box<dyn Workload>> {
    let test = match name {
        cpu::NAME => Test::Cpu(cpu::Cpu::new(opts)?),
        memory::NAME => Test::Memory(memory::Memory::new(opts)?),
        threads::NAME => Test::Threads(threads::Threads::new(opts)?),
        mutex::NAME => Test::Mutex(mutex::MutexTest::new(opts)?),
        fileio::NAME => Test::FileIo(fileio::FileIo::new(opts)?),
        _ => unreachable!("registry::known accepted '{name}'"),
    };
    let percentile = opts.int(dbpress_config::keys::PERCENTILE)? as u32;
    Ok(Box::new(Machine { test, percentile }))
}

/// One test of the machine, as a workload.
pub struct Machine {
    test: Test,
    /// `--percentile`, which the interval line names.
    percentile: u32,
}

enum Test {
    Cpu(cpu::Cpu),
    Memory(memory::Memory),
    Threads(threads::Threads),
    Mutex(mutex::MutexTest),
    FileIo(fileio::FileIo),
}

impl Workload for Machine {
    fn name(&self) -> &'static str {
        match self.test {
            Test::Cpu(_) => cpu::NAME,
            Test::Memory(_) => memory::NAME,
            Test::Threads(_) => threads::NAME,
            Test::Mutex(_) => mutex::NAME,
            Test::FileIo(_) => fileio::NAME,
        }
    }

    fn statement_kinds(&self) -> &'static [&'static str] {
        &[]
    }

    fn transactional(&self) -> bool {
        false
    }

    fn draws_keys_from_rand_type(&self) -> bool {
        false
    }

    fn describe(&self) -> Vec<String> {
        Vec::new()
    }

    fn needs_database(&self) -> bool {
        false
    }

    fn prepare(&self, _ctx: &Context<'_>) -> Result<Option<HostUsage>> {
        match &self.test {
            Test::FileIo(f) => f.prepare().map(|()| None),
            _ => Err(self.lacks("prepare")),
        }
    }

    fn cleanup(&self, _ctx: &Context<'_>) -> Result<()> {
        match &self.test {
            Test::FileIo(f) => f.cleanup(),
            _ => Err(self.lacks("cleanup")),
        }
    }

    fn data_location(&self) -> Option<dbpress_driver::DataLocation> {
        match &self.test {
            // The files are in the current directory.
            Test::FileIo(_) => Some(dbpress_driver::DataLocation::File(".".into())),
            _ => None,
        }
    }

    fn before_threads(&self) -> Result<()> {
        match &self.test {
            Test::FileIo(f) => f.open_files(),
            _ => Ok(()),
        }
    }

    fn runnable(&self) -> Result<()> {
        match &self.test {
            Test::FileIo(f) => f.runnable(),
            _ => Ok(()),
        }
    }

    fn check(&self, _ctx: &Context<'_>) -> Result<()> {
        Err(self.lacks("check"))
    }

    fn prewarm(&self, _ctx: &Context<'_>) -> Result<()> {
        Err(self.lacks("prewarm"))
    }

    fn events_per_thread(&self, threads: u32) -> Option<u64> {
        match &self.test {
            // sysbench's mutex test: each thread's one event is all its locks.
            Test::Mutex(_) => Some(1),
            Test::Memory(m) => m.events_per_thread(threads),
            _ => None,
        }
    }

    fn preamble(&self) -> Vec<String> {
        // sysbench's INFO lines (--verbosity=4 and up) come first.
        let debug = dbpress_core::verbosity::info();
        let mut lines = Vec::new();
        match &self.test {
            Test::Cpu(_) if debug => {
                lines.extend(["Doing CPU performance benchmark".to_string(), String::new()])
            }
            Test::Threads(t) if debug => {
                let asked = t.asked();
                lines.push("Doing thread subsystem performance test".into());
                lines.push(format!(
                    "Thread yields per test: {} Locks used: {}",
                    asked.thread_yields.unwrap_or(0),
                    asked.thread_locks.unwrap_or(0)
                ));
            }
            Test::Mutex(_) if debug => lines.push("Doing mutex performance test".into()),
            _ => {}
        }
        lines.extend(match &self.test {
            Test::Cpu(c) => c.preamble(),
            Test::Memory(m) => m.preamble(),
            Test::FileIo(f) => f.preamble(),
            Test::Threads(_) | Test::Mutex(_) => Vec::new(),
        });
        lines
    }

    fn figures(&self, _result: &RunResult) -> Option<WorkloadFigures> {
        Some(WorkloadFigures::Machine(match &self.test {
            Test::Cpu(c) => c.asked(),
            Test::Memory(m) => m.asked(),
            Test::Threads(t) => t.asked(),
            Test::Mutex(m) => m.asked(),
            Test::FileIo(f) => f.asked(),
        }))
    }

    fn interval_report(
        &self,
        _dialect: &'static Dialect,
        _threads: u32,
    ) -> Option<Box<dyn IntervalReport + '_>> {
        Some(match &self.test {
            Test::Memory(m) => Box::new(MibPerSecond {
                block_bytes: m.block_bytes(),
            }),
            Test::FileIo(f) => Box::new(FileOpsPerSecond {
                block_bytes: f.request_bytes(),
                percentile: self.percentile,
            }),
            _ => Box::new(EventsPerSecond {
                percentile: self.percentile,
            }),
        })
    }

    fn worker(
        &self,
        _conn: &mut dyn Connection,
        _dialect: &'static Dialect,
        thread: u32,
        rng: Rng,
        _dist: Distribution,
    ) -> DbResult<Box<dyn EventGen>> {
        Ok(match &self.test {
            Test::Cpu(c) => Box::new(c.events()),
            Test::Memory(m) => Box::new(m.worker(rng)),
            Test::Threads(t) => Box::new(t.events(thread)),
            Test::Mutex(m) => Box::new(m.events(rng)),
            Test::FileIo(f) => Box::new(f.worker(rng)?),
        })
    }
}

impl Machine {
    /// sysbench's words for a command a test has not: it has nothing to prepare or clean up.
    fn lacks(&self, command: &str) -> dbpress_core::error::Error {
        let name = self.name();
        failed(dbpress_core::personality::words(
            || format!("'{name}' test does not implement the '{command}' command."),
            || {
                format!(
                "'{name}' test does not implement the '{command}' command: a test of the machine has no tables; run it with `dbpress {name} run`"
            )
            },
        ))
    }
}

/// sysbench's interval line of `cpu`: events per second and the latency percentile.
struct EventsPerSecond {
    percentile: u32,
}

impl IntervalReport for EventsPerSecond {
    fn report(&mut self, i: &Interval) {
        dbpress_core::outln!("{}", events_per_second_line(i, self.percentile));
    }
}

/// sysbench's interval line of `memory`: the MiB its events moved per second.
struct MibPerSecond {
    block_bytes: u64,
}

impl IntervalReport for MibPerSecond {
    fn report(&mut self, i: &Interval) {
        let mib = (i.events * self.block_bytes) as f64 / (1024.0 * 1024.0);
        dbpress_core::outln!(
            "[ {:.0}s ] {:.2} MiB/sec",
            i.time_s,
            mib / i.duration_s.max(1e-9)
        );
    }
}

/// sysbench's interval line of `fileio`: MiB read and written, syncs per second, latency.
struct FileOpsPerSecond {
    block_bytes: u64,
    percentile: u32,
}

impl IntervalReport for FileOpsPerSecond {
    fn report(&mut self, i: &Interval) {
        let per_s = |n: u64| n as f64 / i.duration_s.max(1e-9);
        let mib = |n: u64| per_s(n * self.block_bytes) / (1024.0 * 1024.0);
        dbpress_core::outln!(
            "[ {:.0}s ] reads: {:.2} MiB/s writes: {:.2} MiB/s fsyncs: {:.2}/s latency (ms,{}%): {:.3}",
            i.time_s,
            mib(i.reads),
            mib(i.writes),
            per_s(i.other),
            self.percentile,
            i.latency_pct_ms
        );
    }
}

/// `[ 1s ] thds: 1 eps: 1482.77 lat (ms,95%): 2.66`
pub fn events_per_second_line(i: &Interval, percentile: u32) -> String {
    format!(
        "[ {:.0}s ] thds: {} eps: {:.2} lat (ms,{percentile}%): {:.2}",
        i.time_s,
        i.threads,
        i.events as f64 / i.duration_s.max(1e-9),
        i.latency_pct_ms
    )
}
