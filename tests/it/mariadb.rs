use crate::common::*;
use crate::export::assert_valid;
use crate::private_server::PrivateMariadb;
use std::process::Command;

fn args<'a>(base: &[&'a str], extra: &[&'a str]) -> Vec<&'a str> {
    let mut v = base.to_vec();
    v.extend_from_slice(CONN);
    v.extend_from_slice(extra);
    v
}

fn delta(
    before: &std::collections::HashMap<String, u64>,
    after: &std::collections::HashMap<String, u64>,
    k: &str,
) -> u64 {
    after.get(k).copied().unwrap_or(0) - before.get(k).copied().unwrap_or(0)
}

#[test]
fn point_select_prepare_run_cleanup_matches_server_com_select() {
    let Some(mut srv) = server("point_select_prepare_run_cleanup") else {
        return;
    };
    let o = dbpress(&args(
        &["oltp_point_select", "prepare"],
        &["--tables=2", "--table-size=1000", "--threads=2"],
    ));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("Creating a secondary index on 'sbtest2'..."));
    assert_eq!(srv.tables().len(), 2);

    let dir = scratch("ps-run");
    let out = dir.join("r.json");
    let before = srv.com();
    let o = dbpress(&args(
        &["oltp_point_select", "run"],
        &[
            "--tables=2",
            "--table-size=1000",
            "--threads=2",
            "--time=0",
            "--events=700",
            "--output",
            out.to_str().unwrap(),
        ],
    ));
    assert!(o.status.success(), "{}", stderr(&o));
    let after = srv.com();
    let r = json(&out);
    assert_valid(&r);
    assert_eq!(r["summary"]["events"], 700);
    assert_eq!(r["summary"]["reads"], 700);
    assert_eq!(
        delta(&before, &after, "Com_select"),
        700,
        "server executed a different number of SELECTs"
    );
    assert_eq!(delta(&before, &after, "Com_stmt_execute"), 700);
    let in_intervals: u64 = r["intervals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["reads"].as_u64().unwrap())
        .sum();
    assert_eq!(in_intervals, 700, "intervals add up to the summary");
    assert_eq!(r["environment"]["server"]["product"], "MariaDB");

    let o = dbpress(&args(&["oltp_point_select", "cleanup"], &["--tables=2"]));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(srv.tables().is_empty());
}

fn read_write_mix(ps_mode: &str) {
    let Some(mut srv) = server("read_write_mix") else {
        return;
    };
    let o = dbpress(&args(
        &["oltp_read_write", "prepare"],
        &["--tables=2", "--table-size=2000"],
    ));
    assert!(o.status.success(), "{}", stderr(&o));
    let n = 150u64;
    let events = format!("--events={n}");
    let ps = format!("--db-ps-mode={ps_mode}");
    let dir = scratch(&format!("rw-{ps_mode}"));
    let out = dir.join("r.json");
    let before = srv.com();
    let o = dbpress(&args(
        &["oltp_read_write", "run"],
        &[
            "--tables=2",
            "--table-size=2000",
            "--threads=1",
            "--time=0",
            &events,
            &ps,
            "--output",
            out.to_str().unwrap(),
        ],
    ));
    assert!(o.status.success(), "{}", stderr(&o));
    let after = srv.com();
    let r = json(&out);
    assert_eq!(r["summary"]["errors"], 0);
    // The documented mix per transaction, counted by the server itself.
    for (counter, per_txn) in [
        ("Com_select", 14),
        ("Com_update", 2),
        ("Com_delete", 1),
        ("Com_insert", 1),
        ("Com_begin", 1),
        ("Com_commit", 1),
    ] {
        assert_eq!(
            delta(&before, &after, counter),
            per_txn * n,
            "{counter} with --db-ps-mode={ps_mode}"
        );
    }
    // dbpress's own r/w/o agree with sysbench's classification: 14 reads, 4 writes, 2 other.
    assert_eq!(r["summary"]["reads"], 14 * n);
    assert_eq!(r["summary"]["writes"], 4 * n);
    assert_eq!(r["summary"]["other"], 2 * n);
    let kinds: Vec<&str> = r["statements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(kinds.len(), 11, "{kinds:?}");
    let o = dbpress(&args(&["oltp_read_write", "cleanup"], &["--tables=2"]));
    assert!(o.status.success());
}

#[test]
fn read_write_prepared_matches_documented_mix() {
    read_write_mix("auto");
}

#[test]
fn read_write_text_mode_matches_documented_mix() {
    read_write_mix("disable");
}

#[test]
fn transport_is_what_was_asked_for() {
    let Some(_srv) = server("transport") else {
        return;
    };
    let host_of = |flags: &[&str]| -> String {
        let mut c = session(flags).unwrap();
        let rows = c
            .query_rows(
                "SELECT HOST FROM information_schema.PROCESSLIST WHERE ID = CONNECTION_ID()",
            )
            .unwrap();
        rows[0][0].clone().unwrap()
    };
    // TCP to 127.0.0.1 stays TCP (the server shows host:port), despite the crate's prefer_socket.
    let tcp = host_of(&["--mysql-host=127.0.0.1", "--mysql-port=3306"]);
    assert!(tcp.contains(':'), "expected a TCP peer, got {tcp}");
    // An explicit socket, and localhost without a port, are the Unix socket.
    assert_eq!(host_of(&["--mysql-socket", SOCKET]), "localhost");
    assert_eq!(host_of(&["--mysql-host=localhost"]), "localhost");
    // The header says which.
    let o = dbpress(&args(
        &["oltp_point_select", "prepare"],
        &["--table-size=10"],
    ));
    assert!(o.status.success());
    let o = dbpress(&[
        "oltp_point_select",
        "run",
        "--mysql-host=127.0.0.1",
        "--mysql-port=3306",
        "--mysql-user=sbtest",
        "--mysql-password=sbtest",
    ]);
    assert!(
        stdout(&o).contains("Target: MySQL TCP 127.0.0.1:3306"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn environment_errors_name_cause_and_fix() {
    let Some(mut srv) = server("environment_errors") else {
        return;
    };
    // Wrong password: exit 2, the server's message, never the password.
    let o = dbpress(&[
        "oltp_point_select",
        "run",
        "--mysql-socket",
        SOCKET,
        "--mysql-user=sbtest",
        "--mysql-password=WrongPw123",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("authentication failed (server error 1045"),
        "{}",
        stderr(&o)
    );
    assert!(!stderr(&o).contains("WrongPw123") && !stdout(&o).contains("WrongPw123"));
    assert_one_clean_line(&o);
    // The same in a --db URL: the message names the URL, not options the user never typed.
    let o = dbpress(&[
        "oltp_point_select",
        "run",
        "--db=mysql://sbtest:WrongPw123@127.0.0.1:3306/sbtest",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("): check the user and password in --db (or MYSQL_PWD, ~/.my.cnf) (an account that REQUIREs SSL or X509"),
        "{}",
        stderr(&o)
    );
    assert!(!stderr(&o).contains("WrongPw123") && !stdout(&o).contains("WrongPw123"));
    assert_one_clean_line(&o);
    // Nothing listening.
    let o = dbpress(&[
        "oltp_point_select",
        "run",
        "--mysql-host=127.0.0.1",
        "--mysql-port=1",
        "--mysql-user=sbtest",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("cannot connect to the server over TCP 127.0.0.1:1"),
        "{}",
        stderr(&o)
    );
    assert_one_clean_line(&o);
    let o = dbpress(&[
        "oltp_point_select",
        "run",
        "--mysql-socket=/nonexistent.sock",
        "--mysql-user=sbtest",
    ]);
    assert!(
        stderr(&o).contains("Unix socket /nonexistent.sock"),
        "{}",
        stderr(&o)
    );
    // Missing database.
    let o = dbpress(&args(
        &["oltp_point_select", "run"],
        &["--mysql-db=no_such_db_x"],
    ));
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no_such_db_x"), "{}", stderr(&o));
    assert_one_clean_line(&o);
    // Missing tables on run: suggest prepare.
    let o = dbpress(&args(&["oltp_point_select", "run"], &[]));
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o)
            .contains("table 'sbtest1' does not exist: run `dbpress oltp_point_select --mysql-socket=/run/mysqld/mysqld.sock --mysql-user=sbtest --mysql-password=*** --mysql-db=sbtest prepare`"),
        "{}",
        stderr(&o)
    );
    // Existing tables on prepare: suggest cleanup, and touch nothing.
    let o = dbpress(&args(
        &["oltp_point_select", "prepare"],
        &["--table-size=100"],
    ));
    assert!(o.status.success());
    let o = dbpress(&args(
        &["oltp_point_select", "prepare"],
        &["--table-size=100"],
    ));
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o)
            .contains("table 'sbtest1' already exists: run `dbpress oltp_point_select --mysql-socket=/run/mysqld/mysqld.sock --mysql-user=sbtest --mysql-password=*** --mysql-db=sbtest cleanup"),
        "{}",
        stderr(&o)
    );
    assert_one_clean_line(&o);
    assert_eq!(srv.tables(), vec!["sbtest1".to_string()]);
}

#[test]
fn cleanup_drops_only_its_own_tables() {
    let Some(mut srv) = server("cleanup_scope") else {
        return;
    };
    use mysql::prelude::Queryable;
    srv.conn
        .query_drop("CREATE TABLE sbtest_keep (id INT PRIMARY KEY)")
        .unwrap();
    srv.conn
        .query_drop("CREATE TABLE sbtest3 (id INT PRIMARY KEY)")
        .unwrap();
    let o = dbpress(&args(
        &["oltp_point_select", "prepare"],
        &["--tables=2", "--table-size=10"],
    ));
    assert!(o.status.success(), "{}", stderr(&o));
    let o = dbpress(&args(&["oltp_point_select", "cleanup"], &["--tables=2"]));
    assert!(o.status.success());
    let mut left = srv.tables();
    left.sort();
    assert_eq!(left, vec!["sbtest3".to_string(), "sbtest_keep".to_string()]);
}

/// The limits are lowered on a server of the test's own: the shared one's are never changed.
#[test]
fn server_limits_give_their_own_messages() {
    let Some(srv) = crate::private_server::PrivateMariadb::start("server-limits") else {
        return;
    };
    let private = |words: &[&str], extra: &[&str]| {
        let mut a: Vec<String> = words.iter().map(|s| s.to_string()).collect();
        a.extend(srv.socket_options());
        a.extend(extra.iter().map(|s| s.to_string()));
        let refs: Vec<&str> = a.iter().map(String::as_str).collect();
        dbpress(&refs)
    };
    let o = private(
        &["oltp_read_write", "prepare"],
        &["--tables=2", "--table-size=100"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(srv.sql("SET GLOBAL max_prepared_stmt_count = 5"));
    let o = private(
        &["oltp_read_write", "run"],
        &["--tables=2", "--table-size=100", "--time=1"],
    );
    assert!(srv.sql("SET GLOBAL max_prepared_stmt_count = DEFAULT"));
    assert_eq!(o.status.code(), Some(2), "{}\n{}", stdout(&o), stderr(&o));
    assert!(
        stderr(&o).starts_with("dbpress: error: the session could not prepare its statements: the server's max_prepared_stmt_count=5 (for all its sessions together) was reached (server error 1461)")
            && stderr(&o).contains("--db-ps-mode=disable"),
        "{}",
        stderr(&o)
    );
    assert_one_clean_line(&o);

    // MariaDB's lowest accepted max_connections is 10.
    assert!(srv.sql("SET GLOBAL max_connections = 10"));
    let o = private(
        &["oltp_read_write", "run"],
        &["--tables=2", "--table-size=100", "--time=1", "--threads=16"],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("max_connections=10 reached") && err.contains("SET GLOBAL max_connections"),
        "{err}"
    );
    // How many were turned away, not which thread happened to fail first.
    assert!(err.contains("the server refused "), "{err}");
    assert!(err.contains(" of the 16 connections"), "{err}");
    assert_one_clean_line(&o);
}

/// Hold locks on sbtest1's rows matching `which` from another session of `srv` (a server of
/// the test's own, whose lock wait timeout is set to 1 s), so dbpress's updates of them time out
/// with 1205.
fn with_locked_rows(srv: &PrivateMariadb, which: &str, f: impl FnOnce()) {
    use mysql::prelude::Queryable;
    assert!(srv.sql("SET GLOBAL innodb_lock_wait_timeout = 1"));
    let opts = mysql::OptsBuilder::new()
        .socket(Some(srv.socket.to_string_lossy().into_owned()))
        .user(Some("root"))
        .db_name(Some("sbtest"))
        .prefer_socket(false);
    let mut locker = mysql::Conn::new(opts).unwrap();
    locker.query_drop("BEGIN").unwrap();
    let _: Vec<u64> = locker
        .query(format!("SELECT id FROM sbtest1 WHERE {which} FOR UPDATE"))
        .unwrap();
    f();
    locker.query_drop("ROLLBACK").unwrap();
}

/// dbpress's arguments for the private server `srv`: `base`, its socket options, `extra`.
fn on(srv: &PrivateMariadb, base: &[&str], extra: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = base.iter().map(|s| s.to_string()).collect();
    v.extend(srv.socket_options());
    v.extend(extra.iter().map(|s| s.to_string()));
    v
}

fn run_on(srv: &PrivateMariadb, base: &[&str], extra: &[&str]) -> std::process::Output {
    let a = on(srv, base, extra);
    dbpress(&a.iter().map(String::as_str).collect::<Vec<_>>())
}

#[test]
fn ignorable_errors_are_counted_by_code_and_others_stop_the_run() {
    let Some(srv) = PrivateMariadb::start("ignorable-errors") else {
        return;
    };
    let o = run_on(&srv, &["oltp_read_write", "prepare"], &["--table-size=100"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let dir = scratch("ignorable");
    let out = dir.join("r.json");
    let out_s = out.to_str().unwrap().to_string();
    let mut ok_run = None;
    let mut fatal_run = None;
    with_locked_rows(&srv, "TRUE", || {
        ok_run = Some(run_on(
            &srv,
            &["oltp_read_write", "run"],
            &["--table-size=100", "--time=3", "--output", &out_s],
        ));
        fatal_run = Some(run_on(
            &srv,
            &["oltp_read_write", "run"],
            &["--table-size=100", "--time=3", "--mysql-ignore-errors="],
        ));
    });
    let ok_run = ok_run.unwrap();
    assert!(ok_run.status.success(), "{}", stderr(&ok_run));
    let r = json(&out);
    let waits = r["errors_by_code"]["1205"].as_u64().unwrap_or(0);
    assert!(
        waits >= 1,
        "expected lock wait timeouts counted under 1205: {}",
        r["errors_by_code"]
    );
    assert_eq!(r["summary"]["errors"].as_u64().unwrap(), waits);
    // With every row locked no event can finish: the one being retried when the run ends is
    // not a transaction (it used to be counted as one, with the whole run as its latency).
    assert_eq!(r["summary"]["events"], 0, "{}", r["summary"]);
    assert_eq!(r["summary"]["latency"]["count"], 0);
    assert!(stdout(&ok_run).contains("Errors by code (dbpress):"));

    let fatal_run = fatal_run.unwrap();
    assert_eq!(fatal_run.status.code(), Some(1), "{}", stderr(&fatal_run));
    assert!(
        stderr(&fatal_run).contains("server error 1205 stopped the run"),
        "{}",
        stderr(&fatal_run)
    );
    assert_one_clean_line(&fatal_run);
}

#[test]
fn issue_3_one_statement_events_that_fail_count_as_the_server_counts_them() {
    // oltp_update_index's event is one keyed statement, run by the runner's own loop
    // (`runner::keyed`), which hands a failed attempt to the general retry rules. With a tenth
    // of the rows locked, an attempt on one of them times out after 1 s (1205, ignorable) and
    // the event is retried with a new id, which nine times in ten is free. Every attempt is an UPDATE the server counts; each success is
    // one event; the event's latency spans its failed attempts, the statement's does not.
    let Some(srv) = PrivateMariadb::start("keyed-errors") else {
        return;
    };
    let size = "--table-size=100";
    let o = run_on(&srv, &["oltp_update_index", "prepare"], &[size]);
    assert!(o.status.success(), "{}", stderr(&o));
    let dir = scratch("keyed-errors");
    let out = dir.join("r.json");
    let out_s = out.to_str().unwrap().to_string();
    let mut run = None;
    let (mut before, mut after) = (Default::default(), Default::default());
    let com_update = || -> u64 {
        srv.value("SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = 'COM_UPDATE'")
            .parse()
            .unwrap()
    };
    with_locked_rows(&srv, "id <= 10", || {
        before = com_update();
        run = Some(run_on(
            &srv,
            &["oltp_update_index", "run"],
            &[size, "--threads=2", "--time=4", "--output", &out_s],
        ));
        after = com_update();
    });
    let run = run.unwrap();
    assert!(run.status.success(), "{}", stderr(&run));
    let r = json(&out);
    assert_valid(&r);
    let s = &r["summary"];
    let stmt = &r["statements"][0];
    assert_eq!(stmt["name"], "index_update");
    let events = s["events"].as_u64().unwrap();
    let errors = s["errors"].as_u64().unwrap();
    assert!(errors >= 2 && events > errors, "{s}");
    assert_eq!(r["errors_by_code"]["1205"].as_u64(), Some(errors));
    assert_eq!(stmt["errors"].as_u64(), Some(errors));
    assert_eq!(stmt["count"].as_u64(), Some(events));
    assert_eq!(stmt["latency"]["count"].as_u64(), Some(events));
    assert_eq!(s["writes"].as_u64(), Some(events), "{s}");
    assert_eq!(
        after - before,
        events + errors,
        "the server ran every attempt"
    );
    let event_max = s["latency"]["max_ms"].as_f64().unwrap();
    let stmt_max = stmt["latency"]["max_ms"].as_f64().unwrap();
    assert!(
        event_max >= 900.0,
        "a retried event includes its wait: {event_max}"
    );
    // A successful UPDATE never waited for the lock: its slowest is well under the slowest
    // event, which includes a whole lock wait (innodb_lock_wait_timeout=1) before its retry.
    assert!(
        stmt_max < event_max - 500.0,
        "a successful UPDATE never waited: {stmt_max} against {event_max}"
    );
}

/// Start `oltp_point_select run` with `extra`, send `signal` once its stdout has shown
/// `marker` (a point of the run, however long the set-up took), and wait: the output, with all
/// of stdout.
fn run_then_signal(extra: &[&str], signal: i32, marker: &str) -> (std::process::Output, String) {
    let mut child = spawn(&args(&["oltp_point_select", "run"], extra));
    let (reader, text) = stdout_until(&mut child, marker);
    send_signal(&child, signal);
    finish(child, reader, text)
}

#[test]
fn sigint_stops_cleanly_and_leaves_a_valid_result() {
    let Some(_srv) = server("sigint") else { return };
    let o = dbpress(&args(
        &["oltp_point_select", "prepare"],
        &["--table-size=1000"],
    ));
    assert!(o.status.success(), "{}", stderr(&o));
    let dir = scratch("sigint");
    let out = dir.join("r.json");
    // Stopped after its second interval: more than a second measured.
    let (o, text) = run_then_signal(
        &[
            "--table-size=1000",
            "--time=60",
            "--report-interval=1",
            "--output",
            out.to_str().unwrap(),
        ],
        libc::SIGINT,
        "[ 2s ]",
    );
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    assert!(text.contains("SQL statistics:"), "summary printed");
    let r = json(&out);
    assert_valid(&r);
    assert_eq!(r["run"]["interrupted_by"], "SIGINT");
    assert!(r["summary"]["events"].as_u64().unwrap() > 0);
    let t = r["summary"]["total_time_s"].as_f64().unwrap();
    assert!(t > 1.0 && t < 30.0, "total time {t}");
}

/// `args` on a private server `srv` (over its socket, as root).
fn on_private(srv: &PrivateMariadb, args: &[&str]) -> Vec<String> {
    let mut a: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    a.extend(srv.socket_options());
    a
}

/// Run dbpress with `args`, kill its sessions on `srv` once its threads have started (so a
/// slow set-up never meets the kill), and wait for it: the output and all of stdout.
fn killed_while_running(srv: &PrivateMariadb, args: &[String]) -> (std::process::Output, String) {
    let mut child = spawn(&strs(args));
    let (reader, text) = stdout_until(&mut child, "Threads started!");
    assert!(
        srv.kill_sbtest_sessions() >= 2,
        "no dbpress sessions to kill"
    );
    finish(child, reader, text)
}

/// On a MariaDB of the test's own: its sessions are killed by the server's administrator.
#[test]
fn lost_connections_reconnect_when_ignorable_and_stop_the_run_otherwise() {
    let Some(srv) = PrivateMariadb::start("lost-connections") else {
        return;
    };
    let o = dbpress(&strs(&on_private(
        &srv,
        &["oltp_read_write", "prepare", "--table-size=1000"],
    )));
    assert!(o.status.success(), "{}", stderr(&o));
    let dir = scratch("reconnect");
    let out = dir.join("r.json");

    let run = on_private(
        &srv,
        &[
            "oltp_read_write",
            "run",
            "--table-size=1000",
            "--threads=2",
            "--time=4",
            // The default list (two writers can deadlock) plus the lost-connection codes.
            "--mysql-ignore-errors=1213,1020,1205,1927,2013,2006",
            "--output",
            out.to_str().unwrap(),
        ],
    );
    let (o, text) = killed_while_running(&srv, &run);
    assert!(o.status.success(), "{}", stderr(&o));
    let r = json(&out);
    assert!(
        r["summary"]["reconnects"].as_u64().unwrap() >= 2,
        "each worker reconnects: {}",
        r["summary"]
    );
    // Work went on after the reconnect: the last interval still has events.
    let last = r["intervals"]
        .as_array()
        .unwrap()
        .iter()
        .rev()
        .find(|i| i["duration_s"].as_f64().unwrap() > 0.5)
        .unwrap();
    assert!(
        last["events"].as_u64().unwrap() > 0,
        "no events after reconnecting: {last}"
    );
    assert!(text.contains("reconnects:"), "{text}");

    // With the default ignore list a lost connection ends the run, with the fix in the message.
    let run = on_private(
        &srv,
        &[
            "oltp_read_write",
            "run",
            "--table-size=1000",
            "--threads=2",
            "--time=4",
        ],
    );
    let (o, _) = killed_while_running(&srv, &run);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("the connection was lost; add"),
        "{}",
        stderr(&o)
    );
    assert_one_clean_line(&o);
}

const TEST_CA: &str = "/etc/mysql/dbpress-tls/ca.pem";

/// The TLS version a session negotiated, as the server reports it ("" when not TLS).
fn ssl_version(flags: &[&str]) -> Result<String, String> {
    let mut c = session(flags)?;
    let rows = c
        .query_rows("SHOW SESSION STATUS LIKE 'Ssl_version'")
        .map_err(|e| e.to_string())?;
    Ok(rows
        .first()
        .and_then(|r| r.get(1).cloned().flatten())
        .unwrap_or_default())
}

#[test]
fn tls_modes_encrypt_and_verify_the_server() {
    let Some(_srv) = server("tls") else { return };
    if !std::path::Path::new(TEST_CA).exists() {
        if std::env::var("CI").is_ok_and(|v| v == "true" || v == "1") {
            panic!("{TEST_CA} missing: scripts/services.sh sets up the test CA");
        }
        eprintln!("SKIPPED tls: {TEST_CA} missing; run scripts/services.sh");
        return;
    }
    let tcp = ["--mysql-host=127.0.0.1", "--mysql-port=3306"];
    let ca = format!("--mysql-ssl-ca={TEST_CA}");
    for mode in ["required", "preferred", "verify_ca", "verify_identity"] {
        let ssl = format!("--mysql-ssl={mode}");
        let v = ssl_version(&[tcp[0], tcp[1], &ssl, &ca]).unwrap();
        assert!(
            v.starts_with("TLSv1"),
            "--mysql-ssl={mode} negotiated '{v}'"
        );
    }
    // Plain TCP is plain.
    assert_eq!(ssl_version(&tcp).unwrap(), "");
    // Verification is real: a CA that did not sign the server's certificate is refused.
    let wrong_ca = "--mysql-ssl-ca=/etc/mysql/dbpress-tls/server-cert.pem";
    for mode in ["verify_ca", "verify_identity"] {
        let ssl = format!("--mysql-ssl={mode}");
        let e = ssl_version(&[tcp[0], tcp[1], &ssl, wrong_ca]).unwrap_err();
        assert!(
            e.contains("TLS handshake with TCP 127.0.0.1:3306 failed"),
            "{mode}: {e}"
        );
    }
    // The whole tool works over TLS and says so in the header.
    let o = dbpress(&args(
        &["oltp_point_select", "prepare"],
        &["--table-size=100"],
    ));
    assert!(o.status.success());
    let o = dbpress(&[
        "oltp_point_select",
        "run",
        "--mysql-host=127.0.0.1",
        "--mysql-port=3306",
        "--mysql-user=sbtest",
        "--mysql-password=sbtest",
        "--mysql-ssl=verify_identity",
        &ca,
        "--table-size=100",
        "--time=1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("TLS verify_identity"), "{}", stdout(&o));
    // ... and which protocol the session negotiated, read back from the server.
    assert!(
        stdout(&o).contains("encrypted with TLSv1"),
        "{}",
        stdout(&o)
    );
    // Over the socket no TLS is negotiated, whatever the mode: a plain session, said plainly.
    let o = dbpress(&args(
        &["oltp_point_select", "run"],
        &[
            "--mysql-ssl=required",
            "--table-size=100",
            "--time=0",
            "--events=100",
        ],
    ));
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("TLS not used over a Unix socket"), "{out}");
    assert!(!out.contains("encrypted"), "{out}");
    assert!(
        out.contains("transactions:                        100 "),
        "{out}"
    );
}

#[test]
fn rate_beyond_capacity_reports_lag_and_late_events_and_keeps_running() {
    let Some(_srv) = server("rate_behind") else {
        return;
    };
    let o = dbpress(&args(
        &["oltp_read_write", "prepare"],
        &["--table-size=1000"],
    ));
    assert!(o.status.success(), "{}", stderr(&o));
    let dir = scratch("rate-behind");
    let out = dir.join("r.json");
    // One thread cannot do 100 000 read-write transactions a second: the schedule falls behind.
    let o = dbpress(&args(
        &["oltp_read_write", "run"],
        &[
            "--table-size=1000",
            "--rate=100000",
            "--time=3",
            "--report-interval=1",
            "--output",
            out.to_str().unwrap(),
        ],
    ));
    assert!(
        o.status.success(),
        "sysbench would abort with a full queue; dbpress goes on: {}",
        stderr(&o)
    );
    let r = json(&out);
    let s = &r["summary"];
    assert!(s["late_events"].as_u64().unwrap() > 0);
    assert!(s["max_lag_ms"].as_f64().unwrap() > 100.0, "{s}");
    // Response time (from the intended start) includes the wait; service time does not.
    assert!(
        s["latency"]["p50_ms"].as_f64().unwrap()
            > 10.0 * s["service_time"]["p50_ms"].as_f64().unwrap(),
        "{s}"
    );
    let text = stdout(&o);
    assert!(text.contains("behind schedule: lag"), "{text}");
    assert!(text.contains("Response vs service time under --rate=100000"));
}

/// Issue 34 item 12 included: a world-writable ~/.my.cnf is ignored.
#[test]
fn issue_34_password_from_mysql_pwd_and_my_cnf_and_never_shown() {
    let Some(_srv) = server("password_sources") else {
        return;
    };
    let o = dbpress(&args(
        &["oltp_point_select", "prepare"],
        &["--table-size=100"],
    ));
    assert!(o.status.success());
    let base = [
        "oltp_point_select",
        "run",
        "--mysql-socket",
        SOCKET,
        "--mysql-user=sbtest",
        "--table-size=100",
        "--time=1",
    ];
    // MYSQL_PWD, as libmysqlclient reads it.
    let o = Command::new(bin())
        .args(base)
        .env("MYSQL_PWD", "sbtest")
        .env("HOME", "/nonexistent")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    // [client] password= in ~/.my.cnf.
    let home = scratch("mycnf-home");
    std::fs::write(home.join(".my.cnf"), "[client]\npassword=sbtest\n").unwrap();
    let o = Command::new(bin())
        .args(base)
        .env_remove("MYSQL_PWD")
        .env("HOME", &home)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    // Issue 34 item 12: the same file, world-writable, is ignored with the mysql client's
    // warning (so the login has no password and fails).
    use std::os::unix::fs::PermissionsExt as _;
    let mode = |m: u32| {
        std::fs::set_permissions(home.join(".my.cnf"), std::fs::Permissions::from_mode(m)).unwrap()
    };
    mode(0o666);
    let o = Command::new(bin())
        .args(base)
        .env_remove("MYSQL_PWD")
        .env("HOME", &home)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("World-writable config file") && stderr(&o).contains("is ignored"),
        "{}",
        stderr(&o)
    );
    mode(0o644);
    // A wrong one from the file fails as authentication, without echoing it.
    std::fs::write(home.join(".my.cnf"), "[client]\npassword=Wr0ngFromFile\n").unwrap();
    let o = Command::new(bin())
        .args(base)
        .env_remove("MYSQL_PWD")
        .env("HOME", &home)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("authentication failed"),
        "{}",
        stderr(&o)
    );
    assert!(!stderr(&o).contains("Wr0ngFromFile") && !stdout(&o).contains("Wr0ngFromFile"));
}

#[test]
fn sigterm_stops_cleanly_with_exit_143() {
    let Some(_srv) = server("sigterm") else {
        return;
    };
    let o = dbpress(&args(
        &["oltp_point_select", "prepare"],
        &["--table-size=100"],
    ));
    assert!(o.status.success());
    let dir = scratch("sigterm");
    let out = dir.join("r.json");
    let (o, text) = run_then_signal(
        &[
            "--table-size=100",
            "--time=60",
            "--output",
            out.to_str().unwrap(),
        ],
        libc::SIGTERM,
        "Threads started!",
    );
    assert_eq!(o.status.code(), Some(143), "{}", stderr(&o));
    let r = json(&out);
    assert_eq!(r["run"]["interrupted_by"], "SIGTERM");
    assert!(text.contains("Interrupted by SIGTERM"), "{text}");
}

#[test]
fn bulk_insert_rows_equal_events_and_inserts_are_counted_by_the_server() {
    let Some(mut srv) = server("bulk_insert") else {
        return;
    };
    let o = dbpress(&args(&["bulk_insert", "prepare"], &["--threads=2"]));
    assert!(o.status.success(), "{}", stderr(&o));
    let dir = scratch("bulk");
    let out = dir.join("r.json");
    let before = srv.com();
    let o = dbpress(&args(
        &["bulk_insert", "run"],
        &[
            "--threads=2",
            "--time=0",
            "--events=100000",
            "--output",
            out.to_str().unwrap(),
        ],
    ));
    assert!(o.status.success(), "{}", stderr(&o));
    let after = srv.com();
    let r = json(&out);
    assert_eq!(r["summary"]["events"], 100_000);
    use mysql::prelude::Queryable;
    let rows: u64 = srv
        .conn
        .query_first("SELECT (SELECT COUNT(*) FROM sbtest1) + (SELECT COUNT(*) FROM sbtest2)")
        .unwrap()
        .unwrap();
    assert_eq!(rows, 100_000, "every event is one row");
    let inserts = after["Com_insert"] - before["Com_insert"];
    assert_eq!(r["summary"]["writes"].as_u64().unwrap(), inserts);
    // The last partial INSERT each thread sends when it stops is in the statement table too.
    let per_statement: u64 = r["statements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|st| st["count"].as_u64().unwrap())
        .sum();
    assert_eq!(per_statement, inserts);
    // 100 000 rows of "(n,n)," are about 1.3 MB: at least 3 ~512 KiB statements, and at
    // most one more partial one per thread (how the events split between threads varies).
    assert!(
        (3..=6).contains(&inserts),
        "rows go in ~512 KiB statements: {inserts}"
    );
    let o = dbpress(&args(&["bulk_insert", "cleanup"], &["--threads=2"]));
    assert!(o.status.success());
    assert!(srv.tables().is_empty());
}

#[test]
fn check_and_run_report_a_table_left_half_loaded_by_an_interrupted_prepare() {
    let Some(_srv) = server("half_loaded") else {
        return;
    };
    // A load big enough to interrupt midway.
    let child = Command::new(bin())
        .args(args(
            &["oltp_read_write", "prepare"],
            &["--tables=2", "--table-size=3000000", "--threads=2"],
        ))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    send_signal(&child, libc::SIGKILL);
    let _ = child.wait_with_output();
    let o = dbpress(&args(
        &["oltp_read_write", "check"],
        &["--tables=2", "--table-size=3000000"],
    ));
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("sbtest1: left half-loaded by an interrupted prepare"),
        "{}",
        stdout(&o)
    );
    assert!(
        stderr(&o).contains("2 of 2 tables are not as prepare leaves them"),
        "{}",
        stderr(&o)
    );
    assert_one_clean_line(&o);
    let o = dbpress(&args(
        &["oltp_read_write", "run"],
        &["--tables=2", "--table-size=3000000", "--time=1"],
    ));
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("was left half-loaded by an interrupted prepare: run `dbpress oltp_read_write --mysql-socket=/run/mysqld/mysqld.sock --mysql-user=sbtest --mysql-password=*** --mysql-db=sbtest cleanup --tables=2`"), "{}", stderr(&o));

    // After a clean prepare, check passes and prewarm reads every table.
    assert!(
        dbpress(&args(&["oltp_read_write", "cleanup"], &["--tables=2"]))
            .status
            .success()
    );
    let o = dbpress(&args(
        &["oltp_read_write", "prepare"],
        &["--tables=2", "--table-size=500"],
    ));
    assert!(o.status.success());
    let o = dbpress(&args(
        &["oltp_read_write", "check"],
        &["--tables=2", "--table-size=500"],
    ));
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    assert!(
        stdout(&o).contains("sbtest2: ok (500 rows, ids 1..500, index k_2)"),
        "{}",
        stdout(&o)
    );
    // A table that lost rows is reported with numbers.
    use mysql::prelude::Queryable;
    let mut c = sbtest_session();
    c.query_drop("DELETE FROM sbtest2 WHERE id > 490").unwrap();
    let o = dbpress(&args(
        &["oltp_read_write", "check"],
        &["--tables=2", "--table-size=500"],
    ));
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stdout(&o).contains("sbtest2: 490 rows, expected 500; ids 1..490, expected 1..500"),
        "{}",
        stdout(&o)
    );
    // Prewarm reads every row left, by key and by a scan, as the server counts next-row reads.
    let rows_read = |c: &mut mysql::Conn| -> u64 {
        c.query_first(
            "SELECT SUM(VARIABLE_VALUE) FROM information_schema.GLOBAL_STATUS \
             WHERE VARIABLE_NAME IN ('HANDLER_READ_NEXT', 'HANDLER_READ_RND_NEXT')",
        )
        .unwrap()
        .unwrap()
    };
    let before = rows_read(&mut c);
    let o = dbpress(&args(
        &["oltp_read_write", "prewarm"],
        &["--tables=2", "--table-size=500"],
    ));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("Prewarming table sbtest2"));
    let read = rows_read(&mut c) - before;
    assert!(read >= 2 * (500 + 490), "{read} rows read");
}

fn checksum(srv: &mut Server, table: &str) -> u64 {
    use mysql::prelude::Queryable;
    let row: (String, u64) = srv
        .conn
        .query_first(format!("CHECKSUM TABLE {table}"))
        .unwrap()
        .unwrap();
    row.1
}

#[test]
fn prepare_loads_the_same_rows_by_any_path_and_thread_count() {
    let Some(mut srv) = server("prepare_paths") else {
        return;
    };
    // 120 000 rows = 3 blocks, loaded by 3 threads in parallel within one table.
    let o = dbpress(&args(
        &["oltp_read_write", "prepare"],
        &["--table-size=120000", "--threads=3"],
    ));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("with prepared multi-row INSERTs"),
        "{}",
        stdout(&o)
    );
    let parallel = checksum(&mut srv, "sbtest1");
    assert!(dbpress(&args(&["oltp_read_write", "cleanup"], &[]))
        .status
        .success());

    // Without prepared statements the rows go as text INSERTs, and they are the same rows.
    let o = dbpress(&args(
        &["oltp_read_write", "prepare"],
        &["--table-size=120000", "--threads=1", "--db-ps-mode=disable"],
    ));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("with multi-row INSERTs"),
        "{}",
        stdout(&o)
    );
    assert_eq!(
        checksum(&mut srv, "sbtest1"),
        parallel,
        "same rows whatever the path and --threads"
    );
    let o = dbpress(&args(
        &["oltp_read_write", "check"],
        &["--table-size=120000"],
    ));
    assert!(o.status.success(), "{}", stdout(&o));
}

#[test]
fn reinsert_id_new_lets_the_server_assign_ids_and_same_keeps_the_table() {
    let Some(mut srv) = server("reinsert_id") else {
        return;
    };
    use mysql::prelude::Queryable;
    let o = dbpress(&args(
        &["oltp_write_only", "prepare"],
        &["--table-size=1000"],
    ));
    assert!(o.status.success(), "{}", stderr(&o));
    let max_id = |srv: &mut Server| -> u64 {
        srv.conn
            .query_first("SELECT MAX(id) FROM sbtest1")
            .unwrap()
            .unwrap()
    };
    let count = |srv: &mut Server| -> u64 {
        srv.conn
            .query_first("SELECT COUNT(*) FROM sbtest1")
            .unwrap()
            .unwrap()
    };
    // sysbench's way: the deleted id comes back, the table stays 1..1000.
    let o = dbpress(&args(
        &["oltp_write_only", "run"],
        &["--table-size=1000", "--time=0", "--events=300"],
    ));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("re-insert the deleted id (--reinsert-id=same"));
    assert_eq!((max_id(&mut srv), count(&mut srv)), (1000, 1000));
    // The variant: each insert gets a new AUTO_INCREMENT id past the end of the table.
    let o = dbpress(&args(
        &["oltp_write_only", "run"],
        &[
            "--table-size=1000",
            "--time=0",
            "--events=300",
            "--reinsert-id=new",
        ],
    ));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("insert with a new AUTO_INCREMENT id (--reinsert-id=new)"));
    assert!(
        max_id(&mut srv) >= 1300,
        "new ids: max id {}",
        max_id(&mut srv)
    );
}

