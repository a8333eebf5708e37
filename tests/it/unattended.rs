//! Issue 34, "trust under faults": dbpress run unattended (from `timeout`, systemd, CI, an ssh
//! session) stops when told and never hangs on a server that does not answer. The servers here
//! are listeners this file starts itself: they accept a connection and never say anything.

use crate::common::*;
use std::net::{TcpListener, TcpStream};
use std::time::{Duration, Instant};

/// A TCP listener on 127.0.0.1 that accepts connections and never answers; the connections are
/// held open until the returned value is dropped with the test.
pub struct SilentServer {
    pub port: u16,
    /// One message per connection accepted: a client is then waiting for a greeting.
    pub accepted: std::sync::mpsc::Receiver<()>,
    _held: std::thread::JoinHandle<()>,
}

pub fn silent_server() -> SilentServer {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind a silent listener");
    let port = listener.local_addr().unwrap().port();
    let (tx, accepted) = std::sync::mpsc::channel();
    let held = std::thread::spawn(move || {
        let mut open: Vec<TcpStream> = Vec::new();
        for stream in listener.incoming().flatten() {
            open.push(stream);
            let _ = tx.send(());
        }
    });
    SilentServer {
        port,
        accepted,
        _held: held,
    }
}

/// Wait for `child` with a bound that only keeps a broken build from hanging the suite.
fn wait_bounded(mut child: std::process::Child) -> std::process::Output {
    let t0 = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if t0.elapsed() > Duration::from_secs(120) {
            let _ = child.kill();
            panic!("dbpress did not end within 120 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

/// Items 1, 18 and 19: while connecting to a server that never answers, the first SIGTERM (or
/// SIGHUP, or SIGINT) asks for a clean stop that this phase cannot act on; the second ends
/// dbpress at once, with one line saying what was skipped and 128 + the signal as exit code.
#[test]
fn issue_34_a_second_stop_signal_ends_dbpress_in_any_phase() {
    let server = silent_server();
    let port = format!("--mysql-port={}", server.port);
    for (first, second, code, word) in [
        (libc::SIGTERM, libc::SIGTERM, 143, "a second SIGTERM"),
        (libc::SIGHUP, libc::SIGHUP, 129, "a second SIGHUP"),
        (libc::SIGTERM, libc::SIGINT, 130, "a second SIGINT"),
    ] {
        let child = spawn(&[
            "oltp_point_select",
            "run",
            "--mysql-host=127.0.0.1",
            &port,
            "--mysql-user=sbtest",
            "--mysql-password=sbtest",
            "--mysql-connect-timeout=600",
            "--time=5",
        ]);
        // Once the silent server has its connection, dbpress waits for a greeting (and stays
        // there).
        server
            .accepted
            .recv_timeout(Duration::from_secs(60))
            .expect("dbpress connects");
        send_signal(&child, first);
        // Two of the same signal sent at once may arrive as one (standard signals do not
        // queue): the second follows once the first has surely been taken.
        std::thread::sleep(Duration::from_millis(300));
        send_signal(&child, second);
        let o = wait_bounded(child);
        assert_eq!(o.status.code(), Some(code), "{}", stderr(&o));
        let err = stderr(&o);
        assert!(
            err.contains(&format!("{word}: stopped at once; no summary was printed")),
            "{err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
}

/// Item 2: against a server that accepts the connection and never answers, every command that
/// connects gives up after the connect timeout, with one line naming the step that did not
/// answer and the setting that bounds it (exit 2), instead of hanging.
#[test]
fn issue_34_a_silent_server_is_named_after_the_connect_timeout() {
    let server = silent_server();
    let port = server.port.to_string();
    let mysql = [
        "--mysql-host=127.0.0.1",
        &format!("--mysql-port={port}"),
        "--mysql-connect-timeout=0.5",
    ];
    let mysql_said = "accepted the connection but sent no greeting within 0.5 s";
    for command in [
        &["oltp_point_select", "run", "--time=5"][..],
        &["oltp_point_select", "prepare"],
        &["oltp_point_select", "cleanup"],
        &["tpcc", "check"],
        &["slap", "--query=SELECT 1"],
    ] {
        let args: Vec<&str> = command.iter().chain(mysql.iter()).copied().collect();
        let o = dbpress(&args);
        assert_fails_with(&o, 2, mysql_said);
        assert!(stderr(&o).contains("--mysql-connect-timeout sets this limit"));
    }
    // The URL's connect_timeout, as libpq and the MySQL connectors spell it.
    let url = format!("--db=mysql://sbtest:sbtest@127.0.0.1:{port}/sbtest?connect_timeout=0.5");
    assert_fails_with(
        &dbpress(&["oltp_point_select", "run", &url, "--time=5"]),
        2,
        mysql_said,
    );
    // PostgreSQL: the option, and libpq's PGCONNECT_TIMEOUT.
    let pg_said =
        "accepted the connection but did not answer the startup and authentication within 0.5 s";
    let pg = [
        "--db-driver=pgsql",
        "--pgsql-host=127.0.0.1",
        &format!("--pgsql-port={port}"),
        "--pgsql-sslmode=disable",
    ];
    let args: Vec<&str> = [
        "oltp_point_select",
        "run",
        "--time=5",
        "--pgsql-connect-timeout=0.5",
    ]
    .iter()
    .chain(pg.iter())
    .copied()
    .collect();
    assert_fails_with(&dbpress(&args), 2, pg_said);
    let o = std::process::Command::new(bin())
        .args([
            "script",
            "run",
            "-c",
            "1",
            "-t",
            "5",
            "-h",
            "127.0.0.1",
            "-p",
            &port,
        ])
        .env("PGCONNECT_TIMEOUT", "0.5")
        .output()
        .unwrap();
    // sslmode=prefer (libpq's default) asks for TLS first: that is the step left unanswered.
    assert_fails_with(
        &o,
        2,
        "accepted the connection but did not finish the TLS request and handshake within 0.5 s",
    );
    assert!(
        stderr(&o).contains("PGCONNECT_TIMEOUT sets this limit"),
        "{}",
        stderr(&o)
    );
}

/// Item 4: a result file is replaced whole or not at all. Here the process may not write a file
/// past 4 KiB (RLIMIT_FSIZE: to the writer, a disk that is full): the new result cannot be
/// written, and the good one already there is left exactly as it was, with no temporary file
/// beside it. (Before: the target was truncated and 4 KiB of broken JSON left in its place.)
#[test]
fn issue_34_a_result_file_is_replaced_whole_or_not_at_all() {
    use std::os::unix::process::CommandExt as _;
    let dir = scratch("atomic-output");
    let out = dir.join("r.json");
    let output = format!("--output={}", out.display());
    let args = [
        "oltp_point_select",
        "run",
        "--mysql-dry-run",
        "--time=0",
        "--events=200",
        &output,
    ];
    let o = dbpress(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let good = std::fs::read(&out).unwrap();
    assert!(good.len() > 4096, "the result must outgrow the limit below");
    let mut cmd = std::process::Command::new(bin());
    cmd.args(args);
    // SAFETY: only async-signal-safe calls between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: 4096,
                rlim_max: 4096,
            };
            libc::setrlimit(libc::RLIMIT_FSIZE, &limit);
            // Past the limit a write fails with EFBIG instead of the process being killed.
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            Ok(())
        });
    }
    let o = cmd.output().unwrap();
    assert_fails_with(&o, 2, "cannot write the result file");
    assert_eq!(
        std::fs::read(&out).unwrap(),
        good,
        "the good result was changed"
    );
    let left: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != "r.json")
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}

/// Item 8: stdout closed before dbpress writes (`… | head` whose reader is gone) ends quietly
/// with 141 after the result file is written; stdout on a full disk is one line and exit 2.
/// (Before: a panic, exit 101, and no result file.)
#[test]
fn issue_34_a_closed_or_full_stdout_ends_cleanly() {
    let dir = scratch("closed-stdout");
    let out = dir.join("r.json");
    let output = format!("--output={}", out.display());
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let o = std::process::Command::new(bin())
        .args([
            "oltp_point_select",
            "run",
            "--mysql-dry-run",
            "--time=0",
            "--events=500",
            &output,
        ])
        .stdout(writer)
        .stderr(std::process::Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(141), "{}", stderr(&o));
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(saved["summary"]["events"], 500);

    // `report r.json` into a closed pipe, and into a full device.
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let o = std::process::Command::new(bin())
        .args(["report", out.to_str().unwrap()])
        .stdout(writer)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(141), "{}", stderr(&o));
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let o = std::process::Command::new(bin())
        .args(["report", out.to_str().unwrap()])
        .stdout(full)
        .stderr(std::process::Stdio::piped())
        .output()
        .unwrap();
    assert_fails_with(&o, 2, "cannot write to standard output");
}

