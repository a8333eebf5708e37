//! Snapshots of the text format, from a fixed RunResult. The sysbench block must stay
//! byte-compatible with sysbench 1.0.20 (ref sysbench.md §5.2–5.3).

use super::host;
use super::*;
use dbpress_result::*;
use std::collections::BTreeMap;

fn latency(min: f64, avg: f64, max: f64, p95: f64, sum: f64) -> Latency {
    Latency {
        count: 100_000,
        min_ms: min,
        avg_ms: avg,
        max_ms: max,
        sum_ms: sum,
        p50_ms: 4.5,
        p95_ms: p95,
        p99_ms: 9.1,
        p999_ms: 20.25,
        pct_ms: p95,
    }
}

pub(crate) fn fixture() -> RunResult {
    RunResult {
        schema_version: SCHEMA_VERSION,
        tool: Tool {
            name: "dbpress".into(),
            version: "0.1.0".into(),
        },
        command_line: vec![],
        config: BTreeMap::new(),
        environment: Environment::default(),
        run: RunInfo {
            workload: "oltp_read_write".into(),
            threads: 8,
            stop_condition: "time (60s)".into(),
            time_limit_s: 60,
            events_limit: 0,
            warmup_s: 0,
            rate: None,
            rate_arrival: None,
            rand_type: "uniform".into(),
            seed: 42,
            ps_mode: "auto".into(),
            percentile: 95,
            started_at_unix_s: 0,
            interrupted_by: None,
            fatal_error: None,
            warnings: Vec::new(),
            forced_shutdown: None,
            abandoned: None,
            sessions_ready_s: None,
        },
        intervals: vec![],
        throughput: None,
        summary: Summary {
            total_time_s: 60.0012,
            events: 100_000,
            reads: 1_400_000,
            writes: 400_000,
            other: 200_000,
            errors: 3,
            reconnects: 0,
            tps: 1666.63,
            qps: 33332.67,
            latency: latency(1.21, 4.80, 87.46, 7.98, 479_871.33),
            service_time: None,
            late_events: 0,
            max_lag_ms: 0.0,
            latency_limit: None,
            fairness: Fairness {
                events_avg: 12500.0,
                events_stddev: 41.37,
                time_avg_s: 59.9839,
                time_stddev_s: 0.01,
                events_per_thread: vec![12500; 8],
                threads: vec![],
            },
            overrun: None,
        },
        statements: vec![StatementSummary {
            name: "point_select".into(),
            count: 1_000_000,
            errors: 0,
            latency: latency(0.05, 0.1, 3.0, 0.2, 100_000.0),
        }],
        errors_by_code: BTreeMap::from([("1213".to_string(), 3)]),
        histograms: Histograms::default(),
        server_counters: None,
        checkpoints: None,
        host_usage: None,
        server_waits: None,
        server_status: None,
        tpcc: None,
        machine_test: None,
        no_database: false,
    }
}

#[test]
fn sysbench_block_is_byte_compatible_with_1_0_20() {
    let text = summary(&fixture(), false);
    let sysbench_part = &text[..text.find("Latency by statement").unwrap()];
    assert_eq!(
        sysbench_part,
        "SQL statistics:
    queries performed:
        read:                            1400000
        write:                           400000
        other:                           200000
        total:                           2000000
    transactions:                        100000 (1666.63 per sec.)
    queries:                             2000000 (33332.67 per sec.)
    ignored errors:                      3      (0.05 per sec.)
    reconnects:                          0      (0.00 per sec.)

General statistics:
    total time:                          60.0012s
    total number of events:              100000

Latency (ms):
         min:                                    1.21
         avg:                                    4.80
         max:                                   87.46
         95th percentile:                        7.98
         sum:                               479871.33

Threads fairness:
    events (avg/stddev):           12500.0000/41.37
    execution time (avg/stddev):   59.9839/0.01

"
    );
}

