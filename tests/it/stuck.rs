//! Issue 48: one stop signal ends a run even when every session is stuck. The server of the
//! test's own is stopped with SIGSTOP mid-run: its sockets stay open and nothing comes back,
//! to the run's sessions or to a new one, as behind a network cut that never heals. The first
//! SIGTERM, SIGINT or SIGHUP, or the end of --time, must end dbpress within its grace, with one
//! line naming the sessions left behind and a valid result file.

use crate::common::*;
use crate::export::assert_valid;
use crate::private_server::{PrivateMariadb, PrivatePostgres};
use std::path::Path;
use std::time::{Duration, Instant};

/// What a stop signal lets stuck sessions take (shutdown::GRACE_MIN_S).
const GRACE_S: f64 = 2.0;

/// How the run is ended while its server is stopped.
#[derive(Clone, Copy)]
enum Stop {
    Signal(i32, &'static str, i32),
    /// `--time` runs out.
    Time,
}

const STOPS: [Stop; 4] = [
    Stop::Signal(libc::SIGTERM, "SIGTERM", 143),
    Stop::Signal(libc::SIGINT, "SIGINT", 130),
    Stop::Signal(libc::SIGHUP, "SIGHUP", 129),
    Stop::Time,
];

/// Send `sig` to every process in `pids`.
fn signal_all(pids: &[i32], sig: i32) {
    for &pid in pids {
        // SAFETY: kill(2) on a server process this test started.
        unsafe { libc::kill(pid, sig) };
    }
}

/// Server processes stopped with SIGSTOP, let go on (SIGCONT) when dropped, whatever the test
/// does meanwhile: a stopped server would outlive the test and hold what it inherited.
struct Stopped(Vec<i32>);

impl Stopped {
    fn stop(pids: Vec<i32>) -> Stopped {
        signal_all(&pids, libc::SIGSTOP);
        Stopped(pids)
    }
}

impl Drop for Stopped {
    fn drop(&mut self) {
        signal_all(&self.0, libc::SIGCONT);
    }
}

/// The pid in the first line of a server's pid file.
fn pid_in(file: &Path) -> i32 {
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    text.lines().next().unwrap().trim().parse().unwrap()
}

/// `parent` and its children (a PostgreSQL postmaster and its backends).
fn with_children(parent: i32) -> Vec<i32> {
    let mut pids = vec![parent];
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<i32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // pid (comm) state ppid …: the command may hold spaces, so read after its ')'.
        let ppid = stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().nth(1))
            .and_then(|p| p.parse::<i32>().ok());
        if ppid == Some(parent) {
            pids.push(pid);
        }
    }
    pids
}

