//! Issue 42: dbpress invoked as sysbench — through a link named `sysbench`, or with
//! `--compat=sysbench` — prints what sysbench 1.0.20 prints and exits as it exits. Each case
//! runs Debian's sysbench and dbpress on the same command line against the same server, one
//! after the other, and compares their stdout with the numbers masked and their exit codes.

use crate::common::{bin, scratch, server, stderr, stdout};
use crate::engines::pg_server;
use crate::sysbench_ref::{have_sysbench, in_dir, shape, SB_MYSQL, SB_PGSQL, STOCK_DIR};
use std::path::{Path, PathBuf};
use std::process::Output;

/// A link named `sysbench` to the dbpress under test, in `dir`.
pub fn sysbench_link(dir: &Path) -> PathBuf {
    let link = dir.join("sysbench");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(bin(), &link).unwrap();
    link
}

/// stdout's lines with numbers as `#` and runs of spaces as one (a wider number moves the
/// columns), the interval lines apart: sysbench prints the `[ 2s ]` of a `--time=2` run or
/// not, by a race between its reporter and its workers; dbpress always prints it.
pub fn masked(o: &Output) -> (Vec<String>, Vec<String>) {
    let (mut lines, mut intervals) = (Vec::new(), Vec::new());
    for l in stdout(o).lines() {
        let l = shape(l)
            .split(' ')
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join(" ");
        if l.starts_with("[ #s ]") {
            intervals.push(l);
        } else {
            lines.push(l);
        }
    }
    (lines, intervals)
}

/// The same command under both tools: the same exit code, the same text but for numbers,
/// and the interval lines sysbench printed (it may miss the last) of the same form; nothing
/// of dbpress's own on stderr.
pub fn check(ours: &Output, theirs: &Output, what: &str) {
    assert_eq!(
        ours.status.code(),
        theirs.status.code(),
        "{what}: exit codes differ; dbpress's stderr: {}",
        stderr(ours)
    );
    let (our_lines, our_iv) = masked(ours);
    let (their_lines, their_iv) = masked(theirs);
    assert_eq!(
        our_lines,
        their_lines,
        "{what}: the text differs\n--- sysbench:\n{}\n--- dbpress:\n{}",
        stdout(theirs),
        stdout(ours)
    );
    assert!(
        their_iv.len() <= our_iv.len() && our_iv.len() <= their_iv.len() + 1,
        "{what}: sysbench printed {} interval lines, dbpress {}",
        their_iv.len(),
        our_iv.len()
    );
    assert!(
        their_iv.iter().zip(&our_iv).all(|(a, b)| a == b),
        "{what}: interval lines differ: {their_iv:?} / {our_iv:?}"
    );
    assert!(
        stderr(ours).is_empty(),
        "{what}: dbpress said more: {}",
        stderr(ours)
    );
}

/// `args` under both tools in `dir`: the same exit code, stdout and stderr, byte for byte
/// (help, version and error lines, which hold no measured number).
pub fn exactly_as_sysbench(dir: &Path, link: &Path, args: &[&str]) {
    let theirs = in_dir("/usr/bin/sysbench", dir, args, None);
    let ours = in_dir(link.to_str().unwrap(), dir, args, None);
    assert_eq!(
        ours.status.code(),
        theirs.status.code(),
        "{args:?}: exit code"
    );
    assert_eq!(stdout(&ours), stdout(&theirs), "{args:?}: stdout");
    assert_eq!(stderr(&ours), stderr(&theirs), "{args:?}: stderr");
}

/// `args` under both tools in `dir`, compared as `check` does (numbers masked).
pub fn as_sysbench(dir: &Path, link: &Path, args: &[&str]) -> Output {
    let theirs = in_dir("/usr/bin/sysbench", dir, args, None);
    let ours = in_dir(link.to_str().unwrap(), dir, args, None);
    check(&ours, &theirs, &format!("{args:?}"));
    ours
}

