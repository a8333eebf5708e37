//! One driver conformance suite: the same tests against every engine (engines.rs), each checked
//! with an independent client, not only with dbpress's own numbers.

use crate::common::*;
use crate::engines::{each_engine, Engine};

/// Run dbpress with a JSON result; returns the result.
fn run_json(e: &Engine, head: &[&str], tail: &[&str]) -> serde_json::Value {
    let dir = scratch(&format!("conf-{}-{}", e.name, head[0]));
    let out = dir.join("r.json");
    let mut t: Vec<&str> = tail.to_vec();
    let out_s = out.to_str().unwrap().to_string();
    t.extend_from_slice(&["--output", &out_s]);
    let o = dbpress(&e.args(head, &t));
    assert!(
        o.status.success(),
        "{} {head:?} {tail:?}: {}",
        e.name,
        stderr(&o)
    );
    json(&out)
}

fn ok(e: &Engine, head: &[&str], tail: &[&str]) -> String {
    let o = dbpress(&e.args(head, tail));
    assert!(
        o.status.success(),
        "{} {head:?} {tail:?}: {}",
        e.name,
        stderr(&o)
    );
    stdout(&o)
}

fn statement_count(r: &serde_json::Value, name: &str) -> u64 {
    r["statements"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == name)
        .map_or(0, |s| s["count"].as_u64().unwrap())
}

#[test]
fn prepare_check_run_cleanup_on_every_engine() {
    each_engine("lifecycle", |e| {
        let size = ["--tables=2", "--table-size=1000"];
        e.create_foreign_table("sbtest3");
        ok(e, &["oltp_read_write", "prepare"], &size);
        assert_eq!(e.tables(), ["sbtest1", "sbtest2", "sbtest3"], "{}", e.name);
        for t in ["sbtest1", "sbtest2"] {
            assert_eq!(e.scalar(&format!("SELECT COUNT(*) FROM {t}")), 1000);
            assert_eq!(e.scalar(&format!("SELECT MAX(id) FROM {t}")), 1000);
        }
        let out = ok(e, &["oltp_read_write", "check"], &size);
        assert!(out.contains("All 2 tables are ready."), "{}: {out}", e.name);

        let n = 150u64;
        let events = format!("--events={n}");
        let r = run_json(
            e,
            &["oltp_read_write", "run"],
            &[size[0], size[1], "--threads=2", "--time=0", &events],
        );
        let s = &r["summary"];
        assert_eq!(s["events"], n, "{}", e.name);
        // Two threads on 2 000 rows can collide: a duplicate key after a concurrent
        // delete+insert of the same id (PostgreSQL's 23505) or a deadlock, each ignorable by
        // default and retried. The failed attempt's statements count too, as in sysbench, so
        // each retried event adds at most one event's worth.
        let retries = s["errors"].as_u64().unwrap();
        assert!(retries <= 3, "{}: {retries} retried events", e.name);
        let expect = |actual: &serde_json::Value, per_event: u64, what: &str| {
            let actual = actual.as_u64().unwrap();
            assert!(
                (per_event * n..=per_event * (n + retries)).contains(&actual),
                "{} {what}: {actual} for {n} events and {retries} retries",
                e.name
            );
        };
        expect(&s["reads"], 14, "reads");
        // sysbench counts a change that matched no row as "other": on PostgreSQL an UPDATE of
        // an id another transaction just deleted and re-inserted matches nothing (the new row
        // is not in its snapshot), so a few writes may move to other. Together they are exact.
        let (writes, other) = (s["writes"].as_u64().unwrap(), s["other"].as_u64().unwrap());
        expect(&(writes + other).into(), 6, "writes + other");
        assert!(writes >= 4 * n * 95 / 100, "{}: writes {writes}", e.name);
        for (kind, per_event) in [
            ("point_select", 10),
            ("simple_range", 1),
            ("sum_range", 1),
            ("order_range", 1),
            ("distinct_range", 1),
            ("index_update", 1),
            ("non_index_update", 1),
            ("delete", 1),
            ("insert", 1),
            ("begin", 1),
            ("commit", 1),
        ] {
            expect(&statement_count(&r, kind).into(), per_event, kind);
        }
        // Deleted ids were re-inserted: the tables keep their size.
        let rows =
            e.scalar("SELECT COUNT(*) FROM sbtest1") + e.scalar("SELECT COUNT(*) FROM sbtest2");
        assert_eq!(rows, 2000, "{}", e.name);

        // Every index update really ran: k grows by exactly one per event.
        let sum = |e: &mut Engine| {
            e.scalar("SELECT SUM(k) FROM sbtest1") + e.scalar("SELECT SUM(k) FROM sbtest2")
        };
        let before = sum(e);
        ok(
            e,
            &["oltp_update_index", "run"],
            &[size[0], size[1], "--time=0", &events],
        );
        assert_eq!(sum(e) - before, n as i64, "{}", e.name);

        ok(e, &["oltp_read_write", "cleanup"], &size);
        assert_eq!(
            e.tables(),
            ["sbtest3"],
            "{}: cleanup dropped a table it did not create",
            e.name
        );
        e.exec("DROP TABLE sbtest3");
    });
}

