//! Text output: sysbench 1.0.20's interval line and final report, byte-compatible so existing
//! parsers keep working, followed by dbpress's own sections; a sweep's table (`sweep`), a
//! comparison's tables (`comparison`), an experiment's (`experiment`), the run's progress
//! (`progress`).

use crate::histogram::decode;
use crate::model::comparison::Comparison;
use crate::model::experiment::Experiment;
use crate::model::metric::Metric;
use crate::render::Render;
use dbpress_result::sweep::SweepResult;
use dbpress_result::{Checkpoint, Interval, Latency, RunResult, Summary};
use std::fmt::Write;

/// Text: what dbpress prints on a terminal.
pub struct Text;

impl Render for Text {
    /// The summary without its histogram (a run prints its own text as it goes, with
    /// --histogram when asked).
    fn run(&self, r: &RunResult) -> String {
        summary(r, false)
    }

    /// The sweep's table.
    fn sweep(&self, s: &SweepResult) -> String {
        sweep::render_table(s)
    }

    fn comparison(&self, c: &Comparison, metrics: &[Metric]) -> String {
        comparison::render(c, metrics)
    }

    fn experiment(&self, e: &Experiment) -> String {
        experiment::render(e)
    }
}

/// `[ 1s ] thds: 8 tps: … qps: … (r/w/o: …) lat (ms,95%): … err/s: … reconn/s: …`
pub fn interval_line(i: &Interval, percentile: u32) -> String {
    let d = i.duration_s.max(1e-9);
    let line = format!(
        "[ {:.0}s ] thds: {} tps: {:.2} qps: {:.2} (r/w/o: {:.2}/{:.2}/{:.2}) lat (ms,{}%): {:.2} err/s: {:.2} reconn/s: {:.2}",
        i.time_s,
        i.threads,
        i.events as f64 / d,
        (i.reads + i.writes + i.other) as f64 / d,
        i.reads as f64 / d,
        i.writes as f64 / d,
        i.other as f64 / d,
        percentile,
        i.latency_pct_ms,
        i.errors as f64 / d,
        i.reconnects as f64 / d,
    );
    // A TPC-C run's New-Orders, as tpmC, after sysbench's fields.
    match i.events_by_kind.first() {
        Some(&new_orders) => format!("{line} tpmC: {:.0}", new_orders as f64 * 60.0 / d),
        None => line,
    }
}

/// The interval lines a saved run printed as it ran: none without --report-interval, and none
/// for the intervals that closed the run. Files without the option in their configuration
/// (none are written so) show every interval.
pub fn interval_lines(r: &RunResult) -> String {
    let reported = r
        .config
        .get("report-interval")
        .is_none_or(|v| v.parse::<u64>().map_or(true, |n| n > 0));
    let checkpoints = r.checkpoints.as_ref().map_or(&[][..], |c| &c.reports[..]);
    let mut o = String::new();
    for i in &r.intervals {
        // A checkpoint is taken at a tick, and printed before that tick's line.
        for c in checkpoints.iter().filter(|c| c.time_s == i.time_s) {
            o.push_str(&checkpoint_report(c, r.run.percentile));
        }
        if !reported || i.closing {
            continue;
        }
        let _ = writeln!(o, "{}", interval_line(i, r.run.percentile));
        if let Some(extra) = rate_lines(i) {
            let _ = writeln!(o, "{extra}");
        }
    }
    o
}

/// Under --rate: sysbench's queue line, and dbpress's lag line when behind schedule.
pub fn rate_lines(i: &Interval) -> Option<String> {
    let (q, c) = (i.queue_length?, i.concurrency?);
    let mut s = format!("[ {:.0}s ] queue length: {q}, concurrency: {c}", i.time_s);
    let late = i.late_events.unwrap_or(0);
    let lag = i.lag_ms.unwrap_or(0.0);
    let skipped = i.skipped.unwrap_or(0);
    if late > 0 || lag > 1.0 || skipped > 0 {
        let _ = write!(
            s,
            "\n[ {:.0}s ] behind schedule: lag {lag:.2} ms, late events: {late}",
            i.time_s
        );
        if let Some(n) = i.skipped {
            let _ = write!(s, ", skipped: {n}");
        }
    }
    Some(s)
}

