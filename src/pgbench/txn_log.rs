//! pgbench's `-l` logs: one file per pgbench thread (`pgbench_log.PID`, `pgbench_log.PID.N`,
//! or `--log-prefix`), a line per transaction — client, its transaction number, latency in µs
//! (or `failed`, `serialization`, `deadlock`), script, the time written, under --rate the
//! schedule lag — kept at `--sampling-rate`, or with `--aggregate-interval` a line of sums per
//! interval.

use super::options::Line;
use dbpress_workload::script::expr::prng::{PgPrng, RunSeeds};
use dbpress_workload::script::pgbench_rules::TxnNote;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::sync::Mutex;

/// One thread's file, its sampling sequence, and its interval being summed.
struct ThreadLog {
    out: BufWriter<File>,
    sample: PgPrng,
    agg: Option<Interval>,
}

/// Count, sum, sum of squares, least and most of some times (µs), as pgbench sums them.
#[derive(Default)]
struct Sums {
    count: u64,
    sum: f64,
    sum2: f64,
    min: f64,
    max: f64,
}

impl Sums {
    fn add(&mut self, us: f64) {
        if self.count == 0 || us < self.min {
            self.min = us;
        }
        self.max = self.max.max(us);
        self.count += 1;
        self.sum += us;
        self.sum2 += us * us;
    }
}

/// An aggregated interval's figures.
#[derive(Default)]
struct Interval {
    start_s: u64,
    /// The transactions that did not fail.
    latency: Sums,
    /// Under --rate: the schedule lags.
    lag: Sums,
    /// Slots --latency-limit skipped (in no sum).
    skipped: u64,
    retried: u64,
    retries: u64,
    serialization: u64,
    deadlock: u64,
}

pub struct TxnLog {
    threads: Vec<Mutex<ThreadLog>>,
    /// Each client's thread, as pgbench deals clients to threads (in blocks).
    thread_of: Vec<usize>,
    sampling: Option<f64>,
    aggregate_s: Option<u64>,
    retries: bool,
    detailed: bool,
}

fn now_us() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_micros() as u64)
}

/// pgbench's deal of `clients` to `threads`: thread i takes the next ⌈left / threads left⌉.
pub(super) fn deal(clients: usize, threads: usize) -> Vec<usize> {
    let mut of = Vec::with_capacity(clients);
    for t in 0..threads {
        let n = (clients - of.len() + threads - t - 1) / (threads - t);
        of.extend(std::iter::repeat_n(t, n));
    }
    of
}

impl TxnLog {
    /// The files for `line`'s run, created now (pgbench creates them before it runs).
    pub fn create(line: &Line, seed: u64) -> std::io::Result<TxnLog> {
        let clients = line.clients.unwrap_or(1) as usize;
        let threads = (line.jobs.unwrap_or(1) as usize).min(clients).max(1);
        let prefix = line
            .log_prefix
            .clone()
            .unwrap_or_else(|| "pgbench_log".into());
        let pid = std::process::id();
        let seeds = RunSeeds::new(seed, clients);
        let start_s = now_us() / 1_000_000;
        let mut files = Vec::with_capacity(threads);
        for t in 0..threads {
            let name = match t {
                0 => format!("{prefix}.{pid}"),
                t => format!("{prefix}.{pid}.{t}"),
            };
            files.push(Mutex::new(ThreadLog {
                out: BufWriter::new(File::create(name)?),
                sample: PgPrng::new(seeds.sample(t)),
                agg: line.aggregate_interval.map(|_| Interval {
                    start_s,
                    ..Interval::default()
                }),
            }));
        }
        Ok(TxnLog {
            threads: files,
            thread_of: deal(clients, threads),
            sampling: line.sampling_rate,
            aggregate_s: line.aggregate_interval.map(|a| a as u64),
            retries: line.max_tries.unwrap_or(1) != 1,
            detailed: line.failures_detailed,
        })
    }

    pub fn log(&self, t: &TxnNote) {
        let thread = self.thread_of.get(t.client as usize).copied().unwrap_or(0);
        let mut th = self.threads[thread]
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        let now = t.skipped_at_us.unwrap_or_else(now_us);
        if let Some(every) = self.aggregate_s {
            self.aggregate(&mut th, t, now, every);
            return;
        }
        if let Some(rate) = self.sampling {
            if th.sample.double() > rate {
                return;
            }
        }
        let time = match (t.failed, self.detailed) {
            _ if t.skipped_at_us.is_some() => "skipped".into(),
            (None, _) => format!("{:.0}", t.latency_ns as f64 / 1e3),
            (Some(_), false) => "failed".into(),
            (Some("40001"), true) => "serialization".into(),
            (Some(_), true) => "deadlock".into(),
        };
        let _ = write!(
            th.out,
            "{} {} {time} {} {} {}",
            t.client,
            t.transaction,
            t.script,
            now / 1_000_000,
            now % 1_000_000
        );
        if let Some(lag) = t.lag_ns {
            let _ = write!(th.out, " {:.0}", lag as f64 / 1e3);
        }
        if self.retries {
            let _ = write!(th.out, " {}", t.retries);
        }
        let _ = writeln!(th.out);
    }

    /// Sum `t` into its thread's interval, writing the intervals that ended before it.
    fn aggregate(&self, th: &mut ThreadLog, t: &TxnNote, now: u64, every: u64) {
        Self::write_ended(th, now, every);
        let (retries, detailed) = (self.retries, self.detailed);
        let Some(agg) = th.agg.as_mut() else {
            return;
        };
        if t.skipped_at_us.is_some() {
            agg.skipped += 1;
            return;
        }
        if t.retries > 0 && retries {
            agg.retried += 1;
            agg.retries += u64::from(t.retries);
        }
        if let Some(lag) = t.lag_ns {
            agg.lag.add(lag as f64 / 1e3);
        }
        match t.failed {
            Some("40001") if detailed => agg.serialization += 1,
            Some(_) if detailed => agg.deadlock += 1,
            Some(_) => {}
            None => agg.latency.add(t.latency_ns as f64 / 1e3),
        }
    }

    /// Write each interval that ended by `now` (an empty one as zeros), as pgbench does.
    fn write_ended(th: &mut ThreadLog, now: u64, every: u64) {
        let Some(agg) = th.agg.as_mut() else {
            return;
        };
        while now / 1_000_000 >= agg.start_s + every {
            let a = std::mem::take(agg);
            let _ = writeln!(
                th.out,
                "{} {} {:.0} {:.0} {:.0} {:.0} {:.0} {:.0} {:.0} {:.0} {} {} {} {} {}",
                a.start_s,
                a.latency.count,
                a.latency.sum,
                a.latency.sum2,
                a.latency.min,
                a.latency.max,
                a.lag.sum,
                a.lag.sum2,
                a.lag.min,
                a.lag.max,
                a.skipped,
                a.retried,
                a.retries,
                a.serialization,
                a.deadlock
            );
            agg.start_s = a.start_s + every;
        }
    }

    /// The run ended: the intervals that ended are written, every file flushed.
    pub fn finish(&self) {
        let now = now_us();
        for th in &self.threads {
            let mut th = th.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(every) = self.aggregate_s {
                Self::write_ended(&mut th, now, every);
            }
            let _ = th.out.flush();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clients_are_dealt_to_threads_in_blocks_as_pgbench_deals_them() {
        assert_eq!(deal(4, 2), [0, 0, 1, 1]);
        assert_eq!(deal(5, 2), [0, 0, 0, 1, 1]);
        assert_eq!(deal(3, 3), [0, 1, 2]);
        assert_eq!(deal(1, 1), [0]);
    }
}
