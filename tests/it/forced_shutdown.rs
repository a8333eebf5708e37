//! The end of a run whose events the server does not answer: `--forced-shutdown` ends it with
//! what finished (sysbench's report and exit code 2); without it dbpress waits and says why.
//! The server is made to hang by a table lock held from another session. Also
//! `--thread-init-timeout`, which bounds the set-up before the run starts.

use crate::common::*;
use crate::engines::{pg_server, PG_CONN};
use crate::export::assert_valid;
use std::process::Output;
use std::sync::mpsc;
use std::time::Duration;

/// Longest a test holds its lock: a dbpress that waited for the lock instead of shutting down
/// finishes normally after this, and the test fails on its exit code instead of hanging.
const LOCK_HELD_AT_MOST: Duration = Duration::from_secs(40);

/// Hold `lock` on the MariaDB test server from another session, taken `delay` after `f`
/// starts, until `f` returns or `hold` has passed.
fn mariadb_locked<T>(lock: &str, delay: Duration, hold: Duration, f: impl FnOnce() -> T) -> T {
    use mysql::prelude::Queryable;
    let lock = lock.to_string();
    let (done, wait) = mpsc::channel::<()>();
    let (locked, is_locked) = mpsc::channel::<()>();
    let holder = std::thread::spawn(move || {
        let mut c = sbtest_session();
        if wait.recv_timeout(delay).is_ok() {
            return;
        }
        c.query_drop(&lock).unwrap();
        let _ = locked.send(());
        let _ = wait.recv_timeout(hold);
        c.query_drop("UNLOCK TABLES").unwrap();
    });
    if delay.is_zero() {
        is_locked.recv().unwrap();
    }
    let r = f();
    let _ = done.send(());
    holder.join().unwrap();
    r
}

/// oltp_point_select's table, 1 000 rows, on the engine `conn` reaches.
fn prepare_small(conn: &[&str]) {
    let mut prepare = vec!["oltp_point_select", "prepare"];
    prepare.extend_from_slice(conn);
    prepare.push("--table-size=1000");
    let o = dbpress(&prepare);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// Another session on the test PostgreSQL, to hold a lock.
fn pg_session() -> postgres::Client {
    postgres::Client::connect(
        "host=/var/run/postgresql user=sbtest password=sbtest dbname=sbtest",
        postgres::NoTls,
    )
    .unwrap()
}

/// Run dbpress with `args` (which set `--report-interval=1`) and have `lock` take a lock from
/// another session once its first second has been reported (`[ 1s ]`: events have finished,
/// however long the set-up took; "Threads started!" comes before the workers go), so events
/// finish before it and hang after it; the unlock `lock` returns runs once dbpress has ended
/// (or after `LOCK_HELD_AT_MOST`, so a dbpress that waits for the lock ends and fails on its
/// exit code).
fn run_locked_after_start(args: &[&str], lock: impl FnOnce() -> Box<dyn FnOnce()>) -> Output {
    use std::io::Read;
    assert!(args.contains(&"--report-interval=1"));
    let mut child = spawn(args);
    let (mut reader, mut out) = stdout_until(&mut child, "[ 1s ]");
    let unlock = lock();
    // The rest of stdout is read meanwhile, so a full pipe cannot hold dbpress up.
    let rest = std::thread::spawn(move || {
        let mut rest = String::new();
        let _ = reader.read_to_string(&mut rest);
        rest
    });
    let t0 = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() && t0.elapsed() < LOCK_HELD_AT_MOST {
        std::thread::sleep(Duration::from_millis(20));
    }
    unlock();
    let mut o = child.wait_with_output().unwrap();
    out.push_str(&rest.join().unwrap());
    o.stdout = out.into_bytes();
    o
}

fn mariadb_args<'a>(tail: &[&'a str]) -> Vec<&'a str> {
    let mut v = vec!["oltp_point_select", "run"];
    v.extend_from_slice(CONN);
    v.extend_from_slice(tail);
    v
}

