//! `compare` on fixed readings: the deltas, the checks with dbpress's and the server's figures,
//! the notes, and why counters were not read or not compared. The text report renders these
//! very values (crates/report/src/text/tests.rs holds them as literals).

use super::*;
use dbpress_result::{Fairness, Latency};

const SOURCE: &str = "SHOW GLOBAL STATUS, every session of the server";

/// A run's summary with the figures `compare` reads (those of the report's text fixture unless
/// a test changes them); the rest is not looked at.
fn summary(reads: u64, writes: u64, other: u64, errors: u64) -> Summary {
    Summary {
        total_time_s: 60.0012,
        events: 100_000,
        reads,
        writes,
        other,
        errors,
        reconnects: 0,
        tps: 0.0,
        qps: 0.0,
        latency: Latency::default(),
        service_time: None,
        late_events: 0,
        max_lag_ms: 0.0,
        latency_limit: None,
        fairness: Fairness {
            events_avg: 0.0,
            events_stddev: 0.0,
            time_avg_s: 0.0,
            time_stddev_s: 0.0,
            events_per_thread: vec![],
            threads: vec![],
        },
        overrun: None,
    }
}

fn check(what: &str, counters: &[&str], server: u64, dbpress: u64) -> CounterCheck {
    CounterCheck {
        what: what.into(),
        counters: counters.iter().map(|c| c.to_string()).collect(),
        server,
        dbpress,
    }
}

fn deltas(pairs: &[(&str, u64)]) -> BTreeMap<String, u64> {
    pairs.iter().map(|(n, v)| (n.to_string(), *v)).collect()
}

#[test]
fn server_counters_list_what_moved_and_set_it_beside_dbpress() {
    let spec = CounterSpec {
        source: SOURCE,
        checks: &[
            ("reads", &["Com_select"]),
            ("writes", &["Com_insert", "Com_update", "Com_replace"]),
        ],
        notes: &[],
        lifetime: &[("server_started_at", "the server restarted")],
    };
    let at = |select: u64, insert: u64, update: u64, waits: u64| {
        Ok(vec![
            ("Com_select".to_string(), select),
            ("Com_insert".to_string(), insert),
            ("Com_update".to_string(), update),
            ("Com_replace".to_string(), 7),
            ("Innodb_row_lock_waits".to_string(), waits),
        ])
    };
    let s = summary(1_400_000, 400_000, 200_000, 3);
    let c = compare(
        &spec,
        at(10, 20, 30, 5),
        at(1_400_010, 100_020, 300_033, 5),
        &s,
        0,
        &Default::default(),
    );
    assert_eq!(
        c,
        ServerCounters {
            source: SOURCE.into(),
            deltas: deltas(&[
                ("Com_insert", 100_000),
                ("Com_replace", 0),
                ("Com_select", 1_400_000),
                ("Com_update", 300_003),
                ("Innodb_row_lock_waits", 0),
            ]),
            checks: vec![
                check("reads", &["Com_select"], 1_400_000, 1_400_000),
                check(
                    "writes",
                    &["Com_insert", "Com_update", "Com_replace"],
                    400_003,
                    400_000
                ),
                check(
                    "total",
                    &["Com_select", "Com_insert", "Com_update", "Com_replace"],
                    1_800_003,
                    1_800_000
                ),
            ],
            notes: vec!["3 ignored errors: a failed statement, and the ROLLBACK dbpress sends after one inside a transaction, count on the server, not in dbpress's reads/writes/other".into()],
            unavailable: None,
            not_comparable: None,
            warmup: None,
        }
    );
    // Counters that could not be read say why instead (the first reading's reason first).
    let c = compare(
        &spec,
        Err("server error 1227: Access denied".into()),
        Err(String::new()),
        &s,
        0,
        &Default::default(),
    );
    assert_eq!(
        c,
        ServerCounters {
            source: SOURCE.into(),
            unavailable: Some("server error 1227: Access denied".into()),
            ..ServerCounters::default()
        }
    );
}