/// (workload, extra options, reads per event, writes + other per event, writes per event when
/// the data makes it exact)
const MIXES: &[(&str, &str, u64, u64, Option<u64>)] = &[
    ("oltp_read_write", "", 14, 6, Some(4)),
    ("oltp_read_write", "--db-ps-mode=disable", 14, 6, Some(4)),
    ("oltp_read_write", "--skip-trx=on", 14, 4, Some(4)),
    ("oltp_read_only", "", 14, 2, Some(0)),
    ("oltp_write_only", "", 0, 6, Some(4)),
    ("oltp_point_select", "", 1, 0, Some(0)),
    ("oltp_update_index", "", 0, 1, Some(1)),
    ("oltp_update_non_index", "", 0, 1, Some(1)),
    ("oltp_delete", "", 0, 1, None),
    ("oltp_insert", "", 0, 1, Some(1)),
    ("oltp_insert", "--auto-inc=off", 0, 1, Some(1)),
    ("select_random_points", "", 1, 0, Some(0)),
    ("select_random_ranges", "", 1, 0, Some(0)),
    ("oltp", "", 14, 6, Some(4)),
    ("oltp", "--oltp-test-mode=nontrx", 14, 4, Some(4)),
];

/// dbpress's own classification of what it sent (reads, writes, other), the same for every
/// workload on every engine. What reached the server is confirmed elsewhere, by the server:
/// MariaDB's Com_* counters in parity.rs, PostgreSQL's n_tup_* in pgsql.rs; on SQLite, which
/// keeps no counters, only the writes' effects are (update_index's SUM(k) above), not the reads.
#[test]
fn every_workload_classifies_the_same_mix_on_every_engine() {
    each_engine("mix", |e| {
        let n = 60u64;
        let events = format!("--events={n}");
        for &(workload, extra, reads, changes, writes) in MIXES {
            let mut opts: Vec<&str> = vec!["--tables=2", "--table-size=500"];
            opts.extend(extra.split_whitespace());
            ok(e, &[workload, "prepare"], &opts);
            let mut run_opts = opts.clone();
            run_opts.extend_from_slice(&["--time=0", &events]);
            let r = run_json(e, &[workload, "run"], &run_opts);
            let s = &r["summary"];
            let what = format!("{} {workload} {extra}", e.name);
            assert_eq!(s["events"], n, "{what}");
            assert_eq!(s["reads"], reads * n, "{what}");
            let w = s["writes"].as_u64().unwrap();
            assert_eq!(w + s["other"].as_u64().unwrap(), changes * n, "{what}");
            if let Some(per) = writes {
                assert_eq!(w, per * n, "{what}");
            }
            ok(e, &[workload, "cleanup"], &opts);
        }
    });
}

#[test]
fn half_loaded_and_missing_tables_stop_run_and_fail_check_on_every_engine() {
    each_engine("half-loaded", |e| {
        let size = ["--tables=2", "--table-size=100"];
        let o = dbpress(&e.args(&["oltp_point_select", "run"], &size));
        assert_eq!(o.status.code(), Some(2), "{}", e.name);
        assert_one_clean_line(&o);
        assert!(suggests_prepare(&stderr(&o)));
        // prewarm says the same, not the server's raw "no such table".
        let o = dbpress(&e.args(&["oltp_point_select", "prewarm"], &size));
        assert_eq!(o.status.code(), Some(2), "{}: {}", e.name, stderr(&o));
        assert_one_clean_line(&o);
        assert!(suggests_prepare(&stderr(&o)), "{}: {}", e.name, stderr(&o));

        ok(e, &["oltp_point_select", "prepare"], &size);
        // A run with more tables than prepare made: prepare would refuse the existing ones, so
        // the message names the --tables prepare used.
        let o = dbpress(&e.args(
            &["oltp_point_select", "run"],
            &["--tables=3", "--table-size=100"],
        ));
        assert_eq!(o.status.code(), Some(2), "{}", e.name);
        assert_one_clean_line(&o);
        assert!(
            stderr(&o).contains(
                "table 'sbtest3' does not exist, only sbtest1..sbtest2 exist: run with --tables=2 (as prepare did)"
            ),
            "{}: {}",
            e.name,
            stderr(&o)
        );
        e.mark_half_loaded("sbtest2");
        let o = dbpress(&e.args(&["oltp_point_select", "prewarm"], &size));
        assert_eq!(o.status.code(), Some(2), "{}: {}", e.name, stderr(&o));
        assert!(
            stderr(&o).contains("'sbtest2' was left half-loaded"),
            "{}",
            stderr(&o)
        );
        let o = dbpress(&e.args(&["oltp_point_select", "run"], &size));
        assert_eq!(o.status.code(), Some(2), "{}", e.name);
        assert_one_clean_line(&o);
        assert!(
            stderr(&o).contains("'sbtest2' was left half-loaded"),
            "{}",
            stderr(&o)
        );
        let o = dbpress(&e.args(&["oltp_point_select", "check"], &size));
        assert_eq!(o.status.code(), Some(2), "{}", e.name);
        assert!(stdout(&o).contains("sbtest1: ok"), "{}", stdout(&o));
        assert!(
            stdout(&o).contains("sbtest2: left half-loaded"),
            "{}",
            stdout(&o)
        );

        let o = dbpress(&e.args(&["oltp_point_select", "prepare"], &size));
        assert_eq!(o.status.code(), Some(2), "{}", e.name);
        assert!(
            stderr(&o).contains("already exists: run `dbpress oltp_point_select")
                && stderr(&o).contains(" cleanup --tables=2` first")
        );
        ok(e, &["oltp_point_select", "cleanup"], &size);
        assert!(e.tables().is_empty(), "{}", e.name);
    });
}

