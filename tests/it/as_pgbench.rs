//! Issue 42: dbpress invoked as pgbench (a link named `pgbench`) against PostgreSQL's own
//! pgbench 15 on the same command lines: every bad line's words and exit code, and each run's
//! report and progress lines with the numbers masked, and the same rows changed per
//! transaction on the server.

use crate::common::{bin, scratch, stderr, stdout};
use crate::engines::pg_server;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub(crate) const TARGET: &[&str] = &["-h", "/var/run/postgresql", "-U", "sbtest", "sbtest"];

pub(crate) fn pgbench_link(dir: &Path) -> PathBuf {
    let link = dir.join("pgbench");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(bin(), &link).unwrap();
    link
}

pub(crate) fn run(program: &Path, dir: &Path, args: &[&str]) -> Output {
    Command::new(program)
        .args(args)
        .current_dir(dir)
        .env("PGPASSWORD", "sbtest")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("runs")
}

/// The real pgbench, as Debian installs it (its getopt names the binary behind the wrapper).
fn peer() -> PathBuf {
    PathBuf::from("/usr/lib/postgresql/15/bin/pgbench")
}

/// A pgbench release the tests hold dbpress to: the real binary, and the major version the
/// link speaks as (`DBPRESS_PGBENCH_VERSION`); `name` keeps each release's scratch apart.
pub(crate) struct Release {
    pub(crate) peer: PathBuf,
    pub(crate) major: &'static str,
}

impl Release {
    fn scratch(&self, name: &str) -> PathBuf {
        scratch(&format!("{name}-{}", self.major))
    }

    /// `args` under `program` (the peer, or the link speaking as this release).
    fn run(&self, program: &Path, dir: &Path, args: &[&str]) -> Output {
        Command::new(program)
            .args(args)
            .current_dir(dir)
            .env("PGPASSWORD", "sbtest")
            .env("DBPRESS_PGBENCH_VERSION", self.major)
            .stdin(std::process::Stdio::null())
            .output()
            .expect("runs")
    }
}

fn release_15() -> Release {
    Release {
        peer: peer(),
        major: "15",
    }
}

/// A stream with the program's own path as `PROGRAM` (getopt names argv[0] as typed).
pub(crate) fn named(text: &str, program: &Path) -> String {
    text.replace(&program.display().to_string(), "PROGRAM")
}

/// Command lines pgbench refuses before connecting, or answers without a server.
pub(crate) const LINES: &[&[&str]] = &[
    &["--help"],
    &["-?"],
    &["-V"],
    &["--version"],
    &["--help", "-c", "0"],
    &["-c", "0", "--help"],
    &["-c", "0"],
    &["-c", "x"],
    &["-c", "1x"],
    &["-c", "99999999999"],
    &["-j", "0"],
    &["-T", "-1"],
    &["-T", "x"],
    &["-t", "0"],
    &["-M", "bad"],
    &["-b", "nosuch"],
    &["-b", "list"],
    &["-b", "s"],
    &["-b", "tpcb-like@x"],
    &["-b", "tpcb-like@-1"],
    &["-b", "tpcb-like@0"],
    &["-f", "missing.sql"],
    &["--nosuchoption"],
    &["-X"],
    &["-c"],
    &["--time"],
    &["--no-vacuum=1"],
    &["-T", "1", "-t", "1"],
    &["-t", "1", "--sampling-rate=0.5"],
    &[
        "-t",
        "1",
        "-l",
        "--sampling-rate=0.5",
        "--aggregate-interval=1",
    ],
    &["-t", "1", "-l", "--sampling-rate=2"],
    &["-t", "1", "--aggregate-interval=1"],
    &["-t", "1", "-l", "--aggregate-interval=0"],
    &["-T", "2", "-l", "--aggregate-interval=3"],
    &["-T", "3", "-l", "--aggregate-interval=2"],
    &["-t", "1", "--log-prefix=foo"],
    &["-R", "0"],
    &["-R", "x"],
    &["-L", "-3"],
    &["-P", "0"],
    &["-t", "1", "--progress-timestamp"],
    &["--partitions=3"],
    &["--partitions=-1"],
    &["-i", "--partition-method=list"],
    &["-i", "--partition-method=hash"],
    &["-i", "-I", "dtxv"],
    &["-i", "-I", ""],
    &["-I", "dt"],
    &["-s", "0"],
    &["-F", "5"],
    &["-D", "x"],
    &["-D", "=1"],
    &["-D", "x="],
    &["-D", "1x=2"],
    &["--random-seed=bad"],
    &["--max-tries=-1"],
    &["--max-tries=0"],
    &["-i", "-t", "5"],
    &["-C", "-q"],
    &["--unlogged-tables"],
    &["--show-script=select-only"],
    &["--show-script=tpcb"],
    &["--show-script=nosuch"],
    &["-t", "1", "-f", "one.sql", "db1", "db2"],
    &["-d", "--version"],
    &["-f", "bad.sql"],
    // Each value pgbench reads as a number, refused in its words; libpq's port checks.
    &["-j", "x"],
    &["-s", "x"],
    &["-F", "x"],
    &["-t", "x"],
    &["-P", "x"],
    &["--partitions=x"],
    &["--aggregate-interval=x"],
    &["-f", "one.sql@x"],
    &["-p", "x"],
    &["-p", "99999"],
    &["-i", "-p", "x"],
    &["--index-tablespace=x"],
    &["-i", "-v"],
    &["-i", "--verbose-errors"],
    &["-h", "/nonexistent", "-t", "1"],
];