#[test]
fn dbpress_sections_follow_with_statements_and_error_codes() {
    let text = summary(&fixture(), false);
    let ours = &text[text.find("Latency by statement").unwrap()..];
    assert_eq!(
        ours,
        "Latency by statement (ms, dbpress):
    statement               count  errors       p50       p95       p99     p99.9       max
    event                  100000       3     4.500     7.980     9.100    20.250    87.460
    point_select          1000000       0     4.500     0.200     9.100    20.250     3.000

Errors by code (dbpress):
    1213              3  deadlock

"
    );
}

/// A statement named by a huge text (a script's bulk INSERT before its rows were folded) made
/// the table's width overflow the formatter: dbpress stopped with an internal error (#41).
#[test]
fn issue_41_a_statement_name_of_any_length_prints_cut_to_the_table() {
    let mut r = fixture();
    r.statements[0].name = format!("INSERT INTO sbtest1 VALUES {}", "(?,?),".repeat(100_000));
    let text = summary(&r, false);
    let row = text
        .lines()
        .find(|l| l.trim_start().starts_with("INSERT"))
        .expect("the statement's row");
    assert!(row.contains("(?…    "), "{row}");
    assert_eq!(
        row.chars().count(),
        4 + 72 + 1 + 10 + 1 + 7 + 5 * 10,
        "{row}"
    );
}

#[test]
fn the_rate_table_has_no_errors_column() {
    let mut r = fixture();
    r.run.rate = Some(2000.0);
    r.summary.service_time = Some(latency(1.0, 2.0, 19.0, 3.0, 5478.0));
    r.summary.late_events = 2737;
    r.summary.max_lag_ms = 1620.39;
    let text = summary(&r, false);
    let ours = &text[text.find("Response vs service").unwrap()..];
    assert_eq!(
        ours,
        "Response vs service time under --rate=2000 (ms, dbpress):
                            count               p50       p95       p99     p99.9       max
    response               100000             4.500     7.980     9.100    20.250    87.460
    service                100000             4.500     3.000     9.100    20.250    19.000
    late events (started > 1 ms after their intended time): 2737 (2.74%), max lag 1620.39 ms

"
    );
}

#[test]
fn interval_line_matches_sysbench() {
    let i = Interval {
        time_s: 1.0003,
        duration_s: 1.0,
        threads: 8,
        events: 1650,
        reads: 23108,
        writes: 6600,
        other: 3301,
        errors: 0,
        reconnects: 0,
        latency_pct_ms: 7.98,
        latency_p99_ms: 9.0,
        latency_max_ms: 12.0,
        latency_avg_ms: 4.0,
        latency_stddev_ms: 1.0,
        queue_length: None,
        concurrency: None,
        lag_ms: None,
        late_events: None,
        skipped: None,
        closing: false,
        host_cpu: None,
        disk: None,
        waits: None,
        server_status: None,
        events_by_kind: Vec::new(),
    };
    assert_eq!(
        interval_line(&i, 95),
        "[ 1s ] thds: 8 tps: 1650.00 qps: 33009.00 (r/w/o: 23108.00/6600.00/3301.00) lat (ms,95%): 7.98 err/s: 0.00 reconn/s: 0.00"
    );
    assert_eq!(rate_lines(&i), None);
    let behind = Interval {
        queue_length: Some(12),
        concurrency: Some(8),
        lag_ms: Some(24.5),
        late_events: Some(300),
        closing: false,
        ..i
    };
    assert_eq!(
        rate_lines(&behind).unwrap(),
        "[ 1s ] queue length: 12, concurrency: 8\n[ 1s ] behind schedule: lag 24.50 ms, late events: 300"
    );
    // Under --latency-limit the events skipped in the interval too.
    let skipping = Interval {
        skipped: Some(40),
        ..behind
    };
    assert!(rate_lines(&skipping)
        .unwrap()
        .ends_with("behind schedule: lag 24.50 ms, late events: 300, skipped: 40"));
}

#[test]
fn percentile_zero_prints_disabled() {
    let mut r = fixture();
    r.run.percentile = 0;
    assert!(summary(&r, false).contains("         percentile stats:               disabled\n"));
}