fn per_sec(n: u64, secs: f64) -> f64 {
    n as f64 / secs.max(1e-9)
}

/// sysbench's `    label:                        N      (R per sec.)` row (`%-6` count).
fn count_row(o: &mut String, label: &str, n: u64, secs: f64) {
    let _ = writeln!(
        o,
        "    {label:<37}{n:<6} ({:.2} per sec.)",
        per_sec(n, secs)
    );
}

/// The final report: sysbench's block, then dbpress's sections. After `--report-checkpoints`
/// the block covers the time since the last checkpoint, as sysbench's does.
pub fn summary(r: &RunResult, with_histogram: bool) -> String {
    let mut o = String::new();
    if with_histogram {
        o.push_str(&histogram(r));
    }
    let period = r.checkpoints.as_ref().map(|c| &c.last_period);
    let s = period.unwrap_or(&r.summary);
    match &r.machine_test {
        // A test of the machine: its own section where a database's SQL statistics go.
        Some(m) => {
            o.push_str(&machine_section(m, s));
            general_block(&mut o, s, r.summary.total_time_s, r.run.percentile);
        }
        // A script that used no database: sysbench's general statistics alone, after the
        // blank line that ends its histogram, or a blank line of its own.
        None if r.no_database => {
            if !with_histogram {
                o.push('\n');
            }
            general_block(&mut o, s, r.summary.total_time_s, r.run.percentile)
        }
        None => sysbench_block(
            &mut o,
            s,
            r.summary.total_time_s,
            r.run.percentile,
            r.run.forced_shutdown.as_ref().map(|f| f.unfinished),
        ),
    }
    if let Some(p) = period.filter(|_| !dbpress_core::personality::is_sysbench()) {
        let _ = writeln!(
            o,
            "(The block above covers the {:.2}s since the last checkpoint; what follows covers the whole run.)\n",
            p.total_time_s
        );
    }
    // As sysbench (a link named after it), its report and nothing more (#42).
    if !dbpress_core::personality::is_sysbench() {
        o.push_str(&dbpress_sections(r));
    }
    o
}

/// The summary without sysbench's part, which a script's own final report (its
/// `report_cumulative` hook) replaced: dbpress's sections (latency by statement, the server's
/// counters, …) stay, since no hook prints them. After a blank line, as sysbench's own report
/// begins.
pub fn dbpress_summary(r: &RunResult, with_histogram: bool) -> String {
    let mut o = String::from("\n");
    if with_histogram {
        o.push_str(&histogram(r));
    }
    if !dbpress_core::personality::is_sysbench() {
        o.push_str(&dbpress_sections(r));
    }
    o
}

/// sysbench's `[ Ns ] Checkpoint report:` and its block for the period since the previous one.
pub fn checkpoint_report(c: &Checkpoint, percentile: u32) -> String {
    let mut o = format!("[ {:.0}s ] Checkpoint report:\n", c.time_s);
    sysbench_block(&mut o, &c.summary, c.time_s, percentile, None);
    o
}

/// sysbench's report from "SQL statistics:" to "Threads fairness:". Rates are per second of
/// `s.total_time_s`; "total time" shows `elapsed_s`, the time since the start (sysbench keeps
/// it running across checkpoints).
fn sysbench_block(
    o: &mut String,
    s: &Summary,
    elapsed_s: f64,
    percentile: u32,
    unfinished: Option<u32>,
) {
    let t = s.total_time_s;
    let _ = writeln!(o, "SQL statistics:");
    let _ = writeln!(o, "    queries performed:");
    let _ = writeln!(o, "        read:                            {}", s.reads);
    let _ = writeln!(o, "        write:                           {}", s.writes);
    let _ = writeln!(o, "        other:                           {}", s.other);
    let _ = writeln!(
        o,
        "        total:                           {}",
        s.reads + s.writes + s.other
    );
    let q = s.reads + s.writes + s.other;
    count_row(o, "transactions:", s.events, t);
    count_row(o, "queries:", q, t);
    count_row(o, "ignored errors:", s.errors, t);
    count_row(o, "reconnects:", s.reconnects, t);
    if let Some(n) = unfinished {
        let _ = writeln!(o);
        let _ = writeln!(
            o,
            "Number of unfinished transactions on forced shutdown: {n}"
        );
    }
    let _ = writeln!(o);
    general_block(o, s, elapsed_s, percentile);
}

