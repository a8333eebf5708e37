//! Issue 33, the results store: runs kept with `--store` and their tags, listed, shown and
//! exported by `dbpress results`, compared by id and tag; a store that concurrent writers and
//! a SIGKILL in the middle of writing leave whole.

use crate::common::*;
use std::path::Path;
use std::process::Command;

/// A dry run kept in `store` (quick, no server), with extra arguments.
fn kept_run(store: &Path, extra: &[&str]) -> std::process::Output {
    let mut a = vec![
        "oltp_point_select",
        "run",
        "--mysql-dry-run",
        "--events=200",
    ];
    let s = format!("--store={}", store.display());
    a.push(&s);
    a.extend_from_slice(extra);
    dbpress(&a)
}

fn results(store: &Path, args: &[&str]) -> std::process::Output {
    let s = format!("--store={}", store.display());
    let mut a = vec!["results"];
    a.extend_from_slice(args);
    a.push(&s);
    dbpress(&a)
}

/// `PRAGMA integrity_check` and the number of runs, read by an independent SQLite.
fn check_store(store: &Path) -> usize {
    let c = rusqlite::Connection::open(store).unwrap();
    let ok: String = c
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(ok, "ok");
    let mut stmt = c.prepare("SELECT result FROM runs").unwrap();
    let jsons: Vec<Option<String>> = stmt
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    for j in &jsons {
        let v: serde_json::Value = serde_json::from_str(j.as_deref().unwrap()).unwrap();
        crate::export::assert_valid(&v);
    }
    jsons.len()
}

#[test]
fn issue_33_runs_kept_with_store_are_listed_shown_and_exported_as_written() {
    let dir = scratch("store-basic");
    let store = dir.join("r.db");
    let out = dir.join("r.json");
    let o = kept_run(
        &store,
        &[
            "--tag",
            "os=centos7",
            "--tag=dc=east",
            &format!("--output={}", out.display()),
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("kept as run 1 in"), "{}", stderr(&o));
    let o = kept_run(&store, &["--threads=1,2", "--tag=os=centos6"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("kept as runs 2, 3 in"),
        "{}",
        stderr(&o)
    );

    let list = stdout(&results(&store, &["list"]));
    assert_eq!(list.lines().count(), 4, "{list}");
    assert!(list.contains("os=centos7,dc=east"), "{list}");
    let only = stdout(&results(&store, &["list", "--tag", "os=centos6"]));
    assert_eq!(only.lines().count(), 3, "{only}");
    assert!(!only.contains("centos7"), "{only}");

    // The export is the result --output wrote, value for value.
    let exported: serde_json::Value =
        serde_json::from_str(&stdout(&results(&store, &["export", "1"]))).unwrap();
    assert_eq!(exported, json(&out));
    let shown = stdout(&results(&store, &["show", "3"]));
    assert!(shown.contains("Status: ok"), "{shown}");
    assert!(shown.contains("SQL statistics:"), "{shown}");
    assert!(
        shown.contains("Workload: oltp_point_select, 2 threads"),
        "{shown}"
    );

    // Bad ids and missing stores are one line, exit 2.
    assert_fails_with(&results(&store, &["show", "99"]), 2, "no run 99 in");
    assert_fails_with(
        &results(&dir.join("none.db"), &["list"]),
        2,
        "no results store at",
    );
    assert_fails_with(
        &kept_run(&store, &["--tag=novalue"]),
        2,
        "a tag is key=value",
    );
    assert_fails_with(
        &dbpress(&["oltp_point_select", "run", "--mysql-dry-run", "--tag=a=b"]),
        2,
        "add --store",
    );
    assert_eq!(check_store(&store), 3);
}

#[test]
fn issue_33_compare_reads_stored_runs_by_id_and_tag() {
    let dir = scratch("store-compare");
    let store = dir.join("r.db");
    for tag in ["v=old", "v=old", "v=new"] {
        assert!(kept_run(&store, &["--tag", tag]).status.success());
    }
    let s = format!("--store={}", store.display());
    let o = dbpress(&["compare", "#1", "#3", &s]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("baseline: #1"), "{}", stdout(&o));
    let o = dbpress(&["compare", "tag:v=old", "tag:v=new", &s]);
    assert!(o.status.success(), "{}", stderr(&o));
    // Two runs under v=old: a median with its range.
    assert!(stdout(&o).contains("medians of the runs"), "{}", stdout(&o));
    assert_fails_with(
        &dbpress(&["compare", "#1", "tag:v=none", &s]),
        2,
        "has the tag v=none",
    );
}

/// Start a writer of `args` (it saves its runs to `store` when it ends), SIGKILL it once more
/// than 5 runs past `before` are in, and wait: how it ended and the runs the store then holds.
fn kill_while_saving(
    store: &Path,
    args: &[&str],
    before: usize,
) -> (std::process::ExitStatus, usize) {
    let mut victim = Command::new(bin())
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let reader = rusqlite::Connection::open(store).unwrap();
    let t0 = std::time::Instant::now();
    loop {
        let n = reader
            .query_row("SELECT count(*) FROM runs", [], |r| r.get::<_, i64>(0))
            .map_or(before, |n| n as usize);
        if n > before + 5 || t0.elapsed().as_secs() > 60 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    // SAFETY: kill(2) on our own child's pid.
    unsafe { libc::kill(victim.id() as i32, libc::SIGKILL) };
    let status = victim.wait().unwrap();
    drop(reader);
    (status, check_store(store))
}

#[test]
fn issue_33_the_store_survives_concurrent_writers_and_a_sigkill_mid_write() {
    let dir = scratch("store-kill");
    let store = dir.join("r.db");
    // 150 levels of a sweep: 150 runs saved one transaction each when the sweep ends.
    let levels = vec!["1"; 150].join(",");
    let threads = format!("--threads={levels}");
    let s = format!("--store={}", store.display());
    let args = [
        "oltp_point_select",
        "run",
        "--mysql-dry-run",
        "--events=10",
        threads.as_str(),
        s.as_str(),
    ];
    // Three writers at once: each waits for the others, none fails, nothing is lost.
    let writers: Vec<_> = (0..3)
        .map(|_| {
            Command::new(bin())
                .args(args)
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for w in writers {
        let o = w.wait_with_output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    assert_eq!(check_store(&store), 450);

    // A writer killed while it saves: every run it committed is whole, and the store takes more.
    // The kill must land mid-save: a writer that finished first is tried again with more runs.
    let mut levels = 150;
    let n = loop {
        let before = check_store(&store);
        let threads = format!("--threads={}", vec!["1"; levels].join(","));
        let (status, n) =
            kill_while_saving(&store, &[&args[..4], &[&threads, &s]].concat(), before);
        if status.code().is_none() {
            assert!(
                n > before + 5 && n < before + levels,
                "{n} runs after {before}, of {levels}"
            );
            break n;
        }
        assert!(levels < 5000, "every writer finished before its SIGKILL");
        levels *= 4;
    };
    assert!(kept_run(&store, &[]).status.success());
    assert_eq!(check_store(&store), n + 1);
}