/// cleanup with no tables there, prepare, a 2 s run, cleanup of the tables: the session a
/// DBA's wrapper runs, each step compared. Where a step changes the schema, each tool starts
/// it from the same state: sysbench's prepare is undone before dbpress's, and dbpress's
/// cleanup drops the tables before sysbench's finds none (it prints the same either way).
fn whole_session(dir: &Path, link: &Path, test: &str, conn: &[&str]) {
    let args = |command: &str, extra: &[&str]| -> Vec<String> {
        [test, "--tables=2", "--table-size=500"]
            .iter()
            .chain(conn)
            .chain(extra)
            .chain(&[command])
            .map(|s| s.to_string())
            .collect()
    };
    let sysbench = |a: &[String]| in_dir("/usr/bin/sysbench", dir, &refs(a), None);
    let dbpress = |a: &[String]| in_dir(link.to_str().unwrap(), dir, &refs(a), None);
    let cleanup = args("cleanup", &[]);
    let theirs = sysbench(&cleanup);
    check(
        &dbpress(&cleanup),
        &theirs,
        &format!("{test} cleanup of nothing"),
    );

    let prepare = args("prepare", &[]);
    let theirs = sysbench(&prepare);
    assert!(
        theirs.status.success(),
        "sysbench prepare: {}",
        stdout(&theirs)
    );
    assert!(sysbench(&cleanup).status.success());
    check(&dbpress(&prepare), &theirs, &format!("{test} prepare"));

    let run = args("run", &["--time=2", "--report-interval=1"]);
    let theirs = sysbench(&run);
    let ours = dbpress(&run);
    check(&ours, &theirs, &format!("{test} run"));
    assert!(stdout(&ours).contains("transactions:"), "{test}: no report");

    let ours = dbpress(&cleanup);
    check(&ours, &sysbench(&cleanup), &format!("{test} cleanup"));
}

fn refs(a: &[String]) -> Vec<&str> {
    a.iter().map(String::as_str).collect()
}

/// A server that refuses the login or the database, and tables that are not there: the
/// header, `Initializing worker threads...`, then sysbench's four `FATAL:` lines of its
/// failed thread, byte for byte, exit 1.
fn fails_where_sysbenchs_threads_fail(dir: &Path, link: &Path) {
    let with = |replaced: &str, by: &str| -> Vec<String> {
        let mut args = vec!["oltp_point_select".to_string()];
        args.extend(SB_MYSQL.iter().map(|a| match a.starts_with(replaced) {
            true => by.to_string(),
            false => a.to_string(),
        }));
        args.extend(["--tables=1", "--time=1", "run"].map(String::from));
        args
    };
    for args in [
        with("--mysql-password=", "--mysql-password=wrong"),
        with("--mysql-db=", "--mysql-db=nosuchdb"),
        with("--tables", "--tables=1"),
    ] {
        exactly_as_sysbench(dir, link, &refs(&args));
        let o = in_dir(link.to_str().unwrap(), dir, &refs(&args), None);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        assert!(
            stdout(&o).contains("FATAL: Thread initialization failed!"),
            "{}",
            stdout(&o)
        );
    }
}

#[test]
fn issue_42_as_sysbench_a_built_in_test_prints_sysbenchs_text_on_mariadb() {
    let Some(_srv) = server("issue_42_as_sysbench_mariadb") else {
        return;
    };
    if !have_sysbench() {
        return;
    }
    let dir = scratch("dropin-sysbench-mariadb");
    let link = sysbench_link(&dir);
    for test in ["oltp_read_write", "oltp_point_select"] {
        whole_session(&dir, &link, test, &SB_MYSQL);
    }
    fails_where_sysbenchs_threads_fail(&dir, &link);
}

#[test]
fn issue_42_as_sysbench_a_script_of_ones_own_prints_sysbenchs_text() {
    let Some(_srv) = server("issue_42_as_sysbench_script") else {
        return;
    };
    if !have_sysbench() {
        return;
    }
    let dir = scratch("dropin-sysbench-script");
    let link = sysbench_link(&dir);
    // A copy with one line added: dbpress runs it in Lua, as sysbench does.
    let stock = std::fs::read_to_string(Path::new(STOCK_DIR).join("oltp_read_only.lua")).unwrap();
    std::fs::write(dir.join("mine.lua"), format!("{stock}\n-- ours\n")).unwrap();
    whole_session(&dir, &link, "./mine.lua", &SB_MYSQL);
}

