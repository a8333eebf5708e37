//! Results as Markdown, for the wiki page, ticket or pull request where a change is argued:
//! what ran (the command, the server, when), the figures as pipe tables, and for a comparison
//! what differed besides the figures (`comparison`); an experiment's tables (`experiment`). Everything comes from the result file, like the other
//! renderers, so `dbpress report FILE --output-format=markdown` gives the same page later.

use super::table::{num, Align, Table};
use crate::dates::utc;
use crate::model::comparison::Comparison;
use crate::model::experiment::Experiment;
use crate::model::metric::Metric;
use crate::render::Render;
use dbpress_result::sweep::SweepResult;
use dbpress_result::{Latency, RunResult};
use std::fmt::Write;

mod comparison;
mod experiment;

/// Markdown: pipe tables and the command that made the result, for a wiki page or a ticket.
pub struct Markdown;

impl Render for Markdown {
    fn run(&self, r: &RunResult) -> String {
        run(r)
    }

    fn sweep(&self, s: &SweepResult) -> String {
        sweep(s)
    }

    fn comparison(&self, c: &Comparison, metrics: &[Metric]) -> String {
        comparison::render(c, metrics)
    }

    fn experiment(&self, e: &Experiment) -> String {
        experiment::render(e)
    }
}

/// A run: what ran, its main figures, latency by statement, errors by code, and where the
/// server, the machine and the disk stood.
fn run(r: &RunResult) -> String {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "### dbpress {}: {} threads, {}\n",
        r.run.workload,
        r.run.threads,
        r.server_name()
    );
    about(
        &mut o,
        &r.command_line,
        r.run.started_at_unix_s,
        &r.tool.version,
    );
    let _ = writeln!(o, "Target: {}\n", r.environment.target);
    if let Some(why) = r.run.interrupted_by.as_deref() {
        let _ = writeln!(o, "Interrupted by {why}: the figures cover what ran.\n");
    }
    if let Some(e) = r.run.fatal_error.as_deref() {
        let _ = writeln!(o, "Stopped by an error: {e}\n");
    }
    o.push_str(&figures(r).markdown());
    o.push('\n');
    if let Some(t) = &r.tpcc {
        o.push_str(&tpcc_table(t).markdown());
        o.push('\n');
    }

    let mut st = Table::new(&[
        "statement",
        "count",
        "errors",
        "p50 ms",
        "p95 ms",
        "p99 ms",
        "p99.9 ms",
        "max ms",
    ]);
    let s = &r.summary;
    st.row(latency_cells("event", s.events, s.errors, &s.latency));
    for x in &r.statements {
        st.row(latency_cells(&x.name, x.count, x.errors, &x.latency));
    }
    o.push_str(&st.markdown());
    o.push('\n');

    if !r.errors_by_code.is_empty() {
        let mut e = Table::new(&["error code", "count"]);
        for (code, n) in &r.errors_by_code {
            e.row(vec![code.clone(), n.to_string()]);
        }
        o.push_str(&e.markdown());
        o.push('\n');
    }
    if let Some(w) = r.server_waits.as_ref().filter(|w| !w.events.is_empty()) {
        let _ = writeln!(
            o,
            "Server wait events of the run's sessions ({}, {} samples):\n",
            w.source, w.samples
        );
        let mut t = Table::new(&["wait event", "share"]);
        for e in w.events.iter().take(8) {
            t.row(vec![e.event.clone(), format!("{:.1}%", e.share * 100.0)]);
        }
        o.push_str(&t.markdown());
        o.push('\n');
    }
    o
}

