//! Issue 42: dbpress invoked as mysqlslap (a link named `mysqlslap`) against MariaDB 10.11's own
//! mysqlslap on the same command lines: every refused line's words and exit code, `--help`,
//! `--only-print`, and runs — their text with the seconds masked, their exit codes, and the
//! statements the server counts (every Com_* counter but dbpress's own SHOWs).

use crate::common::{bin, peer_link, run_in, scratch, server, stderr, stdout, Server};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// MariaDB's mysqlslap, as Debian's mariadb-client installs it.
const PEER: &str = "/usr/bin/mysqlslap";

fn slap_link(dir: &Path) -> PathBuf {
    peer_link(dir, "mysqlslap")
}

fn run(program: &Path, dir: &Path, args: &[&str]) -> Output {
    run_in(program, dir, args)
}

/// The peer, or None where it is missing outside CI (where it must be there).
fn peer(test: &str) -> Option<PathBuf> {
    let p = PathBuf::from(PEER);
    if p.exists() {
        return Some(p);
    }
    if std::env::var("CI").is_ok_and(|v| v == "true" || v == "1") {
        panic!("{test}: {PEER} is required in CI: scripts/services.sh mariadb installs it");
    }
    eprintln!("SKIPPED {test}: no {PEER}; run scripts/services.sh mariadb");
    None
}

/// A stream with the program's path as `PROGRAM` and every figure of seconds as `N`.
fn masked(text: &str, program: &Path) -> String {
    let named = text.replace(&program.display().to_string(), "PROGRAM");
    let mut out = String::with_capacity(named.len());
    let mut chars = named.chars().peekable();
    while let Some(c) = chars.next() {
        // `0.123` (a block's seconds, a CSV line's) becomes `N`.
        if c.is_ascii_digit() {
            let mut word = c.to_string();
            while let Some(&d) = chars.peek().filter(|d| d.is_ascii_digit() || **d == '.') {
                word.push(d);
                chars.next();
            }
            out.push_str(if word.contains('.') { "N" } else { &word });
        } else {
            out.push(c);
        }
    }
    out
}

/// The peer's and dbpress's answers to `args` are the same: stdout, stderr, exit code.
fn same_answer(peer: &Path, link: &Path, dir: &Path, args: &[&str]) {
    let theirs = run(peer, dir, args);
    let ours = run(link, dir, args);
    same_text(&theirs, peer, &ours, link, args);
}

/// The two outputs' streams, masked, line by line (a failure names the first line that
/// differs, not the whole stream), and their exit codes.
fn same_text(theirs: &Output, peer: &Path, ours: &Output, link: &Path, args: &[&str]) {
    for (stream, t, o) in [
        ("stdout", stdout(theirs), stdout(ours)),
        ("stderr", stderr(theirs), stderr(ours)),
    ] {
        let (t, o) = (masked(&t, peer), masked(&o, link));
        if let Some(n) = t.lines().zip(o.lines()).position(|(a, b)| a != b) {
            panic!(
                "{stream} of {args:?}, line {}: mysqlslap `{}`, dbpress `{}`",
                n + 1,
                t.lines().nth(n).unwrap_or_default(),
                o.lines().nth(n).unwrap_or_default()
            );
        }
        assert_eq!(
            t.lines().count(),
            o.lines().count(),
            "{stream} of {args:?}: lines"
        );
        assert_eq!(t, o, "{stream} of {args:?}: line ends");
    }
    assert_eq!(
        ours.status.code(),
        theirs.status.code(),
        "exit code of {args:?}"
    );
}