/// Server counters as a result file holds them (what `dbpress_measure::counters::compare`
/// makes of the readings in crates/measure/src/counters/tests.rs, which checks it does).
fn server_counters(json: serde_json::Value) -> dbpress_result::counters::ServerCounters {
    serde_json::from_value(json).expect("server counters as a result file holds them")
}

const IGNORED_ERRORS: &str = "3 ignored errors: a failed statement, and the ROLLBACK dbpress sends after one inside a transaction, count on the server, not in dbpress's reads/writes/other";

#[test]
fn server_counters_section_lists_what_moved_and_sets_it_beside_dbpress() {
    let mut r = fixture();
    r.server_counters = Some(server_counters(serde_json::json!({
        "source": "SHOW GLOBAL STATUS, every session of the server",
        "deltas": {
            "Com_insert": 100_000,
            "Com_replace": 0,
            "Com_select": 1_400_000,
            "Com_update": 300_003,
            "Innodb_row_lock_waits": 0
        },
        "checks": [
            {"what": "reads", "counters": ["Com_select"], "server": 1_400_000, "dbpress": 1_400_000},
            {
                "what": "writes",
                "counters": ["Com_insert", "Com_update", "Com_replace"],
                "server": 400_003,
                "dbpress": 400_000
            },
            {
                "what": "total",
                "counters": ["Com_select", "Com_insert", "Com_update", "Com_replace"],
                "server": 1_800_003,
                "dbpress": 1_800_000
            }
        ],
        "notes": [IGNORED_ERRORS]
    })));
    let text = summary(&r, false);
    let section =
        &text[text.find("Server counters").unwrap()..text.find("Warning").unwrap_or(text.len())];
    assert_eq!(
        section,
        "Server counters over the run (SHOW GLOBAL STATUS, every session of the server):
    counter                         delta    per event
    Com_insert                     100000        1.000
    Com_select                    1400000       14.000
    Com_update                     300003        3.000
    Innodb_row_lock_waits               0        0.000
    reads:  dbpress 1400000, server 1400000 (Com_select): equal
    writes: dbpress 400000, server 400003 (Com_insert + Com_update): the server counted +3
    total:  dbpress 1800000, server 1800003 (every counter above): the server counted +3
    Note: 3 ignored errors: a failed statement, and the ROLLBACK dbpress sends after one inside a transaction, count on the server, not in dbpress's reads/writes/other

"
    );
    // Counters that could not be read say why instead.
    r.server_counters = Some(server_counters(serde_json::json!({
        "source": "SHOW GLOBAL STATUS, every session of the server",
        "deltas": {},
        "checks": [],
        "notes": [],
        "unavailable": "server error 1227: Access denied"
    })));
    let text = summary(&r, false);
    assert!(text.contains("Server counters (SHOW GLOBAL STATUS, every session of the server): not read: server error 1227: Access denied\n"), "{text}");
}

#[test]
fn server_counters_of_a_server_that_restarted_or_reset_them_are_not_compared() {
    // A restart, even one after which the counters grew past their first reading.
    let mut with = fixture();
    with.server_counters = Some(server_counters(serde_json::json!({
        "source": "SHOW GLOBAL STATUS, every session of the server",
        "deltas": {},
        "checks": [],
        "notes": [],
        "not_comparable": "the server restarted during the run, so its counters may have started again from zero and are not set against dbpress's"
    })));
    let text = summary(&with, false);
    assert!(text.contains("Server counters (SHOW GLOBAL STATUS, every session of the server): not comparable: the server restarted during the run, so its counters may have started again from zero and are not set against dbpress's\n"), "{text}");
}