/// The summary's figures as (figure, value) rows: sysbench's, then dbpress's where the run
/// has them.
fn figures(r: &RunResult) -> Table {
    let s = &r.summary;
    let secs = s.total_time_s.max(f64::MIN_POSITIVE);
    let mut t = Table::new(&["figure", "value"]);
    let mut add = |name: &str, value: String| t.row(vec![name.to_string(), value]);
    add("transactions per second (TPS)", format!("{:.2}", s.tps));
    add("queries per second (QPS)", format!("{:.2}", s.qps));
    add(
        "reads / writes / other per second",
        format!(
            "{:.2} / {:.2} / {:.2}",
            s.reads as f64 / secs,
            s.writes as f64 / secs,
            s.other as f64 / secs
        ),
    );
    add("latency avg, ms", format!("{:.3}", s.latency.avg_ms));
    add(
        &format!("latency p{}, ms", r.run.percentile),
        format!("{:.3}", s.latency.pct_ms),
    );
    add("latency p99, ms", format!("{:.3}", s.latency.p99_ms));
    add("latency max, ms", format!("{:.3}", s.latency.max_ms));
    if let Some(sv) = &s.service_time {
        add(
            "service time p95, ms (under --rate)",
            format!("{:.3}", sv.p95_ms),
        );
        add("late events (under --rate)", s.late_events.to_string());
    }
    add(
        "ignored errors per second",
        format!("{:.2}", s.errors as f64 / secs),
    );
    add(
        "reconnects per second",
        format!("{:.2}", s.reconnects as f64 / secs),
    );
    add("events", s.events.to_string());
    add("measured time, s", format!("{:.2}", s.total_time_s));
    if let Some(tp) = &r.throughput {
        add(
            &format!(
                "events/s per {:.0}s interval: median (min-max)",
                tp.interval_s
            ),
            format!(
                "{:.2} ({:.2}-{:.2}), stddev/mean {:.1}%",
                tp.median_eps, tp.min_eps, tp.max_eps, tp.cv_percent
            ),
        );
        let mut stalls = tp.stalled_intervals.to_string();
        if tp.near_stops > 0 {
            stalls += &format!(
                " ({} of them with next to no event finished)",
                tp.near_stops
            );
        }
        if !tp.stall_waits.is_empty() {
            stalls += &format!(
                "; the sessions meanwhile: {}",
                dbpress_result::wait_shares::top(&tp.stall_waits, 3)
            );
        }
        add("stalls (intervals with no event finished)", stalls);
        if let Some(s) = &tp.slowest {
            let mut slow = format!(
                "{} of {}: median {:.2} against {:.2} events/s",
                s.intervals,
                s.intervals + s.others,
                s.median_eps,
                s.others_median_eps
            );
            if !s.waits.is_empty() {
                slow += &format!(
                    "; the sessions: {} (others: {})",
                    dbpress_result::wait_shares::top(&s.waits, 3),
                    dbpress_result::wait_shares::top(&s.others_waits, 3)
                );
            }
            add("slowest quarter of the intervals", slow);
        }
    }
    if let Some(h) = &r.host_usage {
        add(
            "CPUs busy (machine, of its CPUs)",
            format!("{:.2} of {}", h.host.busy(), h.cpus),
        );
        if let Some(sv) = &h.server {
            add(
                "server CPU per event, us",
                format!("{:.1}", h.micros_per(sv.cpus(), s.events)),
            );
        }
        add(
            "dbpress CPU per event, us",
            format!("{:.1}", h.micros_per(h.dbpress.cpus(), s.events)),
        );
        if let Some(d) = &h.disk {
            add(
                &format!("disk {} busy", d.device),
                format!("{:.0}%", d.io.busy * 100.0),
            );
            add(
                "KiB written to the disk per event",
                format!("{:.2}", h.per_item(d.io.write_mib_s * 1024.0, s.events)),
            );
            if let Some(f) = d.io.flushes_s {
                add(
                    "disk cache flushes per event",
                    format!("{:.3}", h.per_item(f, s.events)),
                );
            }
        }
        if let Some(n) = &h.network {
            let (what, mib_s) = if n.loopback {
                ("both ways", n.io.rx_mib_s)
            } else {
                ("received", n.io.rx_mib_s)
            };
            add(
                &format!("network {} {what}, KiB per event", n.interface),
                format!("{:.1}", h.per_item(mib_s * 1024.0, s.events)),
            );
            if !n.loopback {
                add(
                    &format!("network {} sent, KiB per event", n.interface),
                    format!("{:.1}", h.per_item(n.io.tx_mib_s * 1024.0, s.events)),
                );
            }
        }
    }
    t
}

/// A TPC-C run's figures: tpmC and NOPM in the first row, then one row per transaction.
fn tpcc_table(t: &dbpress_result::tpcc::TpccFigures) -> Table {
    let mut x = Table::new(&[
        "TPC-C",
        "count",
        "mix %",
        "retries",
        "p50 ms",
        "p90 ms",
        "p99 ms",
        "max ms",
        "p90 limit",
    ]);
    x.row(vec![
        format!("tpmC {} / NOPM {}", t.tpmc, t.nopm),
        String::new(),
        String::new(),
        String::new(),
        String::new(),
        String::new(),
        String::new(),
        String::new(),
        if t.response_time_ok { "[OK]" } else { "[NG]" }.into(),
    ]);
    for tx in &t.transactions {
        x.row(vec![
            tx.name.clone(),
            tx.count.to_string(),
            format!("{:.2}", tx.mix_pct),
            tx.retries.to_string(),
            format!("{:.3}", tx.p50_ms),
            format!("{:.3}", tx.p90_ms),
            format!("{:.3}", tx.p99_ms),
            format!("{:.3}", tx.max_ms),
            format!("{} s", tx.limit_s),
        ]);
    }
    x
}