/// Item 9: an argument that is not UTF-8 is refused in one line with exit 2 (before: a panic).
#[test]
fn issue_34_a_non_utf8_argument_is_one_clear_line() {
    use std::os::unix::ffi::OsStrExt as _;
    let bad = std::ffi::OsStr::from_bytes(b"--mysql-db=caf\xe9");
    let o = std::process::Command::new(bin())
        .arg("oltp_point_select")
        .arg("run")
        .arg(bad)
        .output()
        .unwrap();
    assert_fails_with(
        &o,
        2,
        "argument 3 ('--mysql-db=caf\u{fffd}') is not valid UTF-8",
    );
}

/// Item 21 (in part): `--percentile=0` turns percentiles off as in sysbench (the summary says
/// "percentile stats: disabled", interval lines 0.00), and help says 0 is accepted.
#[test]
fn issue_34_percentile_0_turns_percentiles_off() {
    let o = dbpress(&[
        "oltp_point_select",
        "run",
        "--mysql-dry-run",
        "--time=2",
        "--report-interval=1",
        "--percentile=0",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("percentile stats:               disabled"),
        "{out}"
    );
    assert!(out.contains("lat (ms,0%): 0.00 "), "{out}");
    let help = stdout(&dbpress(&["help", "oltp_point_select"]));
    assert!(help.contains("0 turns percentiles off"), "{help}");
}

/// Item 11: a password on the command line is overwritten in the process's argument memory
/// once read, so `ps` and /proc/PID/cmdline show x's while the run goes on; the run itself still
/// has it (here the dry run, which needs none, and the result file keeps `***`).
#[test]
fn issue_34_passwords_are_not_visible_in_ps() {
    let mut child = spawn(&[
        "oltp_point_select",
        "run",
        "--mysql-dry-run",
        "--time=3",
        "--mysql-password=Sup3rSecretPw",
        "--db=mysql://u:An0therSecret@127.0.0.1/db",
    ]);
    // Read while the run goes on, its options long read.
    let (_lines, _) = stdout_until(&mut child, "Threads started!");
    let cmdline = std::fs::read(format!("/proc/{}/cmdline", child.id())).unwrap();
    let shown = String::from_utf8_lossy(&cmdline).replace('\0', " ");
    let o = wait_bounded(child);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!shown.contains("Sup3rSecretPw"), "{shown}");
    assert!(!shown.contains("An0therSecret"), "{shown}");
    assert!(shown.contains("--mysql-password=xxxxxxxxxxxxx"), "{shown}");
    assert!(
        shown.contains("mysql://u:xxxxxxxxxxxxx@127.0.0.1/db"),
        "{shown}"
    );
}

