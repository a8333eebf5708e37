//! `dbpress slap`: mysqlslap's one-liners, measured per statement, on every engine.

use crate::common::*;
use crate::engines::each_engine;

/// mysqlslap's flags to reach the test MariaDB over its socket, in the sbtest database.
const TO_MARIADB: [&str; 5] = [
    "-usbtest",
    "-psbtest",
    "-S",
    SOCKET,
    "--create-schema=sbtest",
];

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
    // slap runs on a --create table that already exists as it is, so one left by an earlier,
    // failed run of this test would start from another count.
    {
        use mysql::prelude::Queryable;
        srv.conn.query_drop("DROP TABLE IF EXISTS seckill").unwrap();
    }
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
    // --number-of-queries=3000 is each client's share of 3000 passes (transactions), as in
    // mysqlslap: 375 for each of 8 clients, 187 for each of 16 (2992 in all).
    assert_eq!(events, 3000 + 2992);
    for (step, share) in steps.iter().zip([375.0, 187.0]) {
        let f = &step["result"]["summary"]["fairness"];
        assert_eq!(
            (f["events_avg"].as_f64(), f["events_stddev"].as_f64()),
            (Some(share), Some(0.0))
        );
    }
    // The server's view of each level's sessions: exactly its clients at every sample, neither
    // slap's setup session nor this test's own (same user, same database) among them.
    for (step, clients) in steps.iter().zip([8.0, 16.0]) {
        let w = &step["result"]["server_waits"];
        assert!(w["samples"].as_u64().unwrap() >= 1, "{w}");
        assert!(
            (w["sessions_avg"].as_f64().unwrap() - clients).abs() < 1e-9,
            "{w}"
        );
    }
    assert!(doc["table"][1]["top_wait"]["share"].as_f64().unwrap() > 0.0);
    assert!(text.contains("  top server wait\n"), "{text}");
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

/// `-a`: the server counts what mariadb-slap 10.11 sends for the same options (measured once with
/// mariadb-slap on this server: its preload of write-number − 1 rows, its list of
/// unique-query-number + 1 queries, an even share per client, one key fetch for key/update).
#[test]
fn slap_auto_generate_sql_sends_mysqlslaps_mix() {
    let Some(mut srv) = server("slap-auto") else {
        return;
    };
    let conn: Vec<&str> = TO_MARIADB.iter().copied().chain(["-a"]).collect();
    for (extra, want) in [
        (
            &["-c", "2", "--auto-generate-sql-execute-number=5"][..],
            (105, 4, 0),
        ),
        (&["-c", "3", "--number-of-queries=31"][..], (114, 15, 0)),
        (
            &[
                "-c",
                "2",
                "--number-of-queries=20",
                "--auto-generate-sql-write-number=7",
                "--auto-generate-sql-load-type=update",
                "--auto-generate-sql-add-autoincrement",
            ][..],
            (6, 1, 20),
        ),
        (
            &[
                "-c",
                "2",
                "--number-of-queries=20",
                "--auto-generate-sql-load-type=key",
                "--auto-generate-sql-guid-primary",
                "--auto-generate-sql-secondary-indexes=1",
            ][..],
            (99, 21, 0),
        ),
    ] {
        let before = srv.com();
        let args: Vec<&str> = ["slap"].iter().chain(&conn).chain(extra).copied().collect();
        let o = dbpress(&args);
        assert!(o.status.success(), "{extra:?}: {}", stderr(&o));
        let after = srv.com();
        let d = |k: &str| after[k] - before[k];
        assert_eq!(
            (d("Com_insert"), d("Com_select"), d("Com_update")),
            want,
            "{extra:?}"
        );
        let t1: Vec<String> = {
            use mysql::prelude::Queryable;
            srv.conn.query("SHOW TABLES LIKE 't1'").unwrap()
        };
        assert!(t1.is_empty(), "t1 dropped after {extra:?}");
    }
    // A t1 that is not dbpress's is neither filled nor dropped.
    use mysql::prelude::Queryable;
    srv.conn
        .query_drop("CREATE TABLE t1 (mine INT); INSERT INTO t1 VALUES (7)")
        .unwrap();
    let args: Vec<&str> = ["slap"].iter().chain(&conn).copied().collect();
    let o = dbpress(&args);
    assert_eq!(o.status.code(), Some(2));
    assert_one_clean_line(&o);
    assert!(stderr(&o).contains("a table named t1 already exists"));
    let n: i64 = srv
        .conn
        .query_first("SELECT SUM(mine) FROM t1")
        .unwrap()
        .unwrap();
    assert_eq!(n, 7);
    srv.conn.query_drop("DROP TABLE t1").unwrap();
}