#[test]
fn forced_shutdown_ends_a_run_the_server_stopped_answering_with_sysbenchs_report() {
    let Some(mut srv) = server("forced_shutdown") else {
        return;
    };
    prepare_small(CONN);
    let dir = scratch("forced-shutdown");
    let file = dir.join("forced.json");

    // The lock comes once the run is going: events finish before it and hang after it.
    let args = mariadb_args(&[
        "--table-size=1000",
        "--threads=3",
        "--time=2",
        "--report-interval=1",
        "--forced-shutdown=1",
        "--output",
        file.to_str().unwrap(),
    ]);
    let o = run_locked_after_start(&args, || {
        use mysql::prelude::Queryable;
        let mut c = sbtest_session();
        c.query_drop("LOCK TABLES sbtest1 WRITE").unwrap();
        Box::new(move || c.query_drop("UNLOCK TABLES").unwrap())
    });
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(2), "{out}\n{}", stderr(&o));
    assert!(out.contains("Forcing shutdown in 3 seconds\n"), "{out}");
    let (before, report) = out
        .split_once("FATAL: The --max-time limit has expired, forcing shutdown...\n")
        .unwrap_or_else(|| panic!("no FATAL line: {out}"));
    assert!(before.contains("Threads started!"), "{out}");
    // sysbench's report, with its line on the unfinished events between its two blocks.
    assert!(
        report.contains(
            "    reconnects:                          0      (0.00 per sec.)\n\n\
             Number of unfinished transactions on forced shutdown: 3\n\n\
             General statistics:\n"
        ),
        "{report}"
    );
    let err = stderr(&o);
    assert!(
        err.contains("dbpress: forced shutdown: 3 of 3 threads were still inside an event 1 s after --time ended"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");

    let r = json(&file);
    assert_valid(&r);
    assert_eq!(r["run"]["forced_shutdown"]["unfinished"], 3);
    assert_eq!(r["run"]["forced_shutdown"]["grace_s"], 1.0);
    // What finished before the lock is the run; the hung events are in no figure.
    let events = r["summary"]["events"].as_u64().unwrap();
    assert!(events > 0, "{}", r["summary"]);
    assert_eq!(r["summary"]["latency"]["count"].as_u64(), Some(events));
    let total: u64 = r["intervals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["events"].as_u64().unwrap())
        .sum();
    assert_eq!(total, events, "the intervals add up to the summary");
    // sysbench's clock runs until the shutdown: --time plus the grace period.
    assert!(r["summary"]["total_time_s"].as_f64().unwrap() >= 3.0);
    assert!(r.get("server_counters").is_none() || r["server_counters"].is_null());
    let rep = dbpress(&["report", file.to_str().unwrap()]);
    assert!(
        stdout(&rep).contains("Number of unfinished transactions on forced shutdown: 3"),
        "{}",
        stdout(&rep)
    );

    // A sweep stops at the level that was cut short, with its table and file.
    let sweep_file = dir.join("sweep.json");
    let o = mariadb_locked(
        "LOCK TABLES sbtest1 WRITE",
        Duration::ZERO,
        LOCK_HELD_AT_MOST,
        || {
            dbpress(&mariadb_args(&[
                "--table-size=1000",
                "--threads=1,2",
                "--time=1",
                "--forced-shutdown=1",
                "--output",
                sweep_file.to_str().unwrap(),
            ]))
        },
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stdout(&o).contains("Thread sweep, oltp_point_select (2 levels):"));
    let s = json(&sweep_file);
    let steps = s["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 1, "{s}");
    assert_eq!(
        steps[0]["result"]["run"]["forced_shutdown"]["unfinished"],
        1
    );
    assert!(
        stderr(&o).contains("the sweep stops at this level"),
        "{}",
        stderr(&o)
    );
    drop(srv.tables());
}

#[test]
fn without_forced_shutdown_a_run_waits_for_the_server_and_says_what_it_waits_for() {
    let Some(_srv) = server("forced_shutdown_off") else {
        return;
    };
    prepare_small(CONN);
    // Held for 7 s from the start: the notice comes 5 s after the run's 1 s.
    let seven = Duration::from_secs(7);
    let o = mariadb_locked("LOCK TABLES sbtest1 WRITE", Duration::ZERO, seven, || {
        dbpress(&mariadb_args(&["--table-size=1000", "--time=1"]))
    });
    // It waited for the server's answer and then ended as usual.
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(
            "dbpress: notice: 1 of 1 threads are still inside an event 5 s after the run stopped"
        ),
        "{}",
        stderr(&o)
    );
    assert!(stderr(&o).contains("--forced-shutdown=N"));
}

#[test]
fn forced_shutdown_on_postgresql() {
    let Some((_guard, mut c)) = pg_server("forced_shutdown") else {
        return;
    };
    prepare_small(PG_CONN);
    // Taken once the run is going: reading the tables' size and preparing the statements
    // before the start would wait on the lock too, and no --time has begun then.
    let mut run = vec!["oltp_point_select", "run"];
    run.extend_from_slice(PG_CONN);
    run.extend_from_slice(&[
        "--table-size=1000",
        "--threads=2",
        "--time=2",
        "--report-interval=1",
        "--forced-shutdown=50%",
    ]);
    let o = run_locked_after_start(&run, || {
        let mut locker = pg_session();
        locker
            .batch_execute("BEGIN; LOCK TABLE sbtest1 IN ACCESS EXCLUSIVE MODE")
            .unwrap();
        Box::new(move || locker.batch_execute("ROLLBACK").unwrap())
    });
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("Forcing shutdown in 3 seconds\n"), "{out}");
    assert!(
        out.contains("Number of unfinished transactions on forced shutdown: 2\n"),
        "{out}"
    );
    assert!(
        !out.contains("    total number of events:              0\n"),
        "{out}"
    );
    // The sessions dbpress left waiting go once it has exited and the lock is released (a
    // backend waiting on a lock notices its client gone only then); the test's own session,
    // which asks, is untouched.
    let t0 = std::time::Instant::now();
    loop {
        let left: i64 = c
            .query_one(
                "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'dbpress'",
                &[],
            )
            .unwrap()
            .get(0);
        if left == 0 {
            break;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(30),
            "{left} dbpress sessions outlived dbpress"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn a_set_up_the_server_does_not_answer_ends_after_thread_init_timeout_in_one_line() {
    let Some((_guard, _c)) = pg_server("thread_init_timeout") else {
        return;
    };
    prepare_small(PG_CONN);
    // With the table locked before the run, reading its size waits on the lock: no --time
    // has begun, so only --thread-init-timeout ends the wait.
    let mut locker = pg_session();
    locker
        .batch_execute("BEGIN; LOCK TABLE sbtest1 IN ACCESS EXCLUSIVE MODE")
        .unwrap();
    let mut run = vec!["oltp_point_select", "run"];
    run.extend_from_slice(PG_CONN);
    run.extend_from_slice(&["--table-size=1000", "--time=1", "--thread-init-timeout=2"]);
    let o = dbpress(&run);
    locker.batch_execute("ROLLBACK").unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_one_clean_line(&o);
    assert!(
        stderr(&o).contains(
            "the run was not set up within --thread-init-timeout=2 s (still checking the tables)"
        ),
        "{}",
        stderr(&o)
    );
}