/// Lines mysqlslap refuses or answers without running clients.
const LINES: &[&[&str]] = &[
    // Servers that are not there, in the client library's words.
    &["-h", "127.0.0.1", "-P", "1", "-q", "SELECT 1"],
    &["-S", "/nonexistent", "-q", "SELECT 1"],
    &["-h", "nosuchhost.invalid", "-q", "SELECT 1"],
    // my_getopt's and mysqlslap's own refusals (a debug build's option, a protocol, option
    // files that must be there, a file value that is a directory, a CSV file that cannot be
    // opened).
    &["--debug", "--only-print", "-q", "x"],
    &["-#", "--only-print", "-q", "x"],
    // In a cluster, my_getopt says the disabled `-#` and each unknown letter and reads on; the
    // last refusal's code is the exit code.
    &["-#dt", "--only-print", "-q", "x"],
    &["-d#", "--only-print", "-q", "x"],
    &["-#v", "--only-print", "-q", "x"],
    &["-#:", "--only-print", "-q", "x"],
    // -vv and -vvv's lines among the statements, and the schema dropped once per engine.
    &[
        "-vvv",
        "--only-print",
        "-q",
        "select 1",
        "-i",
        "2",
        "-c",
        "1,2",
        "--pre-query=select 0",
    ],
    &[
        "-vv",
        "--only-print",
        "-a",
        "--auto-generate-sql-execute-number=2",
        "--auto-generate-sql-load-type=read",
        "-e",
        "innodb,myisam",
        "-i",
        "2",
    ],
    &[
        "-vv",
        "--only-print",
        "--create=create table t(a int)",
        "-q",
        "select 1",
        "--commit=1",
        "-i",
        "2",
        "-c",
        "1,2",
    ],
    // --pre-system and --post-system run under --only-print too: their output first (the
    // statements come out of mysqlslap's buffer at its end), their failures warned of.
    &[
        "--only-print",
        "--pre-system=echo PRE",
        "--post-system=echo POST",
        "-q",
        "select 1",
        "-i",
        "2",
        "-c",
        "1,2",
    ],
    &[
        "--only-print",
        "--pre-system=exit 127",
        "--post-system=kill -9 $$",
        "-q",
        "select 1",
    ],
    &["--debug=d:t", "--only-print", "-q", "x"],
    &["--protocol=bad", "--only-print", "-q", "x"],
    &["--protocol=TCP", "--only-print", "-q", "x"],
    &["--defaults-file=/nonexistent", "--only-print", "-q", "x"],
    &[
        "--defaults-extra-file=/nonexistent",
        "--only-print",
        "-q",
        "x",
    ],
    &["--defaults-group-suffix=_x", "--only-print", "-q", "x"],
    &["--only-print", "--create=/tmp", "-q", "x"],
    &["--only-print", "--pre-query=/tmp", "-q", "x"],
    &["--only-print", "-q", "/tmp"],
    &["--only-print", "-q", "x", "--post-query=/tmp"],
    &["--only-print", "--csv=/nonexistent/x.csv", "-q", "x"],
    &["--only-print", "--ssl-verify-server-cert=maybe", "-q", "x"],
    &["--ssl=maybe", "--help"],
    // Options that matter only on a connection, taken as mysqlslap takes them.
    &[
        "--only-print",
        "--init-command=SET @a=1",
        "--detach=2",
        "--protocol=tcp",
        "--default-auth=x",
        "--plugin-dir=/x",
        "--character-sets-dir=/x",
        "--tls-version=TLSv1.2",
        "--ssl-capath=/x",
        "--ssl-cert=/x",
        "--ssl-key=/x",
        "--ssl-crl=/x",
        "--ssl-crlpath=/x",
        "--debug-check",
        "-q",
        "SELECT 1",
    ],
    &["--help"],
    &["-?"],
    &[
        "-c",
        "5",
        "--no-drop",
        "-i",
        "3K",
        "--delimiter=;",
        "--help",
    ],
    &["-V"],
    &["--version", "extra"],
    &["--help", "--foo"],
    &["--foo"],
    &["-Z"],
    &["--c=2"],
    &["--ss"],
    &["--auto-generate-sql-u=3"],
    &["--query"],
    &["-q"],
    &["-i", "x"],
    &["-i", "-3"],
    &["--iterations=99999999999999999999"],
    &["--number-of-queries=2Q"],
    &["-a", "-q", "SELECT 1"],
    &["-a", "--auto-generate-sql-load-type=key"],
    &[
        "-a",
        "--auto-generate-sql-guid-primary",
        "--auto-generate-sql-add-autoincrement",
    ],
    &["--only-print", "-q", "x", "--no-drop=maybe"],
    &["--only-print", "--loose-foo=1", "-q", "SELECT 1"],
    &["--only-print", "--concur=2", "-q", "SELECT 1"],
    &["--only-print", "--skip-query=1"],
    &[
        "--only-print",
        "extra",
        "-q",
        "SELECT 9",
        "--",
        "-q",
        "SELECT 8",
    ],
    &["--only-print", "a", "-q", "SELECT 9", "--", "b"],
    &["--only-print", "a", "b", "c", "-q", "SELECT 9"],
    &["--only-print", "-Csvq", "SELECT 6"],
    &[
        "--only-print",
        "-q",
        "SELECT 1;SELECT 2",
        "-F",
        ";",
        "--create=CREATE TABLE t(a INT)",
        "-c",
        "2",
        "--pre-query=SELECT 3",
        "--post-query=SELECT 4",
    ],
    &[
        "--only-print",
        "-q",
        "SELECT 1",
        "-c",
        "1,2",
        "-i",
        "2",
        "--number-of-queries=3",
        "--create-schema=x",
    ],
    &[
        "--only-print",
        "-q",
        "SELECT 1",
        "--create=CREATE TABLE a(b INT)",
        "-e",
        "innodb,memory",
    ],
    &[
        "--only-print",
        "-q",
        "SELECT 1",
        "--commit=2",
        "--number-of-queries=5",
        "--create-schema=x",
        "-c",
        "2",
    ],
    &[
        "--only-print",
        "-q",
        "SELECT 1",
        "--no-drop",
        "--create=CREATE TABLE t(a INT)",
    ],
    &["--only-print", "-a"],
    &[
        "--only-print",
        "-a",
        "-c",
        "2",
        "--auto-generate-sql-unique-query-number=2",
        "--auto-generate-sql-write-number=3",
    ],
    &[
        "--only-print",
        "-a",
        "--auto-generate-sql-guid-primary",
        "--auto-generate-sql-load-type=update",
        "-x",
        "2",
        "-y",
        "3",
    ],
    &[
        "--only-print",
        "-a",
        "--auto-generate-sql-add-autoincrement",
        "--auto-generate-sql-load-type=key",
        "-c",
        "2",
        "--commit=3",
    ],
    &[
        "--only-print",
        "-a",
        "--auto-generate-sql-execute-number=5",
        "--auto-generate-sql-load-type=write",
        "--auto-generate-sql-unique-write-number=2",
    ],
    &[
        "--only-print",
        "-a",
        "--auto-generate-sql-add-autoincrement",
        "--auto-generate-sql-load-type=read",
        "--auto-generate-sql-secondary-indexes=2",
        "--number-of-queries=7",
        "-c",
        "3",
    ],
];