/// Wait for `child`, bounded only so that a dbpress that hangs fails the test instead of the
/// suite (the run itself states how long it waited).
fn wait_bounded(mut child: std::process::Child) -> std::process::Output {
    let t0 = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if t0.elapsed() > Duration::from_secs(90) {
            let _ = child.kill();
            let o = child.wait_with_output().unwrap();
            panic!(
                "dbpress did not end within 90 s of its stuck sessions: {}",
                stderr(&o)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// Run oltp_point_select over `conn`, stop the server (`pids()`, read once the run is going,
/// so PostgreSQL's backends are there) after the first interval, end the run as `stop` says,
/// then let the server go on. Checks the exit, the line and the result file.
fn stuck_run(conn: &[String], pids: &dyn Fn() -> Vec<i32>, stop: Stop, dir: &Path) {
    let file = dir.join("stuck.json");
    let _ = std::fs::remove_file(&file);
    let time = match stop {
        Stop::Signal(..) => "--time=600",
        Stop::Time => "--time=3",
    };
    let mut args = vec![
        "oltp_point_select",
        "run",
        "--table-size=1000",
        "--threads=2",
    ];
    args.extend(conn.iter().map(String::as_str));
    args.extend([
        "--report-interval=1",
        time,
        "--output",
        file.to_str().unwrap(),
    ]);
    let mut child = spawn(&args);
    let (mut lines, _) = stdout_until(&mut child, "[ 1s ]");
    let stopped = Stopped::stop(pids());
    // The next interval line comes from the reporter alone: by then every session is waiting.
    let mut text = String::new();
    while !text.contains("[ 2s ]") {
        use std::io::BufRead;
        assert!(lines.read_line(&mut text).unwrap() > 0, "{text}");
    }
    if let Stop::Signal(sig, ..) = stop {
        send_signal(&child, sig);
    }
    let o = wait_bounded(child);
    drop(stopped);
    let err = stderr(&o);
    let (code, after) = match stop {
        Stop::Signal(_, name, code) => (code, name),
        Stop::Time => (1, "end"),
    };
    assert_eq!(o.status.code(), Some(code), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    let said: Vec<&str> = err
        .lines()
        .filter(|l| l.contains("sessions were still waiting"))
        .collect();
    assert_eq!(said.len(), 1, "one line names the stuck sessions: {err}");
    assert!(said[0].contains("2 of 2 sessions"), "{err}");
    assert!(
        said[0].contains("the server did not answer a new session either"),
        "{err}"
    );
    if let Stop::Signal(_, name, _) = stop {
        assert!(
            said[0].starts_with(&format!("dbpress: interrupted by {name}: ")),
            "{err}"
        );
    }

    let r = json(&file);
    assert_valid(&r);
    let a = &r["run"]["abandoned"];
    assert_eq!(a["sessions"], 2, "{a}");
    assert_eq!(a["after"], after, "{a}");
    assert_eq!(a["server_answered"], false, "{a}");
    let waited = a["waited_s"].as_f64().unwrap();
    match stop {
        // The grace, and not much more: the run measures its own wait.
        Stop::Signal(..) => assert!((GRACE_S..GRACE_S * 2.0).contains(&waited), "{a}"),
        // Asked a second after the end, the server has the grace to answer.
        Stop::Time => {
            let asked = 1.0 + GRACE_S;
            assert!((asked..asked * 2.0).contains(&waited), "{a}");
        }
    }
    // What finished before the server stopped is the run, and adds up.
    let events = r["summary"]["events"].as_u64().unwrap();
    assert!(events > 0, "{}", r["summary"]);
    let total: u64 = r["intervals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["events"].as_u64().unwrap())
        .sum();
    assert_eq!(total, events, "the intervals add up to the summary");
    // The wait for the stuck sessions is not measured time.
    let measured = r["summary"]["total_time_s"].as_f64().unwrap();
    let intervals_end = r["intervals"].as_array().unwrap().last().unwrap()["time_s"]
        .as_f64()
        .unwrap();
    assert!(
        measured <= intervals_end + 0.01,
        "{measured} {intervals_end}"
    );
    if let Stop::Signal(_, name, _) = stop {
        assert_eq!(r["run"]["interrupted_by"], name);
    }
    let report = stdout(&dbpress(&["report", file.to_str().unwrap()]));
    assert!(
        report.contains(
            ": 2 of 2 sessions still waiting for the server's answer, left out of every figure"
        ),
        "{report}"
    );
}

#[test]
fn issue_48_one_signal_ends_a_run_whose_mariadb_sessions_are_stuck() {
    let Some(srv) = PrivateMariadb::start("stuck") else {
        return;
    };
    let conn = srv.socket_options();
    let mut prepare = vec!["oltp_point_select", "prepare", "--table-size=1000"];
    prepare.extend(conn.iter().map(String::as_str));
    let o = dbpress(&prepare);
    assert!(o.status.success(), "{}", stderr(&o));
    let dir = scratch("issue48-mariadb");
    let pid_file = srv.dir.join("mysqld.pid");
    for stop in STOPS {
        stuck_run(&conn, &|| vec![pid_in(&pid_file)], stop, &dir);
        // Going again: the next case needs a server that answers.
        assert!(srv.sql("SELECT 1"), "the server answers after SIGCONT");
    }
}

#[test]
fn issue_48_one_signal_ends_a_run_whose_postgresql_sessions_are_stuck() {
    let Some(srv) = PrivatePostgres::start("stuck") else {
        return;
    };
    let conn = srv.options();
    let mut prepare = vec!["oltp_point_select", "prepare", "--table-size=1000"];
    prepare.extend(conn.iter().map(String::as_str));
    let o = dbpress(&prepare);
    assert!(o.status.success(), "{}", stderr(&o));
    let dir = scratch("issue48-pgsql");
    let pid_file = srv.dir.join("data").join("postmaster.pid");
    for stop in STOPS {
        stuck_run(&conn, &|| with_children(pid_in(&pid_file)), stop, &dir);
        assert_eq!(
            srv.value("SELECT 1"),
            "1",
            "the server answers after SIGCONT"
        );
    }
}

/// Sessions waiting on a server that works (a table lock held by another session) are left
/// behind after a signal's grace too, and the line says the server answers.
#[test]
fn issue_48_sessions_waiting_for_a_lock_are_left_behind_after_a_signal() {
    let Some(srv) = PrivateMariadb::start("stuck-lock") else {
        return;
    };
    let conn = srv.socket_options();
    let mut prepare = vec!["oltp_point_select", "prepare", "--table-size=1000"];
    prepare.extend(conn.iter().map(String::as_str));
    let o = dbpress(&prepare);
    assert!(o.status.success(), "{}", stderr(&o));
    let file = scratch("issue48-lock").join("lock.json");
    let mut args = vec![
        "oltp_point_select",
        "run",
        "--table-size=1000",
        "--threads=2",
    ];
    args.extend(conn.iter().map(String::as_str));
    args.extend([
        "--report-interval=1",
        "--time=600",
        "--output",
        file.to_str().unwrap(),
    ]);
    let mut child = spawn(&args);
    let (_lines, _) = stdout_until(&mut child, "[ 1s ]");
    // A session of its own holds the lock until the test ends.
    let mut holder = std::process::Command::new("mariadb")
        .args(["--no-defaults", "-uroot", "-S"])
        .arg(&srv.socket)
        .args([
            "sbtest",
            "-e",
            "LOCK TABLES sbtest1 WRITE; SELECT SLEEP(120)",
        ])
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("the mariadb client runs");
    // Both sessions wait for the lock once the server lists them so.
    let t0 = Instant::now();
    while srv.value(
        "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE STATE LIKE 'Waiting for table%lock'",
    ) != "2"
    {
        assert!(t0.elapsed() < Duration::from_secs(60), "no session waits for the lock");
        std::thread::sleep(Duration::from_millis(50));
    }
    send_signal(&child, libc::SIGTERM);
    let o = wait_bounded(child);
    let _ = holder.kill();
    let _ = holder.wait();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(143), "{err}");
    assert!(
        err.contains("dbpress: interrupted by SIGTERM: 2 of 2 sessions were still waiting for the server's answer"),
        "{err}"
    );
    assert!(err.contains("the server answers new sessions"), "{err}");
    let r = json(&file);
    assert_valid(&r);
    assert_eq!(r["run"]["abandoned"]["server_answered"], true);
}

/// Issue 47 (L1): a second signal ends dbpress at once in the run and in the prepare too, not only
/// while connecting: sessions stuck on a stopped server, SIGTERM, then SIGINT within the grace.
/// No summary, no result file, 130.
#[test]
fn issue_47_a_second_signal_ends_a_stuck_run_or_prepare_at_once() {
    let Some(srv) = PrivateMariadb::start("second-signal") else {
        return;
    };
    let conn = srv.socket_options();
    let pid_file = srv.dir.join("mysqld.pid");
    let file = scratch("issue47-second").join("second.json");
    let _ = std::fs::remove_file(&file);
    let second_sigint = "dbpress: a second SIGINT: stopped at once; no summary was printed and no result file was written";
    let prepare = |size: &'static str| {
        let mut args = vec!["oltp_point_select", "prepare", size];
        args.extend(conn.iter().map(String::as_str));
        args
    };
    // The run: stopped server, a stop signal whose grace has not passed, then a second.
    let o = dbpress(&prepare("--table-size=1000"));
    assert!(o.status.success(), "{}", stderr(&o));
    let mut args = vec![
        "oltp_point_select",
        "run",
        "--table-size=1000",
        "--threads=2",
    ];
    args.extend(conn.iter().map(String::as_str));
    args.extend([
        "--report-interval=1",
        "--time=600",
        "--output",
        file.to_str().unwrap(),
    ]);
    let mut child = spawn(&args);
    let (_lines, _) = stdout_until(&mut child, "[ 1s ]");
    let stopped = Stopped::stop(vec![pid_in(&pid_file)]);
    send_signal_and_wait_taken(&child, libc::SIGTERM);
    send_signal(&child, libc::SIGINT);
    let o = wait_bounded(child);
    drop(stopped);
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    assert!(stderr(&o).contains(second_sigint), "{}", stderr(&o));
    assert!(!file.exists(), "a result file was written");
    let mut cleanup = vec!["oltp_point_select", "cleanup"];
    cleanup.extend(conn.iter().map(String::as_str));
    assert!(dbpress(&cleanup).status.success());

    // The prepare: its first table's load under way, the server stopped, two signals.
    let mut child = spawn(&prepare("--table-size=2000000"));
    let (_lines, _) = stdout_until(&mut child, "Inserting");
    let stopped = Stopped::stop(vec![pid_in(&pid_file)]);
    send_signal_and_wait_taken(&child, libc::SIGTERM);
    send_signal(&child, libc::SIGINT);
    let o = wait_bounded(child);
    drop(stopped);
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    assert!(stderr(&o).contains(second_sigint), "{}", stderr(&o));
}