#[test]
fn reinsert_id_new_takes_server_ids_on_every_engine() {
    each_engine("reinsert-new", |e| {
        let size = ["--tables=1", "--table-size=200"];
        ok(e, &["oltp_write_only", "prepare"], &size);
        ok(
            e,
            &["oltp_write_only", "run"],
            &[
                size[0],
                size[1],
                "--time=0",
                "--events=50",
                "--reinsert-id=new",
            ],
        );
        // Each event inserts one row with a new server-assigned id; its DELETE finds nothing
        // when it draws an id already moved away, so the table can only grow.
        let rows = e.scalar("SELECT COUNT(*) FROM sbtest1");
        assert!((200..=250).contains(&rows), "{}: {rows} rows", e.name);
        assert!(e.scalar("SELECT MAX(id) FROM sbtest1") > 200, "{}", e.name);
        // Every insert took an id past the loaded range; SQLite's rowid is max + 1, so it can
        // reuse the top id when the event's DELETE just removed it.
        let moved = e.scalar("SELECT COUNT(*) FROM sbtest1 WHERE id > 200");
        if e.name == "sqlite" {
            assert!((45..=50).contains(&moved), "{}: {moved}", e.name);
        } else {
            assert_eq!(moved, 50, "{}", e.name);
        }
        ok(e, &["oltp_write_only", "cleanup"], &size);
    });
}

/// Prewarm reads every row of every table: counted by the server (each table's rows read at
/// least once by key and once by a scan), and on SQLite by its failing on the one damaged page
/// in the middle of the last table, which only a read of the whole table reaches (the check
/// before it reads the first and last ids).
#[test]
fn prewarm_reads_every_table_on_every_engine() {
    each_engine("prewarm", |e| {
        let size = ["--tables=2", "--table-size=100"];
        ok(e, &["oltp_read_only", "prepare"], &size);
        let before = e.rows_read();
        let out = ok(e, &["oltp_read_only", "prewarm"], &size);
        assert!(
            out.contains("Prewarming table sbtest1") && out.contains("Prewarming table sbtest2")
        );
        match (before, e.rows_read()) {
            (Some(before), Some(after)) => {
                assert!(
                    after - before >= 2 * 2 * 100,
                    "{}: {before} → {after}",
                    e.name
                )
            }
            _ => {
                damage_middle_leaf(e, "sbtest2");
                let o = dbpress(&e.args(&["oltp_read_only", "prewarm"], &size));
                assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
                assert!(
                    stderr(&o).contains("malformed") && stderr(&o).contains("prewarming sbtest2"),
                    "{}",
                    stderr(&o)
                );
                // The damaged file goes with the test's scratch directory.
                return;
            }
        }
        ok(e, &["oltp_read_only", "cleanup"], &size);
    });
}

/// Overwrite the header of the middle leaf page (in key order) of an SQLite `table` with an
/// invalid page type, so that reading its rows fails as "database disk image is malformed"
/// and reading its first or last rows does not.
fn damage_middle_leaf(e: &mut Engine, table: &str) {
    use std::io::{Seek, SeekFrom, Write};
    let leaves = format!("FROM dbstat WHERE name = '{table}' AND pagetype = 'leaf'");
    let n = e.scalar(&format!("SELECT COUNT(*) {leaves}"));
    assert!(n >= 3, "{table} has {n} leaf pages");
    let page = e.scalar(&format!(
        "SELECT pageno {leaves} ORDER BY path LIMIT 1 OFFSET {}",
        n / 2
    ));
    let size = e.scalar("PRAGMA page_size");
    let file = e.flags[0].strip_prefix("--db=sqlite:").unwrap().to_string();
    let mut f = std::fs::OpenOptions::new().write(true).open(file).unwrap();
    f.seek(SeekFrom::Start(((page - 1) * size) as u64)).unwrap();
    f.write_all(&[0xff]).unwrap();
}

