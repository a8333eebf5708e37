//! Results as CSV, one row per thing a chart has a point for: a run's intervals (QPS, TPS and
//! latency per second, the time series people paste into a spreadsheet to find the stall), a
//! sweep's levels, a comparison's (threads, result) pairs, an experiment's (workload, metric,
//! threads, column) figures. Every column is always present, empty where a run has no such
//! figure, so files of different runs stack under one header.

use super::table::{num, Table};
use crate::model::comparison::Comparison;
use crate::model::experiment::Experiment;
use crate::model::metric::Metric;
use crate::render::Render;
use dbpress_result::sweep::SweepResult;
use dbpress_result::RunResult;

/// CSV: one row per point a chart would have, every column always there.
pub struct Csv;

impl Render for Csv {
    fn run(&self, r: &RunResult) -> String {
        run(r)
    }

    fn sweep(&self, s: &SweepResult) -> String {
        sweep(s)
    }

    /// The same rows whatever tables --metrics asks for: every figure is a column.
    fn comparison(&self, c: &Comparison, _metrics: &[Metric]) -> String {
        comparison(c)
    }

    fn experiment(&self, e: &Experiment) -> String {
        experiment(e)
    }
}

/// Per interval: where it ends, the rates sysbench's interval line gives, dbpress's additions
/// (p99, max, the --rate schedule) and the machine's CPUs and the data's disk.
fn run(r: &RunResult) -> String {
    let pct = format!("latency_p{}_ms", r.run.percentile);
    let mut t = Table::new(&[
        "time_s",
        "duration_s",
        "threads",
        "tps",
        "qps",
        "reads_per_s",
        "writes_per_s",
        "other_per_s",
        &pct,
        "latency_p99_ms",
        "latency_max_ms",
        "errors_per_s",
        "reconnects_per_s",
        "queue_length",
        "concurrency",
        "lag_ms",
        "late_events",
        "skipped",
        "closing",
        "cpus_user",
        "cpus_system",
        "cpus_iowait",
        "cpus_steal",
        "cpus_idle",
        "disk_writes_per_s",
        "disk_write_mib_per_s",
        "disk_flushes_per_s",
        "disk_reads_per_s",
        "disk_read_mib_per_s",
        "disk_busy_pct",
        "top_wait",
        "top_wait_pct",
        // Last, so the columns before keep their places: a TPC-C run's New-Orders per minute.
        "tpmc",
    ]);
    for i in &r.intervals {
        let rate = |n: u64| {
            if i.duration_s > 0.0 {
                format!("{:.2}", n as f64 / i.duration_s)
            } else {
                String::new()
            }
        };
        let count = |n: Option<u64>| n.map_or(String::new(), |n| n.to_string());
        let cpu = i.host_cpu.as_ref();
        let disk = i.disk.as_ref();
        // The interval's most frequent server wait (--server-waits).
        let top = dbpress_result::wait_shares::shares(i.waits.as_ref());
        t.row(vec![
            format!("{:.3}", i.time_s),
            format!("{:.3}", i.duration_s),
            i.threads.to_string(),
            rate(i.events),
            rate(i.reads + i.writes + i.other),
            rate(i.reads),
            rate(i.writes),
            rate(i.other),
            format!("{:.3}", i.latency_pct_ms),
            format!("{:.3}", i.latency_p99_ms),
            format!("{:.3}", i.latency_max_ms),
            rate(i.errors),
            rate(i.reconnects),
            count(i.queue_length),
            count(i.concurrency),
            num(i.lag_ms, 3),
            count(i.late_events),
            count(i.skipped),
            u8::from(i.closing).to_string(),
            num(cpu.map(|c| c.user), 3),
            num(cpu.map(|c| c.system), 3),
            num(cpu.map(|c| c.iowait), 3),
            num(cpu.map(|c| c.steal), 3),
            num(cpu.map(|c| c.idle), 3),
            num(disk.map(|d| d.writes_s), 1),
            num(disk.map(|d| d.write_mib_s), 3),
            num(disk.and_then(|d| d.flushes_s), 1),
            num(disk.map(|d| d.reads_s), 1),
            num(disk.map(|d| d.read_mib_s), 3),
            num(disk.map(|d| d.busy * 100.0), 1),
            top.first().map_or(String::new(), |w| w.event.clone()),
            num(top.first().map(|w| w.share * 100.0), 1),
            num(
                (!i.events_by_kind.is_empty() && i.duration_s > 0.0)
                    .then(|| i.events_by_kind[0] as f64 * 60.0 / i.duration_s),
                0,
            ),
        ]);
    }
    t.csv()
}

