//! pgbench's rules for a client's transactions, when dbpress runs as pgbench: a serialization
//! failure or deadlock rolls back and retries the transaction (its random draws replayed) up to
//! `--max-tries`, then counts it as failed and goes on; any other error aborts that client
//! only — the others run on — and the run ends as "aborted". The generator drives its own loop
//! (`EventGen::run_loop`) so a client can stop on its own.

use super::client::Abort;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// What the clients' transactions came to, beyond the runner's counts.
#[derive(Default, Debug)]
pub struct Tally {
    pub aborted: AtomicBool,
    /// Transactions that needed more than one try, and the tries past the first.
    pub retried: AtomicU64,
    pub retries: AtomicU64,
    /// Failed transactions (tries used up), by cause.
    pub serialization_failures: AtomicU64,
    pub deadlock_failures: AtomicU64,
    /// Per (script, command 0-based): the failures it ended transactions with, and the
    /// retries it caused (pgbench's `-r` columns).
    pub by_command: Mutex<HashMap<(usize, usize), (u64, u64)>>,
    /// Per script, per command: the time it took in all and how often it ran (ns, count),
    /// when timed (pgbench's -r).
    pub command_times: Mutex<Vec<Vec<(u64, u64)>>>,
    /// Under -C: the connections opened for transactions, and their time in all (ns).
    pub connects: AtomicU64,
    pub connect_ns: AtomicU64,
}

impl Tally {
    /// (failures, retries) of one command.
    pub fn of_command(&self, script: usize, command: usize) -> (u64, u64) {
        let map = self.by_command.lock().unwrap_or_else(|p| p.into_inner());
        map.get(&(script, command)).copied().unwrap_or((0, 0))
    }

    fn note(&self, script: usize, command: usize, failure: bool) {
        let mut map = self.by_command.lock().unwrap_or_else(|p| p.into_inner());
        let e = map.entry((script, command)).or_insert((0, 0));
        if failure {
            e.0 += 1;
        } else {
            e.1 += 1;
        }
    }

    /// A client's command times, added to the run's.
    pub fn add_times(&self, times: &[Vec<(u64, u64)>]) {
        let mut all = self.command_times.lock().unwrap_or_else(|p| p.into_inner());
        if all.len() < times.len() {
            all.resize(times.len(), Vec::new());
        }
        for (mine, theirs) in all.iter_mut().zip(times) {
            if mine.len() < theirs.len() {
                mine.resize(theirs.len(), (0, 0));
            }
            for (m, t) in mine.iter_mut().zip(theirs) {
                m.0 += t.0;
                m.1 += t.1;
            }
        }
    }

    /// The average time of one command, ms (0 when it never ran).
    pub fn command_ms(&self, script: usize, command: usize) -> f64 {
        let all = self.command_times.lock().unwrap_or_else(|p| p.into_inner());
        match all.get(script).and_then(|s| s.get(command)) {
            Some(&(ns, n)) if n > 0 => ns as f64 / n as f64 / 1e6,
            _ => 0.0,
        }
    }

    pub fn failed(&self) -> u64 {
        self.serialization_failures.load(Ordering::Relaxed)
            + self.deadlock_failures.load(Ordering::Relaxed)
    }
}

/// A client stopped by an error: who, in which script, and why.
pub struct AbortNote<'a> {
    pub client: u32,
    pub script: usize,
    pub abort: &'a Abort,
}

/// A try that failed with an error the rules retry or count: who, where, which try, and
/// whether the transaction now counts as failed.
pub struct TryNote<'a> {
    pub client: u32,
    pub script: usize,
    pub abort: &'a Abort,
    pub tries: u32,
    pub failed: bool,
}

