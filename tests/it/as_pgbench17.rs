//! Issue 42: dbpress speaking as pgbench 17 (a `pgbench` link with DBPRESS_PGBENCH_VERSION=17,
//! or `--compat=pgbench-17`) against Debian 13's pgbench 17 (scripts/pgbench17.sh): its help,
//! its options (`-d` names the database, `--debug`, `--exit-on-abort`), its load's statements
//! and lines, and a run's report.

use super::as_pgbench::{
    made, masked, named, pgbench_link, same_as_pgbench, server_counts, LINES as LINES_15, TARGET,
};
use crate::common::{bin, scratch, stderr, stdout};
use crate::engines::pg_server;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// pgbench 17 as scripts/pgbench17.sh unpacks it; in CI its absence fails the test.
fn peer17() -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/peers/pgbench-17/pgbench");
    if p.exists() {
        return Some(p);
    }
    if std::env::var("CI").is_ok_and(|v| v == "true" || v == "1") {
        panic!("pgbench 17 is required in CI: scripts/pgbench17.sh did not install it");
    }
    eprintln!("SKIPPED: no pgbench 17 (run scripts/pgbench17.sh)");
    None
}

/// `args` under `program`, as pgbench 17 when it is dbpress.
fn run17(program: &Path, dir: &Path, args: &[&str]) -> Output {
    Command::new(program)
        .args(args)
        .current_dir(dir)
        .env("PGPASSWORD", "sbtest")
        .env("DBPRESS_PGBENCH_VERSION", "17")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("runs")
}

/// Lines pgbench 17 answers without a server, or refuses: byte for byte.
const LINES: &[&[&str]] = &[
    &["--help"],
    &["-V"],
    &["--d"],
    &["--de"],
    &["-d"],
    &["-t", "1", "-d", "x", "a", "b"],
    &["-t", "1", "a", "b", "c"],
    &["--exit-on-abort", "-i"],
    &["-i", "--debug", "-t", "5"],
    &["-b", "list"],
];

#[test]
fn issue_42_as_pgbench_17_help_and_options_are_pgbench_17s() {
    let Some(peer) = peer17() else { return };
    let dir = scratch("as-pgbench17-lines");
    std::fs::write(dir.join("one.sql"), "SELECT 1;\n").unwrap();
    std::fs::write(dir.join("bad.sql"), "\\set x random(1)\nSELECT 1;\n").unwrap();
    let link = pgbench_link(&dir);
    // pgbench 15's lines too: where 17 words them otherwise (`-c/--client`), as 17 does.
    for args in LINES.iter().chain(LINES_15) {
        let theirs = run17(&peer, &dir, args);
        let ours = run17(&link, &dir, args);
        assert_eq!(
            ours.status.code(),
            theirs.status.code(),
            "{args:?}: {}",
            stderr(&ours)
        );
        assert_eq!(stdout(&ours), stdout(&theirs), "{args:?}: stdout");
        // getopt names the binary behind the wrapper.
        let behind = peer.with_file_name("bin").join("pgbench");
        assert_eq!(
            named(&stderr(&ours), &link),
            named(&stderr(&theirs), &behind),
            "{args:?}"
        );
    }
    // --compat=pgbench-17 is the same as the variable; pgbench 15 knows no --exit-on-abort.
    let compat = Command::new(bin())
        .args(["--compat=pgbench-17", "-V"])
        .output()
        .unwrap();
    assert_eq!(stdout(&compat), stdout(&run17(&peer, &dir, &["-V"])));
    let as15 = Command::new(&link)
        .args(["--exit-on-abort", "-i"])
        .output()
        .unwrap();
    assert!(
        stderr(&as15).contains("unrecognized option '--exit-on-abort'"),
        "{}",
        stderr(&as15)
    );
}

#[test]
fn issue_42_as_pgbench_17_initialize_loads_as_pgbench_17_does() {
    let Some(peer) = peer17() else { return };
    let Some((_guard, mut c)) = pg_server("as-pgbench17-init") else {
        return;
    };
    let dir = scratch("as-pgbench17-init");
    let link = pgbench_link(&dir);
    for args in [
        &["-i", "-s", "2"][..],
        &["-i", "-s", "10", "-q", "--foreign-keys"],
        &["-i", "--partitions=2", "-s", "2"],
    ] {
        let line = [args, TARGET].concat();
        let mut seen = Vec::new();
        for program in [&peer, &link] {
            c.batch_execute("DROP TABLE IF EXISTS pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers CASCADE")
                .unwrap();
            let before = server_counts(&mut c);
            let o = run17(program, &dir, &line);
            let after = server_counts(&mut c);
            // Rows inserted by the load (transaction ids are the cluster's, left out).
            let inserted = after[1] - before[1];
            seen.push((
                o.status.code(),
                stdout(&o),
                masked(&stderr(&o)),
                made(&mut c),
                inserted,
            ));
        }
        assert_eq!(seen[1], seen[0], "{args:?}: dbpress, then pgbench 17");
    }
}

