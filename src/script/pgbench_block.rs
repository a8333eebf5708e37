//! pgbench's summary block after a script run, so notes and parsers written for pgbench
//! (`tps = …`, `latency average = …`) keep working, as `dbpress slap` prints mysqlslap's block.
//!
//! Where dbpress differs from pgbench the block says what dbpress did, in pgbench's words: one
//! OS thread per client (so "number of threads" is the client count), ignorable errors retried
//! without a limit (pgbench's `--max-tries=0`, which drops the "maximum number of tries" line),
//! and no per-script sections (dbpress counts per statement, in its own table above).

use dbpress_result::RunResult;
use std::fmt::Write;

/// How pgbench names a script in "transaction type:".
pub fn transaction_type(scripts: &[String]) -> String {
    match scripts {
        [one] => match one.as_str() {
            "tpcb-like" => "<builtin: TPC-B (sort of)>".into(),
            "simple-update" => "<builtin: simple update>".into(),
            "select-only" => "<builtin: select only>".into(),
            file => file.into(),
        },
        _ => "multiple scripts".into(),
    }
}

/// The block for a finished run of `r`; `per_client` is pgbench's `-t`.
pub fn block(r: &RunResult, transaction_type: &str, scale: i64, per_client: Option<u64>) -> String {
    let s = &r.summary;
    let mut o = String::new();
    let _ = writeln!(o, "pgbench-style summary (dbpress):");
    let _ = writeln!(o, "transaction type: {transaction_type}");
    let _ = writeln!(o, "scaling factor: {scale}");
    let _ = writeln!(o, "query mode: prepared");
    let _ = writeln!(o, "number of clients: {}", r.run.threads);
    let _ = writeln!(o, "number of threads: {}", r.run.threads);
    match per_client {
        Some(t) => {
            let _ = writeln!(o, "number of transactions per client: {t}");
            let _ = writeln!(
                o,
                "number of transactions actually processed: {}/{}",
                s.events,
                t * u64::from(r.run.threads)
            );
        }
        None => {
            let _ = writeln!(o, "duration: {} s", r.run.time_limit_s);
            let _ = writeln!(o, "number of transactions actually processed: {}", s.events);
        }
    }
    let _ = writeln!(o, "number of failed transactions: 0 (0.000%)");
    if s.errors > 0 {
        let _ = writeln!(o, "total number of retries: {}", s.errors);
    }
    if let Some(l) = &s.latency_limit {
        if r.run.rate.is_some() {
            let due = s.events + l.skipped;
            let _ = writeln!(
                o,
                "number of transactions skipped: {} ({:.3}%)",
                l.skipped,
                100.0 * l.skipped as f64 / due.max(1) as f64
            );
        }
        let _ = writeln!(
            o,
            "number of transactions above the {:.1} ms latency limit: {}/{} ({:.3}%)",
            l.limit_ms,
            l.above,
            s.events,
            100.0 * l.above as f64 / s.events.max(1) as f64
        );
    }
    let _ = writeln!(o, "latency average = {:.3} ms", s.latency.avg_ms);
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
    let _ = writeln!(o, "tps = {:.6} (without initial connection time)", s.tps);
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_scripts_as_pgbench_does() {
        assert_eq!(
            transaction_type(&["tpcb-like".into()]),
            "<builtin: TPC-B (sort of)>"
        );
        assert_eq!(
            transaction_type(&["select-only".into()]),
            "<builtin: select only>"
        );
        assert_eq!(
            transaction_type(&["simple-update".into()]),
            "<builtin: simple update>"
        );
        assert_eq!(transaction_type(&["my.sql".into()]), "my.sql");
        assert_eq!(
            transaction_type(&["a.sql".into(), "select-only".into()]),
            "multiple scripts"
        );
    }
}