/// `-a` on every engine: the same table and queries in each one's spelling.
#[test]
fn slap_auto_generate_sql_runs_on_every_engine() {
    each_engine("slap-auto", |e| {
        for load in ["key", "update", "mixed"] {
            let o = slap(
                &e.flags,
                &[
                    "-a",
                    "--auto-generate-sql-add-autoincrement",
                    "--auto-generate-sql-secondary-indexes=1",
                    &format!("--auto-generate-sql-load-type={load}"),
                    "-c",
                    "2",
                    "--number-of-queries=40",
                ],
            );
            assert!(o.status.success(), "{} {load}: {}", e.name, stderr(&o));
            let text = stdout(&o);
            let kind = match load {
                "key" => "SELECT by key",
                "update" => "UPDATE",
                _ => "INSERT",
            };
            // mixed: each client's 20 queries walk the 11-query list I,S,I,…,I and 9 more.
            let count = if load == "mixed" { 22 } else { 40 };
            let line = text
                .lines()
                .find(|l| l.trim_start().starts_with(kind))
                .unwrap_or_else(|| panic!("{}: {text}", e.name));
            let cols: Vec<&str> = line.split_whitespace().collect();
            let n = cols[kind.split(' ').count()];
            assert_eq!(n, count.to_string(), "{} {load}: {line}", e.name);
            assert_eq!(cols[kind.split(' ').count() + 1], "0", "no errors: {line}");
        }
        // Each round dropped its t1 (the next -a run would refuse a t1 left behind).
        e.exec("CREATE TABLE t1 (x INT)");
        e.exec("DROP TABLE t1");
    });
}

/// LOAD DATA LOCAL INFILE in --query: dbpress sends no local files, and says so with the fix
/// instead of advising to ignore the server's error code.
#[test]
fn slap_load_data_local_says_why_it_cannot_run() {
    let Some(_srv) = server("slap-load-local") else {
        return;
    };
    let args: Vec<&str> = ["slap"]
        .into_iter()
        .chain(TO_MARIADB)
        .chain([
            "--create=CREATE TABLE slap_ld (id int)",
            "--query=LOAD DATA LOCAL INFILE '/etc/hostname' INTO TABLE slap_ld",
        ])
        .collect();
    let o = dbpress(&args);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("dbpress does not send local files for LOAD DATA LOCAL INFILE"),
        "{err}"
    );
    assert!(!err.contains("--mysql-ignore-errors"), "{err}");
}