/// sysbench's report of a test of the machine, before its general statistics: `cpu`'s speed,
/// `memory`'s operations and MiB per second.
fn machine_section(m: &dbpress_result::machine::MachineTest, s: &Summary) -> String {
    match m.test.as_str() {
        "cpu" => format!(
            "CPU speed:\n    events per second: {:8.2}\n\n",
            s.events as f64 / s.total_time_s.max(1e-9)
        ),
        "memory" => {
            let t = s.total_time_s.max(1e-9);
            let mut o = format!(
                "Total operations: {} ({:8.2} per second)\n\n",
                s.events,
                s.events as f64 / t
            );
            if m.memory_oper.as_deref() != Some("none") {
                let mib = (s.events * m.block_bytes.unwrap_or(0)) as f64 / (1024.0 * 1024.0);
                let _ = writeln!(o, "{mib:.2} MiB transferred ({:.2} MiB/sec)\n", mib / t);
            }
            o.push('\n');
            o
        }
        "fileio" => {
            let t = s.total_time_s.max(1e-9);
            let bytes = m.request_bytes.or(m.block_bytes).unwrap_or(0);
            let mib = |n: u64| (n * bytes) as f64 / (1024.0 * 1024.0) / t;
            let mut o = String::from("\nFile operations:\n");
            let _ = writeln!(o, "{:<34}{:.2}", "    reads/s:", s.reads as f64 / t);
            let _ = writeln!(o, "{:<34}{:.2}", "    writes/s:", s.writes as f64 / t);
            let _ = writeln!(o, "{:<34}{:.2}", "    fsyncs/s:", s.other as f64 / t);
            let _ = writeln!(o, "\nThroughput:");
            let _ = writeln!(o, "{:<34}{:.2}", "    read, MiB/s:", mib(s.reads));
            let _ = writeln!(o, "{:<34}{:.2}", "    written, MiB/s:", mib(s.writes));
            o.push('\n');
            o
        }
        _ => "\n".to_string(),
    }
}

/// sysbench's report from "General statistics:" to "Threads fairness:", which every test has.
fn general_block(o: &mut String, s: &Summary, elapsed_s: f64, percentile: u32) {
    let _ = writeln!(o, "General statistics:");
    let _ = writeln!(
        o,
        "    total time:                          {elapsed_s:.4}s"
    );
    let _ = writeln!(o, "    total number of events:              {}", s.events);
    let _ = writeln!(o);
    let l = &s.latency;
    let _ = writeln!(o, "Latency (ms):");
    let _ = writeln!(o, "         min: {:39.2}", l.min_ms);
    let _ = writeln!(o, "         avg: {:39.2}", l.avg_ms);
    let _ = writeln!(o, "         max: {:39.2}", l.max_ms);
    if percentile > 0 {
        let _ = writeln!(
            o,
            "        {:3}th percentile: {:27.2}",
            percentile, l.pct_ms
        );
    } else {
        let _ = writeln!(o, "         percentile stats:               disabled");
    }
    let _ = writeln!(o, "         sum: {:39.2}", l.sum_ms);
    let _ = writeln!(o);
    let f = &s.fairness;
    let _ = writeln!(o, "Threads fairness:");
    let _ = writeln!(
        o,
        "    events (avg/stddev):           {:.4}/{:3.2}",
        f.events_avg, f.events_stddev
    );
    let _ = writeln!(
        o,
        "    execution time (avg/stddev):   {:.4}/{:3.2}",
        f.time_avg_s, f.time_stddev_s
    );
    let _ = writeln!(o);
    if dbpress_core::personality::sysbench_debug() && !f.threads.is_empty() {
        per_thread_debug(o, &f.threads);
    }
}