#[test]
fn writes_that_changed_no_row_are_other_to_dbpress_and_the_total_agrees() {
    let mut r = fixture();
    // 1 000 DELETEs, 400 of which found their row gone: dbpress (as sysbench) counts those as
    // other, beside 100 BEGIN and 100 COMMIT.
    r.summary.reads = 0;
    r.summary.writes = 600;
    r.summary.other = 600;
    r.summary.errors = 0;
    r.server_counters = Some(server_counters(serde_json::json!({
        "source": "SHOW GLOBAL STATUS, every session of the server",
        "deltas": {"Com_begin": 100, "Com_commit": 100, "Com_delete": 1_000, "Com_select": 0},
        "checks": [
            {"what": "reads", "counters": ["Com_select"], "server": 0, "dbpress": 0},
            {"what": "writes", "counters": ["Com_delete"], "server": 1_000, "dbpress": 600},
            {"what": "other", "counters": ["Com_begin", "Com_commit"], "server": 200, "dbpress": 600},
            {
                "what": "total",
                "counters": ["Com_select", "Com_delete", "Com_begin", "Com_commit"],
                "server": 1_200,
                "dbpress": 1_200
            }
        ],
        "notes": ["400 writes changed no row (their row was gone, or already held the new value): the server counts them as writes, dbpress as other, as sysbench does"]
    })));
    let text = summary(&r, false);
    for line in [
        "    writes: dbpress 600, server 1000 (Com_delete): the server counted +400\n",
        "    other:  dbpress 600, server 200 (Com_begin + Com_commit): the server counted -400\n",
        "    total:  dbpress 1200, server 1200 (every counter above): equal\n",
        "    Note: 400 writes changed no row (their row was gone, or already held the new value): the server counts them as writes, dbpress as other, as sysbench does\n",
    ] {
        assert!(text.contains(line), "{line}{text}");
    }
}

#[test]
fn a_long_list_of_counters_that_stayed_at_zero_is_shortened() {
    let mut r = fixture();
    r.summary.writes = 0;
    r.server_counters = Some(server_counters(serde_json::json!({
        "source": "SHOW GLOBAL STATUS, every session of the server",
        "deltas": {
            "Com_delete": 0,
            "Com_insert": 0,
            "Com_replace": 0,
            "Com_select": 10,
            "Com_update": 0
        },
        "checks": [
            {"what": "reads", "counters": ["Com_select"], "server": 10, "dbpress": 1_400_000},
            {
                "what": "writes",
                "counters": ["Com_insert", "Com_update", "Com_delete", "Com_replace"],
                "server": 0,
                "dbpress": 0
            },
            {
                "what": "total",
                "counters": ["Com_select", "Com_insert", "Com_update", "Com_delete", "Com_replace"],
                "server": 10,
                "dbpress": 1_400_000
            }
        ],
        "notes": [IGNORED_ERRORS]
    })));
    let text = summary(&r, false);
    assert!(
        text.contains("    writes: dbpress 0, server 0 (Com_insert + … + Com_replace, 4 counters: none moved): equal\n"),
        "{text}"
    );
}

#[test]
fn throughput_section_shows_the_spread_and_where_nothing_finished() {
    let mut r = fixture();
    let mut events = vec![2000u64; 40];
    for k in [4, 14, 24, 25, 34] {
        events[k] = 0;
    }
    r.intervals = events
        .iter()
        .enumerate()
        .map(|(k, &e)| Interval {
            time_s: k as f64 + 1.000_012,
            duration_s: 1.0,
            events: e,
            ..Interval::default()
        })
        .collect();
    r.throughput = dbpress_result::stability::of(&r.intervals);
    let text = summary(&r, false);
    let ours = &text[text.find("Throughput per").unwrap()..];
    assert_eq!(
        ours,
        "Throughput per 1s interval (40 intervals, dbpress):
    events/s: min 0.00, p5 0.00, median 2000.00, max 2000.00; stddev/mean 37.8%
    stalls (intervals in which no event finished): 5 of 40, in 4 stretches, about every 10s: 4s to 5s, 14s to 15s, 24s to 26s, 34s to 35s

"
    );
    r.intervals.iter_mut().for_each(|i| i.events = 100);
    r.throughput = dbpress_result::stability::of(&r.intervals);
    let text = summary(&r, false);
    assert!(
        text.contains("stalls (intervals in which no event finished): none\n"),
        "{text}"
    );
}

