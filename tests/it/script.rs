//! pgbench-style scripts: parsing errors before connecting, pgbench's built-in transaction on
//! every engine (checked with TPC-B's balance invariant), variables bound as parameters,
//! weights and -D.

use crate::common::*;
use crate::engines::each_engine;

fn script(flags: &[String], extra: &[&str]) -> std::process::Output {
    let mut a: Vec<String> = vec!["script".into()];
    a.push(extra[0].to_string());
    a.extend(flags.iter().cloned());
    a.extend(extra[1..].iter().map(|s| s.to_string()));
    let refs: Vec<&str> = a.iter().map(String::as_str).collect();
    dbpress(&refs)
}

#[test]
fn script_errors_name_file_and_line_before_connecting() {
    let dir = scratch("script-errors");
    let bad = dir.join("bad.sql");
    std::fs::write(
        &bad,
        "\\set aid random(1, 1000)\n\\set x random(1)\nSELECT :aid;\n",
    )
    .unwrap();
    let unset = dir.join("unset.sql");
    std::fs::write(&unset, "\\set aid random(1, 1000)\nSELECT :aid, :nope;\n").unwrap();
    // The target does not exist: only parsing can produce these messages.
    let nowhere = ["--pgsql-host=127.0.0.1", "--pgsql-port=1"];
    for (file, want) in [
        (
            &bad,
            format!(
                "{}:2: unexpected number of arguments (random) in command \"set\", at column 16",
                bad.display()
            ),
        ),
        (
            &unset,
            format!(
                "{}:2: variable :nope is used but never set",
                unset.display()
            ),
        ),
    ] {
        let f = file.to_str().unwrap();
        let o = dbpress(&["script", "run", "-f", f, nowhere[0], nowhere[1]]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert_one_clean_line(&o);
        assert!(stderr(&o).contains(&want), "{}", stderr(&o));
    }
    let o = dbpress(&["script", "run", "-b", "tpcc", nowhere[0], nowhere[1]]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("unknown built-in script 'tpcc'"),
        "{}",
        stderr(&o)
    );
    let o = dbpress(&["script", "run", "-M", "simpel", nowhere[0], nowhere[1]]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("unknown -M 'simpel': use simple, extended or prepared"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn pgbench_tpcb_like_keeps_its_balances_on_every_engine() {
    each_engine("script-tpcb", |e| {
        // pgbench tables an earlier, interrupted test may have left.
        script(&e.flags, &["cleanup"]);
        let o = script(&e.flags, &["prepare", "-s", "1"]);
        assert!(o.status.success(), "{}: {}", e.name, stderr(&o));
        assert_eq!(
            e.scalar("SELECT COUNT(*) FROM pgbench_accounts"),
            100_000,
            "{}",
            e.name
        );
        assert_eq!(
            e.scalar("SELECT COUNT(*) FROM pgbench_tellers"),
            10,
            "{}",
            e.name
        );
        let dir = scratch(&format!("script-tpcb-{}", e.name));
        let out = dir.join("r.json");
        let o = script(
            &e.flags,
            &[
                "run",
                "-c",
                "2",
                "-t",
                "300",
                "--output",
                out.to_str().unwrap(),
            ],
        );
        assert!(o.status.success(), "{}: {}", e.name, stderr(&o));
        let r = json(&out);
        let s = &r["summary"];
        assert_eq!(s["events"], 600, "{}: -t is per client", e.name);
        // pgbench's tpcb-like mix: BEGIN, 3 UPDATEs, 1 SELECT, 1 INSERT, END.
        assert_eq!(s["reads"], 600, "{}", e.name);
        let (writes, other) = (s["writes"].as_u64().unwrap(), s["other"].as_u64().unwrap());
        assert_eq!(writes + other, 6 * 600, "{}", e.name);
        // MySQL reports rows changed, not rows matched: an event whose delta is 0 leaves its
        // three UPDATEs at 0 affected rows, so they count as "other" there (as in sysbench).
        let unchanged = if e.name == "mariadb" {
            3 * e.scalar("SELECT COUNT(*) FROM pgbench_history WHERE delta = 0") as u64
        } else {
            0
        };
        assert_eq!(writes, 4 * 600 - unchanged, "{}", e.name);
        // TPC-B's invariant, read by an independent client: every delta landed once in each
        // table and in the history.
        assert_eq!(
            e.scalar("SELECT COUNT(*) FROM pgbench_history"),
            600,
            "{}",
            e.name
        );
        let history = e.scalar("SELECT SUM(delta) FROM pgbench_history");
        for t in [
            "SELECT SUM(abalance) FROM pgbench_accounts",
            "SELECT SUM(tbalance) FROM pgbench_tellers",
            "SELECT SUM(bbalance) FROM pgbench_branches",
        ] {
            assert_eq!(e.scalar(t), history, "{}: {t}", e.name);
        }
        // The tps pgbench would print is the summary's own rate.
        let block = stdout(&o);
        let block = &block[block.find("pgbench-style summary (dbpress):").unwrap()..];
        let tps = format!(
            "tps = {:.6} (without initial connection time)",
            s["tps"].as_f64().unwrap()
        );
        for line in [
            "transaction type: <builtin: TPC-B (sort of)>",
            "scaling factor: 1",
            "number of clients: 2",
            "number of transactions per client: 300",
            "number of transactions actually processed: 600/600",
            &tps,
        ] {
            assert!(block.contains(line), "{}: {line} in {block}", e.name);
        }
        // pgbench's -R and -L: skipped transactions count toward -t, as in pgbench.
        let o = script(
            &e.flags,
            &[
                "run", "-S", "-c", "2", "-t", "100", "-R", "2000", "-L", "50",
            ],
        );
        assert!(o.status.success(), "{}: {}", e.name, stderr(&o));
        let text = stdout(&o);
        let skipped = text
            .split("number of transactions skipped: ")
            .nth(1)
            .and_then(|t| t.split(' ').next()?.parse::<u64>().ok())
            .unwrap_or_else(|| panic!("{}: no skipped line in {text}", e.name));
        let reads = format!("read:                            {}", 200 - skipped);
        assert!(text.contains(&reads), "{}: {reads} in {text}", e.name);
        assert!(
            text.contains(&format!(
                "number of transactions actually processed: {}/200",
                200 - skipped
            )),
            "{}: {text}",
            e.name
        );
        assert!(
            text.contains("number of transactions above the 50.0 ms latency limit: "),
            "{}: {text}",
            e.name
        );
        assert!(
            stdout(&o).contains("transaction type: <builtin: select only>"),
            "{}",
            stdout(&o)
        );
        let o = script(&e.flags, &["cleanup"]);
        assert!(o.status.success(), "{}: {}", e.name, stderr(&o));
        for t in [
            "pgbench_accounts",
            "pgbench_branches",
            "pgbench_tellers",
            "pgbench_history",
        ] {
            assert!(!e.table_exists(t), "{}: cleanup left {t}", e.name);
        }
    });
}

#[test]
fn variables_are_bound_as_parameters_never_pasted_into_sql() {
    let Some(mut srv) = server("script-params") else {
        return;
    };
    let dir = scratch("script-params");
    let setup = dir.join("setup.sql");
    std::fs::write(
        &setup,
        "CREATE TABLE sbtest_kv (id INTEGER PRIMARY KEY, v INTEGER);\nINSERT INTO sbtest_kv VALUES (1, 0), (2, 0), (3, 0);\n",
    )
    .unwrap();
    let hot = dir.join("hot.sql");
    std::fs::write(
        &hot,
        "-- zipfian keys, two statements\n\\set id random_zipfian(1, 3, 1.5)\n\\set d :step * 2\n\
         UPDATE sbtest_kv SET v = v + :d WHERE id = :id;\nSELECT v FROM sbtest_kv WHERE id = :id;\n",
    )
    .unwrap();
    let cold = dir.join("cold.sql");
    std::fs::write(&cold, "SELECT COUNT(*) FROM sbtest_kv;\n").unwrap();
    let mut base: Vec<String> = CONN.iter().map(|s| s.to_string()).collect();
    base.push("--db-driver=mysql".into());
    let o = script(&base, &["prepare", "-f", setup.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let before = srv.com();
    let out = dir.join("r.json");
    let hot_w = format!("{}@3", hot.display());
    let cold_w = format!("{}@1", cold.display());
    let o = script(
        &base,
        &[
            "run",
            "-f",
            &hot_w,
            "-f",
            &cold_w,
            "-D",
            "step=5",
            "-c",
            "2",
            "-t",
            "2000",
            "--output",
            out.to_str().unwrap(),
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let after = srv.com();
    let delta = |k: &str| after[k] - before[k];
    let r = json(&out);
    let count = |prefix: &str| -> u64 {
        r["statements"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|s| s["name"].as_str().unwrap().starts_with(prefix))
            .map(|s| s["count"].as_u64().unwrap())
            .sum()
    };
    let (hot_events, cold_events) = (count("hot.sql:4"), count("cold.sql:1"));
    assert_eq!(hot_events + cold_events, 4000);
    let share = hot_events as f64 / 4000.0;
    assert!(
        (0.71..0.79).contains(&share),
        "weights 3:1 give about 75% hot: {share}"
    );
    // Prepared once per client and statement (3 statements x 2 clients); every execution a
    // COM_STMT_EXECUTE: the values never became SQL text.
    assert_eq!(delta("Com_stmt_prepare"), 6);
    assert_eq!(delta("Com_stmt_execute"), 2 * hot_events + cold_events);
    assert_eq!(delta("Com_update"), hot_events);
    // -D step=5 -> d = 10 per hot event, all landed.
    use mysql::prelude::Queryable;
    let total: i64 = srv
        .conn
        .query_first("SELECT SUM(v) FROM sbtest_kv")
        .unwrap()
        .unwrap();
    assert_eq!(total, 10 * hot_events as i64);
    // Zipfian keys: id 1 is the hottest.
    let v1: i64 = srv
        .conn
        .query_first("SELECT v FROM sbtest_kv WHERE id = 1")
        .unwrap()
        .unwrap();
    let v3: i64 = srv
        .conn
        .query_first("SELECT v FROM sbtest_kv WHERE id = 3")
        .unwrap()
        .unwrap();
    assert!(v1 > v3, "{v1} vs {v3}");
    srv.conn.query_drop("DROP TABLE sbtest_kv").unwrap();
}

#[test]
fn a_client_list_sweeps_the_script_with_t_per_client() {
    let dir = scratch("script-sweep");
    let db = format!("--db=sqlite:{}", dir.join("s.db").display());
    let o = dbpress(&["script", "prepare", &db, "-s", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = dir.join("sweep.json");
    let o = dbpress(&[
        "script",
        "run",
        &db,
        "-S",
        "-c",
        "1,3",
        "-t",
        "50",
        "--output",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("Thread sweep, script (2 levels)"));
    let doc = json(&out);
    let steps: Vec<(u64, u64)> = doc["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["threads"].as_u64().unwrap(),
                s["result"]["summary"]["events"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(steps, vec![(1, 50), (3, 150)]);
    // -t is each client's own count, as in pgbench: 50 each, not 150 taken as they come.
    let f = &doc["steps"][1]["result"]["summary"]["fairness"];
    assert_eq!(
        (f["events_avg"].as_f64(), f["events_stddev"].as_f64()),
        (Some(50.0), Some(0.0))
    );
}

#[test]
fn a_script_error_at_run_time_stops_with_its_cause_even_under_ignore_all() {
    let dir = scratch("script-runtime-error");
    let f = dir.join("div.sql");
    std::fs::write(&f, "\\set z :d / 0\nSELECT :z;\n").unwrap();
    let db = format!("--db=sqlite:{}", dir.join("s.db").display());
    let o = dbpress(&[
        "script",
        "run",
        &db,
        "-f",
        f.to_str().unwrap(),
        "-D",
        "d=5",
        "-t",
        "3",
        "--sqlite-ignore-errors=all",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_one_clean_line(&o);
    assert!(
        stderr(&o).contains("the script failed while running: \\set z: division by zero"),
        "{}",
        stderr(&o)
    );
}

/// A pasted pgbench command line: options that change nothing here run with a notice, those
/// dbpress cannot honour stop in one line saying what to use instead (never a bare "unknown
/// option"), and --show-script prints a built-in script as pgbench does.
#[test]
fn pgbench_options_are_honoured_noted_or_refused_with_the_alternative() {
    let nowhere = ["--pgsql-host=127.0.0.1", "--pgsql-port=1"];
    for (flag, want) in [
        (
            "--aggregate-interval=10",
            "are not written: --output=FILE keeps every 1 s interval",
        ),
        (
            "-C",
            "pgbench's -C/--connect (a new connection per transaction) is not supported",
        ),
        (
            "-i",
            "pgbench's -i (build the pgbench tables) is `dbpress script prepare [-s SCALE]`",
        ),
        (
            "--max-tries=3",
            "--max-tries=3 is not supported: dbpress retries an ignorable error",
        ),
    ] {
        let o = dbpress(&[
            "script", "run", "-S", "-T", "1", flag, nowhere[0], nowhere[1],
        ]);
        assert_fails_with(&o, 2, want);
    }
    // Accepted: the notices come first, then the (unreachable) target stops the run.
    let o = dbpress(&[
        "script",
        "run",
        "-S",
        "-T",
        "1",
        "-P",
        "1",
        "--progress-timestamp",
        "--max-tries=0",
        "--random-seed=time",
        nowhere[0],
        nowhere[1],
    ]);
    let err = stderr(&o);
    assert!(
        err.starts_with(
            "dbpress: notice: pgbench's --progress-timestamp: interval lines are sysbench's"
        ) && err.contains("is the server running?"),
        "{err}"
    );
    // pgbench's connection flags: the message names them, not the options they map onto.
    let o = dbpress(&[
        "script",
        "run",
        "-S",
        "-T",
        "1",
        "-h",
        "127.0.0.1",
        "-p",
        "1",
        "-U",
        "sbtest",
        "sbtest",
    ]);
    assert_fails_with(
        &o,
        2,
        "is the server running? Start it, or fix -h/-p (--pgsql-host/--pgsql-port",
    );
    let o = dbpress(&["script", "--show-script=select-only"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "-- select-only\n\\set aid random(1, 100000 * :scale)\nSELECT abalance FROM pgbench_accounts WHERE aid = :aid;\n"
    );
}

/// pgbench's own command lines pasted after `dbpress script`, without a command word: `-i`
/// builds the tables (prepare), anything else runs, as pgbench decides.
#[test]
fn a_pasted_pgbench_command_line_prepares_with_i_and_runs_without() {
    let Some((_guard, mut c)) = crate::engines::pg_server("pgbench-pasted") else {
        return;
    };
    let pgbench = |line: &str| {
        let mut a = vec!["script"];
        a.extend(line.split(' '));
        std::process::Command::new(bin())
            .args(&a)
            .env("PGPASSWORD", "sbtest")
            .output()
            .unwrap()
    };
    let conn = "-h /var/run/postgresql -U sbtest sbtest";
    pgbench(&format!("cleanup {conn}"));
    let o = pgbench(&format!("-i -s 1 {conn}"));
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        crate::engines::pg_scalar(&mut c, "SELECT COUNT(*) FROM pgbench_accounts").as_deref(),
        Some("100000")
    );
    let o = pgbench(&format!("-c 2 -j 2 -t 50 -S -M prepared {conn}"));
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("transaction type: <builtin: select only>")
            && out.contains("number of transactions actually processed: 100"),
        "{out}"
    );
    // pgbench's long spellings.
    let o = pgbench(
        "--client=2 --jobs=2 --transactions=30 --select-only --protocol=prepared --report-latencies --host=/var/run/postgresql --port=5432 --username=sbtest sbtest",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("number of transactions actually processed: 60"),
        "{}",
        stdout(&o)
    );
    // `-i` with the command word is the same prepare (the tables exist now, so it refuses).
    let o = pgbench(&format!("prepare -i -s 1 {conn}"));
    assert_fails_with(&o, 2, "table 'pgbench_");
    let o = pgbench(&format!("cleanup {conn}"));
    assert!(o.status.success(), "{}", stderr(&o));
}