#[test]
fn issue_42_as_pgbench_every_refused_line_is_pgbenchs_words_and_code() {
    refused_lines_are_pgbenchs(&release_15());
}

pub(crate) fn refused_lines_are_pgbenchs(r: &Release) {
    let dir = r.scratch("as-pgbench-lines");
    std::fs::write(dir.join("one.sql"), "SELECT 1;\n").unwrap();
    std::fs::write(dir.join("bad.sql"), "\\set x random(1)\nSELECT 1;\n").unwrap();
    let link = pgbench_link(&dir);
    for args in LINES {
        let theirs = r.run(&r.peer, &dir, args);
        let ours = r.run(&link, &dir, args);
        assert_eq!(
            ours.status.code(),
            theirs.status.code(),
            "{args:?}: exit codes; ours said {}",
            stderr(&ours)
        );
        assert_eq!(stdout(&ours), stdout(&theirs), "{args:?}: stdout");
        assert_eq!(
            named(&stderr(&ours), &link),
            named(&stderr(&theirs), &r.peer),
            "{args:?}: stderr"
        );
    }
}

/// A report's lines with every number as `#`.
pub(crate) fn masked(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| {
            let mut out = String::new();
            let mut in_number = false;
            for c in l.chars() {
                if c.is_ascii_digit() || (in_number && c == '.') {
                    if !in_number {
                        out.push('#');
                    }
                    in_number = true;
                } else {
                    in_number = false;
                    out.push(c);
                }
            }
            out.split(' ')
                .filter(|w| !w.is_empty())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

/// Runs with pgbench's tables, each line under both tools: the report the same but for
/// numbers, and the same stderr but for the progress lines' count (one falls on the end or not).
const RUNS: &[&[&str]] = &[
    &["-t", "20"],
    &["-t", "20", "-c", "2", "-j", "2"],
    &["-T", "2", "-c", "2", "-j", "2", "-P", "1"],
    &["-t", "30", "-r"],
    &["-t", "30", "-S", "-M", "prepared"],
    &["-t", "30", "-N", "-M", "extended"],
    &["-t", "20", "-R", "200", "-L", "50"],
    &[
        "-n",
        "-t",
        "40",
        "-b",
        "select-only@3",
        "-b",
        "simple-update@1",
    ],
    &["-n", "-t", "10", "-f", "custom.sql", "-D", "k=5"],
    &["-n", "-t", "10", "-f", "custom.sql", "-D", "k=5", "-s", "7"],
    &["-t", "10", "-s", "3"],
    &["-n", "-t", "5", "--random-seed=42"],
    &["-n", "-C", "-S", "-t", "20", "-c", "2", "-j", "2"],
    &[
        "-n",
        "-t",
        "20",
        "-r",
        "-b",
        "tpcb-like@2",
        "-b",
        "select-only@1",
    ],
];

#[test]
fn issue_42_as_pgbench_runs_print_pgbenchs_report() {
    runs_print_pgbenchs_report(&release_15());
}

pub(crate) fn runs_print_pgbenchs_report(r: &Release) {
    let Some(_pg) = pg_server("as-pgbench-runs") else {
        return;
    };
    let dir = r.scratch("as-pgbench-runs");
    std::fs::write(
        dir.join("custom.sql"),
        "\\set a random(1, 100000 * :scale)\nSELECT abalance + :k FROM pgbench_accounts WHERE aid = :a;\n",
    )
    .unwrap();
    let init = r.run(&r.peer, &dir, &[&["-i", "-s", "2", "-q"], TARGET].concat());
    assert!(init.status.success(), "{}", stderr(&init));
    let link = pgbench_link(&dir);
    for args in RUNS {
        let line = [args, TARGET].concat();
        let theirs = r.run(&r.peer, &dir, &line);
        let ours = r.run(&link, &dir, &line);
        assert_eq!(
            ours.status.code(),
            theirs.status.code(),
            "{args:?}: {}",
            stderr(&ours)
        );
        assert_eq!(
            masked(&stdout(&ours)),
            masked(&stdout(&theirs)),
            "{args:?}\n--- pgbench:\n{}--- dbpress:\n{}",
            stdout(&theirs),
            stdout(&ours)
        );
        let rest = |o: &Output| -> Vec<String> {
            masked(&stderr(o))
                .into_iter()
                .filter(|l| !l.starts_with("progress:"))
                .collect()
        };
        assert_eq!(rest(&ours), rest(&theirs), "{args:?}: stderr");
        let progress = |o: &Output| {
            stderr(o)
                .lines()
                .filter(|l| l.starts_with("progress:"))
                .count()
        };
        assert!(
            progress(&ours).abs_diff(progress(&theirs)) <= 1,
            "{args:?}: progress lines\n--- pgbench:\n{}--- dbpress:\n{}",
            stderr(&theirs),
            stderr(&ours)
        );
    }
}

/// The rows pgbench's tables took, as the server counts them, the write transactions, and the
/// accounts' index lookups.
pub(crate) fn server_counts(c: &mut postgres::Client) -> Vec<i64> {
    for _ in 0..100 {
        let left: i64 = c
            .query_one(
                "SELECT COUNT(*) FROM pg_stat_activity WHERE application_name IN ('dbpress', 'pgbench')",
                &[],
            )
            .unwrap()
            .get(0);
        if left == 0 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    c.batch_execute("SELECT pg_stat_clear_snapshot()").unwrap();
    let row = c
        .query_one(
            "SELECT txid_current()::bigint, \
             COALESCE(SUM(n_tup_ins), 0)::bigint, COALESCE(SUM(n_tup_upd), 0)::bigint, \
             COALESCE(SUM(n_tup_del), 0)::bigint, \
             COALESCE(SUM(idx_scan) FILTER (WHERE relname = 'pgbench_accounts'), 0)::bigint \
             FROM pg_stat_user_tables WHERE relname LIKE 'pgbench%'",
            &[],
        )
        .unwrap();
    (0..5).map(|i| row.get::<_, i64>(i)).collect()
}

#[test]
fn issue_42_as_pgbench_the_server_does_pgbenchs_work_per_transaction() {
    let Some((_guard, mut c)) = pg_server("as-pgbench-counts") else {
        return;
    };
    let dir = scratch("as-pgbench-counts");
    let init = run(&peer(), &dir, &[&["-i", "-s", "1", "-q"], TARGET].concat());
    assert!(init.status.success(), "{}", stderr(&init));
    let link = pgbench_link(&dir);
    for args in [
        &["-n", "-t", "50", "-c", "2", "-j", "2"][..],
        &["-n", "-t", "40", "-S", "-M", "prepared"],
        &["-n", "-t", "40", "-N", "-M", "extended"],
        &[
            "-n",
            "-t",
            "30",
            "-b",
            "tpcb-like@2",
            "-b",
            "select-only@1",
            "--random-seed=9",
        ],
    ] {
        let line = [args, TARGET].concat();
        // Transaction ids are the whole cluster's: a test writing to PostgreSQL at the same
        // moment adds some. The pair is run again (up to three times) while only that count
        // differs; a difference that stays, or in the rows, fails.
        let mut deltas = Vec::new();
        for _ in 0..3 {
            deltas = [peer(), link.clone()]
                .iter()
                .map(|program| {
                    let before = server_counts(&mut c);
                    let o = run(program, &dir, &line);
                    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
                    let after = server_counts(&mut c);
                    after
                        .iter()
                        .zip(&before)
                        .map(|(a, b)| a - b)
                        .collect::<Vec<_>>()
                })
                .collect();
            if deltas[0] == deltas[1] || deltas[0][1..] != deltas[1][1..] {
                break;
            }
        }
        assert!(
            deltas[0][4] >= 30,
            "{args:?}: the counters moved: {deltas:?}"
        );
        assert_eq!(
            deltas[1], deltas[0],
            "{args:?}: [write transactions, rows inserted, updated, deleted, account lookups] dbpress vs pgbench"
        );
    }
}

/// What `-i` left, as the catalog says: each pgbench table's row count, persistence, options
/// and partition bounds, and the constraints.
pub(crate) fn made(c: &mut postgres::Client) -> Vec<String> {
    let q = "SELECT c.relname || ' ' || c.relpersistence::text || ' ' || COALESCE(c.reloptions::text, '-') \
             || ' ' || COALESCE(pg_get_expr(c.relpartbound, c.oid), '-') \
             FROM pg_class c WHERE c.relname LIKE 'pgbench%' AND c.relkind IN ('r', 'p') \
             UNION ALL SELECT conname || ' ' || contype::text FROM pg_constraint WHERE conname LIKE 'pgbench%' \
             ORDER BY 1";
    let mut rows: Vec<String> = c.query(q, &[]).unwrap().iter().map(|r| r.get(0)).collect();
    for t in ["pgbench_accounts", "pgbench_tellers", "pgbench_branches"] {
        let there: bool = c
            .query_one("SELECT to_regclass($1) IS NOT NULL", &[&t])
            .unwrap()
            .get(0);
        if there {
            let q = format!("SELECT COUNT(*) || ' ' || COALESCE(SUM(bid), 0) FROM {t}");
            rows.push(format!(
                "{t} {}",
                c.query_one(&q, &[]).unwrap().get::<_, String>(0)
            ));
        }
    }
    rows
}

#[test]
fn issue_42_as_pgbench_initialize_makes_pgbenchs_tables_with_its_lines() {
    let Some((_guard, mut c)) = pg_server("as-pgbench-init") else {
        return;
    };
    let dir = scratch("as-pgbench-init");
    let link = pgbench_link(&dir);
    for args in [
        &["-i", "-s", "2"][..],
        &["-i", "-q", "-n", "--foreign-keys"],
        &["-i", "-I", "dtGvpf", "--partitions=3", "-F", "90"],
        &[
            "-i",
            "--partitions=2",
            "--partition-method=hash",
            "--unlogged-tables",
        ],
        &["-i", "-I", "dt g"],
        &["-i", "--tablespace=nosuch"],
    ] {
        let line = [args, TARGET].concat();
        let mut seen = Vec::new();
        for program in [peer(), link.clone()] {
            c.batch_execute("DROP TABLE IF EXISTS pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers CASCADE")
                .unwrap();
            let o = run(&program, &dir, &line);
            seen.push((
                o.status.code(),
                stdout(&o),
                masked(&stderr(&o)),
                made(&mut c),
            ));
        }
        assert_eq!(seen[1], seen[0], "{args:?}: dbpress, then pgbench");
    }
}

/// Scripts whose client aborts (a statement the server refuses, a meta-command that fails, a
/// `\gset` without its row), in every query mode, and a serialization failure's tries: the
/// same stdout (numbers masked), the same stderr, the same exit code (2 for an abort).
const TROUBLE: &[(&str, &str)] = &[
    ("err.sql", "SELECT 1;\nSELECT * FROM nosuch;\n"),
    (
        "err2.sql",
        "SELECT 1;\nSELECT * FROM nosuch\n  WHERE x = 1;\n",
    ),
    ("div.sql", "\\set x 1/0\nSELECT 1;\n"),
    ("gset.sql", "SELECT 1 AS a WHERE false \\gset\n"),
    ("shell.sql", "\\shell false\nSELECT 1;\n"),
    ("sleep.sql", "\\sleep :nosuch\nSELECT 1;\n"),
    (
        "open.sql",
        "\\set a 1\nSELECT :a::int AS b\n\\gset\n\\set c debug(:b + 1)\n",
    ),
];

/// The same exit code, stdout (numbers masked) and stderr as pgbench's for `what`.
pub(crate) fn same_as_pgbench(ours: &Output, theirs: &Output, what: &str) {
    assert_eq!(
        ours.status.code(),
        theirs.status.code(),
        "{what}: {}",
        stderr(ours)
    );
    assert_eq!(masked(&stdout(ours)), masked(&stdout(theirs)), "{what}");
    assert_eq!(stderr(ours), stderr(theirs), "{what}");
}

#[test]
fn issue_42_as_pgbench_an_aborted_client_ends_the_run_as_pgbenchs_does() {
    aborts_are_pgbenchs(&release_15());
}

pub(crate) fn aborts_are_pgbenchs(r: &Release) {
    let Some(_pg) = pg_server("as-pgbench-aborts") else {
        return;
    };
    let dir = r.scratch("as-pgbench-aborts");
    let link = pgbench_link(&dir);
    for (name, text) in TROUBLE {
        std::fs::write(dir.join(name), text).unwrap();
        for mode in ["simple", "extended", "prepared"] {
            let line = [&["-n", "-t", "2", "-M", mode, "-f", name][..], TARGET].concat();
            let theirs = r.run(&r.peer, &dir, &line);
            let ours = r.run(&link, &dir, &line);
            same_as_pgbench(&ours, &theirs, &format!("{name} -M {mode}"));
        }
    }
}

#[test]
fn issue_42_as_pgbench_serialization_failures_are_retried_then_counted() {
    let Some(_pg) = pg_server("as-pgbench-failures") else {
        return;
    };
    let dir = scratch("as-pgbench-failures");
    let init = run(&peer(), &dir, &[&["-i", "-q"], TARGET].concat());
    assert!(init.status.success(), "{}", stderr(&init));
    std::fs::write(
        dir.join("serial.sql"),
        "BEGIN ISOLATION LEVEL REPEATABLE READ;\nUPDATE pgbench_branches SET bbalance = bbalance + 1 WHERE bid = 1;\nSELECT pg_sleep(0.002);\nEND;\n",
    )
    .unwrap();
    let link = pgbench_link(&dir);
    for tries in ["--max-tries=1", "--max-tries=3"] {
        let line = [
            &[
                "-n",
                "-c",
                "4",
                "-j",
                "4",
                "-t",
                "20",
                tries,
                "--failures-detailed",
                "-r",
                "-f",
                "serial.sql",
            ][..],
            TARGET,
        ]
        .concat();
        let theirs = run(&peer(), &dir, &line);
        let ours = run(&link, &dir, &line);
        assert_eq!(ours.status.code(), Some(0), "{}", stderr(&ours));
        assert_eq!(masked(&stdout(&ours)), masked(&stdout(&theirs)), "{tries}");
        assert_eq!(stderr(&ours), stderr(&theirs), "{tries}");
        // Four clients on one row: some tries failed, and each failure is a transaction
        // counted as failed, not processed.
        let failed = stdout(&ours)
            .lines()
            .find_map(|l| l.strip_prefix("number of serialization failures: "))
            .and_then(|v| v.split(' ').next()?.parse::<u64>().ok())
            .unwrap();
        let processed = stdout(&ours)
            .lines()
            .find_map(|l| l.strip_prefix("number of transactions actually processed: "))
            .and_then(|v| v.split('/').next()?.parse::<u64>().ok())
            .unwrap();
        assert!(failed > 0, "{}", stdout(&ours));
        assert_eq!(processed + failed, 80, "{}", stdout(&ours));
    }
}

#[test]
fn issue_42_as_pgbench_a_failed_connection_is_in_libpqs_words() {
    let Some(_pg) = pg_server("as-pgbench-connect") else {
        return;
    };
    let dir = scratch("as-pgbench-connect");
    std::fs::write(dir.join("one.sql"), "SELECT 1;\n").unwrap();
    let link = pgbench_link(&dir);
    for target in [
        &["-h", "/tmp/dbpress-no-such-dir"][..],
        &["-h", "127.0.0.1", "-p", "1"],
        &["-h", "localhost", "-p", "1"],
        &["-h", "/var/run/postgresql", "-U", "nosuch"],
        &["-h", "/var/run/postgresql", "-U", "sbtest", "nosuchdb"],
        &["-h", "127.0.0.1", "-U", "sbtest", "-p", "5432", "nosuchdb"],
    ] {
        for init in [false, true] {
            let mut line: Vec<&str> = if init {
                vec!["-i"]
            } else {
                vec!["-n", "-t", "1", "-f", "one.sql"]
            };
            line.extend_from_slice(target);
            let theirs = run(&peer(), &dir, &line);
            let ours = run(&link, &dir, &line);
            assert_eq!(ours.status.code(), theirs.status.code(), "{line:?}");
            assert_eq!(stdout(&ours), stdout(&theirs), "{line:?}");
            assert_eq!(stderr(&ours), stderr(&theirs), "{line:?}");
        }
    }
}

/// The log files a run left in `dir` (their names with the process id as `PID`), each as its
/// lines.
fn logs(dir: &Path) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| {
            let name = e.ok()?.file_name().to_string_lossy().into_owned();
            let (prefix, rest) = name.split_once('.')?;
            let shape = match rest.split_once('.') {
                Some((_, n)) => format!("{prefix}.PID.{n}"),
                None => format!("{prefix}.PID"),
            };
            let text = std::fs::read_to_string(dir.join(&name)).ok()?;
            std::fs::remove_file(dir.join(&name)).ok()?;
            Some((shape, text.lines().map(str::to_string).collect()))
        })
        .collect();
    out.sort();
    out
}

#[test]
fn issue_42_as_pgbench_logs_each_transaction_as_pgbench_does() {
    let Some(_pg) = pg_server("as-pgbench-logs") else {
        return;
    };
    let base = scratch("as-pgbench-logs");
    let init = run(&peer(), &base, &[&["-i", "-q"], TARGET].concat());
    assert!(init.status.success(), "{}", stderr(&init));
    let link = pgbench_link(&base);
    for args in [
        &["-n", "-S", "-c", "2", "-j", "2", "-t", "40", "-l"][..],
        &[
            "-n",
            "-S",
            "-c",
            "3",
            "-j",
            "2",
            "-t",
            "10",
            "-l",
            "--log-prefix=mylog",
        ],
        // The same seed samples the same transactions.
        &[
            "-n",
            "-S",
            "-c",
            "2",
            "-j",
            "2",
            "-t",
            "200",
            "-l",
            "--sampling-rate=0.25",
            "--random-seed=7",
        ],
        &[
            "-n",
            "-S",
            "-c",
            "1",
            "-T",
            "3",
            "-l",
            "--aggregate-interval=1",
        ],
        // Under -R each line ends in its schedule lag (µs); the aggregate's lag fields fill.
        &[
            "-n", "-S", "-c", "2", "-j", "2", "-t", "40", "-R", "400", "-l",
        ],
        &[
            "-n",
            "-S",
            "-c",
            "1",
            "-T",
            "3",
            "-R",
            "300",
            "-l",
            "--aggregate-interval=1",
        ],
    ] {
        let mut seen = Vec::new();
        for program in [peer(), link.clone()] {
            let dir = base.join(if seen.is_empty() { "theirs" } else { "ours" });
            std::fs::create_dir_all(&dir).unwrap();
            let o = run(&program, &dir, &[args, TARGET].concat());
            assert!(o.status.success(), "{args:?}: {}", stderr(&o));
            seen.push(logs(&dir));
        }
        let (theirs, ours) = (&seen[0], &seen[1]);
        let names =
            |l: &[(String, Vec<String>)]| l.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
        assert_eq!(names(ours), names(theirs), "{args:?}: the files");
        for ((name, t), (_, o)) in theirs.iter().zip(ours) {
            let fields = |l: &[String]| l.iter().map(|l| l.split(' ').count()).collect::<Vec<_>>();
            // Sorted: clients sharing a thread's file interleave by timing.
            let keys = |l: &[String]| -> Vec<String> {
                let mut k: Vec<String> = l
                    .iter()
                    .map(|l| l.split(' ').take(2).collect::<Vec<_>>().join(" "))
                    .collect();
                k.sort();
                k
            };
            if args.contains(&"--aggregate-interval=1") {
                // One line per whole second ended: 2 or 3 of a 3 s run, 15 fields each.
                assert!((2..=4).contains(&o.len()), "{name}: {o:?}");
                assert!(fields(o).iter().all(|&n| n == 15), "{name}: {o:?}");
                assert!(fields(t).iter().all(|&n| n == 15), "{name}: {t:?}");
                if args.contains(&"-R") {
                    // sum_lag, sum_lag_2, min_lag, max_lag: a paced second has lags.
                    let lags = |l: &String| l.split(' ').nth(9).map(|v| v.parse::<f64>().unwrap());
                    assert!(o.iter().any(|l| lags(l) > Some(0.0)), "{name}: {o:?}");
                    assert!(t.iter().any(|l| lags(l) > Some(0.0)), "{name}: {t:?}");
                }
            } else {
                assert_eq!(fields(o), fields(t), "{args:?} {name}: fields per line");
                assert_eq!(
                    keys(o),
                    keys(t),
                    "{args:?} {name}: client and transaction numbers"
                );
            }
        }
    }
}

/// The report's `number of transactions skipped: N`.
fn skipped_in_report(o: &Output) -> usize {
    stdout(o)
        .lines()
        .find_map(|l| l.strip_prefix("number of transactions skipped: "))
        .and_then(|r| r.split(' ').next()?.parse().ok())
        .unwrap_or(0)
}

#[test]
fn issue_42_as_pgbench_logs_the_transactions_latency_limit_skips() {
    let Some(_pg) = pg_server("as-pgbench-skipped") else {
        return;
    };
    let base = scratch("as-pgbench-skipped");
    let init = run(&peer(), &base, &[&["-i", "-q"], TARGET].concat());
    assert!(init.status.success(), "{}", stderr(&init));
    let link = pgbench_link(&base);
    // A rate no server here keeps up with and a limit under any transaction's time: a backlog,
    // and most slots skipped.
    let paced = [
        "-n", "-S", "-c", "2", "-T", "2", "-R", "20000", "-L", "0.05", "-l",
    ];
    for (program, side) in [(peer(), "theirs"), (link.clone(), "ours")] {
        let dir = base.join(side);
        std::fs::create_dir_all(&dir).unwrap();
        let o = run(&program, &dir, &[&paced[..], TARGET].concat());
        assert!(o.status.success(), "{side}: {}", stderr(&o));
        let lines: Vec<String> = logs(&dir).into_iter().flat_map(|(_, l)| l).collect();
        let skipped: Vec<&String> = lines.iter().filter(|l| l.contains(" skipped ")).collect();
        assert!(!skipped.is_empty(), "{side}: nothing skipped");
        assert_eq!(
            skipped.len(),
            skipped_in_report(&o),
            "{side}: skipped lines vs report"
        );
        // client, transaction, `skipped`, script, time (s, µs), lag 0.
        for l in &skipped {
            let f: Vec<&str> = l.split(' ').collect();
            assert_eq!((f.len(), f[2], f[6]), (7, "skipped", "0"), "{side}: {l}");
        }
        // Each client's transactions numbered 1, 2, … across run and skipped ones alike.
        for client in ["0", "1"] {
            let mut numbers: Vec<u64> = lines
                .iter()
                .filter(|l| l.split(' ').next() == Some(client))
                .map(|l| l.split(' ').nth(1).unwrap().parse().unwrap())
                .collect();
            numbers.sort();
            let expected: Vec<u64> = (1..=numbers.len() as u64).collect();
            assert_eq!(numbers, expected, "{side}: client {client}'s numbers");
        }
        // Aggregated, the 11th field counts them.
        let o = run(
            &program,
            &dir,
            &[&paced[..], &["--aggregate-interval=1"], TARGET].concat(),
        );
        assert!(o.status.success(), "{side}: {}", stderr(&o));
        let agg: Vec<String> = logs(&dir).into_iter().flat_map(|(_, l)| l).collect();
        let field = |l: &String| l.split(' ').nth(10).and_then(|v| v.parse::<u64>().ok());
        assert!(agg.iter().any(|l| field(l) > Some(0)), "{side}: {agg:?}");
    }
}

/// Cases from pgbench's own TAP suite that dbpress answered otherwise (#42): invalid variable
/// names, `\shell`'s undefined variable, the 255-parameter, 255-word and 16-argument limits, a
/// script ending inside a transaction block, `\gset` of a SELECT without columns, the server's
/// CONTEXT line and PGOPTIONS (each under `-M prepared`); pipelines and their misuse (each in
/// every query mode). With pgbench: the same exit code, stdout (numbers masked) and stderr.
#[test]
fn issue_42_as_pgbench_tap_suite_cases_are_pgbenchs_text() {
    tap_cases_are_pgbenchs(&release_15());
}

pub(crate) fn tap_cases_are_pgbenchs(r: &Release) {
    let Some(_pg) = pg_server("as-pgbench-tap-cases") else {
        return;
    };
    let dir = r.scratch("as-pgbench-tap-cases");
    let link = pgbench_link(&dir);
    let many_params = format!("\\set i 0\nSELECT LEAST({})\n", vec![":i"; 256].join(", "));
    let many_words = format!("\\shell echo {}\n", vec!["arg"; 255].join(" "));
    let cases: Vec<(&str, String, &str)> =
        vec![
        ("set-name.sql", "\\set . 1\n".into(), ""),
        ("gset-name.sql", "SELECT 1 \\gset\n".into(), ""),
        ("gset-bad.sql", "SELECT 1 AS \"bad name!\" \\gset\n".into(), ""),
        ("aset-name.sql", "SELECT 1 \\aset\n".into(), ""),
        ("shell-var.sql", "\\shell echo ::foo :nosuchvariable\n".into(), ""),
        (
            "least.sql",
            "\\set i least(0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16)\n".into(),
            "",
        ),
        ("open-txn.sql", "BEGIN;SELECT 1;".into(), ""),
        ("params.sql", many_params, ""),
        ("words.sql", many_words, ""),
        (
            "no-columns.sql",
            "SELECT \\gset\nSELECT 0 AS i0 \\gset\n\\set i debug(:i0)\n".into(),
            "",
        ),
        (
            "context.sql",
            "select '1' as one \\gset\nSELECT 1 / (random() / 2)::int, :one::int, :two::int;\n"
                .into(),
            "-c log_parameter_max_length_on_error=64",
        ),
        (
            "pgoptions.sql",
            "SELECT (current_setting('work_mem') = '77MB')::int AS ok \\gset\n\\set x 1 / :ok\n"
                .into(),
            "-c work_mem=77MB",
        ),
    ];
    let pipelines = [
        ("pipeline.sql", "\\startpipeline\n"),
        ("pipeline-twice.sql", "\\startpipeline\n\\startpipeline\n"),
        ("pipeline-end.sql", "\\endpipeline\n"),
        (
            "pipeline-gset.sql",
            "\\startpipeline\nselect 1 \\gset f\n\\endpipeline\n",
        ),
        (
            "pipeline-error.sql",
            "\\startpipeline\nselect 1;\nselect 1/0;\nselect 3;\n\\endpipeline\n",
        ),
        ("pipeline-open.sql", "\\startpipeline\nselect 1;\n"),
    ];
    let mut runs: Vec<(&str, String, &str, &str)> = cases
        .into_iter()
        .map(|(n, t, o)| (n, t, o, "prepared"))
        .collect();
    for (name, text) in pipelines {
        let text = match name {
            // Ten statements in one pipeline, as the TAP suite's working case.
            "pipeline.sql" => format!("{text}{}\\endpipeline\n", "select 1;\n".repeat(10)),
            _ => text.to_string(),
        };
        for mode in ["extended", "prepared", "simple"] {
            runs.push((name, text.clone(), "", mode));
        }
    }
    for (name, text, pgoptions, mode) in &runs {
        std::fs::write(dir.join(name), text).unwrap();
        let line = [&["-n", "-t", "2", "-M", mode, "-f", name][..], TARGET].concat();
        let go = |program: &Path| {
            Command::new(program)
                .args(&line)
                .current_dir(&dir)
                .env("PGPASSWORD", "sbtest")
                .env("PGOPTIONS", pgoptions)
                .env("DBPRESS_PGBENCH_VERSION", r.major)
                .stdin(std::process::Stdio::null())
                .output()
                .unwrap()
        };
        let (theirs, ours) = (go(&r.peer), go(&link));
        same_as_pgbench(&ours, &theirs, &format!("{name} -M {mode}"));
    }
}

/// `-d`: the run's target line, then each client's lines as it works — the script, each
/// meta-command, each statement prepared and sent, and its result received — as pgbench says
/// them (pgbench says `receiving` once per poll of the socket, so repeated ones count once).
#[test]
fn issue_42_as_pgbench_debug_lines_are_pgbenchs() {
    let Some(_pg) = pg_server("as-pgbench-debug") else {
        return;
    };
    let dir = scratch("as-pgbench-debug");
    let link = pgbench_link(&dir);
    std::fs::write(
        dir.join("debug.sql"),
        "\\set a 1\nSELECT :a;\nBEGIN;\n\\sleep 1 ms\nEND;\n",
    )
    .unwrap();
    let lines = |o: &Output| {
        let mut v: Vec<String> = stderr(o).lines().map(str::to_string).collect();
        v.dedup();
        v
    };
    for mode in ["simple", "prepared"] {
        let line = [
            &["-n", "-t", "2", "-M", mode, "-d", "-f", "debug.sql"][..],
            TARGET,
        ]
        .concat();
        let (theirs, ours) = (run(&peer(), &dir, &line), run(&link, &dir, &line));
        assert_eq!(ours.status.code(), Some(0), "{}", stderr(&ours));
        assert_eq!(lines(&ours), lines(&theirs), "-M {mode}");
        assert!(lines(&ours).len() > 10, "{:?}", lines(&ours));
    }
}