#[test]
fn the_cpu_section_names_the_server_process_and_says_when_the_machine_was_full() {
    use dbpress_result::{HostCpu, HostUsage};
    let mut r = fixture();
    let host = HostCpu {
        user: 1.2,
        system: 0.78,
        iowait: 0.0,
        steal: 0.0,
        idle: 0.02,
    };
    r.host_usage = Some(HostUsage {
        seconds: 10.0,
        cpus: 2,
        host,
        dbpress: dbpress_result::host::ProcessCpu {
            pid: 99,
            name: "dbpress".into(),
            processes: 1,
            user: 0.11,
            system: 0.39,
        },
        server: Some(dbpress_result::host::ProcessCpu {
            pid: 4938,
            name: "postgres".into(),
            processes: 11,
            user: 0.95,
            system: 0.49,
        }),
        server_unavailable: None,
        server_seconds: Some(10.5),
        disk: None,
        disk_unavailable: None,
        network: None,
        network_unavailable: None,
    });
    let text = summary(&r, false);
    let want = "CPU over the run (average CPUs busy, from /proc; dbpress):
    machine: 1.98 of 2 (user 1.20, system 0.78), iowait 0.00, steal 0.00, idle 0.02
    dbpress: 0.50 (user 0.11, system 0.39)
    server:  1.44 (user 0.95, system 0.49): postgres, pid 4938 and its 10 child processes
    CPU per event: server 144.0 us (7.2 us per query); dbpress 50.0 us (2.5 us per query)
    Note: the machine's CPUs were 99% busy and dbpress and the server shared them: these figures show this machine's limit, not only the server's

";
    assert!(text.contains(want), "{text}");

    // A remote server: its reason instead, and no note on a machine with room to spare.
    let u = r.host_usage.as_mut().unwrap();
    u.host = HostCpu {
        user: 0.3,
        system: 0.2,
        iowait: 0.0,
        steal: 0.2,
        idle: 1.3,
    };
    u.server = None;
    u.server_unavailable =
        Some("not measured: the server (10.0.0.5:3306) is not on this machine".into());
    let text = summary(&r, false);
    assert!(
        text.contains(
            "    server:  not measured: the server (10.0.0.5:3306) is not on this machine\n"
        ),
        "{text}"
    );
    assert!(!text.contains("% busy"), "{text}");
    assert!(
        text.contains("Note: the hypervisor gave 0.20 CPUs to others (steal)"),
        "{text}"
    );
}

#[test]
fn the_disk_section_gives_rates_and_costs_per_event_and_says_when_the_disk_was_busy() {
    use dbpress_result::{DiskIo, DiskUsage, HostCpu, HostUsage};
    let mut r = fixture();
    let io = DiskIo {
        reads_s: 2.0,
        read_mib_s: 0.01,
        writes_s: 1340.8,
        write_mib_s: 17.98,
        flushes_s: Some(524.1),
        busy: 0.153,
        write_ms: Some(1.19),
        flush_ms: Some(0.21),
    };
    r.host_usage = Some(HostUsage {
        seconds: 100.0,
        cpus: 2,
        host: HostCpu::default(),
        dbpress: dbpress_result::host::ProcessCpu::default(),
        server: None,
        server_unavailable: Some("none".into()),
        server_seconds: None,
        disk: Some(DiskUsage {
            device: "vda".into(),
            path: "/var/lib/mysql".into(),
            io,
        }),
        disk_unavailable: None,
        network: None,
        network_unavailable: None,
    });
    // 100 000 events in 100 s: 1340.8 writes/s are 1.34 writes per event.
    assert_eq!(r.summary.events, 100_000);
    let text = summary(&r, false);
    let want =
        "Disk under the data (vda, holding /var/lib/mysql; from /proc/diskstats, the whole device):
    writes:  1340.8/s, 17.98 MiB/s, 1.19 ms each
    flushes: 524.1/s, 0.21 ms each
    reads:   2.0/s, 0.01 MiB/s
    busy:    15% of the time
    per event: 1.34 writes, 18.4 KiB written, 0.52 flushes, 0.00 reads

";
    assert!(text.contains(want), "{text}");

    // A kernel that does not count flushes, a device busy all the time.
    let u = r.host_usage.as_mut().unwrap();
    let d = u.disk.as_mut().unwrap();
    d.io.flushes_s = None;
    d.io.busy = 0.97;
    let text = summary(&r, false);
    assert!(!text.contains("flushes"), "{text}");
    assert!(
        text.contains("    Note: the disk had requests in flight 97% of the time"),
        "{text}"
    );

    // Not measured: one line with the reason.
    let u = r.host_usage.as_mut().unwrap();
    u.disk = None;
    u.disk_unavailable = Some("none: /tmp/x is in memory (tmpfs)".into());
    let text = summary(&r, false);
    assert!(
        text.contains("\nDisk under the data: none: /tmp/x is in memory (tmpfs)\n\n"),
        "{text}"
    );
}