#[test]
fn issue_42_as_sysbench_a_built_in_test_prints_sysbenchs_text_on_postgresql() {
    let Some((_guard, _client)) = pg_server("issue_42_as_sysbench_pgsql") else {
        return;
    };
    if !have_sysbench() {
        return;
    }
    let dir = scratch("dropin-sysbench-pgsql");
    let link = sysbench_link(&dir);
    whole_session(&dir, &link, "oltp_point_select", &SB_PGSQL);
    // A refused login over the socket: sysbench's lines of libpq's message, byte for byte.
    let mut args: Vec<&str> = vec!["oltp_point_select"];
    args.extend(
        SB_PGSQL
            .iter()
            .map(|a| match a.starts_with("--pgsql-password=") {
                true => "--pgsql-password=wrong",
                false => a,
            }),
    );
    args.extend(["--time=1", "run"]);
    exactly_as_sysbench(&dir, &link, &args);
}

#[test]
fn issue_42_compat_sysbench_is_the_link_and_version_and_exit_codes_are_sysbenchs() {
    if !have_sysbench() {
        return;
    }
    let dir = scratch("dropin-sysbench-compat");
    let link = sysbench_link(&dir);
    let version = in_dir(link.to_str().unwrap(), &dir, &["--version"], None);
    assert_eq!(stdout(&version), "sysbench 1.0.20\n");
    let compat = in_dir(bin(), &dir, &["--compat=sysbench", "--version"], None);
    assert_eq!(stdout(&compat), stdout(&version));
    let theirs = in_dir("/usr/bin/sysbench", &dir, &["--version"], None);
    assert_eq!(stdout(&version), stdout(&theirs));
    // Bad lines: sysbench's words on the stream it uses, its exit code (1 for all), and its
    // first line before the errors it finds after printing it.
    // A script that declares its options (one that declares none takes any, as globals).
    std::fs::write(
        dir.join("mine.lua"),
        "sysbench.cmdline.options = { rows = {\"Rows\", 10} }\nfunction event() end\n",
    )
    .unwrap();
    for args in [
        &["oltp_point_select", "--foo=1", "--mysql-dry-run", "run"][..],
        &["oltp_point_select", "--threads=x", "--mysql-dry-run", "run"][..],
        &["oltp_point_select", "--mysql-dry-run", "frobnicate"][..],
        &["nosuchtest", "run"][..],
        &["./mine.lua", "--foo=1", "run"][..],
        &["./mine.lua", "frobnicate"][..],
        // From sysbench's own cram suite (cmd_prepare.t, cmdline.t, opt_rate.t).
        &["prepare"][..],
        &["run"][..],
        &["--verbosity=2", "cleanup"][..],
        &["foo", "bar", "baz"][..],
        &["fileio"][..],
        &["--rate=2000000000", "cpu", "run", "--verbosity=1"][..],
        // Each value sysbench refuses, in its words, stream and place (before or after its
        // first line).
        &["--threads=0", "cpu", "run"][..],
        &["--threads=x", "cpu", "run"][..],
        &["--forced-shutdown=x", "cpu", "run"][..],
        &["--report-checkpoints=x", "cpu", "run"][..],
        &["--thread-stack-size=x", "cpu", "run"][..],
        &["--rand-type=bogus", "cpu", "run"][..],
        &["--verbosity=9", "cpu", "run"][..],
        &["--percentile=101", "cpu", "run"][..],
        &["--percentile=x", "cpu", "run"][..],
        &["--debug=maybe", "cpu", "run"][..],
        &["--validate=x", "cpu", "run"][..],
        &["--histogram=x", "cpu", "run"][..],
        &["--memory-hugetlb=x", "memory", "run"][..],
        &["--cpu-max-prime=0", "cpu", "run"][..],
        &["--cpu-max-prime=x", "cpu", "run"][..],
        &["--rate=x", "cpu", "run"][..],
        &["--report-interval=x", "cpu", "run"][..],
        &["--rand-seed=x", "cpu", "run"][..],
        &["--warmup-time=x", "cpu", "run"][..],
        &["--thread-init-timeout=x", "cpu", "run"][..],
        &["--memory-block-size=0", "memory", "run"][..],
        &["fileio", "--file-num=0", "--file-test-mode=rndrd", "run"][..],
        &[
            "fileio",
            "--file-block-size=0",
            "--file-test-mode=rndrd",
            "run",
        ][..],
    ] {
        exactly_as_sysbench(&dir, &link, args);
        let ours = in_dir(link.to_str().unwrap(), &dir, args, None);
        assert_eq!(ours.status.code(), Some(1), "{args:?}");
    }
    // fileio's prepare and cleanup say nothing at --verbosity=2 (cram's test_fileio.t).
    for command in ["prepare", "cleanup"] {
        let args = [
            "fileio",
            "--file-total-size=64K",
            "--file-num=2",
            "--verbosity=2",
            command,
        ];
        exactly_as_sysbench(&dir, &link, &args);
    }
    // Without the link, dbpress is itself: its own first line and exit codes.
    let own = in_dir(bin(), &dir, &["oltp_point_select", "--foo=1", "run"], None);
    assert_eq!(own.status.code(), Some(2));
    assert!(stderr(&own).starts_with("dbpress: error:"));
}