fn table_exists(srv: &mut Server, table: &str) -> bool {
    use mysql::prelude::Queryable;
    let n: Option<u64> = srv
        .conn
        .query_first(format!(
            "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 'sbtest' AND table_name = '{table}'"
        ))
        .unwrap();
    n == Some(1)
}

/// Item 10: slap drops the tables its --create made on every path: when a later --create
/// statement fails, when a --pre-query fails, and when a --post-query fails — which no longer
/// throws the measured round away (it is reported and saved; the failure is one more line, and
/// the exit code 1).
#[test]
fn issue_34_slap_drops_what_it_created_on_every_path() {
    let Some(mut srv) = server("slap-drops") else {
        return;
    };
    let flags = [
        "-usbtest",
        "-psbtest",
        "-S",
        SOCKET,
        "--create-schema=sbtest",
    ];
    let slap = |extra: &[&str]| {
        let mut a = vec!["slap"];
        a.extend(flags);
        a.extend(extra);
        dbpress(&a)
    };
    let o = slap(&[
        "--create=CREATE TABLE i34a (id INT); CREATE TABLE i34b (id NO_SUCH_TYPE)",
        "--query=SELECT 1",
    ]);
    assert!(!o.status.success(), "{}", stderr(&o));
    assert!(
        !table_exists(&mut srv, "i34a"),
        "left after a failed --create"
    );
    let o = slap(&[
        "--create=CREATE TABLE i34c (id INT)",
        "--pre-query=SELECT no_such_column FROM i34c",
        "--query=SELECT 1",
    ]);
    assert!(!o.status.success(), "{}", stderr(&o));
    assert!(
        !table_exists(&mut srv, "i34c"),
        "left after a failed --pre-query"
    );
    let dir = scratch("slap-drops");
    let out = dir.join("slap.json");
    let o = slap(&[
        "--create=CREATE TABLE i34d (id INT)",
        "--query=SELECT 1",
        "--post-query=SELECT no_such_column FROM i34d",
        "--output",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("the clean-up after 1 clients, round 1 failed"),
        "{}",
        stderr(&o)
    );
    assert!(stdout(&o).contains("Benchmark"), "{}", stdout(&o));
    assert!(!json(&out)["steps"][0]["result"].is_null());
    assert!(
        !table_exists(&mut srv, "i34d"),
        "left after a failed --post-query"
    );
}

/// Item 3: a server that goes away during a slap round (killed: a private server) no longer
/// loses the round: the 2013 is named, the round is reported and saved, the clean-up that
/// cannot reconnect is one more line, and no further round is tried.
#[test]
fn issue_34_slap_keeps_the_measured_round_when_the_server_goes_away() {
    let Some(mut srv) = crate::private_server::PrivateMariadb::start("slap-gone") else {
        return;
    };
    let dir = scratch("slap-gone");
    let out = dir.join("slap.json");
    let port = srv.port.to_string();
    let mut child = spawn(&[
        "slap",
        "-uroot",
        "-h",
        "127.0.0.1",
        "-P",
        &port,
        "--create-schema=sbtest",
        "--create=CREATE TABLE gone (id INT)",
        "--query=SELECT SLEEP(0.01)",
        "--concurrency=2",
        "--iterations=3",
        "--number-of-queries=100000",
        "--output",
        out.to_str().unwrap(),
    ]);
    // The server goes while the first round runs.
    let (mut lines, mut text) = stdout_until(&mut child, "Threads started!");
    srv.kill();
    let rest = std::thread::spawn(move || {
        use std::io::Read;
        let _ = lines.read_to_string(&mut text);
        text
    });
    let mut o = wait_bounded(child);
    o.stdout = rest.join().unwrap().into_bytes();
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("2013"), "{err}");
    assert!(
        err.contains("the clean-up after 2 clients, round 1 failed")
            && err.contains("drop the tables it created (gone)"),
        "{err}"
    );
    assert!(stdout(&o).contains("Benchmark"), "{}", stdout(&o));
    let doc = json(&out);
    assert!(!doc["steps"][0]["result"].is_null(), "{doc}");
    assert_eq!(
        doc["steps"].as_array().unwrap().len(),
        1,
        "no round after the server went"
    );
}