#[test]
fn the_slowest_quarter_of_the_intervals_is_set_beside_the_others_with_its_disk_and_cpus() {
    use dbpress_result::{DiskIo, HostCpu};
    let mut r = fixture();
    // Every fourth second at half the rate while the disk wrote eight times as much.
    r.intervals = (0..16)
        .map(|k| {
            let slow = k % 4 == 3;
            Interval {
                time_s: k as f64 + 1.0,
                duration_s: 1.0,
                events: if slow { 1200 } else { 2400 },
                disk: Some(DiskIo {
                    write_mib_s: if slow { 80.0 } else { 10.0 },
                    writes_s: if slow { 2600.0 } else { 1800.0 },
                    flushes_s: Some(if slow { 450.0 } else { 700.0 }),
                    busy: if slow { 0.5 } else { 0.2 },
                    ..DiskIo::default()
                }),
                host_cpu: Some(HostCpu {
                    user: 1.0,
                    system: 0.6,
                    iowait: if slow { 0.2 } else { 0.0 },
                    steal: 0.0,
                    idle: if slow { 0.2 } else { 0.4 },
                }),
                ..Interval::default()
            }
        })
        .collect();
    r.throughput = dbpress_result::stability::of(&r.intervals);
    let text = summary(&r, false);
    let want = "    slowest quarter of the intervals (4 of 16, in 4 stretches about every 4s): median 1200.00 events/s against 2400.00 in the others
        disk: 80.00 MiB/s written against 10.00, 2600 writes/s against 1800, 450 flushes/s against 700, busy 50% against 20%
        CPUs: busy 1.60 against 1.60, iowait 0.20 against 0.00, idle 0.20 against 0.40
";
    assert!(text.contains(want), "{text}");
    // A steady run says nothing of the kind.
    r.intervals.iter_mut().for_each(|i| i.events = 2400);
    r.throughput = dbpress_result::stability::of(&r.intervals);
    assert!(!summary(&r, false).contains("slowest quarter"));
}

#[test]
fn the_prepare_line_says_who_used_the_cpus_and_what_the_disk_wrote() {
    use dbpress_result::{DiskIo, DiskUsage, HostCpu, HostUsage};
    let mut h = HostUsage {
        seconds: 10.5,
        cpus: 2,
        host: HostCpu {
            user: 1.41,
            system: 0.21,
            iowait: 0.18,
            steal: 0.0,
            idle: 0.2,
        },
        dbpress: dbpress_result::host::ProcessCpu {
            user: 0.15,
            system: 0.05,
            ..Default::default()
        },
        server: Some(dbpress_result::host::ProcessCpu {
            user: 1.2,
            system: 0.15,
            ..Default::default()
        }),
        server_unavailable: None,
        server_seconds: Some(10.6),
        disk: Some(DiskUsage {
            device: "vda".into(),
            path: "/var/lib/mysql".into(),
            io: DiskIo {
                write_mib_s: 97.5,
                busy: 0.35,
                ..DiskIo::default()
            },
        }),
        disk_unavailable: None,
        network: None,
        network_unavailable: None,
    };
    assert_eq!(
        crate::text::host::prepare_line(&h),
        "Over the prepare (from /proc): CPUs busy 1.62 of 2, of them server 1.35 and dbpress 0.20; disk vda 97.5 MiB/s written, busy 35%"
    );
    h.server = None;
    h.disk = None;
    assert_eq!(
        crate::text::host::prepare_line(&h),
        "Over the prepare (from /proc): CPUs busy 1.62 of 2, of them dbpress 0.20"
    );
}