/// sysbench's `--debug` statistics of each thread, after its report.
fn per_thread_debug(o: &mut String, threads: &[dbpress_result::ThreadFigures]) {
    let _ = writeln!(o, "DEBUG: Verbose per-thread statistics:\n");
    for (n, t) in threads.iter().enumerate() {
        let avg_ms = t.time_ms / t.events.max(1) as f64;
        let _ = writeln!(
            o,
            "DEBUG:     thread #{n:3}: min: {:.4}s  avg: {:.4}s  max: {:.4}s  events: {}",
            t.min_ms / 1e3,
            avg_ms / 1e3,
            t.max_ms / 1e3,
            t.events
        );
        let _ = writeln!(
            o,
            "DEBUG:                  total time taken by event execution: {:.4}s",
            t.time_ms / 1e3
        );
    }
    let _ = writeln!(o);
}

/// `--latency-limit`: the finished events slower than it and, under --rate, the events not run
/// because they were already later than it when due.
fn latency_limit(l: &dbpress_result::LatencyLimit, events: u64, paced: bool) -> String {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "Latency limit {:.3} ms (--latency-limit, dbpress):",
        l.limit_ms
    );
    let _ = writeln!(
        o,
        "    events above it: {} of {} ({:.3}%){}",
        l.above,
        events,
        100.0 * l.above as f64 / events.max(1) as f64,
        if paced {
            ", timed from their intended start"
        } else {
            ""
        }
    );
    if paced {
        let due = events + l.skipped;
        let _ = writeln!(
            o,
            "    skipped, already later than it when due: {} of {} ({:.3}%)",
            l.skipped,
            due,
            100.0 * l.skipped as f64 / due.max(1) as f64
        );
    }
    let _ = writeln!(o);
    o
}

/// One row of a latency table whose name column is `w` characters wide.
/// One row of a latency table; `errors` None leaves that column blank (the --rate table has no
/// errors column).
/// The widest statement name the latency table prints whole; a longer one (a script's long
/// SQL text) is cut with `…` (the JSON keeps it whole).
const NAME_WIDTH_MAX: usize = 72;

fn latency_row(o: &mut String, w: usize, name: &str, count: u64, errors: Option<u64>, l: &Latency) {
    let errors = errors.map_or(String::new(), |e| e.to_string());
    let cut: String;
    let name = if name.chars().count() > w {
        cut = name.chars().take(w - 1).chain(['…']).collect();
        &cut
    } else {
        name
    };
    let _ = writeln!(
        o,
        "    {name:<w$} {count:>10} {errors:>7} {:>9.3} {:>9.3} {:>9.3} {:>9.3} {:>9.3}",
        l.p50_ms, l.p95_ms, l.p99_ms, l.p999_ms, l.max_ms
    );
}