#[test]
fn bulk_insert_stores_one_row_per_event_on_every_engine() {
    each_engine("bulk-insert", |e| {
        let threads = ["--threads=2"];
        ok(e, &["bulk_insert", "prepare"], &threads);
        ok(
            e,
            &["bulk_insert", "run"],
            &["--threads=2", "--time=0", "--events=30000"],
        );
        let rows =
            e.scalar("SELECT COUNT(*) FROM sbtest1") + e.scalar("SELECT COUNT(*) FROM sbtest2");
        assert_eq!(rows, 30000, "{}", e.name);
        ok(e, &["bulk_insert", "cleanup"], &threads);
        assert!(e.tables().is_empty(), "{}", e.name);
    });
}

#[test]
fn issue_3_bulk_insert_runs_again_on_its_tables_and_refuses_another_workloads_on_every_engine() {
    each_engine("bulk-insert-again", |e| {
        // Runs append after the largest id: a second run and a two-level sweep find no
        // duplicate key (sysbench's second run would stop on one).
        ok(e, &["bulk_insert", "prepare"], &["--threads=2"]);
        let prepared_again = ok(e, &["bulk_insert", "prepare"], &["--threads=2"]);
        assert!(
            prepared_again.contains("Table 'sbtest1' exists: kept"),
            "{}",
            e.name
        );
        let events = ["--time=0", "--events=20000"];
        ok(
            e,
            &["bulk_insert", "run"],
            &[&["--threads=1"][..], &events].concat(),
        );
        ok(
            e,
            &["bulk_insert", "run"],
            &[&["--threads=1,2"][..], &events].concat(),
        );
        let rows =
            e.scalar("SELECT COUNT(*) FROM sbtest1") + e.scalar("SELECT COUNT(*) FROM sbtest2");
        assert_eq!(
            rows, 60_000,
            "{}: one row per event over three runs",
            e.name
        );
        let ids = e.scalar("SELECT MAX(id) FROM sbtest1") + e.scalar("SELECT MAX(id) FROM sbtest2");
        assert_eq!(ids, rows, "{}: ids run on without gaps", e.name);
        ok(e, &["bulk_insert", "cleanup"], &["--threads=2"]);

        // An OLTP table is not bulk_insert's: neither prepare nor run writes into it.
        ok(e, &["oltp_point_select", "prepare"], &["--table-size=100"]);
        for cmd in ["prepare", "run"] {
            let o = dbpress(&e.args(&["bulk_insert", cmd], &["--threads=1"]));
            assert_eq!(o.status.code(), Some(2), "{} {cmd}: {}", e.name, stderr(&o));
            assert_one_clean_line(&o);
            assert!(
                stderr(&o)
                    .contains("exists with columns (id, k, c, pad), not bulk_insert's (id, k)"),
                "{} {cmd}: {}",
                e.name,
                stderr(&o)
            );
        }
        assert_eq!(e.scalar("SELECT COUNT(*) FROM sbtest1"), 100, "{}", e.name);
        ok(e, &["oltp_point_select", "cleanup"], &[]);
    });
}

#[test]
fn issue_5_a_script_statement_the_server_rejects_is_named_by_file_and_line_on_every_engine() {
    each_engine("bad-statement", |e| {
        let dir = scratch(&format!("bad-stmt-{}", e.name));
        let file = dir.join("typo.sql");
        std::fs::write(
            &file,
            "\\set id random(1, 10)\nSELECT 1;\nSELEC nocol FROM nowhere WHERE x = :id;\n",
        )
        .unwrap();
        let f = file.to_str().unwrap().to_string();
        let o = dbpress(&e.args(&["script", "run"], &["-f", &f, "--time=1"]));
        assert_eq!(o.status.code(), Some(2), "{}: {}", e.name, stderr(&o));
        assert_one_clean_line(&o);
        let err = stderr(&o);
        assert!(
            err.contains(&format!(
                "{f}:3: the server rejected this statement (server error "
            )),
            "{}: {err}",
            e.name
        );
        assert!(err.ends_with("): fix it\n"), "{}: {err}", e.name);
        // Retrying a statement that can never run is not offered as a way out.
        assert!(!err.contains("ignore-errors"), "{}: {err}", e.name);
    });
}

/// The missing-table line: prepare first, in a command that carries the connection options.
fn suggests_prepare(err: &str) -> bool {
    err.contains("does not exist: run `dbpress oltp_point_select")
        && err.contains(" prepare` with the same --tables/--table-size first")
}