#[test]
fn the_network_section_gives_rates_per_event_and_says_when_the_link_was_full() {
    use dbpress_result::host::{NetIo, NetUsage};
    use dbpress_result::{HostCpu, HostUsage};
    let mut h = HostUsage {
        seconds: 10.0,
        cpus: 2,
        host: HostCpu::default(),
        dbpress: dbpress_result::host::ProcessCpu::default(),
        server: None,
        server_unavailable: None,
        server_seconds: None,
        disk: None,
        disk_unavailable: None,
        network: Some(NetUsage {
            interface: "eth0".into(),
            address: "10.0.0.2".into(),
            loopback: false,
            speed_mbit: Some(1000),
            io: NetIo {
                rx_mib_s: 110.0,
                tx_mib_s: 2.5,
                rx_packets_s: 80_000.0,
                tx_packets_s: 40_000.0,
            },
        }),
        network_unavailable: None,
    };
    // 3 000 events a second over 10 s: 110 MiB/s is 37.5 KiB per event, and 92% of a gigabit.
    let text = host::network_section(&h, 30_000);
    let want =
        "Network (eth0, the sessions' address 10.0.0.2; from /proc/net/dev, the whole interface):
    received: 110.00 MiB/s, 80000 packets/s, 37.5 KiB per event
    sent:     2.50 MiB/s, 40000 packets/s, 0.9 KiB per event
    link:     1000 Mb/s; the busier direction used 92% of it
    Note: the link was 92% full: it may be what bounds these figures, not the server";
    assert!(text.starts_with(want), "{text}");
    // Half as much: no note.
    fn net(h: &mut HostUsage) -> &mut dbpress_result::host::NetUsage {
        h.network.as_mut().unwrap()
    }
    net(&mut h).io.rx_mib_s = 55.0;
    assert!(!host::network_section(&h, 30_000).contains("Note:"));
    net(&mut h).speed_mbit = None;
    assert!(host::network_section(&h, 30_000).contains("speed not reported"));
    // The loopback counts each byte both ways: one line, no link.
    net(&mut h).loopback = true;
    let text = host::network_section(&h, 30_000);
    assert!(
        text.contains("    loopback: 55.00 MiB/s and 80000 packets/s both ways together, 18.8 KiB per event; client and server share this machine"),
        "{text}"
    );
    h.network = None;
    h.network_unavailable = Some("not used: the sessions go over a Unix socket".into());
    assert_eq!(
        host::network_section(&h, 30_000),
        "Network: not used: the sessions go over a Unix socket\n\n"
    );
}

#[test]
fn a_run_that_overran_its_time_says_by_how_much_and_why() {
    let mut r = fixture();
    assert!(!summary(&r, false).contains("overran"));
    // Held up itself across the end: the reporter's last tick came late with the rest.
    r.summary.total_time_s = 63.2;
    r.summary.overrun = Some(Overrun {
        by_s: 3.2,
        last_tick_late_s: 3.1,
        last_events_max_ms: 3150.0,
    });
    let text = summary(&r, false);
    assert!(
        text.contains("The run overran --time=60 by 3.20s (total time 63.20s; its rates are per second of that): dbpress itself was held up across the end, workers and reporter alike (no CPU time, a stopped process): the reporter's last tick came 3.10s late.\n"),
        "{text}"
    );
    // On time itself, it waited for an event still running (a lock wait, say).
    r.summary.overrun = Some(Overrun {
        by_s: 3.2,
        last_tick_late_s: 0.001,
        last_events_max_ms: 4012.5,
    });
    assert!(
        summary(&r, false).contains(": the events still running at the end were waited for, as sysbench waits for them: the slowest took 4012.50 ms.\n"),
        "{}",
        summary(&r, false)
    );
}
