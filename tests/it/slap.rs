//! `dbpress slap`: mysqlslap's one-liners, measured per statement, on every engine.

use crate::common::*;
use crate::engines::each_engine;

fn slap(flags: &[String], extra: &[&str]) -> std::process::Output {
    let mut a: Vec<String> = vec!["slap".into()];
    a.extend(flags.iter().cloned());
    a.extend(extra.iter().map(|s| s.to_string()));
    let refs: Vec<&str> = a.iter().map(String::as_str).collect();
    dbpress(&refs)
}

/// The flash-sale test: many sessions decrementing one counter row.
#[test]
fn hot_row_commits_and_decrements_are_what_the_server_counts() {
    let Some(mut srv) = server("slap-hot-row") else {
        return;
    };
    let dir = scratch("slap-hot-row");
    let out = dir.join("slap.json");
    let before = srv.com();
    let o = dbpress(&[
        "slap",
        "-usbtest",
        "-psbtest",
        "-S",
        SOCKET,
        "--create-schema=sbtest",
        "--create=create table seckill(id int primary key, num int); insert into seckill values (1, 1000000)",
        "--query=begin;update seckill set num=num-1 where id=1 and num>1;commit;",
        "--concurrency=8,16",
        "--number-of-queries=3000",
        "--no-drop",
        "--output",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let after = srv.com();
    let text = stdout(&o);
    // mysqlslap's own block, once per concurrency level.
    assert_eq!(
        text.matches("Benchmark\n\tAverage number of seconds to run all queries: ")
            .count(),
        2
    );
    assert!(
        text.contains("\tNumber of clients running queries: 16\n"),
        "{text}"
    );
    assert!(
        text.contains("\tAverage number of queries per client: 187\n"),
        "{text}"
    );
    assert!(
        text.contains("2: update seckill set num=num-1 where"),
        "{text}"
    );
    assert!(!text.contains("sbtest -p") && !stderr(&o).contains("psbtest"));

    let doc = json(&out);
    let steps = doc["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 2);
    let events: u64 = steps
        .iter()
        .map(|s| s["result"]["summary"]["events"].as_u64().unwrap())
        .sum();
    let writes: u64 = steps
        .iter()
        .map(|s| s["result"]["summary"]["writes"].as_u64().unwrap())
        .sum();
    // mysqlslap's default delimiter is a newline: the one-line list is one of its queries, so
    // --number-of-queries=3000 is 3000 passes (transactions) per level, as in mysqlslap.
    assert_eq!(events, 6000);
    let commits = after["Com_commit"] - before["Com_commit"];
    assert_eq!(
        commits, events,
        "every event committed once, as the server counts"
    );
    use mysql::prelude::Queryable;
    let num: i64 = srv
        .conn
        .query_first("SELECT num FROM seckill WHERE id = 1")
        .unwrap()
        .unwrap();
    assert_eq!(num, 1_000_000 - writes as i64);
    assert_eq!(writes, events, "no decrement was lost or doubled");
    assert!(
        !doc.to_string().contains("sbtest\",\"-psbtest"),
        "password in the result"
    );
    // --no-drop kept the table; a second run uses it as it is and leaves it (it did not create it).
    let o = dbpress(&[
        "slap",
        "-usbtest",
        "-psbtest",
        "-S",
        SOCKET,
        "--create-schema=sbtest",
        "--create=create table seckill(id int primary key, num int); insert into seckill values (1, 1000000)",
        "--query=update seckill set num=num-1 where id=1 and num>1",
        "-c",
        "4",
        "--number-of-queries=100",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("already exist (seckill): using them as they are"));
    let num2: i64 = srv
        .conn
        .query_first("SELECT num FROM seckill WHERE id = 1")
        .unwrap()
        .unwrap();
    assert_eq!(num2, num - 100);
    srv.conn.query_drop("DROP TABLE seckill").unwrap();
}

#[test]
fn slap_runs_on_every_engine_and_drops_only_what_it_created() {
    each_engine("slap", |e| {
        e.create_foreign_table("sbtest_keep");
        let o = slap(
            &e.flags,
            &[
                "--create=CREATE TABLE slap_hot (id INTEGER PRIMARY KEY, num INTEGER); INSERT INTO slap_hot VALUES (1, 100000)",
                "--pre-query=UPDATE slap_hot SET num = num WHERE id = 1",
                "--query=UPDATE slap_hot SET num = num - 1 WHERE id = 1",
                "--post-query=SELECT num FROM slap_hot",
                "-c",
                "1,2",
                "-i",
                "2",
                "--number-of-queries=100",
            ],
        );
        assert!(o.status.success(), "{}: {}", e.name, stderr(&o));
        let text = stdout(&o);
        assert_eq!(text.matches("Benchmark\n").count(), 2, "{}: {text}", e.name);
        assert!(
            text.contains("Thread sweep, slap (2 levels)"),
            "{}: {text}",
            e.name
        );
        // Each round created, used and dropped its table; the foreign one stays.
        let left = e.tables();
        assert_eq!(left, ["sbtest_keep"], "{}", e.name);
        e.exec("DROP TABLE sbtest_keep");
    });
}

#[test]
fn slap_bad_input_is_one_line() {
    for (args, want) in [
        (vec!["slap", "-c", "8"], "needs statements"),
        (
            vec!["slap", "-a", "-c", "8"],
            "--auto-generate-sql is not supported",
        ),
        (
            vec!["slap", "-q", "SELECT 1", "-c", "0"],
            "invalid value '0' in --concurrency",
        ),
        (vec!["slap", "-q", "SELECT 1", "-Z"], "unknown option '-Z'"),
    ] {
        let o = dbpress(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert_one_clean_line(&o);
        assert!(stderr(&o).contains(want), "{args:?}: {}", stderr(&o));
    }
    // --only-print connects to nothing.
    let o = dbpress(&[
        "slap",
        "--only-print",
        "-S",
        "/nonexistent",
        "-q",
        "SELECT 1;SELECT 2",
        "-c",
        "4",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("SELECT 1;\nSELECT 2;"),
        "{}",
        stdout(&o)
    );
}