/// Per level: the sweep table's figures, with the machine's and the disk's load and the
/// server's top wait, and why a level ran short or not at all.
fn sweep(s: &SweepResult) -> String {
    let mut t = Table::new(&[
        "threads",
        "tps",
        "qps",
        "p95_ms",
        "p99_ms",
        "errors_per_s",
        "ratio_to_best",
        "cpus_busy",
        "cpus_server",
        "cpus_dbpress",
        "server_cpu_us_per_event",
        "disk_busy_pct",
        "disk_kib_per_event",
        "disk_flushes_per_event",
        "top_wait",
        "top_wait_pct",
        "cache_miss_pct",
        "note",
        "error",
        // Last, so that the columns before keep their places: `dbpress slap --engine`, the
        // network per event.
        "engine",
        "net_kib_per_event",
        "tpmc",
    ]);
    for r in &s.table {
        let cpu = r.cpu.as_ref();
        let disk = r.disk.as_ref();
        let wait = r.top_wait.as_ref();
        let mut cells = super::sweep_row::sweep_row_cells(r);
        cells.extend([
            num(cpu.map(|c| c.busy), 2),
            num(cpu.and_then(|c| c.server), 2),
            num(cpu.map(|c| c.dbpress), 2),
            num(cpu.and_then(|c| c.server_us_per_event), 1),
            num(disk.map(|d| d.busy * 100.0), 1),
            num(disk.map(|d| d.kib_per_event), 2),
            num(disk.and_then(|d| d.flushes_per_event), 3),
            wait.map_or(String::new(), |w| w.event.clone()),
            num(wait.map(|w| w.share * 100.0), 1),
            num(r.cache_miss_pct, 2),
            r.note.clone().unwrap_or_default(),
            r.error.clone().unwrap_or_default(),
            r.engine.clone().unwrap_or_default(),
            num(r.net_kib_per_event, 2),
            num(r.tpmc, 0),
        ]);
        t.row(cells);
    }
    t.csv()
}

/// Long form, one row per (threads, result): each figure, the runs behind it with their
/// range, and its ratio to the baseline's; what a pivot table or a plotting library wants.
fn comparison(c: &Comparison) -> String {
    let mut t = Table::new(&[
        "threads",
        "result",
        "baseline",
        "runs",
        "tps",
        "tps_min",
        "tps_max",
        "tps_vs_baseline",
        "qps",
        "qps_min",
        "qps_max",
        "qps_vs_baseline",
        "p95_ms",
        "p95_ms_min",
        "p95_ms_max",
        "p95_vs_baseline",
        "p99_ms",
        "p99_ms_min",
        "p99_ms_max",
        "p99_vs_baseline",
        "errors_per_s",
        "server_cpu_us_per_event",
        "server_cpu_vs_baseline",
        "disk_kib_per_event",
        "disk_kib_vs_baseline",
        "disk_flushes_per_event",
        "disk_flushes_vs_baseline",
        "cache_miss_pct",
        "top_wait",
        "top_wait_pct",
        "note",
        // Last, so that the columns before keep their places.
        "net_kib_per_event",
        "net_kib_vs_baseline",
    ]);
    for row in &c.rows {
        for (i, (cell, run)) in row.cells.iter().zip(&c.runs).enumerate() {
            let Some(x) = cell else { continue };
            let ranges = x.ranges.clone().unwrap_or_default();
            let lo = |r: Option<[f64; 2]>, p| num(r.map(|r| r[0]), p);
            let hi = |r: Option<[f64; 2]>, p| num(r.map(|r| r[1]), p);
            let v = &x.vs_baseline;
            t.row(vec![
                row.threads.to_string(),
                run.label.clone(),
                u8::from(i == 0).to_string(),
                x.runs.to_string(),
                num(x.tps, 2),
                lo(ranges.tps, 2),
                hi(ranges.tps, 2),
                num(v.tps, 4),
                num(x.qps, 2),
                lo(ranges.qps, 2),
                hi(ranges.qps, 2),
                num(v.qps, 4),
                num(x.p95_ms, 3),
                lo(ranges.p95_ms, 3),
                hi(ranges.p95_ms, 3),
                num(v.p95_ms, 4),
                num(x.p99_ms, 3),
                lo(ranges.p99_ms, 3),
                hi(ranges.p99_ms, 3),
                num(v.p99_ms, 4),
                num(x.errors_per_s, 2),
                num(x.server_cpu_us, 1),
                num(v.server_cpu_us, 4),
                num(x.disk_kib_per_event, 2),
                num(v.disk_kib_per_event, 4),
                num(x.disk_flushes_per_event, 3),
                num(v.disk_flushes_per_event, 4),
                num(x.cache_miss_pct, 2),
                x.top_wait
                    .as_ref()
                    .map_or(String::new(), |w| w.event.clone()),
                num(x.top_wait.as_ref().map(|w| w.share * 100.0), 1),
                x.note.clone().unwrap_or_default(),
                num(x.net_kib_per_event, 2),
                num(v.net_kib_per_event, 4),
            ]);
        }
    }
    t.csv()
}

/// One row per (workload, metric, threads, column): the figures the tables show, unrounded.
fn experiment(s: &Experiment) -> String {
    let mut table = Table::new(&[
        "workload",
        "metric",
        "threads",
        "target",
        "settings",
        "runs",
        "median",
        "min",
        "max",
        "ratio",
        "within_noise",
        "run_ids",
    ]);
    for t in &s.tables {
        for row in &t.rows {
            for (c, x) in row.cells.iter().enumerate() {
                let Some(x) = x else { continue };
                let ids: Vec<String> = x.runs.iter().map(i64::to_string).collect();
                table.row(vec![
                    t.workload.clone(),
                    t.metric.clone(),
                    row.threads.to_string(),
                    s.columns[c].target.clone(),
                    s.columns[c].settings.clone(),
                    x.runs.len().to_string(),
                    x.median.to_string(),
                    x.min.to_string(),
                    x.max.to_string(),
                    x.ratio.map(|r| r.to_string()).unwrap_or_default(),
                    u8::from(x.within_noise).to_string(),
                    ids.join(" "),
                ]);
            }
        }
    }
    table.csv()
}