/// What says a try (the front end's lines).
pub type SayTry = Arc<dyn Fn(&TryNote<'_>) + Send + Sync>;

/// What says a client's abort (the front end's lines, and what follows).
pub type SayAbort = Arc<dyn Fn(&AbortNote<'_>) + Send + Sync>;

/// A transaction that ended (pgbench's -l): whose, its number in the client's count, its
/// script, how long it took, its failure's SQLSTATE if it failed, and its retries.
pub struct TxnNote {
    pub client: u32,
    pub transaction: u64,
    pub script: usize,
    /// From its slot in the schedule under --rate (its lag included), else from its start.
    pub latency_ns: u64,
    /// Under --rate: how late it started after its slot (pgbench's schedule lag).
    pub lag_ns: Option<u64>,
    pub failed: Option<&'static str>,
    pub retries: u32,
    /// Skipped by --latency-limit at this Unix time (µs): not run, latency and lag 0.
    pub skipped_at_us: Option<u64>,
}

/// What logs a transaction (the front end's files).
pub type LogTxn = Arc<dyn Fn(&TxnNote) + Send + Sync>;

/// The rules, shared by every client of a run.
#[derive(Clone)]
pub struct PgbenchRules {
    /// `--max-tries` (0: no limit but the run's end).
    pub max_tries: u32,
    /// Time every command (pgbench's -r).
    pub time_commands: bool,
    /// A new connection for each transaction (pgbench's -C).
    pub connect_each: bool,
    /// Each client says what it does on stderr (pgbench's -d).
    pub debug: bool,
    pub tally: Arc<Tally>,
    /// `--latency-limit` under `--rate`: slots may be skipped, each taking a transaction number
    /// and a script draw (asked of the runner only then: a transaction costs nothing more).
    pub skips: bool,
    /// Says an abort as the peer says it (its lines are the front end's).
    pub on_abort: SayAbort,
    /// Says each retried or failed try (pgbench's --verbose-errors), when given.
    pub on_try: Option<SayTry>,
    /// Logs each transaction (pgbench's -l), when given.
    pub on_txn: Option<LogTxn>,
    /// Says a client that could not connect for a transaction (-C).
    pub on_connect_abort: Option<Arc<dyn Fn(u32) + Send + Sync>>,
}

/// How an error ends a try: retried or failed by these rules, or the client aborted.
pub enum Verdict {
    Retry,
    Failed(&'static str),
    Abort,
}

impl PgbenchRules {
    /// The verdict on `abort` in script `script` after `tries` tries; a run that is
    /// `stopping` allows no more (with no limit on tries, its end is the limit, as pgbench's
    /// -T is).
    pub fn judge(&self, abort: &Abort, script: usize, tries: u32, stopping: bool) -> Verdict {
        let Some(code) = abort.db.as_ref().map(|e| e.code.as_str()) else {
            return Verdict::Abort;
        };
        let cause = match code {
            "40001" => "40001",
            "40P01" => "40P01",
            _ => return Verdict::Abort,
        };
        let command = abort.command.saturating_sub(1);
        if !stopping && (self.max_tries == 0 || tries < self.max_tries) {
            self.tally.note(script, command, false);
            return Verdict::Retry;
        }
        self.tally.note(script, command, true);
        let counter = if cause == "40001" {
            &self.tally.serialization_failures
        } else {
            &self.tally.deadlock_failures
        };
        counter.fetch_add(1, Ordering::Relaxed);
        Verdict::Failed(cause)
    }

    /// A transaction that took `tries` tries to finish (or fail).
    pub fn tried(&self, tries: u32) {
        if tries > 1 {
            self.tally.retried.fetch_add(1, Ordering::Relaxed);
            self.tally
                .retries
                .fetch_add(u64::from(tries - 1), Ordering::Relaxed);
        }
    }

    /// A client that could not open its next session (-C) stops, as pgbench's does.
    pub fn aborted_connecting(&self, client: u32) {
        self.tally.aborted.store(true, Ordering::Relaxed);
        if let Some(say) = &self.on_connect_abort {
            say(client);
        }
    }

    pub fn abort(&self, note: &AbortNote<'_>) {
        self.tally.aborted.store(true, Ordering::Relaxed);
        (self.on_abort)(note);
    }
}