/// A plain session on MariaDB asks for cached result metadata, as libmariadb (and so sysbench)
/// does: an unchanged prepared SELECT comes back without its column definitions, and a changed
/// one (after ALTER TABLE) comes back with them and still parses.
#[test]
fn prepared_results_skip_unchanged_metadata() {
    let Some(_srv) = server("metadata") else {
        return;
    };
    use dbpress_driver::Value;
    let mut c = socket_session();
    c.query("DROP TABLE IF EXISTS dbpress_metadata_probe")
        .unwrap();
    c.query("CREATE TABLE dbpress_metadata_probe (id INT PRIMARY KEY, c CHAR(3))")
        .unwrap();
    c.query("INSERT INTO dbpress_metadata_probe VALUES (1, 'abc')")
        .unwrap();
    let stmt = c
        .prepare("SELECT * FROM dbpress_metadata_probe WHERE id = ?")
        .unwrap();
    let bytes_sent = |c: &mut Box<dyn dbpress_driver::Connection>| -> i64 {
        let rows = c
            .query_rows("SHOW SESSION STATUS LIKE 'Bytes_sent'")
            .unwrap();
        rows[0][1].clone().unwrap().parse().unwrap()
    };
    // Bytes the server sent for one execute (plus one SHOW STATUS, the same in every window).
    let one_execute = |c: &mut Box<dyn dbpress_driver::Connection>| -> i64 {
        let before = bytes_sent(c);
        let kind = c.execute(stmt, &[Value::Int(1)]).unwrap();
        assert_eq!(kind, dbpress_driver::QueryKind::Read);
        bytes_sent(c) - before
    };
    one_execute(&mut c);
    let steady = one_execute(&mut c);
    let again = one_execute(&mut c);
    assert!(
        (again - steady).abs() <= 2,
        "steady executes: {steady} then {again} bytes"
    );
    c.query("ALTER TABLE dbpress_metadata_probe ADD COLUMN pad CHAR(5) NOT NULL DEFAULT 'x'")
        .unwrap();
    let after_alter = one_execute(&mut c);
    let steady_after = one_execute(&mut c);
    c.query("DROP TABLE dbpress_metadata_probe").unwrap();
    // Measured on 10.11: 256 bytes per steady window, 499 right after the ALTER, 259 after that.
    // A column definition of this table is over 40 bytes; the SHOW STATUS value may grow a digit.
    assert!(
        after_alter - steady_after > 3 * 40,
        "metadata was not resent after ALTER: {after_alter} then {steady_after}"
    );
    assert!(steady_after > steady, "the new column is in the rows");
}

