//! pgbench's report after a run, line for line as pgbench 15 prints it, from the run's
//! result: what ran and how, the transactions, latency, tps, the per-script blocks when there
//! are several scripts, and with `-r` each command's latency.

use super::options::Line;
use dbpress_result::RunResult;
use dbpress_workload::script::parse::Script;
use dbpress_workload::script::pgbench_rules::Tally;
use std::fmt::Write;
use std::sync::atomic::Ordering;

/// What the report needs besides the result.
pub struct Facts<'a> {
    pub line: &'a Line,
    pub scripts: &'a [Script],
    /// The kind each script's whole transactions are timed as.
    pub script_kinds: Vec<&'a str>,
    pub scale: i64,
    /// pgbench_accounts' partitioning: method and count.
    pub partitions: Option<(&'static str, i64)>,
    pub protocol: &'a str,
    pub connect_ms: f64,
    /// Retries, failures and aborts under pgbench's rules.
    pub tally: &'a Tally,
}

fn pct(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        f64::NAN
    } else {
        100.0 * part as f64 / whole as f64
    }
}

/// pgbench's `%.3f` of a percentage (C prints NaN as `-nan` or `nan`; pgbench 15 shows `NaN`).
fn pct3(v: f64) -> String {
    if v.is_nan() {
        "NaN".into()
    } else {
        format!("{v:.3}")
    }
}

pub fn report(r: &RunResult, f: &Facts<'_>) -> String {
    let mut o = String::new();
    let line = f.line;
    let s = &r.summary;
    let clients = line.clients.unwrap_or(1);
    // A failed transaction is an event the runner counted with its error.
    let failed = f.tally.failed();
    let ok = s.events.saturating_sub(failed);
    let skipped = s.latency_limit.as_ref().map_or(0, |l| l.skipped);
    let all = ok + failed + skipped;
    let transaction_type = match f.scripts {
        [one] => one.name.clone(),
        _ => "multiple scripts".into(),
    };
    let _ = writeln!(o, "transaction type: {transaction_type}");
    let _ = writeln!(o, "scaling factor: {}", f.scale);
    if let Some((method, n)) = f.partitions {
        let _ = writeln!(o, "partition method: {method}");
        let _ = writeln!(o, "partitions: {n}");
    }
    let _ = writeln!(o, "query mode: {}", f.protocol);
    let _ = writeln!(o, "number of clients: {clients}");
    let _ = writeln!(
        o,
        "number of threads: {}",
        line.jobs.unwrap_or(1).min(clients)
    );
    let max_tries = line.max_tries.unwrap_or(1);
    if max_tries != 0 {
        let _ = writeln!(o, "maximum number of tries: {max_tries}");
    }
    match line.time_s {
        Some(t) => {
            let _ = writeln!(o, "duration: {t} s");
            let _ = writeln!(o, "number of transactions actually processed: {ok}");
        }
        None => {
            let t = line.transactions.unwrap_or(10);
            let _ = writeln!(o, "number of transactions per client: {t}");
            let _ = writeln!(
                o,
                "number of transactions actually processed: {ok}/{}",
                t * clients
            );
        }
    }
    let _ = writeln!(
        o,
        "number of failed transactions: {failed} ({}%)",
        pct3(pct(failed, all))
    );
    if all == 0 {
        return o;
    }
    counts(&mut o, r, f, ok, all);
    latency(&mut o, r, line, clients, failed);
    let tps = ok as f64 / s.total_time_s.max(1e-9);
    if line.connect {
        let t = f.tally;
        let n = t.connects.load(Ordering::Relaxed);
        let ns = t.connect_ns.load(Ordering::Relaxed);
        let avg = if n == 0 {
            f.connect_ms
        } else {
            ns as f64 / n as f64 / 1e6
        };
        let _ = writeln!(o, "average connection time = {avg:.3} ms");
        let _ = writeln!(o, "tps = {tps:.6} (including reconnection times)");
    } else {
        // pgbench's: from its threads' start until every client is connected. The runner's
        // time to the same point (its sessions set up); the setup session's where absent.
        let initial_ms = r.run.sessions_ready_s.map_or(f.connect_ms, |s| s * 1e3);
        let _ = writeln!(o, "initial connection time = {initial_ms:.3} ms");
        let _ = writeln!(o, "tps = {tps:.6} (without initial connection time)");
    }
    if f.scripts.len() > 1 {
        scripts(&mut o, r, f, ok);
    }
    if line.per_command && f.scripts.len() == 1 {
        commands(&mut o, f, 0, "");
    }
    o
}

/// Failures in detail, retries, skipped and late transactions, as the options ask.
fn counts(o: &mut String, r: &RunResult, f: &Facts<'_>, ok: u64, all: u64) {
    let line = f.line;
    let t = f.tally;
    let n = |c: &std::sync::atomic::AtomicU64| c.load(Ordering::Relaxed);
    if line.failures_detailed {
        let (ser, dead) = (n(&t.serialization_failures), n(&t.deadlock_failures));
        let _ = writeln!(
            o,
            "number of serialization failures: {ser} ({}%)",
            pct3(pct(ser, all))
        );
        let _ = writeln!(
            o,
            "number of deadlock failures: {dead} ({}%)",
            pct3(pct(dead, all))
        );
    }
    if line.max_tries.unwrap_or(1) != 1 {
        let retried = n(&t.retried);
        let _ = writeln!(
            o,
            "number of transactions retried: {retried} ({}%)",
            pct3(pct(retried, all))
        );
        let _ = writeln!(o, "total number of retries: {}", n(&t.retries));
    }
    if let Some(l) = &r.summary.latency_limit {
        if line.rate.is_some() {
            let _ = writeln!(
                o,
                "number of transactions skipped: {} ({}%)",
                l.skipped,
                pct3(pct(l.skipped, all))
            );
        }
        let _ = writeln!(
            o,
            "number of transactions above the {:.1} ms latency limit: {}/{ok} ({}%)",
            l.limit_ms,
            l.above,
            pct3(pct(l.above, ok))
        );
    }
}