#[test]
fn slap_bad_input_is_one_line() {
    for (args, want) in [
        (vec!["slap", "-c", "8"], "needs statements"),
        (
            vec!["slap", "-a", "--auto-generate-sql-load-type=key"],
            "needs a primary key: add --auto-generate-sql-add-autoincrement",
        ),
        (
            vec!["slap", "-a", "-q", "SELECT 1"],
            "drop --query/--create",
        ),
        (
            vec!["slap", "-q", "SELECT 1", "-c", "0"],
            "invalid value '0' in --concurrency",
        ),
        (vec!["slap", "-q", "SELECT 1", "-Z"], "unknown option '-Z'"),
        (
            vec!["slap", "-q", "SELECT 1", "--iterations=0"],
            "invalid value '0' for --iterations",
        ),
        (
            // Held in memory like mysqlslap's lists: refused before the allocator aborts.
            vec![
                "slap",
                "-a",
                "--auto-generate-sql-unique-query-number=200000000",
            ],
            "lower --auto-generate-sql-write-number, --auto-generate-sql-unique-query-number",
        ),
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

#[test]
fn issue_5_slap_connection_errors_name_the_flags_mysqlslap_users_typed() {
    // Nothing listens on port 1: refused without a server.
    let o = dbpress(&["slap", "-h", "127.0.0.1", "-P", "1", "-q", "SELECT 1"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_one_clean_line(&o);
    assert!(stderr(&o).contains("fix -h/-P/-S"), "{}", stderr(&o));
    assert!(!stderr(&o).contains("--mysql-"), "{}", stderr(&o));
    let Some(_server) = server("slap_connection_errors_name_the_flags_mysqlslap_users_typed")
    else {
        return;
    };
    for (flags, want) in [
        (
            [
                "-usbtest",
                "-pnot-the-password",
                "-S",
                SOCKET,
                "--create-schema=sbtest",
            ],
            "check -u and -p",
        ),
        (
            [
                "-usbtest",
                "-psbtest",
                "-S",
                SOCKET,
                "--create-schema=no_such_schema",
            ],
            "choose another with --create-schema",
        ),
    ] {
        let o = slap(&flags.map(String::from), &["-q", "SELECT 1"]);
        assert_eq!(o.status.code(), Some(2), "{flags:?}: {}", stderr(&o));
        assert_one_clean_line(&o);
        let err = stderr(&o);
        assert!(err.contains(want), "{flags:?}: {err}");
        assert!(!err.contains("--mysql-"), "{flags:?}: {err}");
        assert!(!err.contains("not-the-password"), "{err}");
    }
}

#[test]
fn issue_2_an_event_stopped_by_a_fatal_error_is_not_a_transaction() {
    // The first statement ran, the second named a missing table: the server executed one
    // query and finished no transaction, so the result says exactly that.
    let dir = scratch("slap-fatal-event");
    let db = format!("--sqlite-path={}", dir.join("x.db").display());
    let out = dir.join("r.json");
    let o = dbpress(&[
        "slap",
        &db,
        "--query=SELECT 1;SELECT * FROM nosuch",
        "--output",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("no such table: nosuch")
            && stderr(&o).contains("create it with --create"),
        "{}",
        stderr(&o)
    );
    let r = json(&out);
    let result = &r["steps"][0]["result"];
    assert_eq!(result["summary"]["events"], 0, "{}", result["summary"]);
    assert_eq!(result["summary"]["latency"]["count"], 0);
    assert_eq!(result["summary"]["reads"], 1);
    let stmts = result["statements"].as_array().unwrap();
    assert_eq!(
        (&stmts[0]["count"], &stmts[0]["errors"]),
        (&1.into(), &0.into())
    );
    assert_eq!(
        (&stmts[1]["count"], &stmts[1]["errors"]),
        (&0.into(), &1.into())
    );
}

#[test]
fn issue_5_slap_results_record_the_slap_command() {
    // The result file's command line is what runs it again: `slap` and its arguments, in the
    // sweep document and in each level's result, as a run records its workload first.
    let dir = scratch("slap-command-line");
    let db = format!("--sqlite-path={}", dir.join("x.db").display());
    let out = dir.join("r.json");
    let o = dbpress(&[
        "slap",
        &db,
        "--query=SELECT 1",
        "--concurrency=1,2",
        "--number-of-queries=20",
        "--output",
        out.to_str().unwrap(),
        "--output-format=markdown",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let r = json(&out);
    assert_eq!(r["command_line"][0], "slap", "{}", r["command_line"]);
    assert_eq!(r["command_line"][1], db.as_str());
    for step in r["steps"].as_array().unwrap() {
        assert_eq!(step["result"]["command_line"], r["command_line"]);
    }
    let md = stdout(&o);
    assert!(
        md.contains(&format!("```sh\ndbpress slap {db} '--query=SELECT 1'")),
        "{md}"
    );
    assert_eq!(
        md.matches("\n| 1 |").count() + md.matches("\n| 2 |").count(),
        2
    );
}

/// mysqlslap's --csv: one line per concurrency level, appended to the file run after run; and
/// `--csv` alone puts those lines, and nothing else, on stdout.
#[test]
fn csv_lines_are_mysqlslaps_appended_or_on_stdout() {
    let dir = scratch("slap-csv");
    let db = format!("--sqlite-path={}", dir.join("x.db").display());
    let file = dir.join("slap.csv");
    let csv = format!("--csv={}", file.display());
    let run = |extra: &str| {
        let o = dbpress(&[
            "slap",
            &db,
            "--query=SELECT 1",
            "--concurrency=2,4",
            "--iterations=2",
            "--number-of-queries=200",
            extra,
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        o
    };
    let check = |lines: &[&str]| {
        for (line, clients) in lines.iter().zip([2, 4, 2, 4]) {
            let f: Vec<&str> = line.split(',').collect();
            assert_eq!(f.len(), 7, "{line}");
            assert_eq!((f[0], f[1]), ("", "mixed"), "{line}");
            let secs: Vec<f64> = f[2..5].iter().map(|s| s.parse().unwrap()).collect();
            // Average between minimum and maximum, three decimals each.
            assert!(secs[1] <= secs[0] && secs[0] <= secs[2], "{line}");
            assert!(f[2..5]
                .iter()
                .all(|s| s.split('.').nth(1).unwrap().len() == 3));
            assert_eq!(f[5], clients.to_string(), "{line}");
            assert_eq!(f[6], (200 / clients).to_string(), "{line}");
        }
    };
    let o = run(&csv);
    assert!(
        stdout(&o).contains("Benchmark\n"),
        "the report still goes to stdout"
    );
    run(&csv);
    let text = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    check(&lines);

    let o = run("--csv");
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "stdout holds the CSV alone: {out}");
    check(&lines);

    let o = dbpress(&["slap", &db, "--query=SELECT 1", "--csv=/proc/no/x.csv"]);
    assert_fails_with(&o, 2, "cannot write the CSV file /proc/no/x.csv");
    // A run that cannot connect leaves no empty CSV file behind.
    let fresh = dir.join("never.csv");
    let o = dbpress(&[
        "slap",
        "-S",
        "/nonexistent.sock",
        "--query=SELECT 1",
        &format!("--csv={}", fresh.display()),
    ]);
    assert_fails_with(
        &o,
        2,
        "cannot connect to the server over Unix socket /nonexistent.sock",
    );
    assert!(!fresh.exists());
}

/// mysqlslap's `--engine=a,b`: every level once per engine, the tables created with
/// `ENGINE = name` (as the server itself records, read back from a --pre-query), an engine the
/// server lacks reported in the table while the others run, and a table that was already there
/// with another engine refused rather than measured under the wrong name.
#[test]
fn an_engine_list_runs_every_level_per_engine_on_tables_of_that_engine() {
    let Some(mut srv) = server("slap-engine") else {
        return;
    };
    use mysql::prelude::Queryable;
    srv.conn
        .query_drop("DROP TABLE IF EXISTS slap_eng, slap_eng_log")
        .unwrap();
    srv.conn
        .query_drop("CREATE TABLE slap_eng_log (engine varchar(64))")
        .unwrap();
    let dir = scratch("slap-engine");
    let out = dir.join("slap.json");
    let create = "--create=create table slap_eng (id int primary key, v int); insert into slap_eng values (1, 0)";
    let o = dbpress(&[
        &["slap"][..],
        &TO_MARIADB,
        &[
            create,
            "--pre-query=insert into slap_eng_log select engine from information_schema.tables where table_schema = database() and table_name = 'slap_eng'",
            "--query=update slap_eng set v = v + 1 where id = 1",
            "--concurrency=2,3",
            "--number-of-queries=60",
            "--engine=innodb,memory:MAX_ROWS=1000,no_such_engine",
            "--output",
            out.to_str().unwrap(),
        ],
    ]
    .concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    for e in ["innodb", "memory"] {
        assert_eq!(
            text.matches(&format!("Benchmark\n\tRunning for engine {e}\n"))
                .count(),
            2,
            "{text}"
        );
        assert!(text.contains(&format!("Storage engine: {e} (--engine: `ENGINE = {e}")));
    }
    assert!(
        text.contains("Storage engine: memory (--engine: `ENGINE = memory MAX_ROWS=1000` appended"),
        "{text}"
    );
    assert!(
        stderr(&o).contains("dbpress: engine no_such_engine did not run: --create statement failed: server error 1286"),
        "{}",
        stderr(&o)
    );
    // The server's own record of each round's table: two levels per engine, in order.
    let used: Vec<String> = srv.conn.query("SELECT engine FROM slap_eng_log").unwrap();
    assert_eq!(used, ["InnoDB", "InnoDB", "MEMORY", "MEMORY"]);
    let r = json(&out);
    let steps: Vec<(u64, String, bool)> = r["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["threads"].as_u64().unwrap(),
                s["engine"].as_str().unwrap().to_string(),
                s["result"].is_object(),
            )
        })
        .collect();
    let want: Vec<(u64, String, bool)> = [
        (2, "innodb", true),
        (3, "innodb", true),
        (2, "memory", true),
        (3, "memory", true),
        (2, "no_such_engine", false),
        (3, "no_such_engine", false),
    ]
    .iter()
    .map(|(t, e, ran)| (*t, e.to_string(), *ran))
    .collect();
    assert_eq!(steps, want);
    assert_eq!(r["table"][4]["engine"], "no_such_engine");
    assert!(r["table"][4]["error"]
        .as_str()
        .unwrap()
        .contains("Unknown storage engine 'no_such_engine'"));
    assert_matches_schema(include_str!("../../docs/sweep.schema.json"), &r);
    // Each round dropped its table; the log (not made by --create) is kept.
    assert_eq!(srv.tables_like("slap_eng%"), ["slap_eng_log"]);
    // `compare` matches rows by thread count: a file of several engines is refused.
    let o = dbpress(&["compare", out.to_str().unwrap(), out.to_str().unwrap()]);
    assert_fails_with(
        &o,
        2,
        "holds 3 storage engines (innodb, memory, no_such_engine)",
    );

    // A table of --create already there, with another engine: not measured as `memory`.
    srv.conn
        .query_drop("CREATE TABLE slap_eng (id int primary key, v int) ENGINE = InnoDB")
        .unwrap();
    let o = dbpress(
        &[
            &["slap"][..],
            &TO_MARIADB,
            &[create, "--query=select v from slap_eng", "--engine=memory"],
        ]
        .concat(),
    );
    assert_fails_with(
        &o,
        2,
        "table slap_eng uses the InnoDB engine, not memory: slap_eng was there before this round",
    );
    assert_eq!(srv.tables_like("slap_eng%"), ["slap_eng", "slap_eng_log"]);
    srv.conn
        .query_drop("DROP TABLE slap_eng, slap_eng_log")
        .unwrap();

    for (args, want) in [
        (
            &["-S", SOCKET, "--engine=innodb,myisam", "--no-drop"][..],
            "--no-drop keeps the tables between rounds, but each --engine needs its own tables",
        ),
        (
            &["-S", SOCKET, "--engine=inno db"][..],
            "invalid storage engine 'inno db'",
        ),
        (
            &["--engine=innodb", "--db-driver=pgsql"][..],
            "-e/--engine chooses a MySQL storage engine; PostgreSQL and SQLite have one each",
        ),
    ] {
        let o = dbpress(&[&["slap", "--query=select 1"][..], args].concat());
        assert_fails_with(&o, 2, want);
    }
}

/// mysqlslap's client flags as pasted: `--pre-system`/`--post-system` around each round,
/// `--defaults-file` for the connection, `--no-defaults` without ~/.my.cnf, MySQL's TLS flags
/// onto --mysql-ssl's modes, and `-v` with a notice.
#[test]
fn mysqlslap_client_flags_run_as_mysqlslap_reads_them() {
    let Some(_srv) = server("slap-client-flags") else {
        return;
    };
    let dir = scratch("slap-client-flags");
    let log = dir.join("system.log");
    let cnf = dir.join("slap.cnf");
    std::fs::write(
        &cnf,
        format!("[client]\nuser = sbtest\npassword = \"sbtest\"\n[mysqlslap]\nsocket={SOCKET}\n"),
    )
    .unwrap();
    let defaults = format!("--defaults-file={}", cnf.display());
    let pre = format!("--pre-system=echo pre >> {}", log.display());
    // A shell command is where a password would be (mysql -pSECRET): never shown or saved.
    let post = format!(
        "--post-system=echo post >> {}; exit 3 # -pTopSecret9",
        log.display()
    );
    let saved = dir.join("r.json");
    let o = dbpress(&[
        "slap",
        &defaults,
        "--create-schema=sbtest",
        "--query=select 1",
        "-c",
        "1,2",
        "-i",
        "2",
        &pre,
        &post,
        "-v",
        "--output",
        saved.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    for text in [
        stdout(&o),
        stderr(&o),
        std::fs::read_to_string(&saved).unwrap(),
    ] {
        assert!(!text.contains("TopSecret9"), "{text}");
    }
    assert!(json(&saved)["command_line"]
        .as_array()
        .unwrap()
        .contains(&serde_json::json!("--post-system=***")));
    assert!(
        stdout(&o).contains("as 'sbtest' db 'sbtest'"),
        "{}",
        stdout(&o)
    );
    // Before and after each of the 2 x 2 rounds; a failing command warns and the rounds go on.
    assert_eq!(
        std::fs::read_to_string(&log).unwrap(),
        "pre\npost\n".repeat(4)
    );
    let err = stderr(&o);
    assert_eq!(
        err.matches("the --post-system command exited with status 3; the rounds go on")
            .count(),
        4,
        "{err}"
    );
    assert!(err.starts_with("dbpress: notice: mysqlslap's -v/--verbose changes nothing"));

    // --no-defaults: no option file at all, so no password (MYSQL_PWD unset).
    let o = std::process::Command::new(bin())
        .args([
            "slap",
            "--no-defaults",
            "-usbtest",
            "-S",
            SOCKET,
            "--create-schema=sbtest",
            "--query=select 1",
        ])
        .env_remove("MYSQL_PWD")
        .output()
        .unwrap();
    assert_fails_with(
        &o,
        2,
        "Access denied for user 'sbtest'@'localhost' (using password: NO)",
    );

    // TLS over TCP, asked the way the MySQL client asks (they map onto --mysql-ssl, whose
    // sessions the TLS tests check on the server); the header names the negotiated protocol.
    let cipher = "--query=select 1";
    for (flags, tls) in [
        (&["--ssl"][..], true),
        (&["--ssl-mode=REQUIRED"][..], true),
        (
            &[
                "--ssl-verify-server-cert",
                "--ssl-ca=/etc/mysql/dbpress-tls/ca.pem",
            ][..],
            true,
        ),
        (&["--skip-ssl"][..], false),
    ] {
        let o = dbpress(
            &[
                &[
                    "slap",
                    "-h",
                    "127.0.0.1",
                    "-P",
                    "3306",
                    "-usbtest",
                    "-psbtest",
                    "--create-schema=sbtest",
                    cipher,
                ][..],
                flags,
            ]
            .concat(),
        );
        assert!(o.status.success(), "{flags:?}: {}", stderr(&o));
        let out = stdout(&o);
        assert_eq!(
            out.contains(", encrypted with TLS"),
            tls,
            "{flags:?}: {out}"
        );
    }
    // An option neither mysqlslap's nor dbpress's points at slap's own help.
    let o = dbpress(&["slap", "-S", SOCKET, "--frobnicate", "--query=select 1"]);
    assert_fails_with(
        &o,
        2,
        "unknown option --frobnicate: `dbpress slap --help` lists the flags it takes",
    );
    let o = dbpress(&[
        "slap",
        "-S",
        SOCKET,
        "--ssl-cipher=DHE-RSA-AES256-SHA",
        "--query=select 1",
    ]);
    assert_fails_with(
        &o,
        2,
        "--mysql-ssl-cipher: dbpress's TLS (rustls) cannot offer 'DHE-RSA-AES256-SHA'",
    );
}

/// `--ssl-cipher` (slap) and `--mysql-ssl-cipher`: each session offers only the suites named,
/// and the server's own session status (Ssl_cipher, Ssl_version), written by the sessions
/// themselves into a table, shows the suite it agreed to.
#[test]
fn the_cipher_suites_asked_for_are_the_ones_the_server_negotiates() {
    let Some(mut srv) = server("ssl-cipher") else {
        return;
    };
    use mysql::prelude::Queryable;
    srv.conn
        .query_drop("CREATE OR REPLACE TABLE tls_seen (cipher varchar(64), version varchar(16))")
        .unwrap();
    let record = "--query=insert into tls_seen select (select variable_value from information_schema.session_status where variable_name = 'Ssl_cipher'), (select variable_value from information_schema.session_status where variable_name = 'Ssl_version')";
    let tcp = [
        "slap",
        "-h",
        "127.0.0.1",
        "-P",
        "3306",
        "-usbtest",
        "-psbtest",
        "--create-schema=sbtest",
        record,
        "-c",
        "2",
    ];
    for (cipher, server_name, version) in [
        (
            "ECDHE-RSA-AES128-GCM-SHA256",
            "ECDHE-RSA-AES128-GCM-SHA256",
            "TLSv1.2",
        ),
        (
            "TLS_CHACHA20_POLY1305_SHA256",
            "TLS_CHACHA20_POLY1305_SHA256",
            "TLSv1.3",
        ),
        // IANA's spelling, and a list whose first suite the server takes.
        (
            "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384:TLS_AES_128_GCM_SHA256",
            "TLS_AES_128_GCM_SHA256",
            "TLSv1.3",
        ),
    ] {
        srv.conn.query_drop("DELETE FROM tls_seen").unwrap();
        let flag = format!("--ssl-cipher={cipher}");
        let o = dbpress(&[&tcp[..], &[&flag]].concat());
        assert!(o.status.success(), "{cipher}: {}", stderr(&o));
        assert!(
            stdout(&o).contains(&format!(", ciphers {cipher}, encrypted with {version}")),
            "{}",
            stdout(&o)
        );
        let seen: Vec<(String, String)> = srv
            .conn
            .query("SELECT cipher, version FROM tls_seen")
            .unwrap();
        assert_eq!(
            seen,
            vec![(server_name.to_string(), version.to_string()); 2],
            "{cipher}"
        );
    }
    // The same through sysbench's option on a workload's run.
    let o = dbpress(
        &[
            &["oltp_point_select", "prepare", "--table-size=100"][..],
            CONN,
        ]
        .concat(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let o = dbpress(&[
        "oltp_point_select",
        "run",
        "--time=0",
        "--events=100",
        "--mysql-host=127.0.0.1",
        "--mysql-user=sbtest",
        "--mysql-password=sbtest",
        "--mysql-ssl=required",
        "--mysql-ssl-cipher=ECDHE-RSA-CHACHA20-POLY1305",
        "--table-size=100",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("ciphers ECDHE-RSA-CHACHA20-POLY1305, encrypted with TLSv1.2 ECDHE-RSA-CHACHA20-POLY1305"),
        "{}",
        stdout(&o)
    );
    dbpress(&[&["oltp_point_select", "cleanup"][..], CONN].concat());
    // A suite the server cannot use with its RSA certificate: its refusal, explained.
    let o = dbpress(&[&tcp[..], &["--ssl-cipher=ECDHE-ECDSA-AES128-GCM-SHA256"]].concat());
    assert_fails_with(
        &o,
        2,
        "the server accepts none of the cipher suites or TLS versions offered: check --mysql-ssl-cipher",
    );
    let o = dbpress(&[
        "oltp_point_select",
        "run",
        "--mysql-host=127.0.0.1",
        "--mysql-ssl-cipher=TLS_AES_128_GCM_SHA256",
    ]);
    assert_fails_with(
        &o,
        2,
        "--mysql-ssl-cipher chooses TLS cipher suites, but TLS is off",
    );
    srv.conn.query_drop("DROP TABLE tls_seen").unwrap();
}

/// mysqlslap's `--commit=N`: sessions without autocommit, a COMMIT after every N queries and
/// one when each client is done (as mariadb-slap's general log shows it), so the server counts
/// those COMMITs and every inserted row is kept; -a takes it too.
#[test]
fn commit_every_n_queries_is_what_the_server_counts_and_keeps_every_row() {
    let Some(mut srv) = server("slap-commit") else {
        return;
    };
    use mysql::prelude::Queryable;
    srv.conn.query_drop("DROP TABLE IF EXISTS slap_c").unwrap();
    let before = srv.com();
    // 2 clients x 5 inserts, COMMIT after each one's 3rd and at its end: 2 each.
    let o = dbpress(
        &[
            &["slap"][..],
            &TO_MARIADB,
            &[
                "--create=create table slap_c (id int primary key auto_increment, v int)",
                "--query=insert into slap_c (v) values (1)",
                "--commit=3",
                "--number-of-queries=10",
                "-c",
                "2",
                "--no-drop",
            ],
        ]
        .concat(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let after = srv.com();
    let d = |k: &str| after[k] - before[k];
    assert_eq!((d("Com_commit"), d("Com_insert")), (4, 10));
    let rows: u64 = srv
        .conn
        .query_first("SELECT COUNT(*) FROM slap_c")
        .unwrap()
        .unwrap();
    assert_eq!(rows, 10, "the last inserts were committed too");
    let out = stdout(&o);
    assert!(
        out.contains("Commits: autocommit off, COMMIT after every 3 queries and once at the end"),
        "{out}"
    );
    assert!(out.contains("other:  dbpress 4, server 4"), "{out}");
    srv.conn.query_drop("DROP TABLE slap_c").unwrap();

    // -a: 4 clients x 25 queries, COMMIT after each one's 7th, 14th and 21st and at its end.
    let before = srv.com();
    let o = dbpress(
        &[
            &["slap"][..],
            &TO_MARIADB,
            &["-a", "--commit=7", "--number-of-queries=100", "-c", "4"],
        ]
        .concat(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let after = srv.com();
    let commits = after["Com_commit"] - before["Com_commit"];
    assert_eq!(commits, 16);
    let out = stdout(&o);
    assert!(
        out.contains(&format!(
            "other:  dbpress {commits}, server {commits} (Com_commit): equal"
        )),
        "{out}"
    );
    assert!(out.contains("COMMIT (--commit)"), "{out}");
}