#[test]
fn issue_42_as_sysbench_an_unknown_driver_fails_where_the_script_asks_for_it() {
    if !have_sysbench() {
        return;
    }
    let dir = scratch("dropin-sysbench-driver");
    let link = sysbench_link(&dir);
    // sysbench's drivers.t: the stock script's command fails in its own function; its help
    // asks for no driver.
    let script = "/usr/share/sysbench/oltp_read_write.lua";
    for command in ["cleanup", "prepare", "run", "help"] {
        exactly_as_sysbench(&dir, &link, &["--db-driver=nonexisting", script, command]);
    }
    // A test of the machine never asks for one, and runs.
    let cpu = in_dir(
        link.to_str().unwrap(),
        &dir,
        &["--db-driver=nonexisting", "cpu", "run", "--time=1"],
        None,
    );
    assert_eq!(cpu.status.code(), Some(0), "{}", stdout(&cpu));
    assert!(stdout(&cpu).contains("events per second:"));
    // cmdline.t: a malformed options table, in sysbench's words and place; a script on an
    // empty stdin (bash's empty here-document is /dev/null) declares nothing, so any option
    // is its own.
    std::fs::write(
        dir.join("rows.lua"),
        "sysbench.cmdline.options = {\n  {},\n}\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("desc.lua"),
        "sysbench.cmdline.options = { a = {1, 2} }\n",
    )
    .unwrap();
    for args in [
        &["rows.lua", "help"][..],
        &["desc.lua", "help"][..],
        &["--unknown"][..],
    ] {
        exactly_as_sysbench(&dir, &link, args);
    }
}

#[test]
fn issue_42_install_links_makes_each_peers_link_once_and_keeps_other_files() {
    let dir = scratch("dropin-install-links");
    let o = in_dir(bin(), &dir, &["install-links", "."], None);
    assert!(o.status.success(), "{}", stderr(&o));
    for name in [
        "sysbench",
        "pgbench",
        "mysqlslap",
        "tpcc_load",
        "tpcc_start",
    ] {
        let target = std::fs::read_link(dir.join(name)).unwrap();
        assert_eq!(
            target.canonicalize().unwrap(),
            Path::new(bin()).canonicalize().unwrap()
        );
    }
    // Again: the links are there already, nothing to do.
    assert!(in_dir(bin(), &dir, &["install-links", "."], None)
        .status
        .success());
    // A file of the user's under a peer's name is left alone, and said so in a line.
    std::fs::remove_file(dir.join("pgbench")).unwrap();
    std::fs::write(dir.join("pgbench"), "#!/bin/sh\n").unwrap();
    let o = in_dir(bin(), &dir, &["install-links", "."], None);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("pgbench already exists"),
        "{}",
        stderr(&o)
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("pgbench")).unwrap(),
        "#!/bin/sh\n"
    );
    // A link named pgbench speaks as pgbench: its help.
    std::fs::remove_file(dir.join("pgbench")).unwrap();
    std::os::unix::fs::symlink(bin(), dir.join("pgbench")).unwrap();
    let o = in_dir(
        dir.join("pgbench").to_str().unwrap(),
        &dir,
        &["--help"],
        None,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("pgbench"), "{}", stdout(&o));
}