/// The MySQL bulk path: prepared multi-row INSERTs sent ahead of the previous batch's answer.
/// Full batches, a short last batch and strings with every character text formats escape come
/// through intact; a failure in one batch (while the next is already on its way) rolls the whole
/// call back and leaves the session in step, with no statement left prepared. Text mode and a
/// TLS session load the same rows as text.
#[test]
fn bulk_load_pipelines_batches_and_fails_cleanly() {
    let Some(_srv) = server("bulk_load") else {
        return;
    };
    use dbpress_driver::RowBatch;
    let mut c = socket_session();
    let status = |c: &mut Box<dyn dbpress_driver::Connection>, name: &str| -> i64 {
        let rows = c
            .query_rows(&format!("SHOW SESSION STATUS LIKE '{name}'"))
            .unwrap();
        rows[0][1].clone().unwrap().parse().unwrap()
    };
    c.query("DROP TABLE IF EXISTS dbpress_bulk_probe").unwrap();
    c.query("CREATE TABLE dbpress_bulk_probe (id INT PRIMARY KEY, s VARCHAR(40))")
        .unwrap();
    let odd = b"tab\there\\ 'quote' \"dq\" nl\ncr\r".to_vec();
    // 4 500 rows: two full batches of 2 000 and a short one of 500.
    let load = |c: &mut Box<dyn dbpress_driver::Connection>| {
        let mut next = 1i64;
        let mut fill = |b: &mut RowBatch| -> bool {
            while !b.is_full() && next <= 4500 {
                b.int(next);
                b.str(if next == 4321 { &odd } else { b"plain" });
                next += 1;
            }
            next <= 4500
        };
        c.bulk_load("dbpress_bulk_probe", "id, s", &mut fill)
    };
    let (prepared, closed) = (
        status(&mut c, "Com_stmt_prepare"),
        status(&mut c, "Com_stmt_close"),
    );
    assert_eq!(load(&mut c).unwrap(), "prepared multi-row INSERTs");
    let rows = c
        .query_rows("SELECT COUNT(*), MIN(id), MAX(id) FROM dbpress_bulk_probe")
        .unwrap();
    assert_eq!(
        rows[0],
        [Some("4500".into()), Some("1".into()), Some("4500".into())]
    );
    let rows = c
        .query_rows("SELECT s FROM dbpress_bulk_probe WHERE id = 4321")
        .unwrap();
    assert_eq!(rows[0][0].as_deref().map(str::as_bytes), Some(&odd[..]));
    // The full-size statement and the short batch's: both prepared, both closed.
    assert_eq!(status(&mut c, "Com_stmt_prepare") - prepared, 2);
    assert_eq!(status(&mut c, "Com_stmt_close") - closed, 2);

    // Now the first batch hits an existing id while the second is already sent.
    c.query("DELETE FROM dbpress_bulk_probe WHERE id <> 10")
        .unwrap();
    let e = load(&mut c).unwrap_err();
    assert_eq!(e.kind, dbpress_driver::DbErrorKind::DuplicateKey, "{e}");
    let rows = c
        .query_rows("SELECT COUNT(*) FROM dbpress_bulk_probe")
        .unwrap();
    assert_eq!(
        rows[0][0].as_deref(),
        Some("1"),
        "the failed call left no rows"
    );
    assert_eq!(
        status(&mut c, "Com_stmt_prepare") - prepared,
        status(&mut c, "Com_stmt_close") - closed,
        "every statement closed"
    );

    // Text mode (--db-ps-mode=disable) sends the batches as text, pipelined the same way; a
    // TLS session takes the same pipelined prepared path as the socket, through TLS. Each
    // escapes as the session reads strings, and loads the same rows.
    let mut others = vec![(
        session_in_mode(&["--mysql-socket", SOCKET], dbpress_config::PsMode::Disable).unwrap(),
        "multi-row INSERTs",
    )];
    // scripts/services.sh makes the test CA: in CI the TLS half always runs.
    let ci = std::env::var("CI").is_ok_and(|v| v == "true" || v == "1");
    assert!(
        std::path::Path::new(TEST_CA).exists() || !ci,
        "{TEST_CA} missing: scripts/services.sh sets up the test CA"
    );
    if std::path::Path::new(TEST_CA).exists() {
        let ca = format!("--mysql-ssl-ca={TEST_CA}");
        let tls = ["--mysql-host=127.0.0.1", "--mysql-port=3306"];
        others.push((
            session(&[tls[0], tls[1], "--mysql-ssl=required", &ca]).unwrap(),
            "prepared multi-row INSERTs",
        ));
    }
    for (mut other, path) in others {
        other.query("DELETE FROM dbpress_bulk_probe").unwrap();
        assert_eq!(load(&mut other).unwrap(), path);
        let rows = other
            .query_rows("SELECT COUNT(*), SUM(LENGTH(s)) FROM dbpress_bulk_probe")
            .unwrap();
        let plain = 4499 * 5 + odd.len();
        assert_eq!(
            rows[0],
            [Some("4500".into()), Some(plain.to_string())],
            "every row, every byte"
        );
        let rows = other
            .query_rows("SELECT s FROM dbpress_bulk_probe WHERE id = 4321")
            .unwrap();
        assert_eq!(rows[0][0].as_deref().map(str::as_bytes), Some(&odd[..]));
    }
    c.query("DROP TABLE dbpress_bulk_probe").unwrap();
}