fn dbpress_sections(r: &RunResult) -> String {
    let mut o = String::new();
    let s = &r.summary;
    // Statement names of custom SQL (slap) can be longer than sysbench's kinds.
    let w = r
        .statements
        .iter()
        .map(|st| st.name.chars().count())
        .fold(18, usize::max)
        .min(NAME_WIDTH_MAX);
    if let Some(t) = &r.tpcc {
        o.push_str(&tpcc::section(t));
    }
    // Sessions that ran on another client than dbpress's own do not measure the same thing.
    let clients = &r.environment.clients;
    if clients.len() > 1 || clients.iter().any(|c| c.reason.is_some()) {
        let _ = writeln!(
            o,
            "Clients: {}\n",
            dbpress_result::clients::describe(clients)
        );
    }
    let _ = writeln!(o, "Latency by statement (ms, dbpress):");
    let _ = writeln!(
        o,
        "    {:<w$} {:>10} {:>7} {:>9} {:>9} {:>9} {:>9} {:>9}",
        "statement", "count", "errors", "p50", "p95", "p99", "p99.9", "max"
    );
    latency_row(&mut o, w, "event", s.events, Some(s.errors), &s.latency);
    for st in &r.statements {
        latency_row(&mut o, w, &st.name, st.count, Some(st.errors), &st.latency);
    }
    let _ = writeln!(o);
    if !r.errors_by_code.is_empty() {
        let _ = writeln!(o, "Errors by code (dbpress):");
        for (code, n) in &r.errors_by_code {
            let _ = writeln!(o, "    {code:<8} {n:>10}  {}", describe_code(code));
        }
        let _ = writeln!(o);
    }
    if let Some(sv) = &s.service_time {
        let rate = r.run.rate.unwrap_or(0.0);
        let _ = writeln!(
            o,
            "Response vs service time under --rate={rate} (ms, dbpress):"
        );
        let _ = writeln!(
            o,
            "    {:<18} {:>10} {:>7} {:>9} {:>9} {:>9} {:>9} {:>9}",
            "", "count", "", "p50", "p95", "p99", "p99.9", "max"
        );
        latency_row(&mut o, 18, "response", s.latency.count, None, &s.latency);
        latency_row(&mut o, 18, "service", sv.count, None, sv);
        let _ = writeln!(
            o,
            "    late events (started > 1 ms after their intended time): {} ({:.2}%), max lag {:.2} ms",
            s.late_events,
            100.0 * s.late_events as f64 / (s.events.max(1)) as f64,
            s.max_lag_ms
        );
        let _ = writeln!(o);
    }
    if let Some(l) = &s.latency_limit {
        o.push_str(&latency_limit(l, s.events, r.run.rate.is_some()));
    }
    if let Some(t) = &r.throughput {
        o.push_str(&throughput::section(t));
    }
    if let Some(h) = &r.host_usage {
        o.push_str(&host::section(h, s.events, s.reads + s.writes + s.other));
        o.push_str(&host::disk_section(h, s.events));
        o.push_str(&host::network_section(h, s.events));
    }
    if let Some(c) = &r.server_counters {
        let disk_reads = r.host_usage.as_ref().and_then(|h| {
            let d = h.disk.as_ref()?;
            Some(h.per_item(d.io.reads_s, s.events))
        });
        o.push_str(&server_counters::section(c, s.events, disk_reads));
    }
    if let Some(st) = &r.server_status {
        o.push_str(&server_status::section(st, &r.intervals));
    }
    if let Some(w) = &r.server_waits {
        o.push_str(&server_waits::section(w));
    }
    if let Some(v) = &s.overrun {
        let _ = writeln!(o, "{}", overrun(v, r));
    }
    if let Some(sig) = &r.run.interrupted_by {
        if r.run.warmup_s > 0 && r.intervals.is_empty() && s.events == 0 {
            let _ = writeln!(
                o,
                "Interrupted by {sig} during the {}s warm-up: nothing was measured.",
                r.run.warmup_s
            );
        } else {
            let _ = writeln!(
                o,
                "Interrupted by {sig}: the figures above cover the {:.2}s that ran.",
                s.total_time_s
            );
        }
    }
    if let Some(e) = &r.run.fatal_error {
        let _ = writeln!(o, "Stopped by an error: {e}");
    }
    if let Some(f) = &r.run.forced_shutdown {
        let _ = writeln!(
            o,
            "Forced shutdown {} s after --time ended: {} of {} threads were still inside an event, left out of every figure; \
             the statement table covers the threads that stopped, and the server's counters were not read.",
            f.grace_s,
            f.unfinished,
            r.run.threads
        );
    }
    if let Some(a) = &r.run.abandoned {
        let _ = writeln!(o, "{}", left_behind(a, r.run.threads));
    }
    for w in &r.run.warnings {
        let _ = writeln!(o, "Warning: {w}");
    }
    o
}

/// The report's line on sessions a run left behind at its end.
fn left_behind(a: &dbpress_result::Abandoned, threads: u32) -> String {
    let after = match a.after.as_str() {
        "end" => "the run's end".to_string(),
        sig => sig.to_string(),
    };
    let server = if a.server_answered {
        "answered a new session (they waited on it: a lock, a long statement)"
    } else {
        "did not answer a new session either"
    };
    format!(
        "Left behind {:.1} s after {after}: {} of {threads} sessions still waiting for the server's answer, left out of every figure; \
         the server {server}, and its counters were not read again.",
        a.waited_s, a.sessions
    )
}