#[test]
fn issue_42_as_sysbench_help_of_every_stock_test_is_sysbenchs() {
    if !have_sysbench() {
        return;
    }
    let dir = scratch("dropin-sysbench-help");
    let link = sysbench_link(&dir);
    let mut tests: Vec<String> = std::fs::read_dir(STOCK_DIR)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|f| f.strip_suffix(".lua").map(str::to_string))
        .filter(|t| t != "oltp_common")
        .collect();
    tests.sort();
    assert!(tests.len() >= 10, "stock scripts: {tests:?}");
    // Each by name and by path, and a script of one's own found by a bare name.
    let stock = std::fs::read_to_string(Path::new(STOCK_DIR).join("oltp_delete.lua")).unwrap();
    std::fs::write(dir.join("mine.lua"), format!("{stock}\n-- ours\n")).unwrap();
    let mut lines: Vec<Vec<String>> = tests
        .iter()
        .flat_map(|t| {
            [
                vec![t.clone(), "help".to_string()],
                vec![format!("{STOCK_DIR}/{t}.lua"), "help".to_string()],
            ]
        })
        .collect();
    lines.push(vec!["mine".into(), "help".into()]);
    lines.push(vec!["./mine.lua".into(), "help".into()]);
    for args in &lines {
        exactly_as_sysbench(&dir, &link, &refs(args));
    }
}

#[test]
fn issue_42_as_sysbench_the_run_options_print_as_sysbench_in_a_dry_run() {
    if !have_sysbench() {
        return;
    }
    let dir = scratch("dropin-sysbench-options");
    let link = sysbench_link(&dir);
    // sysbench's run options that change its text, each on a dry run (no server needed).
    let cases: [&[&str]; 12] = [
        &["--time=1"],
        &["--events=500", "--time=0"],
        &["--rate=200", "--time=1"],
        &["--percentile=99", "--time=1"],
        &["--percentile=0", "--time=1"],
        &["--rand-seed=5", "--time=1"],
        &["--report-interval=1", "--time=2", "--threads=2"],
        &["--verbosity=0", "--time=1"],
        &["--verbosity=4", "--time=1"],
        &["--verbosity=5", "--time=1"],
        &["--report-checkpoints=1", "--time=2"],
        &["--forced-shutdown=1", "--time=1"],
    ];
    for extra in cases {
        let mut args = vec!["oltp_point_select", "--mysql-dry-run"];
        args.extend(extra);
        args.push("run");
        as_sysbench(&dir, &link, &args);
    }
}