/// ASCII strings are loaded as binary parameters only where that stores the same characters:
/// not into UTF-16 columns, and never non-ASCII text (which latin1 must receive converted).
#[test]
fn bulk_load_stores_strings_as_characters_in_any_charset() {
    let Some(_srv) = server("bulk_load_charsets") else {
        return;
    };
    use dbpress_driver::RowBatch;
    let mut c = socket_session();
    let load = |c: &mut Box<dyn dbpress_driver::Connection>, table: &str, s: &str| {
        let mut done = false;
        let mut fill = |b: &mut RowBatch| -> bool {
            for id in 1..=3 {
                b.int(id);
                b.str(s.as_bytes());
            }
            done = true;
            false
        };
        c.bulk_load(table, "id, s", &mut fill).unwrap();
        assert!(done);
        c.query_rows(&format!(
            "SELECT COUNT(*), SUM(s = '{s}'), MIN(CHAR_LENGTH(s)) FROM {table}"
        ))
        .unwrap()
    };
    for (charset, text) in [
        ("utf8mb4", "plain ascii"),
        ("utf8mb4", "ÿ snowman ☃"),
        ("latin1", "plain ascii"),
        ("latin1", "café"),
        ("utf16", "plain ascii"),
        ("ucs2", "odd"),
        ("utf32", "plain ascii"),
    ] {
        c.query("DROP TABLE IF EXISTS dbpress_bulk_cs").unwrap();
        c.query(&format!(
            "CREATE TABLE dbpress_bulk_cs (id INT PRIMARY KEY, s VARCHAR(40) CHARACTER SET {charset})"
        ))
        .unwrap();
        let chars = text.chars().count().to_string();
        assert_eq!(
            load(&mut c, "dbpress_bulk_cs", text)[0],
            [Some("3".into()), Some("3".into()), Some(chars)],
            "{text:?} into a {charset} column"
        );
    }
    c.query("DROP TABLE dbpress_bulk_cs").unwrap();
}