/// Item 7: under `script`, values pgbench rejects are rejected in one line (exit 2) instead of
/// starting a run, and a script's `COPY … FROM STDIN` is refused when the script is read
/// instead of hanging the run. Valid values still run.
#[test]
fn issue_34_script_rejects_what_pgbench_rejects() {
    let cases: &[(&[&str], &str)] = &[
        (&["-j", "eleven"], "invalid number of threads: \"eleven\""),
        (&["--rate=0.0"], "invalid rate limit: \"0.0\""),
        (&["--latency-limit=0.0"], "invalid latency limit: \"0.0\""),
        (&["--progress=0"], "invalid thread progress delay: \"0\""),
        (
            &["--progress-timestamp"],
            "--progress-timestamp is allowed only under --progress",
        ),
    ];
    for (extra, want) in cases {
        let mut a = vec!["script", "run", "-t", "1", "--mysql-dry-run"];
        a.extend_from_slice(extra);
        assert_fails_with(&dbpress(&a), 2, want);
    }
    let mut many = vec!["script", "run", "-t", "1", "--mysql-dry-run"];
    many.extend(std::iter::repeat_n("-S", 129));
    assert_fails_with(&dbpress(&many), 2, "at most 128 SQL scripts are allowed");
    let dir = scratch("script-copy");
    let file = dir.join("load.sql");
    std::fs::write(&file, "\\set id random(1, 10)\nCOPY t (id) FROM STDIN;\n").unwrap();
    let o = dbpress(&[
        "script",
        "run",
        "-t",
        "1",
        "--mysql-dry-run",
        "-f",
        file.to_str().unwrap(),
    ]);
    assert_fails_with(
        &o,
        2,
        "COPY … FROM STDIN / TO STDOUT needs data sent or read outside SQL",
    );
    let o = dbpress(&[
        "script",
        "run",
        "-T",
        "1",
        "--mysql-dry-run",
        "-j",
        "2",
        "-R",
        "200",
        "-L",
        "50",
        "-P",
        "1",
        "--progress-timestamp",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// Item 5: an edited copy of a stock sysbench script is not taken for the built-in workload
/// (which would measure something else under its name): since #41 it runs as written, in Lua,
/// and says so; a byte-identical copy runs the built-in workload and says so.
#[test]
fn issue_34_an_edited_sysbench_script_is_not_the_built_in_workload() {
    let dir = scratch("edited-lua");
    let edited = dir.join("oltp_read_write.lua");
    std::fs::write(
        &edited,
        "-- my oltp_read_write, ids from the server\nfunction event() end\n",
    )
    .unwrap();
    let o = dbpress(&[
        edited.to_str().unwrap(),
        "run",
        "--mysql-dry-run",
        "--time=1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("is not sysbench 1.0.20's stock oltp_read_write.lua")
            && stderr(&o).contains("in embedded LuaJIT"),
        "{}",
        stderr(&o)
    );
    let stock = std::path::Path::new("/usr/share/sysbench/oltp_point_select.lua");
    // scripts/test.sh installs sysbench, so CI always checks the copy that must run.
    let ci = std::env::var("CI").is_ok_and(|v| v == "true" || v == "1");
    assert!(
        stock.exists() || !ci,
        "{} missing: scripts/services.sh sysbench installs it",
        stock.display()
    );
    if stock.exists() {
        let copy = dir.join("oltp_point_select.lua");
        std::fs::copy(stock, &copy).unwrap();
        let o = dbpress(&[copy.to_str().unwrap(), "run", "--mysql-dry-run", "--time=1"]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(stderr(&o).contains("its SHA-256 matches"), "{}", stderr(&o));
    }
}

/// Item 6 (script): a pasted pgbench line reaches the server pgbench would reach — libpq's
/// environment alone, or a DBNAME given first — instead of silently running on embedded SQLite;
/// where nothing names a server, SQLite stays and a notice says how to name one.
#[test]
fn issue_34_script_follows_pgbenchs_target_rules() {
    let Some((_guard, _c)) = crate::engines::pg_server("script-target") else {
        return;
    };
    let dir = scratch("script-target");
    let file = dir.join("one.sql");
    std::fs::write(&file, "SELECT 1;\n").unwrap();
    let f = file.to_str().unwrap();
    let script = |args: &[&str], envs: &[(&str, &str)]| {
        let mut c = std::process::Command::new(bin());
        c.arg("script").args(args).current_dir(&dir);
        for v in [
            "PGHOST",
            "PGHOSTADDR",
            "PGPORT",
            "PGDATABASE",
            "PGUSER",
            "PGSERVICE",
        ] {
            c.env_remove(v);
        }
        c.envs(envs.iter().copied()).output().unwrap()
    };
    let on_postgres = "Target: PostgreSQL over Unix socket /var/run/postgresql/.s.PGSQL.5432, user sbtest, database sbtest";
    // libpq's environment alone.
    let o = script(
        &["run", "-t", "1", "-f", f],
        &[
            ("PGHOST", "/var/run/postgresql"),
            ("PGUSER", "sbtest"),
            ("PGPASSWORD", "sbtest"),
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains(on_postgres), "{}", stdout(&o));
    assert!(stderr(&o).contains("PGHOST: PostgreSQL, as pgbench would connect"));
    // A DBNAME first, as `pgbench sbtest …` (no command word), with pgbench's flags.
    let o = script(
        &[
            "sbtest",
            "-h",
            "/var/run/postgresql",
            "-U",
            "sbtest",
            "-t",
            "1",
            "-f",
            f,
        ],
        &[("PGPASSWORD", "sbtest")],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains(on_postgres), "{}", stdout(&o));
    // A mistyped command word is not taken for a database name; `help` is help.
    assert_fails_with(
        &script(&["runn", "-t", "1"], &[]),
        2,
        "unknown command 'runn'",
    );
    let o = script(&["help"], &[]);
    assert!(o.status.success() && stdout(&o).contains("pgbench-style"));
    // Nothing names a server: SQLite, said on stderr.
    let o = script(&["run", "-t", "1", "-f", f], &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("no server named") && stderr(&o).contains("-h HOST (or PGHOST)"),
        "{}",
        stderr(&o)
    );
}

/// Item 6 (slap): a pasted mysqlslap line reaches the server mysqlslap would reach — through
/// MYSQL_HOST, or ~/.my.cnf's [client] socket — instead of silently running on embedded SQLite;
/// where nothing names a server, SQLite stays and a notice says how to name one.
#[test]
fn issue_34_slap_follows_mysqlslaps_target_rules() {
    let Some(_srv) = server("slap-target") else {
        return;
    };
    let home = scratch("slap-target");
    let slap = |envs: &[(&str, &str)]| {
        let mut c = std::process::Command::new(bin());
        c.args(["slap", "--query=SELECT 1", "--create-schema=sbtest"])
            .current_dir(&home)
            .env("HOME", &home);
        for v in [
            "MYSQL_HOST",
            "MYSQL_TCP_PORT",
            "MYSQL_UNIX_PORT",
            "MYSQL_PWD",
        ] {
            c.env_remove(v);
        }
        c.envs(envs.iter().copied()).output().unwrap()
    };
    // The account comes from ~/.my.cnf, as mysqlslap would take it; the server from MYSQL_HOST.
    std::fs::write(
        home.join(".my.cnf"),
        "[client]\nuser=sbtest\npassword=sbtest\n",
    )
    .unwrap();
    let o = slap(&[("MYSQL_HOST", "127.0.0.1")]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("Target: MySQL TCP 127.0.0.1:3306 as 'sbtest'"),
        "{}",
        stdout(&o)
    );
    std::fs::write(
        home.join(".my.cnf"),
        format!("[client]\nuser=sbtest\npassword=sbtest\nsocket={SOCKET}\n"),
    )
    .unwrap();
    let o = slap(&[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains(&format!("Target: MySQL Unix socket {SOCKET} as 'sbtest'")),
        "{}",
        stdout(&o)
    );
    std::fs::remove_file(home.join(".my.cnf")).unwrap();
    let o = slap(&[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("no server named") && stderr(&o).contains("-h HOST or -S SOCKET"),
        "{}",
        stderr(&o)
    );
}

/// Item 16: a statement refused for lack of privilege is the account's to fix: exit 2 with the
/// GRANT to ask for, on MySQL's prepare without CREATE (an account this test makes on a
/// MariaDB of its own: accounts are never made on the shared one).
#[test]
fn issue_34_missing_privileges_are_exit_2_with_the_grant_to_ask_for() {
    {
        let Some(srv) = crate::private_server::PrivateMariadb::start_with_grants("no-create")
        else {
            return;
        };
        assert!(srv.sql(
            "CREATE USER 'i34_ro'@'localhost' IDENTIFIED BY 'ro'; GRANT SELECT ON sbtest.* TO 'i34_ro'@'localhost'"
        ));
        let socket = format!("--mysql-socket={}", srv.socket.display());
        let o = dbpress(&[
            "oltp_point_select",
            "prepare",
            &socket,
            "--mysql-user=i34_ro",
            "--mysql-password=ro",
            "--mysql-db=sbtest",
            "--table-size=100",
        ]);
        assert_fails_with(
            &o,
            2,
            "was refused for lack of privilege (server error 1142",
        );
        assert!(
            stderr(&o).contains("GRANT CREATE, DROP, INDEX"),
            "{}",
            stderr(&o)
        );
    }
}

/// Item 16, on PostgreSQL: a run without rights on the tables (scripts/services.sh's
/// sbtest_plain) is exit 2 with the GRANT to ask for.
#[test]
fn issue_34_missing_privileges_are_exit_2_with_the_grant_to_ask_for_on_postgresql() {
    let Some((_g, _c)) = crate::engines::pg_server("no-rights") else {
        return;
    };
    let pg = |user: &str, command: &str| {
        dbpress(&[
            "oltp_point_select",
            command,
            "--db-driver=pgsql",
            "--pgsql-host=/var/run/postgresql",
            &format!("--pgsql-user={user}"),
            "--pgsql-password=sbtest",
            "--pgsql-db=sbtest",
            "--table-size=100",
            "--time=1",
        ])
    };
    let o = pg("sbtest", "prepare");
    assert!(o.status.success(), "{}", stderr(&o));
    let o = pg("sbtest_plain", "run");
    let cleanup = pg("sbtest", "cleanup");
    assert!(cleanup.status.success(), "{}", stderr(&cleanup));
    assert_fails_with(
        &o,
        2,
        "was refused for lack of privilege (server error 42501",
    );
    assert!(stderr(&o).contains("GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA"));
}

/// Item 14: with every error ignored, a server that goes away and never returns ends the run
/// with a line saying it ended while reconnecting and for how long the server was unreachable
/// (before: "add 2003 to --mysql-ignore-errors", which was already there). A private server.
#[test]
fn issue_34_a_run_that_ends_while_reconnecting_says_so() {
    let Some(mut srv) = crate::private_server::PrivateMariadb::start("gone-for-good") else {
        return;
    };
    let port = format!("--mysql-port={}", srv.port);
    let conn = [
        "--mysql-host=127.0.0.1",
        &port,
        "--mysql-user=root",
        "--mysql-db=sbtest",
        "--table-size=100",
    ];
    let mut prepare = vec!["oltp_point_select", "prepare"];
    prepare.extend(conn);
    let o = dbpress(&prepare);
    assert!(o.status.success(), "{}", stderr(&o));
    let mut run = vec![
        "oltp_point_select",
        "run",
        "--time=4",
        "--mysql-ignore-errors=all",
        "--mysql-connect-timeout=1",
    ];
    run.extend(conn);
    let mut child = spawn(&run);
    let (_lines, _) = stdout_until(&mut child, "Threads started!");
    srv.kill();
    let o = wait_bounded(child);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("the run ended while reconnecting: the server had been unreachable for"),
        "{err}"
    );
    assert!(!err.contains("add 2003"), "{err}");
}

/// Item 17: a prepare ended by a server crash names every table it left half-loaded and the
/// cleanup command, as the Ctrl-C path does (before: the one table whose block failed). A
/// private server, killed mid-load.
#[test]
fn issue_34_a_prepare_cut_by_a_crash_names_every_half_loaded_table() {
    let Some(mut srv) = crate::private_server::PrivateMariadb::start("crash-in-prepare") else {
        return;
    };
    let port = format!("--mysql-port={}", srv.port);
    let mut child = spawn(&[
        "oltp_read_write",
        "prepare",
        "--mysql-host=127.0.0.1",
        &port,
        "--mysql-user=root",
        "--mysql-db=sbtest",
        "--tables=4",
        "--table-size=400000",
        "--threads=2",
    ]);
    // Killed as soon as the load starts: none of the four 400 000-row tables can be done yet,
    // so all four must be named.
    let (_lines, _) = stdout_until(&mut child, "Inserting");
    srv.kill();
    let o = wait_bounded(child);
    let err = stderr(&o);
    assert!(!o.status.success(), "{err}");
    assert!(
        err.contains("sbtest1, sbtest2, sbtest3, sbtest4 left half-loaded ("),
        "every unfinished table named: {err}"
    );
    assert!(
        err.contains(&format!("run `dbpress oltp_read_write --mysql-host=127.0.0.1 --mysql-port={} --mysql-user=root --mysql-db=sbtest cleanup --tables=4` before preparing again", srv.port)),
        "{err}"
    );
}

/// Item 21 (in part): a 100 KB bad argument is not echoed whole: the error stays one readable
/// line, the argument cut to its start, its length and its end.
#[test]
fn issue_34_a_huge_bad_argument_is_not_echoed_whole() {
    let huge = format!("--threads={}", "9".repeat(100_000));
    let o = dbpress(&["oltp_point_select", "run", "--mysql-dry-run", &huge]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.len() < 1000, "{} bytes of error", err.len());
    assert!(err.contains("bytes]…"), "{err}");
    assert_one_clean_line(&o);
}

/// Item 21 (in part): cleanup says "Dropping table" only for the tables that are there.
#[test]
fn issue_34_cleanup_names_only_the_tables_it_drops() {
    let dir = scratch("cleanup-absent");
    let db = format!("--db=sqlite:{}", dir.join("c.sqlite").display());
    let o = dbpress(&["oltp_point_select", "cleanup", &db, "--tables=3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stdout(&o).contains("Dropping table"), "{}", stdout(&o));
    assert!(stdout(&o).contains("nothing to drop"), "{}", stdout(&o));
    let o = dbpress(&[
        "oltp_point_select",
        "prepare",
        &db,
        "--tables=1",
        "--table-size=10",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = dbpress(&["oltp_point_select", "cleanup", &db, "--tables=3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o).matches("Dropping table").count(),
        1,
        "{}",
        stdout(&o)
    );
}

/// Item 15: an `sbtest1` of another shape (another tool's table) is recognised: run and check
/// say it is not a sysbench table and never suggest dropping it.
#[test]
fn issue_34_a_foreign_sbtest1_is_named_not_a_sysbench_table() {
    let dir = scratch("foreign-sbtest1");
    for (file, ddl) in [
        ("a.sqlite", "CREATE TABLE sbtest1 (a INT, b TEXT)"),
        (
            "b.sqlite",
            "CREATE TABLE sbtest1 (id INTEGER PRIMARY KEY, a TEXT)",
        ),
    ] {
        let path = dir.join(file);
        let c = rusqlite::Connection::open(&path).unwrap();
        c.execute_batch(ddl).unwrap();
        if file == "b.sqlite" {
            c.execute_batch(
                "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10000) \
                 INSERT INTO sbtest1 SELECT i, 'x' FROM n",
            )
            .unwrap();
        }
        drop(c);
        let db = format!("--db=sqlite:{}", path.display());
        for command in ["run", "check"] {
            if file == "b.sqlite" && command == "check" {
                continue;
            }
            let o = dbpress(&["oltp_read_write", command, &db, "--time=1"]);
            assert_eq!(o.status.code(), Some(2), "{file} {command}: {}", stderr(&o));
            let err = stderr(&o);
            assert!(
                err.contains("is not a sysbench table")
                    || err.contains("is not the oltp_read_write workload's"),
                "{file} {command}: {err}"
            );
            assert!(
                !err.contains("cleanup") && !err.to_lowercase().contains("drop"),
                "{err}"
            );
        }
    }
}

/// Item 13 and the issue's Done-when: the header names the client the sessions run on, and the
/// result counts every session the run opened by client (workers, the probe, the observers).
#[test]
fn issue_34_the_header_and_result_name_the_client_of_every_session() {
    let dir = scratch("clients");
    let db = format!("--db=sqlite:{}", dir.join("c.sqlite").display());
    let common = ["--tables=1", "--table-size=100", "--threads=2"];
    let mut prepare = vec!["oltp_point_select", "prepare", db.as_str()];
    prepare.extend_from_slice(&common);
    assert!(dbpress(&prepare).status.success());
    let mut run = vec!["oltp_point_select", "run", db.as_str(), "--events=200"];
    run.extend_from_slice(&common);
    let (out, r) = run_to_json(&run, "clients-sqlite");
    assert!(out.contains("\nClient: SQLite 3."), "{out}");
    let clients = r["environment"]["clients"].as_array().unwrap();
    assert_eq!(clients.len(), 1, "{clients:?}");
    assert!(clients[0]["client"]
        .as_str()
        .unwrap()
        .starts_with("SQLite 3."));
    // The probe and both workers at least.
    assert!(clients[0]["sessions"].as_u64().unwrap() >= 3, "{clients:?}");
    // One client, dbpress's own: nothing more to say in the summary.
    assert!(!out.contains("Clients:"), "{out}");

    let Some(mut srv) = server("issue_34_clients") else {
        return;
    };
    let mut prepare = vec!["oltp_point_select", "prepare"];
    prepare.extend_from_slice(CONN);
    prepare.extend_from_slice(&common);
    assert!(dbpress(&prepare).status.success());
    let mut run = vec!["oltp_point_select", "run", "--events=200"];
    run.extend_from_slice(CONN);
    run.extend_from_slice(&common);
    // Every session dbpress opened, as the server counted them (the servers are the tests'
    // alone while they hold their lock).
    let connections = |srv: &mut Server| -> u64 {
        use mysql::prelude::Queryable;
        let (_, n): (String, u64) = srv
            .conn
            .query_first("SHOW GLOBAL STATUS LIKE 'Connections'")
            .unwrap()
            .unwrap();
        n
    };
    let before = connections(&mut srv);
    let (out, r) = run_to_json(&run, "clients-mariadb");
    let opened = connections(&mut srv) - before;
    assert!(
        out.contains("\nClient: dbpress's MySQL protocol client\n"),
        "{out}"
    );
    let clients = r["environment"]["clients"].as_array().unwrap();
    assert_eq!(clients.len(), 1, "{clients:?}");
    assert_eq!(clients[0]["client"], "dbpress's MySQL protocol client");
    assert!(clients[0].get("reason").is_none(), "{clients:?}");
    assert_eq!(clients[0]["sessions"].as_u64(), Some(opened), "{clients:?}");
    let mut cleanup = vec!["oltp_point_select", "cleanup"];
    cleanup.extend_from_slice(CONN);
    assert!(dbpress(&cleanup).status.success());
}

/// Item 13: the server's public key is read before anything connects; a missing or wrong file
/// is one line naming it and what to give instead.
#[test]
fn issue_34_a_bad_server_public_key_file_is_one_line() {
    let dir = scratch("bad-public-key");
    let not_a_key = dir.join("not-a-key.pem");
    std::fs::write(&not_a_key, "hello\n").unwrap();
    for (path, want) in [
        (
            dir.join("missing.pem"),
            "cannot read the server's public key",
        ),
        (not_a_key, "is not the server's RSA public key"),
    ] {
        let o = dbpress(&[
            "oltp_point_select",
            "run",
            "--mysql-host=127.0.0.1",
            "--mysql-port=1",
            &format!("--mysql-server-public-key-path={}", path.display()),
        ]);
        assert_fails_with(&o, 2, want);
    }
}

/// Item 21: on PostgreSQL a `--create-schema` (or `--pgsql-schema`) naming no schema is
/// refused before anything runs, instead of the server ignoring the search_path it names.
#[test]
fn issue_34_a_postgresql_schema_that_does_not_exist_is_refused() {
    let Some(_pg) = crate::engines::pg_server("issue_34_missing_schema") else {
        return;
    };
    let o = dbpress(&[
        "slap",
        "--db-driver=pgsql",
        "-h",
        "/var/run/postgresql",
        "-u",
        "sbtest",
        "-psbtest",
        "--create-schema=no_such_schema_34",
        "--query=SELECT 1",
        "-c",
        "1",
        "-i",
        "1",
    ]);
    assert_fails_with(
        &o,
        2,
        "schema 'no_such_schema_34' does not exist in database 'sbtest': create it (CREATE SCHEMA no_such_schema_34) or name an existing one with --create-schema",
    );
    let mut run = vec![
        "oltp_point_select",
        "run",
        "--pgsql-schema=no_such_schema_34",
    ];
    run.extend_from_slice(crate::engines::PG_CONN);
    assert_fails_with(
        &dbpress(&run),
        2,
        "name an existing one with --pgsql-schema",
    );
    // An existing schema is taken as before.
    let mut ok = vec![
        "slap",
        "--db-driver=pgsql",
        "--create-schema=public",
        "--query=SELECT 1",
    ];
    ok.extend_from_slice(crate::engines::PG_CONN);
    let o = dbpress(&ok);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// Item 21: a command a message suggests carries the connection options in use, passwords
/// hidden, so that pasting it reaches the same server.
#[test]
fn issue_34_suggested_commands_carry_the_connection_options() {
    let Some(_s) = server("issue_34_hints_options") else {
        return;
    };
    let o = dbpress(&[
        "oltp_read_only",
        "run",
        "--mysql-host=127.0.0.1",
        "--mysql-port=3306",
        "--mysql-user=sbtest",
        "--mysql-password=sbtest",
        "--tables=2",
    ]);
    assert_fails_with(
        &o,
        2,
        "run `dbpress oltp_read_only --mysql-host=127.0.0.1 --mysql-port=3306 --mysql-user=sbtest --mysql-password=*** prepare`",
    );
    assert!(!stderr(&o).contains("password=sbtest"), "{}", stderr(&o));
}
