//! Embedded SQLite: the zero-setup default, its own options and its bad-input messages.

use crate::common::*;
use std::process::Command;

fn in_dir(dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    Command::new(bin())
        .args(args)
        .current_dir(dir)
        .output()
        .expect("dbpress runs")
}

#[test]
fn with_no_target_a_sqlite_file_in_the_current_directory_is_used_and_named() {
    let dir = scratch("zero-setup");
    let o = in_dir(&dir, &["oltp_read_write", "prepare", "--table-size=2000"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(dir.join("dbpress.sqlite").is_file());
    let o = in_dir(&dir, &["oltp_read_write", "run", "--time=1", "--threads=2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("Target: embedded SQLite database dbpress.sqlite")
            && out.contains("the zero-setup default"),
        "{out}"
    );
    // No server, so no "server-side" statements.
    assert!(out.contains("; statements: prepared\n"), "{out}");
    assert!(
        out.contains("transactions:") && out.contains("95th percentile:"),
        "{out}"
    );
    let o = in_dir(&dir, &["oltp_read_write", "cleanup"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let c = rusqlite::Connection::open(dir.join("dbpress.sqlite")).unwrap();
    let left: i64 = c
        // sqlite_stat1/4 are SQLite's own (ANALYZE's statistics), not benchmark tables.
        .query_row(
            "SELECT COUNT(*) FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite%'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(left, 0);
}

/// The header names the --rand-type distribution only for workloads that draw keys from it:
/// a fixed query list, a script's own random functions or bulk_insert's sequential values draw
/// nothing from it, and a header saying "Random ids: uniform" there would be untrue.
#[test]
fn the_header_names_a_key_distribution_only_where_keys_are_drawn_from_it() {
    let dir = scratch("header-rand-type");
    let header_of = |args: &[&str]| -> String {
        let o = in_dir(&dir, args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        stdout(&o)
    };
    header_of(&["oltp_point_select", "prepare", "--table-size=100"]);
    let oltp = header_of(&[
        "oltp_point_select",
        "run",
        "--table-size=100",
        "--events=50",
        "--rand-type=pareto",
    ]);
    assert!(
        oltp.contains("\nRandom ids: pareto; statements: prepared\n"),
        "{oltp}"
    );
    let slap = header_of(&[
        "slap",
        "--query=SELECT c FROM sbtest1 WHERE id=1",
        "--number-of-queries=20",
        "--rand-type=pareto",
    ]);
    // bulk_insert's table has other columns: a database of its own.
    let bulk_db = "--sqlite-path=bulk.db";
    header_of(&["bulk_insert", "prepare", bulk_db]);
    let bulk = header_of(&[
        "bulk_insert",
        "run",
        bulk_db,
        "--events=20",
        "--rand-type=pareto",
    ]);
    for out in [&slap, &bulk] {
        assert!(out.contains("\nStatements: "), "{out}");
        assert!(!out.contains("Random ids"), "{out}");
        assert!(!out.contains("pareto"), "{out}");
    }
}

#[test]
fn journal_and_sync_options_reach_the_database_and_the_result() {
    let dir = scratch("sqlite-opts");
    let db = format!("--sqlite-path={}", dir.join("x.db").display());
    let o = dbpress(&["oltp_point_select", "prepare", &db, "--table-size=100"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = dir.join("r.json");
    let o = dbpress(&[
        "oltp_point_select",
        "run",
        &db,
        "--table-size=100",
        "--time=0",
        "--events=10",
        "--sqlite-journal-mode=truncate",
        "--sqlite-synchronous=normal",
        "--output",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let r = json(&out);
    let vars = &r["environment"]["server"]["variables"];
    assert_eq!(vars["journal_mode"], "truncate");
    // PRAGMA synchronous reads back as a number: NORMAL is 1.
    assert_eq!(vars["synchronous"], "1");
    assert_eq!(r["config"]["db-driver"], "sqlite");
    assert_eq!(r["environment"]["server"]["product"], "SQLite");
}

#[test]
fn busy_errors_are_retried_and_counted_by_code() {
    let dir = scratch("sqlite-busy");
    let db = format!("--sqlite-path={}", dir.join("x.db").display());
    let o = dbpress(&["oltp_update_index", "prepare", &db, "--table-size=100"]);
    assert!(o.status.success(), "{}", stderr(&o));
    // Every write transaction begins IMMEDIATE, taking the write lock; with no busy timeout a
    // writer that finds it taken fails at once with SQLITE_BUSY, which is ignorable by default.
    let out = dir.join("r.json");
    let o = dbpress(&[
        "oltp_write_only",
        "run",
        &db,
        "--table-size=100",
        "--threads=2",
        "--time=2",
        "--sqlite-busy-timeout=0",
        "--output",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let r = json(&out);
    let busy = r["errors_by_code"]["SQLITE_BUSY"].as_u64().unwrap_or(0);
    assert!(busy > 0, "no SQLITE_BUSY counted: {}", r["errors_by_code"]);
    assert_eq!(r["summary"]["errors"].as_u64().unwrap(), busy);
    // Made not ignorable, the same contention stops the run with the code named.
    let o = dbpress(&[
        "oltp_write_only",
        "run",
        &db,
        "--table-size=100",
        "--threads=2",
        "--time=2",
        "--sqlite-busy-timeout=0",
        "--sqlite-ignore-errors=",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert_one_clean_line(&o);
    assert!(
        stderr(&o).contains("SQLITE_BUSY") && stderr(&o).contains("--sqlite-ignore-errors"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn bad_sqlite_targets_exit_2_with_one_line() {
    let dir = scratch("sqlite-bad");
    std::fs::write(
        dir.join("text.db"),
        "not a database, just text\n".repeat(100),
    )
    .unwrap();
    let text_db = format!("--sqlite-path={}", dir.join("text.db").display());
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec!["--sqlite-path=/nonexistent-dir/x.db".into()],
            "directory of the SQLite database '/nonexistent-dir/x.db' does not exist",
        ),
        (
            // Nothing can be created under /proc, not even by root.
            vec!["--db=sqlite:/proc/dbpress.db".into()],
            "choose a writable --sqlite-path",
        ),
        (vec![text_db], "is not an SQLite database"),
        (
            vec!["--sqlite-journal-mode=fast".into()],
            "invalid value 'fast' for --sqlite-journal-mode",
        ),
        (
            vec!["--mysql-socket=/x".into(), "--sqlite-path=y".into()],
            "options of two drivers given",
        ),
        // Each connection gets its own: it blamed another process for the journal mode.
        (
            vec!["--db=sqlite::memory:".into()],
            "an in-memory SQLite database (':memory:') belongs to one connection",
        ),
    ];
    for (flags, want) in cases {
        let mut args = vec!["oltp_point_select", "run"];
        args.extend(flags.iter().map(String::as_str));
        let o = dbpress(&args);
        assert_eq!(o.status.code(), Some(2), "{flags:?}: {}", stderr(&o));
        assert_one_clean_line(&o);
        assert!(stderr(&o).contains(want), "{flags:?}: {}", stderr(&o));
    }
}

#[test]
fn a_database_locked_by_another_process_is_named_with_the_fix() {
    let dir = scratch("sqlite-locked");
    let path = dir.join("x.db");
    let db = format!("--sqlite-path={}", path.display());
    let o = dbpress(&["oltp_point_select", "prepare", &db, "--table-size=100"]);
    assert!(o.status.success(), "{}", stderr(&o));
    // Another process (here this one) holds an exclusive lock on the file.
    let holder = rusqlite::Connection::open(&path).unwrap();
    holder
        .execute_batch(
            "PRAGMA locking_mode=EXCLUSIVE; BEGIN EXCLUSIVE; UPDATE sbtest1 SET k=k WHERE id=1;",
        )
        .unwrap();
    let o = dbpress(&[
        "oltp_point_select",
        "run",
        &db,
        "--table-size=100",
        "--sqlite-busy-timeout=100",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_one_clean_line(&o);
    assert!(
        stderr(&o).contains("is locked by another process")
            && stderr(&o).contains("--sqlite-busy-timeout"),
        "{}",
        stderr(&o)
    );
    drop(holder);
}

#[test]
fn issue_3_a_one_statement_event_and_its_statement_report_the_same_latency() {
    // An OLTP event runs from its first statement's send to its last statement's reply, with
    // the statements' own clock reads: for oltp_point_select the event and its one statement
    // have the same latencies. Regression: the statement's min/avg/max/sum used to come from
    // its histogram (max up to 0.1% above the exact one, so a statement could "take longer"
    // than the event containing it); they are exact now, like the event's.
    let dir = scratch("sqlite-bound");
    let o = in_dir(&dir, &["oltp_point_select", "prepare", "--table-size=5000"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = in_dir(
        &dir,
        &[
            "oltp_point_select",
            "run",
            "--table-size=5000",
            "--threads=2",
            "--time=0",
            "--events=20000",
            "--output",
            "r.json",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let r = json(&dir.join("r.json"));
    let event = &r["summary"]["latency"];
    let stmt = &r["statements"][0]["latency"];
    assert_eq!(r["statements"][0]["name"], "point_select");
    assert_eq!(stmt["count"], 20000);
    assert!(event["max_ms"].as_f64().unwrap() > 0.0, "{event}");
    // Every figure: count, exact min/avg/max/sum, and the percentiles (taken from the same
    // histogram and kept inside the same exact extremes).
    assert_eq!(event, stmt);
}

#[test]
fn sqlite_writers_each_get_their_share() {
    // Without the write queue, a writer that finds SQLite's lock taken sleeps 1…100 ms in the
    // busy handler while the one that just committed takes the lock again: one thread ran three
    // times the events of another (at 3 threads: 1 event against 24 422), and events waited
    // seconds. With it, every writer gets its share.
    let dir = scratch("sqlite-turns");
    let db = format!("--sqlite-path={}", dir.join("x.db").display());
    let o = dbpress(&["oltp_update_index", "prepare", &db, "--table-size=1000"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = dir.join("r.json");
    let o = dbpress(&[
        "oltp_update_index",
        "run",
        &db,
        "--table-size=1000",
        "--threads=3",
        "--time=2",
        "--output",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("writers queue in this process"),
        "{}",
        stdout(&o)
    );
    let r = json(&out);
    let per_thread: Vec<u64> = r["summary"]["fairness"]["events_per_thread"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    let (min, max) = (
        *per_thread.iter().min().unwrap(),
        *per_thread.iter().max().unwrap(),
    );
    assert!(min > 100, "too few events to judge: {per_thread:?}");
    // Starved writers look like 1 event against 24 422 (SQLite's busy handler alone). With the
    // queue they get equal shares on an idle machine (14 678 ± 20), and within 12% while a
    // compile kept both cores busy (1 236 / 1 315 / 1 392): a thread the scheduler does not run
    // cannot be waiting in the queue. Regression (#4): the bound was 10%, which that load broke.
    assert!(
        min * 2 >= max,
        "writers did not get their share: events per thread {per_thread:?}"
    );
    assert_eq!(r["config"]["sqlite-write-queue"], "on");
    // The engine runs inside dbpress: no server process to read, and the result says why.
    let h = &r["host_usage"];
    assert!(h.get("server").is_none(), "{h}");
    assert!(
        h["server_unavailable"]
            .as_str()
            .unwrap()
            .contains("embedded engine"),
        "{h}"
    );
    // dbpress's own process: the child this test started, not the test.
    let pid = h["dbpress"]["pid"].as_u64().unwrap();
    assert!(pid > 0 && pid != u64::from(std::process::id()), "{h}");
    // The disk is the one under the database file, named by its full path.
    let file = std::fs::canonicalize(dir.join("x.db")).unwrap();
    match disk_of(&file) {
        Some(device) => {
            assert_eq!(h["disk"]["device"].as_str(), Some(device.as_str()), "{h}");
            assert_eq!(h["disk"]["path"].as_str(), file.to_str(), "{h}");
        }
        None => assert!(h["disk_unavailable"].is_string(), "{h}"),
    }
    // Off: SQLite's busy handler alone, said in the header.
    let o = dbpress(&[
        "oltp_update_index",
        "run",
        &db,
        "--table-size=1000",
        "--threads=2",
        "--time=1",
        "--sqlite-write-queue=off",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("writers left to SQLite's busy handler"),
        "{}",
        stdout(&o)
    );
}

/// dbpress started in `dir` with piped output, and its stdout as lines to read while it runs.
fn spawn_piped(
    dir: &std::path::Path,
    args: &[&str],
) -> (
    std::process::Child,
    std::io::Lines<std::io::BufReader<std::process::ChildStdout>>,
) {
    use std::io::BufRead;
    let mut child = Command::new(bin())
        .args(args)
        .current_dir(dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
    (child, lines)
}

#[test]
fn an_interrupted_prepare_stops_at_a_block_and_names_the_half_loaded_tables() {
    let dir = scratch("prepare-interrupted");
    // Several seconds of rows: the signal lands while they load.
    let size = ["--tables=2", "--table-size=2000000"];
    let (child, mut lines) = spawn_piped(
        &dir,
        &[
            "oltp_read_write",
            "prepare",
            "--threads=2",
            size[0],
            size[1],
        ],
    );
    let mut said = Vec::new();
    for line in lines.by_ref() {
        let line = line.unwrap();
        let loading = line.starts_with("Inserting");
        said.push(line);
        if loading {
            break;
        }
    }
    assert!(said.iter().any(|l| l.starts_with("Inserting")), "{said:?}");
    send_signal(&child, libc::SIGINT);
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    assert_one_clean_line(&o);
    let err = stderr(&o);
    assert!(
        err.contains("prepare interrupted by SIGINT: sbtest1, sbtest2 left half-loaded (")
            && err
                .contains("of 4000000 rows in): run `dbpress oltp_read_write cleanup --tables=2`"),
        "{err}"
    );
    // The tables keep their mark: check and run refuse them, cleanup removes them.
    let o = in_dir(&dir, &["oltp_read_write", "check", size[0], size[1]]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stdout(&o).contains("sbtest1: left half-loaded by an interrupted prepare"),
        "{}",
        stdout(&o)
    );
    let o = in_dir(&dir, &["oltp_read_write", "cleanup", size[0]]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn issue_3_a_signal_while_creating_tables_stops_there_and_names_them() {
    // Regression (#3): a Ctrl-C during the creation of many tables went on creating all of
    // them before the loaders noticed it. Now creation stops at the next table and the message
    // says which tables exist, empty.
    let dir = scratch("prepare-interrupted-creating");
    let tables = "--tables=100000";
    let (child, mut lines) = spawn_piped(
        &dir,
        &["oltp_read_write", "prepare", tables, "--table-size=1"],
    );
    let seen = lines
        .by_ref()
        .map(|l| l.unwrap())
        .any(|l| l == "Creating table 'sbtest20'...");
    assert!(seen, "prepare never got to sbtest20");
    send_signal(&child, libc::SIGINT);
    let said: Vec<String> = lines.map(|l| l.unwrap()).collect();
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    assert_one_clean_line(&o);
    assert!(!said.iter().any(|l| l.starts_with("Inserting")), "{said:?}");
    let err = stderr(&o);
    let prefix =
        "dbpress: error: prepare interrupted by SIGINT while creating tables: sbtest1 to sbtest";
    let rest = err.strip_prefix(prefix).unwrap_or_else(|| panic!("{err}"));
    let (n, tail) = rest.split_once(' ').unwrap();
    let created: u32 = n.parse().unwrap();
    assert!((20..100_000).contains(&created), "{err}");
    assert_eq!(
        tail.trim_end(),
        "were created with no rows: run `dbpress oltp_read_write cleanup --tables=100000` before preparing again"
    );
    // The last table it names exists and the next one does not; check calls them half-loaded.
    let n = format!("--tables={created}");
    let o = in_dir(&dir, &["oltp_read_write", "check", &n, "--table-size=1"]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    let out = stdout(&o);
    assert!(
        out.contains(&format!(
            "sbtest{created}: left half-loaded by an interrupted prepare"
        )),
        "{out}"
    );
    let more = format!("--tables={}", created + 1);
    let o = in_dir(&dir, &["oltp_read_write", "check", &more, "--table-size=1"]);
    let out = stdout(&o);
    assert!(
        out.contains(&format!("sbtest{}: missing", created + 1)),
        "{out}"
    );
    let o = in_dir(&dir, &["oltp_read_write", "cleanup", &n]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn a_run_with_a_larger_table_size_than_prepared_warns_and_still_runs() {
    // sysbench runs such a benchmark silently: keys past the tables' end find no row, and the
    // figures look better than the tables can give. dbpress runs it too, with one warning line.
    let dir = scratch("sqlite-short");
    let o = in_dir(
        &dir,
        &[
            "oltp_point_select",
            "prepare",
            "--tables=2",
            "--table-size=300",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let run = |size: &str| {
        in_dir(
            &dir,
            &[
                "oltp_point_select",
                "run",
                "--tables=2",
                &format!("--table-size={size}"),
                "--time=0",
                "--events=200",
                "--output=r.json",
            ],
        )
    };
    let o = run("1000");
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert_eq!(
        err.trim_end(),
        "dbpress: warning: --table-size=1000 but 2 tables hold fewer ids ('sbtest1' only up to 300): \
         keys past the end find no row (reads return nothing, updates and deletes change nothing); \
         run with the --table-size that prepare used"
    );
    assert!(stdout(&o).contains("transactions:                        200 "));
    // The result keeps it, and its text (here and in `dbpress report`) ends with it.
    let warning = err.trim_end().strip_prefix("dbpress: warning: ").unwrap();
    assert!(
        stdout(&o).ends_with(&format!("Warning: {warning}\n")),
        "{}",
        stdout(&o)
    );
    let r = json(&dir.join("r.json"));
    crate::export::assert_valid(&r);
    assert_eq!(r["run"]["warnings"], serde_json::json!([warning]));
    let o = in_dir(&dir, &["report", "r.json"]);
    assert!(stdout(&o).ends_with(&format!("Warning: {warning}\n")));
    // Matching sizes, and a shortfall of at most 1% (a table oltp_delete drained loses its top
    // ids too), run without a word.
    for size in ["300", "303"] {
        let o = run(size);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(!stderr(&o).contains("warning"), "{size}: {}", stderr(&o));
        assert_eq!(
            json(&dir.join("r.json"))["run"]["warnings"],
            serde_json::json!([])
        );
    }
    let o = run("304");
    assert!(
        stderr(&o).contains("--table-size=304 but"),
        "{}",
        stderr(&o)
    );
}