/// Why a --time run went on past its end: held up itself (its last tick late, its workers
/// stopped with it), --forced-shutdown's grace, or the events still running that it waited for.
pub(crate) fn overrun(v: &dbpress_result::Overrun, r: &RunResult) -> String {
    let why = if let Some(f) = &r.run.forced_shutdown {
        format!(
            "--forced-shutdown waited {} s for the events still running (see below)",
            f.grace_s
        )
    } else if v.last_tick_late_s >= 0.5 * v.by_s {
        format!(
            "dbpress itself was held up across the end, workers and reporter alike (no CPU time, a stopped process): the reporter's last tick came {:.2}s late",
            v.last_tick_late_s
        )
    } else if v.last_events_max_ms / 1000.0 >= 0.5 * v.by_s {
        format!(
            "the events still running at the end were waited for, as sysbench waits for them: the slowest took {:.2} ms",
            v.last_events_max_ms
        )
    } else {
        format!(
            "the workers stopped late after their last events (the slowest of those took {:.2} ms; the reporter's last tick came {:.2}s late)",
            v.last_events_max_ms, v.last_tick_late_s
        )
    };
    format!(
        "The run overran --time={} by {:.2}s (total time {:.2}s; its rates are per second of that): {why}.",
        r.run.time_limit_s, v.by_s, r.summary.total_time_s
    )
}

fn describe_code(code: &str) -> &'static str {
    match code {
        "1213" => "deadlock",
        "1205" => "lock wait timeout",
        "1020" => "record changed since last read",
        "1062" => "duplicate key",
        "2006" => "server has gone away",
        "2013" => "lost connection during query",
        "2055" => "lost connection (system error)",
        "1317" => "query interrupted",
        "1040" => "too many connections",
        "1927" => "connection killed",
        // PostgreSQL's SQLSTATEs (pgsql-ignore-errors' codes among them).
        "40P01" => "deadlock",
        "40001" => "serialization failure",
        "55P03" => "lock not available",
        "57014" => "query canceled (statement timeout)",
        "23505" => "duplicate key",
        "08006" => "connection failure (session lost)",
        "08003" => "connection does not exist",
        "08001" => "unable to establish the connection",
        "57P01" => "server shutting down (admin shutdown)",
        "53300" => "too many connections",
        _ => "",
    }
}

/// sysbench's `--histogram` block: counts on sysbench's 1024-bucket log grid (0.001 ms to
/// 100 s), so the picture matches what sysbench users know; values from the HDR histogram.
pub fn histogram(r: &RunResult) -> String {
    let mut o = String::new();
    let Some(h) = decode(&r.histograms.response) else {
        return o;
    };
    const BUCKETS: usize = 1024;
    let (lo, hi) = (1e-3f64, 1e5f64);
    let mult = (BUCKETS - 1) as f64 / (hi.ln() - lo.ln());
    let mut counts = vec![0u64; BUCKETS];
    for v in h.iter_recorded() {
        let ms = (v.value_iterated_to() as f64 / 1000.0).max(lo);
        let idx = (((ms.ln() - lo.ln()) * mult + 0.5).floor() as usize).min(BUCKETS - 1);
        counts[idx] += v.count_at_value();
    }
    let max = counts.iter().copied().max().unwrap_or(0).max(1);
    let _ = writeln!(o, "Latency histogram (values are in milliseconds)");
    let _ = writeln!(
        o,
        "       value  ------------- distribution ------------- count"
    );
    for (i, &c) in counts.iter().enumerate().filter(|(_, c)| **c > 0) {
        let value = (i as f64 / mult + lo.ln()).exp();
        let width = ((c as f64 * 40.0 / max as f64) + 0.5) as usize;
        let _ = writeln!(o, "{value:12.3} |{:<40} {c}", "*".repeat(width));
    }
    let _ = writeln!(o, " ");
    let _ = writeln!(o);
    o
}

mod comparison;
mod experiment;
pub mod host;
pub mod progress;
mod server_counters;
mod server_status;
mod server_waits;
pub mod sweep;
#[cfg(test)]
pub(crate) mod tests;
mod throughput;
pub(crate) mod tpcc;