/// A plain session of dbpress's own MySQL client over the test server's socket.
fn socket_session() -> Box<dyn dbpress_driver::Connection> {
    session(&["--mysql-socket", SOCKET]).unwrap()
}

/// A session as dbpress opens it for a run with these connection options (user sbtest).
fn session(flags: &[&str]) -> Result<Box<dyn dbpress_driver::Connection>, String> {
    session_in_mode(flags, dbpress_config::PsMode::Auto)
}

/// `session` with a prepared-statement mode (`--db-ps-mode`).
fn session_in_mode(
    flags: &[&str],
    ps_mode: dbpress_config::PsMode,
) -> Result<Box<dyn dbpress_driver::Connection>, String> {
    use dbpress_driver::{mysql::MysqlDriver, Driver};
    let mut argv: Vec<String> = [
        "oltp_point_select",
        "run",
        "--mysql-user=sbtest",
        "--mysql-password=sbtest",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    argv.extend(flags.iter().map(|s| s.to_string()));
    let (_, _, opts) = dbpress::cli::parse_workload(&argv).unwrap();
    let target = dbpress_config::mysql_target::from_options(&opts).map_err(|e| e.to_string())?;
    MysqlDriver::new(target, ps_mode)?
        .connect(0)
        .map_err(|e| e.to_string())
}

/// Voluntary context switches of the calling thread so far.
fn voluntary_switches() -> i64 {
    // SAFETY: getrusage fills the struct we own.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    assert_eq!(unsafe { libc::getrusage(libc::RUSAGE_THREAD, &mut u) }, 0);
    u.ru_nvcsw
}

/// Waiting for a response over a Unix socket sleeps once per query, not twice: a thread blocked
/// in recv() was also woken when the server read the request (the socket turned writable),
/// which doubled the context switches and cost throughput on a 2-core machine.
#[test]
fn a_query_over_the_socket_sleeps_once() {
    let Some(_srv) = server("one_sleep_per_query") else {
        return;
    };
    let mut c = socket_session();
    let queries = 2000;
    let before = voluntary_switches();
    for _ in 0..queries {
        c.query("DO 1").unwrap();
    }
    let per_query = (voluntary_switches() - before) as f64 / f64::from(queries);
    // At most one sleep per query (fewer when the response is already there); it was 2.0.
    assert!(
        per_query < 1.3,
        "{per_query:.2} voluntary context switches per query"
    );
}

/// Integers go as 4-byte INT when they fit and as BIGINT when not; a statement whose values
/// cross that line between executes re-sends its parameter types, so every value arrives intact.
#[test]
fn prepared_integers_switch_width_without_losing_values() {
    let Some(_srv) = server("integer_width") else {
        return;
    };
    use dbpress_driver::Value;
    let mut c = socket_session();
    c.query("DROP TABLE IF EXISTS dbpress_width_probe").unwrap();
    c.query("CREATE TABLE dbpress_width_probe (n INT PRIMARY KEY AUTO_INCREMENT, v BIGINT)")
        .unwrap();
    let insert = c
        .prepare("INSERT INTO dbpress_width_probe (v) VALUES (?)")
        .unwrap();
    let values = [
        7i64,
        5_000_000_000,
        -3,
        i64::from(i32::MIN),
        i64::from(i32::MAX) + 1,
        -9_000_000_000_000,
        0,
    ];
    for v in values {
        c.execute(insert, &[Value::Int(v)]).unwrap();
    }
    let rows = c
        .query_rows("SELECT v FROM dbpress_width_probe ORDER BY n")
        .unwrap();
    c.query("DROP TABLE dbpress_width_probe").unwrap();
    let got: Vec<i64> = rows
        .iter()
        .map(|r| r[0].as_deref().unwrap().parse().unwrap())
        .collect();
    assert_eq!(got, values);
}

/// On a MariaDB of the test's own with accounts: a read-only account made for the test.
#[test]
fn issue_2_a_user_without_write_privilege_is_told_to_grant_it() {
    let Some(srv) = PrivateMariadb::start_with_grants("missing-privilege") else {
        return;
    };
    let size = ["--tables=1", "--table-size=100"];
    let o = dbpress(&strs(&on_private(
        &srv,
        &["oltp_read_write", "prepare", size[0], size[1]],
    )));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(srv.sql(
        "CREATE USER 'sbtest_ro'@'localhost' IDENTIFIED BY 'ro'; \
         GRANT SELECT ON sbtest.* TO 'sbtest_ro'@'localhost'",
    ));
    let socket = format!("--mysql-socket={}", srv.socket.display());
    let o = dbpress(&[
        "oltp_read_write",
        "run",
        &socket,
        "--mysql-user=sbtest_ro",
        "--mysql-password=ro",
        "--mysql-db=sbtest",
        "--tables=1",
        "--table-size=100",
        "--time=1",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_one_clean_line(&o);
    let err = stderr(&o);
    assert!(
        err.contains("for lack of privilege (server error 114"),
        "{err}"
    );
    assert!(
        err.contains(
            "GRANT CREATE, DROP, INDEX, SELECT, INSERT, UPDATE, DELETE ON <database>.* TO <user>"
        ),
        "{err}"
    );
    assert!(!err.contains("cannot open a session"), "{err}");
}

/// An account authenticated by MariaDB's ed25519 plugin made dbpress panic inside the `mysql`
/// crate (built without its ed25519 support); dbpress's own client now signs the scramble
/// itself, over TCP, TLS and the socket alike.
#[test]
fn issue_2_an_ed25519_account_logs_in_without_a_panic() {
    // A MariaDB of the test's own with accounts: the plugin and the accounts never reach the
    // shared server.
    let Some(srv) = PrivateMariadb::start_with_grants("ed25519") else {
        return;
    };
    assert!(srv.sql("INSTALL SONAME 'auth_ed25519'"));
    let users = ["'dbpress_ed'@'localhost'", "'dbpress_ed'@'%'"];
    for u in users {
        assert!(
            srv.sql(&format!(
                "CREATE USER {u} IDENTIFIED VIA ed25519 USING PASSWORD('ed pw'); \
                 GRANT ALL ON sbtest.* TO {u}"
            )),
            "could not create {u}"
        );
    }
    let o = dbpress(&strs(&on_private(
        &srv,
        &["oltp_point_select", "prepare", "--table-size=100"],
    )));
    assert!(o.status.success(), "{}", stderr(&o));
    let ca = format!("--mysql-ssl-ca={TEST_CA}");
    let port = format!("--mysql-port={}", srv.port);
    let socket = format!("--mysql-socket={}", srv.socket.display());
    let transports: [&[&str]; 3] = [
        &["--mysql-host=127.0.0.1", &port],
        &[
            "--mysql-host=127.0.0.1",
            &port,
            "--mysql-ssl=verify_ca",
            &ca,
        ],
        &[&socket],
    ];
    for t in transports {
        let run = |password: &str| {
            let mut a = vec![
                "oltp_point_select",
                "run",
                "--mysql-user=dbpress_ed",
                password,
                "--mysql-db=sbtest",
                "--table-size=100",
                "--time=0",
                "--events=50",
            ];
            a.extend_from_slice(t);
            dbpress(&a)
        };
        let o = run("--mysql-password=ed pw");
        assert!(o.status.success(), "{t:?}: {}", stderr(&o));
        assert!(
            stdout(&o).contains("transactions:                        50 "),
            "{t:?}: {}",
            stdout(&o)
        );
        let o = run("--mysql-password=wrong");
        assert_eq!(o.status.code(), Some(2), "{t:?}: {}", stderr(&o));
        assert_one_clean_line(&o);
        assert!(
            stderr(&o).contains("authentication failed (server error 1045"),
            "{t:?}: {}",
            stderr(&o)
        );
    }
}

#[test]
fn a_run_past_the_prepared_ids_warns_and_a_matching_run_sends_no_extra_select() {
    // The largest id comes from SHOW TABLE STATUS (Auto_increment), so Com_select still counts
    // exactly the workload's SELECTs; only a table that looks short there is confirmed with a
    // SELECT (MySQL 8 may list statistics up to a day old).
    let Some(mut srv) = server("short_tables_warning") else {
        return;
    };
    let o = dbpress(&args(
        &["oltp_point_select", "prepare"],
        &["--tables=2", "--table-size=300"],
    ));
    assert!(o.status.success(), "{}", stderr(&o));
    let run = |size: &str| {
        let size = format!("--table-size={size}");
        dbpress(&args(
            &["oltp_point_select", "run"],
            &["--tables=2", &size, "--time=0", "--events=100"],
        ))
    };
    let before = srv.com();
    let o = run("1000");
    let after = srv.com();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(
            "warning: --table-size=1000 but 2 tables hold fewer ids ('sbtest1' only up to 300)"
        ),
        "{}",
        stderr(&o)
    );
    assert_eq!(delta(&before, &after, "Com_select"), 100 + 2);
    let before = srv.com();
    let o = run("300");
    let after = srv.com();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stderr(&o).contains("warning"), "{}", stderr(&o));
    assert_eq!(delta(&before, &after, "Com_select"), 100);
    let o = dbpress(&args(&["oltp_point_select", "cleanup"], &["--tables=2"]));
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn issue_3_the_header_says_text_sql_exactly_when_the_server_prepares_nothing() {
    let Some(mut srv) = server("header_statement_form") else {
        return;
    };
    let size = ["--table-size=1000"];
    let o = dbpress(&args(&["oltp_point_select", "prepare"], &size));
    assert!(o.status.success(), "{}", stderr(&o));
    for (workload, header) in [
        ("oltp", "statements: text SQL, as sysbench 0.5's oltp.lua"),
        (
            "oltp_insert",
            "statements: text SQL, as sysbench's oltp_insert",
        ),
        ("oltp_read_write", "statements: server-side prepared"),
    ] {
        let before = srv.com();
        let o = dbpress(&args(
            &[workload, "run"],
            &["--table-size=1000", "--time=0", "--events=50"],
        ));
        assert!(o.status.success(), "{workload}: {}", stderr(&o));
        let after = srv.com();
        assert!(stdout(&o).contains(header), "{workload}: {}", stdout(&o));
        let prepared = delta(&before, &after, "Com_stmt_prepare");
        if header.contains("text SQL") {
            assert_eq!(prepared, 0, "{workload} prepared statements");
        } else {
            assert!(prepared > 0, "{workload} prepared nothing");
        }
    }
    let o = dbpress(&args(&["oltp_point_select", "cleanup"], &[]));
    assert!(o.status.success(), "{}", stderr(&o));
}

/// Prepare `workload` with `size`, run it with `flags` writing a JSON result, and return the
/// run's output and its result (checked against the schema); the test cleans up.
fn prepared_run(
    workload: &str,
    size: &str,
    flags: &[&str],
    name: &str,
) -> (std::process::Output, serde_json::Value) {
    let o = dbpress(&args(&[workload, "prepare"], &[size]));
    assert!(o.status.success(), "{}", stderr(&o));
    let out = scratch(name).join("r.json");
    let mut run_flags = vec![size, "--output", out.to_str().unwrap()];
    run_flags.extend_from_slice(flags);
    let o = dbpress(&args(&[workload, "run"], &run_flags));
    assert!(o.status.success(), "{}", stderr(&o));
    let r = json(&out);
    assert_valid(&r);
    (o, r)
}

#[test]
fn the_report_sets_the_servers_own_counters_beside_dbpress_figures() {
    let Some(_srv) = server("server_counters") else {
        return;
    };
    // A tiny table at 16 threads: deadlocks are likely, and whatever their number the
    // server's counts must exceed dbpress's by exactly the failed statements and the ROLLBACK
    // sent after each.
    let (o, r) = prepared_run(
        "oltp_write_only",
        "--table-size=50",
        &["--threads=16", "--time=0", "--events=3000"],
        "server-counters",
    );
    let c = &r["server_counters"];
    assert_eq!(c["unavailable"], serde_json::Value::Null, "{c}");
    let errors = r["summary"]["errors"].as_u64().unwrap();
    let check = |what: &str| {
        let ch = c["checks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|ch| ch["what"] == what)
            .unwrap_or_else(|| panic!("no {what} check: {c}"));
        (
            ch["server"].as_u64().unwrap(),
            ch["dbpress"].as_u64().unwrap(),
        )
    };
    let (server_reads, reads) = check("reads");
    assert_eq!((server_reads, reads), (0, 0));
    // dbpress's own counts include the statements of failed attempts that went through.
    let (server_writes, writes) = check("writes");
    assert!(writes >= 3000 * 4);
    assert_eq!(server_writes, writes + errors, "errors {errors}");
    let (server_other, other) = check("other");
    assert!(other >= 3000 * 2);
    assert_eq!(server_other, other + errors, "errors {errors}");
    let (server_total, total) = check("total");
    assert_eq!(total, reads + writes + other);
    assert_eq!(server_total, total + 2 * errors, "errors {errors}");
    assert_eq!(c["deltas"]["Com_rollback"].as_u64().unwrap(), errors);
    assert_eq!(c["deltas"]["Com_commit"].as_u64().unwrap(), 3000);
    let text = stdout(&o);
    assert!(
        text.contains("Server counters over the run (SHOW GLOBAL STATUS"),
        "{text}"
    );
    let verdict = match errors {
        0 => "equal".to_string(),
        n => format!("the server counted +{n}"),
    };
    assert!(
        text.contains(&format!(
            "other:  dbpress {other}, server {server_other} (Com_begin + Com_commit"
        )) && text.contains(&verdict),
        "{text}"
    );

    // Without errors the figures are equal, and the report says so.
    let o = dbpress(&args(
        &["oltp_read_write", "run"],
        &["--table-size=50", "--time=0", "--events=200"],
    ));
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains("reads:  dbpress 2800, server 2800 (Com_select): equal"),
        "{text}"
    );
    let o = dbpress(&args(&["oltp_write_only", "cleanup"], &[]));
    assert!(o.status.success(), "{}", stderr(&o));
}

/// A restart starts every status counter again from zero: the report says the counters cannot be
/// compared instead of setting meaningless deltas beside dbpress's counts. The server restarted
/// is a MariaDB of the test's own.
#[test]
fn issue_2_a_server_restart_during_the_run_leaves_its_counters_not_comparable() {
    let Some(mut srv) = PrivateMariadb::start("restart") else {
        return;
    };
    let o = run_on(
        &srv,
        &["oltp_point_select", "prepare"],
        &["--table-size=1000"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let dir = scratch("restart");
    let out = dir.join("r.json");
    let a = on(
        &srv,
        &["oltp_point_select", "run"],
        &[
            "--table-size=1000",
            "--threads=2",
            "--time=120",
            "--report-interval=1",
            "--mysql-ignore-errors=all",
            "--output",
            out.to_str().unwrap(),
        ],
    );
    let mut child = spawn(&strs(&a));
    // After the first measured second, however long the set-up took.
    let (mut reader, mut text) = stdout_until(&mut child, "[ 1s ]");
    srv.restart();
    // Let the workers reconnect and run on the new server: an interval wholly after the
    // restart (the second one printed since) with events.
    let mut intervals = 0;
    loop {
        let line = next_line(&mut reader, &mut text);
        let Some((_, rest)) = line.split_once(" tps: ") else {
            continue;
        };
        intervals += 1;
        let tps: f64 = rest.split_whitespace().next().unwrap().parse().unwrap();
        if intervals >= 2 && tps > 0.0 {
            break;
        }
    }
    send_signal(&child, libc::SIGINT);
    let (o, text) = finish(child, reader, text);
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    let r = json(&out);
    assert_valid(&r);
    assert!(r["summary"]["reconnects"].as_u64().unwrap() >= 1);
    let c = &r["server_counters"];
    // Found by the server's start time moving, or (a restart within the second) by a counter
    // going down: either way named as a restart.
    let why = c["not_comparable"].as_str().unwrap_or_default();
    assert!(
        why.contains("restarted") && why.contains("are not set against dbpress's"),
        "{c}"
    );
    assert_eq!(c["deltas"], serde_json::json!({}), "{c}");
    assert_eq!(c["checks"], serde_json::json!([]), "{c}");
    assert!(
        text.contains(&format!("): not comparable: {why}")),
        "{text}"
    );
}

/// oltp_delete keeps deleting ids whose row an earlier event removed: such a DELETE is a write
/// to the server (Com_delete) and "other" to dbpress, as to sysbench. The total agrees and a note
/// says how many.
#[test]
fn deletes_that_found_no_row_are_other_and_the_counters_say_why() {
    let Some(_srv) = server("zero_row_writes") else {
        return;
    };
    let (o, r) = prepared_run(
        "oltp_delete",
        "--table-size=100",
        &["--time=0", "--events=300"],
        "zero-row-writes",
    );
    let c = &r["server_counters"];
    assert_eq!(c["deltas"]["Com_delete"], 300, "{c}");
    let (writes, other) = (
        r["summary"]["writes"].as_u64().unwrap(),
        r["summary"]["other"].as_u64().unwrap(),
    );
    // 300 uniform draws over 100 ids find at most 100 rows.
    assert_eq!(writes + other, 300);
    assert!(writes <= 100 && other >= 200, "{writes} {other}");
    let total = c["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|ch| ch["what"] == "total")
        .unwrap_or_else(|| panic!("{c}"));
    assert_eq!(
        (&total["server"], &total["dbpress"]),
        (&300.into(), &300.into())
    );
    let note = format!("{other} writes changed no row");
    assert!(
        c["notes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n.as_str().unwrap().starts_with(&note)),
        "{c}"
    );
    assert!(
        stdout(&o).contains("    total:  dbpress 300, server 300 (every counter above): equal\n")
    );
    let o = dbpress(&args(&["oltp_delete", "cleanup"], &[]));
    assert!(o.status.success(), "{}", stderr(&o));
}

/// The server's counters are read before the warm-up: dbpress counts what the warm-up ran too,
/// so its figures still equal the server's and the per-event column is still the mix.
#[test]
fn issue_2_with_a_warm_up_the_server_counters_still_equal_dbpress_figures() {
    let Some(_srv) = server("warmup_counters") else {
        return;
    };
    let (o, r) = prepared_run(
        "oltp_read_only",
        "--table-size=1000",
        &["--threads=2", "--warmup-time=1", "--time=1"],
        "warmup-counters",
    );
    let c = &r["server_counters"];
    let warm = c["warmup"]["events"].as_u64().unwrap();
    let events = r["summary"]["events"].as_u64().unwrap();
    assert!(warm > 0 && events > 0, "{c}");
    // Every event, warm-up or measured, is BEGIN, 14 SELECTs, COMMIT.
    assert_eq!(c["deltas"]["Com_select"], 14 * (warm + events), "{c}");
    assert_eq!(c["deltas"]["Com_begin"], warm + events, "{c}");
    for check in c["checks"].as_array().unwrap() {
        assert_eq!(check["server"], check["dbpress"], "{check}");
    }
    let text = stdout(&o);
    let select_line = text
        .lines()
        .find(|l| l.trim_start().starts_with("Com_select "))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(select_line.ends_with(" 14.000"), "{select_line}");
    assert!(text.contains(&format!(
        "Note: the 1s warm-up ran inside this window: dbpress's figures here (and the per-event column) include its {warm} events"
    )));
    let o = dbpress(&args(&["oltp_read_only", "cleanup"], &[]));
    assert!(o.status.success(), "{}", stderr(&o));
}

/// A global read lock held for 3 s in the middle of a write run: dbpress's intervals fall to
/// zero while the server executes nothing, and the throughput section says where.
#[test]
fn a_write_stall_is_found_in_the_intervals_and_placed_in_time() {
    // The global read lock is taken on a MariaDB of the test's own, never the shared one.
    let Some(srv) = PrivateMariadb::start("write-stall") else {
        return;
    };
    let o = dbpress(&strs(&on_private(
        &srv,
        &["oltp_write_only", "prepare", "--table-size=1000"],
    )));
    assert!(o.status.success(), "{}", stderr(&o));
    let out = scratch("write-stall").join("r.json");
    let mut child = spawn(&strs(&on_private(
        &srv,
        &[
            "oltp_write_only",
            "run",
            "--table-size=1000",
            "--threads=4",
            "--time=8",
            "--report-interval=1",
            "--output",
            out.to_str().unwrap(),
        ],
    )));
    // The lock starts after the first whole interval, however long the set-up took on a busy
    // machine.
    let (stdout_lines, text) = stdout_until(&mut child, "[ 1s ]");
    let locked = srv.sql("FLUSH TABLES WITH READ LOCK; DO SLEEP(3); UNLOCK TABLES");
    let (o, text) = finish(child, stdout_lines, text);
    assert!(locked, "the lock session failed");
    assert!(o.status.success(), "{}", stderr(&o));
    let r = json(&out);
    assert_valid(&r);
    let t = &r["throughput"];
    let stalled = t["stalled_intervals"].as_u64().unwrap();
    // 3 s of lock cover at least two whole 1-s intervals, whatever the phase.
    assert!((2..=4).contains(&stalled), "{t}");
    assert_eq!(t["stall_count"], 1, "{t}");
    let (from, to) = (
        t["stalls"][0]["from_s"].as_f64().unwrap(),
        t["stalls"][0]["to_s"].as_f64().unwrap(),
    );
    assert!(from >= 1.0 && to - from > 1.9, "{t}");
    assert_eq!(t["min_eps"].as_f64(), Some(0.0));
    assert!(t["median_eps"].as_f64().unwrap() > 0.0, "{t}");
    // What the machine's CPUs did meanwhile is kept beside the stretch, and its shares add up
    // to the machine's CPUs.
    let c = &t["stall_host_cpu"];
    let sum: f64 = ["user", "system", "iowait", "steal", "idle"]
        .iter()
        .map(|k| c[k].as_f64().unwrap())
        .sum();
    let cpus = r["host_usage"]["cpus"].as_f64().unwrap();
    assert!((sum - cpus).abs() < 0.01, "{c} vs {cpus} CPUs");
    // And the data's disk, wherever /proc/diskstats lists it (the test's own look-up, not
    // dbpress's): a lock, not a flush, so it said so.
    if disk_of(&srv.dir.join("data")).is_some() {
        let d = &t["stall_disk"];
        assert!((0.0..=1.0).contains(&d["busy"].as_f64().unwrap()), "{d}");
        assert!(
            text.contains("\n    the disk during the stalls: busy "),
            "{text}"
        );
    }
    // The intervals the stretch covers are the ones with no events.
    let zero: Vec<f64> = r["intervals"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["events"] == 0 && i["closing"] == false)
        .map(|i| i["time_s"].as_f64().unwrap())
        .collect();
    assert_eq!(zero.len() as u64, stalled);
    assert!(
        zero.iter().all(|&x| x > from && x <= to + 1e-9),
        "{zero:?} {t}"
    );
    let line = format!(
        "stalls (intervals in which no event finished): {stalled} of {}, in 1 stretch: {from:.0}s to {to:.0}s\n",
        t["intervals"]
    );
    assert!(text.contains(&line), "{line}\n{text}");
    assert!(
        text.contains("    the machine's CPUs during the stalls: busy "),
        "{text}"
    );
    // Issue 33: the page's latency chart shades the stall as the events chart does.
    let o = dbpress(&["report", out.to_str().unwrap(), "--output-format=html"]);
    let page = stdout(&o);
    let latency = &page[page
        .find("<figcaption>Event latency per interval, ms (stalls shaded)</figcaption>")
        .expect("the latency chart")..];
    let latency = &latency[..latency.find("</figure>").unwrap()];
    assert!(
        latency.contains("<title>no event finished from"),
        "{latency}"
    );
}

/// "Double 1" against "double 0": two runs differing only in a server setting, compared. The
/// setting is named among the differences (read from each result's server variables), with
/// nothing else listed, and the throughput table has one row. The setting is changed on a
/// MariaDB of the test's own (the shared one is never reconfigured).
#[test]
fn compare_names_the_server_setting_that_differed() {
    let Some(srv) = crate::private_server::PrivateMariadb::start("compare-setting") else {
        return;
    };
    let conn = srv.socket_options();
    let args = |head: &[&str], tail: &[&str]| -> Vec<String> {
        let mut v: Vec<String> = head.iter().map(|s| s.to_string()).collect();
        v.extend(conn.iter().cloned());
        v.extend(tail.iter().map(|s| s.to_string()));
        v
    };
    let dbpress = |a: Vec<String>| dbpress(&a.iter().map(String::as_str).collect::<Vec<_>>());
    let o = dbpress(args(
        &["oltp_write_only", "prepare"],
        &["--table-size=1000"],
    ));
    assert!(o.status.success(), "{}", stderr(&o));
    let dir = scratch("compare-setting");
    let mut files = Vec::new();
    for (name, flush) in [("double1", "1"), ("flush2", "2")] {
        assert!(srv.sql(&format!(
            "SET GLOBAL innodb_flush_log_at_trx_commit = {flush}"
        )));
        let out = dir.join(format!("{name}.json"));
        let out_arg = format!("--output={}", out.display());
        let o = dbpress(args(
            &["oltp_write_only", "run"],
            &["--table-size=1000", "--time=1", &out_arg],
        ));
        assert!(o.status.success(), "{}", stderr(&o));
        files.push(out.to_str().unwrap().to_string());
    }
    let o = dbpress(vec![
        "compare".into(),
        files[0].clone(),
        files[1].clone(),
        "--output-format=json".into(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let c: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let diffs = c["differences"].as_array().unwrap();
    assert_eq!(diffs.len(), 1, "{diffs:#?}");
    assert_eq!(
        diffs[0]["what"],
        "server variable innodb_flush_log_at_trx_commit"
    );
    assert_eq!(
        (diffs[0]["baseline"].as_str(), diffs[0]["value"].as_str()),
        (Some("1"), Some("2"))
    );
    let rows = c["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 1);
    assert!(rows[0]["cells"][1]["vs_baseline"]["tps"].as_f64().unwrap() > 0.0);
    // The server's CPU per transaction, measured from its process, side by side.
    for cell in rows[0]["cells"].as_array().unwrap() {
        assert!(cell["server_cpu_us"].as_f64().unwrap() > 0.0, "{cell}");
    }
    assert!(
        rows[0]["cells"][1]["vs_baseline"]["server_cpu_us"]
            .as_f64()
            .unwrap()
            > 0.0
    );
    // The disk's costs per transaction, from each result's own figures.
    for (cell, file) in rows[0]["cells"].as_array().unwrap().iter().zip(&files) {
        let r = json(std::path::Path::new(file));
        let h = &r["host_usage"];
        // Where the test itself finds the data's device, not where dbpress says it did.
        let measured = disk_of(&srv.dir.join("data")).is_some();
        assert_eq!(h["disk"].is_object(), measured, "{h}");
        if !measured {
            continue;
        }
        let per_event = |rate: &serde_json::Value| {
            rate.as_f64().unwrap() * h["seconds"].as_f64().unwrap()
                / r["summary"]["events"].as_f64().unwrap()
        };
        let kib = per_event(&h["disk"]["io"]["write_mib_s"]) * 1024.0;
        let got = cell["disk_kib_per_event"].as_f64().unwrap();
        assert!((got - kib).abs() <= 1e-9 * kib.max(1.0), "{cell} vs {kib}");
        if h["disk"]["io"]["flushes_s"].is_number() {
            let flushes = per_event(&h["disk"]["io"]["flushes_s"]);
            let got = cell["disk_flushes_per_event"].as_f64().unwrap();
            assert!((got - flushes).abs() <= 1e-9 * flushes.max(1.0), "{cell}");
        }
    }
    let o = dbpress(vec![
        "compare".into(),
        files[0].clone(),
        files[1].clone(),
        "--metrics=cpu,written,flushes".into(),
    ]);
    let text = stdout(&o);
    assert!(
        text.contains("server CPU per event, us (lower is better):\n"),
        "{text}"
    );
    assert!(
        text.contains("KiB written to the disk under the data per event:\n"),
        "{text}"
    );
    assert!(text.contains("disk cache flushes per event:\n"), "{text}");
    let o = dbpress(vec!["compare".into(), files[0].clone(), files[1].clone()]);
    assert!(
        stdout(&o).contains("    flush2   server variable innodb_flush_log_at_trx_commit: 1 → 2\n")
    );
}

/// The CPU section names the server's own process, found through the session's socket: over
/// the Unix socket (the kernel's peer credentials) and over TCP (the server's end of the
/// connection in /proc/net), the pid is the one the server writes in its pid file, and its CPU
/// and dbpress's add up to no more than the machine was busy.
#[test]
fn the_servers_cpu_is_read_from_its_own_process_over_a_socket_and_over_tcp() {
    let Some(mut srv) = server("server_cpu") else {
        return;
    };
    use mysql::prelude::Queryable;
    let pid_file: String = srv.conn.query_first("SELECT @@pid_file").unwrap().unwrap();
    let server_pid: u64 = std::fs::read_to_string(&pid_file)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let o = dbpress(&args(
        &["oltp_point_select", "prepare"],
        &["--table-size=1000"],
    ));
    assert!(o.status.success(), "{}", stderr(&o));
    let dir = scratch("server-cpu");
    for (name, target) in [
        ("socket", ["--mysql-socket", SOCKET]),
        ("tcp", ["--mysql-host=127.0.0.1", "--mysql-port=3306"]),
    ] {
        let out = dir.join(format!("{name}.json"));
        let o = dbpress(&[
            "oltp_point_select",
            "run",
            target[0],
            target[1],
            "--mysql-user=sbtest",
            "--mysql-password=sbtest",
            "--table-size=1000",
            "--threads=2",
            "--time=2",
            "--output",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        let r = json(&out);
        assert_valid(&r);
        let h = &r["host_usage"];
        let server = &h["server"];
        assert_eq!(server["pid"].as_u64(), Some(server_pid), "{name}: {h}");
        assert!(
            matches!(server["name"].as_str(), Some("mariadbd" | "mysqld")),
            "{name}: {h}"
        );
        let cpus =
            |v: &serde_json::Value| v["user"].as_f64().unwrap() + v["system"].as_f64().unwrap();
        // Both answered 2 s of point selects: each used CPU, and together no more than the
        // machine had busy (a tick of rounding aside).
        assert!(
            cpus(server) > 0.0 && cpus(&h["dbpress"]) > 0.0,
            "{name}: {h}"
        );
        assert!(
            cpus(server) + cpus(&h["dbpress"]) <= cpus(&h["host"]) + 0.05,
            "{name}: {h}"
        );
        let text = stdout(&o);
        let line = format!(
            "): {}, pid {server_pid}\n",
            server["name"].as_str().unwrap()
        );
        assert!(text.contains(&line), "{name}: {line}\n{text}");
        // The server's CPU per event is its CPUs over the measured time, per event.
        let per_event = cpus(server) * h["seconds"].as_f64().unwrap()
            / r["summary"]["events"].as_f64().unwrap()
            * 1e6;
        let line = format!("    CPU per event: server {per_event:.1} us (");
        assert!(text.contains(&line), "{name}: {line}\n{text}");
    }
    let o = dbpress(&args(&["oltp_point_select", "cleanup"], &[]));
    assert!(o.status.success(), "{}", stderr(&o));
}

/// The disk section is the device under the server's data directory (@@datadir, as the server
/// says, not /proc's guess), with figures for every interval; the server's own fsyncs
/// (Innodb_data_fsyncs, which MariaDB 10.8+ counts the redo log's in) reached it as writes,
/// and the report sets its flushes and writes per event beside them.
#[test]
fn the_disk_is_the_one_under_the_servers_data_directory_and_took_its_fsyncs() {
    let Some(mut srv) = server("server_disk") else {
        return;
    };
    use mysql::prelude::Queryable;
    let datadir: String = srv.conn.query_first("SELECT @@datadir").unwrap().unwrap();
    // Enough rows for a prepare well over the 0.9 s that gets CPU figures: 200 000 rows took
    // 1.1 s on a busy machine and 0.85 s on a quiet one, so three times that.
    let o = dbpress(&args(
        &["oltp_write_only", "prepare"],
        &["--table-size=600000"],
    ));
    assert!(o.status.success(), "{}", stderr(&o));
    // The prepare says where its time went too: the server's process and the same disk.
    let line = stdout(&o)
        .lines()
        .find(|l| l.starts_with("Over the prepare (from /proc): CPUs busy "))
        .unwrap_or_else(|| panic!("no prepare line in {}", stdout(&o)))
        .to_string();
    assert!(line.contains(", of them server "), "{line}");
    if let Some(device) = disk_of(std::path::Path::new(&datadir)) {
        assert!(line.contains(&format!("; disk {device} ")), "{line}");
    }
    let out = scratch("server-disk").join("r.json");
    let (o, seen) = with_device_writes(std::path::Path::new(&datadir), || {
        dbpress(&args(
            &["oltp_write_only", "run"],
            &[
                "--table-size=1000",
                "--threads=2",
                "--time=2",
                "--report-interval=1",
                "--output",
                out.to_str().unwrap(),
            ],
        ))
    });
    assert!(o.status.success(), "{}", stderr(&o));
    let r = json(&out);
    assert_valid(&r);
    let deltas = &r["server_counters"]["deltas"];
    let fsyncs = ["Innodb_data_fsyncs", "Innodb_os_log_fsyncs"]
        .iter()
        .filter_map(|k| deltas[k].as_u64())
        .sum();
    assert_disk_under(&r, std::path::Path::new(&datadir), fsyncs, seen);
    let text = stdout(&o);
    if let Some(device) = r["host_usage"]["disk"]["device"].as_str() {
        let head = format!(
            "Disk under the data ({device}, holding {}; from /proc/diskstats, the whole device):\n",
            datadir.trim_end_matches('/')
        );
        assert!(text.contains(&head), "{head}\n{text}");
        assert!(text.contains("\n    per event: "), "{text}");
    }
    assert!(text.contains("    Innodb_data_fsyncs "), "{text}");
    // The buffer pool's page requests (each UPDATE, DELETE and INSERT touches the table's
    // pages), and the share it missed.
    let requests = deltas["Innodb_buffer_pool_read_requests"].as_u64().unwrap();
    let events = r["summary"]["events"].as_u64().unwrap();
    assert!(requests >= 4 * events, "{deltas}");
    assert!(
        text.contains("    buffer pool: ")
            && text.contains(&format!("% of {requests} page requests missed")),
        "{text}"
    );
    // The server's view of the run's two sessions, sampled during the run: exactly those two
    // at every sample (the sampler leaves its own out), in SHOW PROCESSLIST's words.
    let w = &r["server_waits"];
    assert_eq!(w["source"], "SHOW PROCESSLIST", "{w}");
    assert!(w["samples"].as_u64().unwrap() >= 5, "{w}");
    assert!(
        (w["sessions_avg"].as_f64().unwrap() - 2.0).abs() < 1e-9,
        "{w}"
    );
    let events = w["events"].as_array().unwrap();
    // Each sample is also tallied into the interval it was taken in: the intervals' waits add
    // up to the run's, two sessions per sample.
    let per_interval = interval_waits_adding_up(&r);
    assert!(per_interval.len() >= 2, "{}", r["intervals"]);
    assert!(per_interval.iter().all(|n| n % 2 == 0), "{per_interval:?}");
    let shares: f64 = events.iter().map(|e| e["share"].as_f64().unwrap()).sum();
    assert!((shares - 1.0).abs() < 1e-9, "{w}");
    assert!(
        events.iter().all(|e| {
            let name = e["event"].as_str().unwrap();
            name.starts_with("Execute: ")
                || name.starts_with("Query: ")
                || name.starts_with("Sleep")
        }),
        "{w}"
    );
    assert!(
        text.contains(
            "Server wait events of the run's sessions (SHOW PROCESSLIST, sampled every 100 ms: "
        ),
        "{text}"
    );
    // The page charts the disk per interval: a step per full interval.
    let o = dbpress(&["report", out.to_str().unwrap(), "--output-format=html"]);
    assert!(o.status.success(), "{}", stderr(&o));
    if r["host_usage"]["disk"].is_object() {
        let full = r["intervals"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|i| i["closing"] == false)
            .count();
        let html = stdout(&o);
        for title in ["requests per second", "share of the time"] {
            let title = format!("The disk under the data: {title}");
            assert_eq!(chart_steps(&html, &title), full);
        }
    }
    let o = dbpress(&args(&["oltp_write_only", "cleanup"], &[]));
    assert!(o.status.success(), "{}", stderr(&o));
}

/// `compare --metrics=miss,wait`: each result's buffer-pool miss share, from its own server
/// counters, and its sessions' most frequent wait, from its own samples, side by side.
#[test]
fn compare_sets_the_cache_misses_and_the_top_wait_side_by_side() {
    let Some(_srv) = server("compare-miss-wait") else {
        return;
    };
    let size = ["--table-size=2000"];
    let o = dbpress(&args(&["oltp_read_only", "prepare"], &size));
    assert!(o.status.success(), "{}", stderr(&o));
    let dir = scratch("compare-miss-wait");
    let result = |name: &str| {
        let out = dir.join(format!("{name}.json"));
        let o = dbpress(&args(
            &["oltp_read_only", "run"],
            &[
                "--table-size=2000",
                "--threads=2",
                "--time=2",
                "--output",
                out.to_str().unwrap(),
            ],
        ));
        assert!(o.status.success(), "{}", stderr(&o));
        out
    };
    let (a, b) = (result("a"), result("b"));
    let cmp = dir.join("cmp.json");
    let o = dbpress(&[
        "compare",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--metrics=miss,wait",
        &format!("--output={}", cmp.display()),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let c = json(&cmp);
    crate::compare::assert_valid(&c);
    let text = stdout(&o);
    assert!(
        text.contains("server cache misses, % of page requests (lower is better):\n    threads"),
        "{text}"
    );
    assert!(
        text.contains("most frequent server wait event of the run's sessions:"),
        "{text}"
    );
    for (k, file) in [a, b].iter().enumerate() {
        let r = json(file);
        let d = &r["server_counters"]["deltas"];
        let requests = d["Innodb_buffer_pool_read_requests"].as_f64().unwrap();
        let missed = d["Innodb_buffer_pool_reads"].as_f64().unwrap();
        let cell = &c["rows"][0]["cells"][k];
        let pct = cell["cache_miss_pct"].as_f64().unwrap();
        assert!((pct - 100.0 * missed / requests).abs() < 1e-9, "{cell}");
        assert_eq!(cell["top_wait"], r["server_waits"]["events"][0], "{cell}");
        let wait = r["server_waits"]["events"][0]["event"].as_str().unwrap();
        assert!(text.contains(wait), "{wait} not in {text}");
    }
    // Shares, not figures to divide: no ratio column in either table.
    assert!(!text.contains("vs base"), "{text}");
}