/// Measured per transaction under -R, -P or -L; otherwise the run's time over its count.
fn latency(o: &mut String, r: &RunResult, line: &Line, clients: i64, failed: u64) {
    let s = &r.summary;
    if line.rate.is_some() || line.progress_s.is_some() || line.latency_limit_ms.is_some() {
        let _ = writeln!(o, "latency average = {:.3} ms", s.latency.avg_ms);
        let _ = writeln!(o, "latency stddev = {:.3} ms", stddev_ms(r));
    } else {
        let avg = 1000.0 * s.total_time_s * clients as f64 / s.events.max(1) as f64;
        let failures = if failed > 0 {
            " (including failures)"
        } else {
            ""
        };
        let _ = writeln!(o, "latency average = {avg:.3} ms{failures}");
    }
    if let Some(service) = &s.service_time {
        // Response time counts from the scheduled start, service time from the actual one:
        // their difference is the schedule lag pgbench reports.
        let _ = writeln!(
            o,
            "rate limit schedule lag: avg {:.3} (max {:.3}) ms",
            (s.latency.avg_ms - service.avg_ms).max(0.0),
            s.max_lag_ms
        );
    }
}

/// The standard deviation of the transactions' latencies, from the run's histogram.
fn stddev_ms(r: &RunResult) -> f64 {
    dbpress_report::histogram::decode(&r.histograms.response).map_or(0.0, |h| h.stdev() / 1e3)
}

/// `SQL script N:` blocks, one per script.
fn scripts(o: &mut String, r: &RunResult, f: &Facts<'_>, ok: u64) {
    let total_weight: u64 = f.scripts.iter().map(|s| u64::from(s.weight)).sum();
    let by_script = events_by_script(r, f.scripts.len());
    for (i, s) in f.scripts.iter().enumerate() {
        let n = by_script[i];
        let _ = writeln!(o, "SQL script {}: {}", i + 1, s.name);
        let _ = writeln!(
            o,
            " - weight: {} (targets {:.1}% of total)",
            s.weight,
            100.0 * f64::from(s.weight) / total_weight.max(1) as f64
        );
        let failed: u64 = (0..s.commands.len())
            .map(|c| f.tally.of_command(i, c).0)
            .sum();
        let done = n.saturating_sub(failed);
        let _ = writeln!(
            o,
            " - {done} transactions ({:.1}% of total, tps = {:.6})",
            pct(done, ok),
            done as f64 / r.summary.total_time_s.max(1e-9)
        );
        let _ = writeln!(
            o,
            " - number of failed transactions: {failed} ({}%)",
            pct3(pct(failed, n))
        );
        if let Some(st) = f.script_kinds.get(i).and_then(|k| statement(r, k)) {
            let _ = writeln!(o, " - latency average = {:.3} ms", st.latency.avg_ms);
            let _ = writeln!(
                o,
                " - latency stddev = {:.3} ms",
                kind_stddev_ms(r, &st.name)
            );
        }
        if f.line.per_command {
            commands(o, f, i, " - ");
        }
    }
}

fn statement<'r>(r: &'r RunResult, name: &str) -> Option<&'r dbpress_result::StatementSummary> {
    r.statements
        .iter()
        .find(|st| st.name == name && st.count > 0)
}

/// The standard deviation of one kind's latencies, from its histogram.
fn kind_stddev_ms(r: &RunResult, name: &str) -> f64 {
    r.histograms
        .statements
        .get(name)
        .and_then(|h| dbpress_report::histogram::decode(h))
        .map_or(0.0, |h| h.stdev() / 1e3)
}

/// Each script's transaction count: the run's events by label, the label being the script.
fn events_by_script(r: &RunResult, scripts: usize) -> Vec<u64> {
    let mut n = vec![0u64; scripts];
    for i in &r.intervals {
        for (k, e) in i.events_by_kind.iter().enumerate() {
            if k < scripts {
                n[k] += e;
            }
        }
    }
    n
}

/// `-r`: each command's average latency and failures, with its first line.
fn commands(o: &mut String, f: &Facts<'_>, script: usize, lead: &str) {
    let header = if f.line.max_tries.unwrap_or(1) == 1 {
        "statement latencies in milliseconds and failures:"
    } else {
        "statement latencies in milliseconds, failures and retries:"
    };
    let _ = writeln!(o, "{lead}{header}");
    let s = &f.scripts[script];
    let retries = f.line.max_tries.unwrap_or(1) != 1;
    for (i, shown) in s.shown.iter().enumerate() {
        let avg = f.tally.command_ms(script, i);
        let (failures, retried) = f.tally.of_command(script, i);
        let _ = write!(o, "   {avg:>11.3}  {failures:>10}");
        if retries {
            let _ = write!(o, "  {retried:>10}");
        }
        let _ = writeln!(o, "  {shown}");
    }
}