/// pgbench 17's `\\syncpipeline`: a sync point inside a pipeline (its first segment's error
/// leaves the next segment to commit), and refused outside one.
const SYNC_SCRIPTS: &[(&str, &str)] = &[
    ("sync.sql", "\\startpipeline\nSELECT 1;\n\\syncpipeline\nSELECT 2;\n\\endpipeline\n"),
    (
        "sync_err.sql",
        "\\startpipeline\nSELECT 1/0;\n\\syncpipeline\nINSERT INTO pgbench_history(tid, bid, aid, delta) VALUES (1, 1, 1, 1);\n\\endpipeline\n",
    ),
    ("sync_out.sql", "\\syncpipeline\nSELECT 1;\n"),
    ("sync_twice.sql", "\\startpipeline\n\\syncpipeline\n\\syncpipeline\nSELECT 1;\n\\endpipeline\n"),
];

#[test]
fn issue_42_as_pgbench_17_syncpipeline_is_pgbench_17s() {
    let Some(peer) = peer17() else { return };
    let Some((_guard, mut c)) = pg_server("as-pgbench17-sync") else {
        return;
    };
    let dir = scratch("as-pgbench17-sync");
    let init = run17(&peer, &dir, &[&["-i", "-s", "1", "-q"], TARGET].concat());
    assert!(init.status.success(), "{}", stderr(&init));
    let link = pgbench_link(&dir);
    for (name, text) in SYNC_SCRIPTS {
        std::fs::write(dir.join(name), text).unwrap();
        for mode in ["extended", "prepared", "simple"] {
            let line = [&["-n", "-t", "3", "-M", mode, "-f", name][..], TARGET].concat();
            let mut rows = Vec::new();
            let mut said = Vec::new();
            for program in [&peer, &link] {
                c.batch_execute("TRUNCATE pgbench_history").unwrap();
                said.push(run17(program, &dir, &line));
                let n: i64 = c
                    .query_one("SELECT COUNT(*) FROM pgbench_history", &[])
                    .unwrap()
                    .get(0);
                rows.push(n);
            }
            same_as_pgbench(&said[1], &said[0], &format!("{name} -M {mode}"));
            assert_eq!(rows[1], rows[0], "{name} -M {mode}: pgbench_history rows");
        }
    }
    // pgbench 15 has no \\syncpipeline: its parser's words.
    let as15 = Command::new(&link)
        .args(
            [
                &["-n", "-t", "1", "-M", "extended", "-f", "sync.sql"][..],
                TARGET,
            ]
            .concat(),
        )
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(as15.status.code(), Some(1));
    assert!(
        stderr(&as15).contains("sync.sql:3: invalid command in command \"syncpipeline\""),
        "{}",
        stderr(&as15)
    );
}

#[test]
fn issue_42_as_pgbench_17_runs_and_exit_on_abort_are_pgbench_17s() {
    let Some(peer) = peer17() else { return };
    let Some(_pg) = pg_server("as-pgbench17-runs") else {
        return;
    };
    let dir = scratch("as-pgbench17-runs");
    let init = run17(&peer, &dir, &[&["-i", "-s", "1", "-q"], TARGET].concat());
    assert!(init.status.success(), "{}", stderr(&init));
    std::fs::write(
        dir.join("ab.sql"),
        "\\set x 1 / (:client_id - 1)\nSELECT :x;\n",
    )
    .unwrap();
    let link = pgbench_link(&dir);
    for args in [
        &["-n", "-t", "20", "-c", "2"][..],
        &["-n", "-t", "20", "-S", "-M", "prepared", "-r"],
        &["-n", "-c", "3", "-t", "5", "-f", "ab.sql"],
        &[
            "-n",
            "-c",
            "3",
            "-t",
            "5",
            "-f",
            "ab.sql",
            "--exit-on-abort",
        ],
        &[
            "-n",
            "-c",
            "5",
            "-j",
            "2",
            "-t",
            "50",
            "-f",
            "ab.sql",
            "--exit-on-abort",
        ],
    ] {
        let line = [args, TARGET].concat();
        let theirs = run17(&peer, &dir, &line);
        let ours = run17(&link, &dir, &line);
        same_as_pgbench(&ours, &theirs, &format!("{args:?}"));
    }
}