/// Found in review: a link named tpcc_start reads tpcc-mysql's `-p PASSWORD`, which only
/// `dbpress tpcc-start` blanked in the process's arguments; through the link `ps` showed it.
#[test]
fn issue_42_a_tpcc_start_link_hides_its_password_from_ps() {
    let dir = scratch("dropin-tpcc-start-ps");
    let link = dir.join("tpcc_start");
    std::os::unix::fs::symlink(bin(), &link).unwrap();
    // A server that accepts and never greets: the run waits there, its arguments long read.
    let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = silent.local_addr().unwrap().port().to_string();
    let mut child = std::process::Command::new(&link)
        .args(["-h", "127.0.0.1", "-P", &port, "-d", "tpcc", "-u", "root"])
        .args([
            "-p",
            "S3cretTpccPw",
            "-w",
            "1",
            "-c",
            "1",
            "-r",
            "0",
            "-l",
            "1",
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let (conn, _) = silent.accept().unwrap();
    let cmdline = std::fs::read(format!("/proc/{}/cmdline", child.id())).unwrap();
    let _ = child.kill();
    let _ = child.wait();
    drop(conn);
    let shown = String::from_utf8_lossy(&cmdline).replace('\0', " ");
    assert!(!shown.contains("S3cretTpccPw"), "{shown}");
    assert!(shown.contains("-p xxxxxxxxxxxx"), "{shown}");
}

/// A server that is not there (a closed port, a missing socket, a name that resolves to
/// nothing) and a login refused, met by `run`'s threads, `prepare` and `cleanup`: sysbench's
/// lines of its driver and the client library's words (libmariadb's `Can't connect…`, libpq's
/// `connection to server … failed` with its hint), byte for byte, exit 1. No server is
/// reached but the shared ones, for the refused logins (nothing is changed on them).
#[test]
fn issue_42_as_sysbench_a_server_not_there_is_said_in_its_drivers_words() {
    let Some(_srv) = server("issue_42_as_sysbench_unreachable") else {
        return;
    };
    if !have_sysbench() {
        return;
    }
    let dir = scratch("dropin-sysbench-unreachable");
    let link = sysbench_link(&dir);
    let targets: [&[&str]; 8] = [
        &["--mysql-host=127.0.0.1", "--mysql-port=1"],
        // sysbench 1.0.20's --mysql-ssl is a flag: bare it is on; a word it does not know is
        // refused in its words before anything connects.
        &["--mysql-ssl", "--mysql-host=127.0.0.1", "--mysql-port=1"],
        &["--mysql-ssl=x", "--mysql-host=127.0.0.1", "--mysql-port=1"],
        &["--mysql-socket=/nonexistent"],
        &["--mysql-host=nosuchhost.invalid"],
        &[
            "--mysql-socket=/run/mysqld/mysqld.sock",
            "--mysql-user=sbtest",
            "--mysql-password=wrong",
        ],
        &[
            "--db-driver=pgsql",
            "--pgsql-host=127.0.0.1",
            "--pgsql-port=1",
        ],
        &["--db-driver=pgsql", "--pgsql-host=/nonexistent"],
    ];
    for target in targets {
        for command in [&["--time=1", "run"][..], &["prepare"], &["cleanup"]] {
            let args: Vec<&str> = ["oltp_read_write"]
                .iter()
                .chain(target)
                .chain(command)
                .copied()
                .collect();
            exactly_as_sysbench(&dir, &link, &args);
        }
    }
}

/// The stock OLTP tests' statement counts and switches, each line under sysbench and under the
/// link: the server's Com_* counters grow by the same amounts (dbpress's statement mix is
/// sysbench's for every option, not only the defaults parity.rs holds it to).
#[test]
fn issue_42_as_sysbench_each_statement_option_sends_sysbenchs_statements() {
    let Some(mut srv) = server("issue_42_as_sysbench_statement_options") else {
        return;
    };
    if !have_sysbench() {
        return;
    }
    let dir = scratch("dropin-sysbench-statement-options");
    let link = sysbench_link(&dir);
    let lines: [&[&str]; 6] = [
        &[
            "oltp_read_write",
            "--point-selects=3",
            "--simple-ranges=2",
            "--sum-ranges=0",
            "--order-ranges=2",
            "--distinct-ranges=1",
            "--index-updates=2",
            "--non-index-updates=0",
            "--delete-inserts=2",
        ],
        &["oltp_read_write", "--range-selects=off", "--skip-trx=on"],
        &["oltp_read_only", "--point-selects=0", "--range-size=5"],
        &[
            "oltp_write_only",
            "--index-updates=0",
            "--non-index-updates=3",
            "--delete-inserts=0",
        ],
        &["select_random_points", "--random-points=3"],
        &["oltp_read_write", "--db-ps-mode=disable", "--sum-ranges=3"],
    ];
    let table = ["--tables=1", "--table-size=1000"];
    let sb = |program: &str, args: &[&str]| {
        let all: Vec<&str> = args
            .iter()
            .chain(&SB_MYSQL)
            .chain(&table)
            .copied()
            .collect();
        let o = in_dir(program, &dir, &all, None);
        assert!(o.status.success(), "{program} {args:?}: {}", stdout(&o));
    };
    sb("/usr/bin/sysbench", &["oltp_read_write", "prepare"]);
    let n = 40;
    let events = format!("--events={n}");
    for line in lines {
        let mut counts = Vec::new();
        for program in ["/usr/bin/sysbench", link.to_str().unwrap()] {
            let before = srv.com();
            let run: Vec<&str> = line
                .iter()
                .copied()
                .chain(["--threads=1", "--time=0", &events, "run"])
                .collect();
            sb(program, &run);
            let after = srv.com();
            let mut d: Vec<(String, u64)> = after
                .iter()
                // Com_stmt_close: sysbench closes its statements as each thread ends; dbpress's
                // sessions end with theirs open, which the server frees (per run, not per event).
                .filter(|(k, _)| !k.starts_with("Com_show_") && *k != "Com_stmt_close")
                .map(|(k, v)| (k.clone(), v - before.get(k).copied().unwrap_or(0)))
                .filter(|(_, v)| *v > 0)
                .collect();
            d.sort();
            counts.push(d);
        }
        assert_eq!(
            counts[1], counts[0],
            "{line:?}: dbpress (left) vs sysbench (right)"
        );
    }
    sb("/usr/bin/sysbench", &["oltp_read_write", "cleanup"]);
}