#[test]
fn issue_42_as_mysqlslap_every_line_without_clients_is_mysqlslaps_text_and_code() {
    let test = "as_mysqlslap_lines";
    let Some(peer) = peer(test) else { return };
    let dir = scratch("as-mysqlslap-lines");
    let link = slap_link(&dir);
    for args in LINES {
        same_answer(&peer, &link, &dir, args);
    }
    // Without a link: --compat=mysqlslap, and MariaDB's other name for the program.
    let o = Command::new(bin())
        .args(["--compat=mysqlslap", "-V"])
        .output()
        .unwrap();
    assert_eq!(
        stdout(&o),
        "mysqlslap  Ver 1.0 Distrib 10.11.19-MariaDB, for debian-linux-gnu (x86_64)\n"
    );
    let other = dir.join("mariadb-slap");
    let _ = std::fs::remove_file(&other);
    std::os::unix::fs::symlink(bin(), &other).unwrap();
    let o = run(&other, &dir, &["--foo"]);
    assert_eq!(
        stderr(&o),
        format!("{}: unknown option '--foo'\n", other.display())
    );
    assert_eq!(o.status.code(), Some(2));
}

/// `args` under `program` with `answer` on stdin (no terminal: the password is read there).
fn answered(program: &Path, dir: &Path, args: &[&str], answer: &str) -> Output {
    use std::io::Write;
    let mut child = Command::new(program)
        .args(args)
        .current_dir(dir)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(answer.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn issue_42_as_mysqlslap_asks_for_the_password_after_its_checks() {
    let test = "as_mysqlslap_password";
    let Some(peer) = peer(test) else { return };
    let dir = scratch("as-mysqlslap-password");
    let link = slap_link(&dir);
    // mysqlslap's own refusals come before it asks, `Too many arguments` after.
    for args in [
        &["-p", "a", "b", "c"][..],
        &["-p", "--auto-generate-sql", "-q", "x"],
        &["--auto-generate-sql", "-q", "x", "a", "b", "c"],
    ] {
        same_answer(&peer, &link, &dir, args);
    }
    let Some(_srv) = server(test) else { return };
    // The answer read from stdin, the prompt on stderr: the right password runs, a wrong one
    // is refused as mysqlslap's is; `--password=` is an empty password, not a question.
    let line = [
        "-usbtest",
        "-p",
        "-q",
        "SELECT 1",
        "--create-schema=sbtest",
        "-i",
        "1",
    ];
    for answer in ["sbtest\n", "wrong\n"] {
        let theirs = answered(&peer, &dir, &line, answer);
        let ours = answered(&link, &dir, &line, answer);
        same_text(&theirs, &peer, &ours, &link, &line);
        assert!(
            stderr(&ours).starts_with("Enter password: "),
            "{}",
            stderr(&ours)
        );
    }
    let empty = [
        "-usbtest",
        "--password=",
        "-q",
        "SELECT 1",
        "--create-schema=sbtest",
    ];
    let theirs = answered(&peer, &dir, &empty, "sbtest\n");
    let ours = answered(&link, &dir, &empty, "sbtest\n");
    same_text(&theirs, &peer, &ours, &link, &empty);
    assert!(
        !stderr(&ours).contains("Enter password"),
        "{}",
        stderr(&ours)
    );
}

/// The schema the runs use (sbtest may make and drop `slap_…` schemas: scripts/services.sh).
const SCHEMA: &str = "slap_as_mysqlslap";

fn drop_schema(srv: &mut Server) {
    use mysql::prelude::Queryable;
    srv.conn
        .query_drop(format!("DROP DATABASE IF EXISTS {SCHEMA}"))
        .unwrap();
}

/// The server's Com_* counts of one run of `program`, dbpress's own SHOWs left out (its
/// sessions read sql_mode, and it looks for the schema before it would drop it).
fn counted(
    srv: &mut Server,
    program: &Path,
    dir: &Path,
    args: &[&str],
) -> (Output, Vec<(String, u64)>) {
    drop_schema(srv);
    let before = srv.com();
    let o = run(program, dir, args);
    let after = srv.com();
    drop_schema(srv);
    let mut d: Vec<(String, u64)> = after
        .iter()
        .filter(|(k, _)| !k.starts_with("Com_show_"))
        .map(|(k, v)| (k.clone(), v - before.get(k).copied().unwrap_or(0)))
        .filter(|(_, v)| *v > 0)
        .collect();
    d.sort();
    (o, d)
}

/// Runs: the same text (seconds masked), exit code and statements counted by the server.
#[test]
fn issue_42_as_mysqlslap_runs_print_its_text_and_send_its_statements() {
    let test = "as_mysqlslap_runs";
    let Some(peer) = peer(test) else { return };
    let Some(mut srv) = server(test) else { return };
    let dir = scratch("as-mysqlslap-runs");
    let link = slap_link(&dir);
    let schema = format!("--create-schema={SCHEMA}");
    let two_queries = "INSERT INTO t VALUES (1)\nSELECT COUNT(*) FROM t";
    let runs: Vec<Vec<&str>> = vec![
        vec!["-a", "-c", "2", "--number-of-queries=20", "-vv"],
        vec![
            "-a",
            "-c",
            "1,2",
            "-i",
            "2",
            "--auto-generate-sql-add-autoincrement",
            "--auto-generate-sql-load-type=update",
            "--number-of-queries=10",
        ],
        vec![
            "-a",
            "--auto-generate-sql-guid-primary",
            "--auto-generate-sql-load-type=key",
            "-c",
            "2",
            "--number-of-queries=6",
            "--commit=2",
        ],
        vec![
            "-a",
            "--auto-generate-sql-load-type=write",
            "--auto-generate-sql-execute-number=5",
            "-x",
            "2",
            "-y",
            "3",
            "-c",
            "1",
            "-vvv",
        ],
        vec![
            "--create=CREATE TABLE t(a INT)",
            "-q",
            two_queries,
            "-c",
            "2",
            "-i",
            "2",
            "--number-of-queries=8",
            "--pre-query=SELECT 1",
            "--post-query=SELECT 2",
            "-vv",
        ],
        vec![
            "--create=CREATE TABLE t(a INT)",
            "-q",
            "INSERT INTO t VALUES (1)",
            "-e",
            "innodb,myisam",
            "-c",
            "1,2",
        ],
        // --pre-system's output where mysqlslap's goes; a failed --post-system warned of in
        // its words, after the round's clients.
        vec![
            "--create=CREATE TABLE t(a INT)",
            "-q",
            "SELECT 3",
            "-i",
            "2",
            "--pre-system=echo PRE",
            "--post-system=exit 2",
        ],
        vec![
            "--create=CREATE TABLE t(a INT)",
            "-q",
            "INSERT INTO t VALUES (2)",
            "--commit=3",
            "--number-of-queries=7",
            "-c",
            "1",
            "-vvv",
        ],
        vec![
            "--create=CREATE TABLE t(a INT)",
            "-q",
            "SELECT 1",
            "--csv",
            "-c",
            "1,2",
        ],
        vec!["--create=CREATE TABLE t(a INT)", "-q", "SELECT 1", "-s"],
        vec!["--create=CREATE TABLE t(a INT)", "-q", "SELECT nosuch"],
        vec![
            "--create=CREATE TABLE t(a INT)",
            "-q",
            "SELECT 1",
            "--pre-query=SELECT nosuch",
        ],
        vec![
            "--create=CREATE TABLE t(a INT)",
            "-q",
            "SELECT 1",
            "--no-drop",
            "-i",
            "2",
        ],
        vec!["-q", "SELECT 1", "-i", "0", "-c", "1,2"],
    ];
    for extra in &runs {
        let args: Vec<&str> = ["-usbtest", "-psbtest", &schema]
            .into_iter()
            .chain(extra.iter().copied())
            .collect();
        let (theirs, their_counts) = counted(&mut srv, &peer, &dir, &args);
        let (ours, our_counts) = counted(&mut srv, &link, &dir, &args);
        same_text(&theirs, &peer, &ours, &link, &args);
        // mysqlslap stops at a failed query and leaves its schema behind; dbpress drops the
        // schema it made: one DROP SCHEMA more, and nothing else.
        let their_counts: Vec<(String, u64)> = match stderr(&ours).contains("Cannot run query") {
            true => their_counts
                .into_iter()
                .map(|(k, v)| match k.as_str() {
                    "Com_drop_db" => (k, v + 1),
                    _ => (k, v),
                })
                .collect(),
            false => their_counts,
        };
        assert_eq!(our_counts, their_counts, "the server's counts of {extra:?}");
    }
    // A schema that is not there: the clients cannot connect, said as mysqlslap says it.
    for args in [
        &[
            "-usbtest",
            "-psbtest",
            "--create-schema=slap_not_there",
            "-q",
            "SELECT 1",
        ][..],
        &["-usbtest", "-pwrong", "-q", "SELECT 1"][..],
    ] {
        same_answer(&peer, &link, &dir, args);
    }
}

/// mysqlslap drops the schema it runs in; dbpress drops only what it made, so a schema that
/// was there first is refused before anything is sent, in one line.
#[test]
fn issue_42_as_mysqlslap_never_drops_a_schema_it_did_not_make() {
    let test = "as_mysqlslap_keeps_schemas";
    let Some(mut srv) = server(test) else { return };
    let dir = scratch("as-mysqlslap-keep");
    let link = slap_link(&dir);
    use mysql::prelude::Queryable;
    srv.conn
        .query_drop(format!(
            "CREATE DATABASE IF NOT EXISTS {SCHEMA}; CREATE TABLE {SCHEMA}.mine (a INT); INSERT INTO {SCHEMA}.mine VALUES (7)"
        ))
        .unwrap();
    let schema = format!("--create-schema={SCHEMA}");
    let o = run(&link, &dir, &["-usbtest", "-psbtest", &schema, "-a"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        format!("{}: schema `{SCHEMA}` exists and mysqlslap would drop it; dbpress drops only what it created: drop it yourself, or name another with --create-schema\n", link.display())
    );
    let kept: i64 = srv
        .conn
        .query_first(format!("SELECT SUM(a) FROM {SCHEMA}.mine"))
        .unwrap()
        .unwrap();
    assert_eq!(kept, 7);
    drop_schema(&mut srv);
}