fn latency_cells(name: &str, count: u64, errors: u64, l: &Latency) -> Vec<String> {
    vec![
        name.to_string(),
        count.to_string(),
        errors.to_string(),
        format!("{:.3}", l.p50_ms),
        format!("{:.3}", l.p95_ms),
        format!("{:.3}", l.p99_ms),
        format!("{:.3}", l.p999_ms),
        format!("{:.3}", l.max_ms),
    ]
}

/// When and with what the result was made, and the command that makes it again.
fn about(o: &mut String, command_line: &[String], started: u64, version: &str) {
    let _ = writeln!(o, "Started {}, dbpress {version}:\n", utc(started));
    if !command_line.is_empty() {
        // The result keeps the arguments after the program's name.
        let _ = writeln!(o, "```sh\ndbpress {}\n```\n", shell_words(command_line));
    }
}

/// argv as a shell would take it back: words with spaces or quotes in single quotes.
fn shell_words(words: &[String]) -> String {
    let quote = |w: &String| {
        let plain = !w.is_empty()
            && w.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_=.,/:@%+".contains(c));
        if plain {
            w.clone()
        } else {
            format!("'{}'", w.replace('\'', r"'\''"))
        }
    };
    words.iter().map(quote).collect::<Vec<_>>().join(" ")
}

/// A sweep: the table of levels, with the machine's and the disk's load where measured.
fn sweep(s: &SweepResult) -> String {
    let mut o = String::new();
    let first = s.steps.iter().find_map(|st| st.result.as_ref());
    let _ = writeln!(
        o,
        "### dbpress {}: thread sweep over {} levels{}\n",
        s.workload,
        s.levels.len(),
        first.map_or(String::new(), |r| format!(", {}", r.server_name()))
    );
    about(
        &mut o,
        &s.command_line,
        first.map_or(0, |r| r.run.started_at_unix_s),
        &s.tool.version,
    );
    let with_cpu = s.table.iter().any(|r| r.cpu.is_some());
    let with_disk = s.table.iter().any(|r| r.disk.is_some());
    let with_wait = s.table.iter().any(|r| r.top_wait.is_some());
    // `dbpress slap --engine`: each row's storage engine first.
    let with_engine = s.table.iter().any(|r| r.engine.is_some());
    let mut head = vec![];
    if with_engine {
        head.push("engine");
    }
    head.extend([
        "threads", "TPS", "QPS", "p95 ms", "p99 ms", "err/s", "vs best",
    ]);
    if with_cpu {
        head.extend(["CPUs busy", "server CPUs", "dbpress CPUs"]);
    }
    if with_disk {
        head.push("disk busy");
    }
    if with_wait {
        head.push("top server wait");
    }
    head.push("note");
    let last = head.len() - 1;
    // Threads right-aligned; the engine names before them read from the left.
    let threads_at = usize::from(with_engine);
    let mut t = Table::new(&head)
        .align(threads_at, Align::Right)
        .align(last, Align::Left);
    if with_wait {
        t = t.align(last - 1, Align::Left);
    }
    for r in &s.table {
        let mut cells = Vec::new();
        if with_engine {
            cells.push(r.engine.clone().unwrap_or_default());
        }
        cells.extend(super::sweep_row::sweep_row_cells(r));
        if with_cpu {
            let c = r.cpu.as_ref();
            cells.push(num(c.map(|c| c.busy), 2));
            cells.push(num(c.and_then(|c| c.server), 2));
            cells.push(num(c.map(|c| c.dbpress), 2));
        }
        if with_disk {
            cells.push(
                r.disk
                    .as_ref()
                    .map_or(String::new(), |d| format!("{:.0}%", d.busy * 100.0)),
            );
        }
        if with_wait {
            cells.push(r.top_wait.as_ref().map_or(String::new(), |w| {
                format!("{:.0}% {}", w.share * 100.0, w.event)
            }));
        }
        let notes: Vec<&str> = [&r.note, &r.error]
            .into_iter()
            .flatten()
            .map(String::as_str)
            .collect();
        cells.push(notes.join("; "));
        t.row(cells);
    }
    o.push_str(&t.markdown());
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_words_quote_what_a_shell_would_split() {
        let words: Vec<String> = [
            "dbpress",
            "slap",
            "--query=begin;update t set n=n-1 where id=1;commit",
            "--mysql-user=sbtest",
            "it's",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        assert_eq!(
            shell_words(&words),
            "dbpress slap '--query=begin;update t set n=n-1 where id=1;commit' --mysql-user=sbtest 'it'\\''s'"
        );
    }
}