#[test]
fn server_counters_of_a_server_that_restarted_or_reset_them_are_not_compared() {
    let spec = CounterSpec {
        source: SOURCE,
        checks: &[("reads", &["Com_select"])],
        notes: &[],
        lifetime: &[("server_started_at", "the server restarted")],
    };
    let at = |started: u64, select: u64| {
        Ok(vec![
            ("server_started_at".to_string(), started),
            ("Com_select".to_string(), select),
        ])
    };
    let s = summary(1_400_000, 400_000, 200_000, 3);
    // The start time derived from Uptime wobbles by a second between readings: same server.
    let same = compare(
        &spec,
        at(1_000, 10),
        at(1_001, 1_400_010),
        &s,
        0,
        &Default::default(),
    );
    assert_eq!(same.not_comparable, None);
    assert_eq!(same.deltas.get("Com_select"), Some(&1_400_000));
    assert!(
        !same.deltas.contains_key("server_started_at"),
        "a lifetime value is not a counter"
    );
    assert_eq!(
        same,
        ServerCounters {
            source: SOURCE.into(),
            deltas: deltas(&[("Com_select", 1_400_000)]),
            checks: vec![check("reads", &["Com_select"], 1_400_000, 1_400_000)],
            notes: vec!["3 ignored errors: a failed statement, and the ROLLBACK dbpress sends after one inside a transaction, count on the server, not in dbpress's reads/writes/other".into()],
            ..ServerCounters::default()
        }
    );
    // A restart, even one after which the counters grew past their first reading.
    let restarted = compare(
        &spec,
        at(1_000, 10),
        at(1_020, 1_400_010),
        &s,
        0,
        &Default::default(),
    );
    assert!(restarted.deltas.is_empty() && restarted.checks.is_empty());
    assert_eq!(
        restarted,
        ServerCounters {
            source: SOURCE.into(),
            not_comparable: Some("the server restarted during the run, so its counters may have started again from zero and are not set against dbpress's".into()),
            ..ServerCounters::default()
        }
    );
    // A counter that went down, whatever the lifetime values say.
    let fell = compare(
        &spec,
        at(1_000, 500),
        at(1_000, 20),
        &s,
        0,
        &Default::default(),
    );
    assert_eq!(
        fell.not_comparable.as_deref(),
        Some("Com_select went down during the run (500 at the start, 20 at the end): the server restarted or its statistics were reset, so its counters are not set against dbpress's")
    );
    assert!(fell.deltas.is_empty() && fell.checks.is_empty() && fell.notes.is_empty());
}

#[test]
fn writes_that_changed_no_row_are_other_to_dbpress_and_the_total_agrees() {
    let spec = CounterSpec {
        source: SOURCE,
        checks: &[
            ("reads", &["Com_select"]),
            ("writes", &["Com_delete"]),
            ("other", &["Com_begin", "Com_commit"]),
        ],
        notes: &[],
        lifetime: &[],
    };
    let at = |deletes: u64, begins: u64| {
        Ok(vec![
            ("Com_select".to_string(), 0),
            ("Com_delete".to_string(), deletes),
            ("Com_begin".to_string(), begins),
            ("Com_commit".to_string(), begins),
        ])
    };
    // 1 000 DELETEs, 400 of which found their row gone: dbpress (as sysbench) counts those as
    // other, beside 100 BEGIN and 100 COMMIT.
    let s = summary(0, 600, 600, 0);
    let c = compare(&spec, at(0, 0), at(1_000, 100), &s, 0, &Default::default());
    assert_eq!(
        c,
        ServerCounters {
            source: SOURCE.into(),
            deltas: deltas(&[
                ("Com_begin", 100),
                ("Com_commit", 100),
                ("Com_delete", 1_000),
                ("Com_select", 0),
            ]),
            checks: vec![
                check("reads", &["Com_select"], 0, 0),
                check("writes", &["Com_delete"], 1_000, 600),
                check("other", &["Com_begin", "Com_commit"], 200, 600),
                check(
                    "total",
                    &["Com_select", "Com_delete", "Com_begin", "Com_commit"],
                    1_200,
                    1_200
                ),
            ],
            notes: vec!["400 writes changed no row (their row was gone, or already held the new value): the server counts them as writes, dbpress as other, as sysbench does".into()],
            ..ServerCounters::default()
        }
    );
}

#[test]
fn a_long_list_of_counters_that_stayed_at_zero_is_all_in_its_check() {
    let spec = CounterSpec {
        source: SOURCE,
        checks: &[
            ("reads", &["Com_select"]),
            (
                "writes",
                &["Com_insert", "Com_update", "Com_delete", "Com_replace"],
            ),
        ],
        notes: &[],
        lifetime: &[],
    };
    let at = |select: u64| {
        Ok([
            "Com_select",
            "Com_insert",
            "Com_update",
            "Com_delete",
            "Com_replace",
        ]
        .iter()
        .map(|n| (n.to_string(), if *n == "Com_select" { select } else { 5 }))
        .collect())
    };
    let s = summary(1_400_000, 0, 200_000, 3);
    let c = compare(&spec, at(0), at(10), &s, 0, &Default::default());
    assert_eq!(
        c,
        ServerCounters {
            source: SOURCE.into(),
            deltas: deltas(&[
                ("Com_delete", 0),
                ("Com_insert", 0),
                ("Com_replace", 0),
                ("Com_select", 10),
                ("Com_update", 0),
            ]),
            checks: vec![
                check("reads", &["Com_select"], 10, 1_400_000),
                check(
                    "writes",
                    &["Com_insert", "Com_update", "Com_delete", "Com_replace"],
                    0,
                    0
                ),
                check(
                    "total",
                    &[
                        "Com_select",
                        "Com_insert",
                        "Com_update",
                        "Com_delete",
                        "Com_replace"
                    ],
                    10,
                    1_400_000
                ),
            ],
            notes: vec!["3 ignored errors: a failed statement, and the ROLLBACK dbpress sends after one inside a transaction, count on the server, not in dbpress's reads/writes/other".into()],
            ..ServerCounters::default()
        }
    );
}
