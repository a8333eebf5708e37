//! Issue 41: Percona's sysbench-tpcc (Lua, kept unchanged in ../shared/peers/sysbench-tpcc)
//! prepares, runs, checks and cleans up under dbpress as under sysbench, on MariaDB and
//! PostgreSQL: the tables hold TPC-C's row counts for one warehouse, the run's interval lines
//! are its report hook's (sysbench.report_default), dbpress's reads/writes/other agree with the
//! server's counters, `check` prints what sysbench's `check` prints on the same data, and
//! `cleanup` leaves no table behind. Copied to a scratch folder and run from there, as its
//! README says (it loads tpcc_common.lua and friends from the working directory).

use crate::common::{bin, json, scratch, server};
use crate::engines::{pg_server, PG_CONN};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const PEER: &str = "../shared/peers/sysbench-tpcc";

/// The script folder copied to `dir`, or None when the peer is not on this machine (it is not
/// the project's to install: SKIPPED, even in CI).
fn peer_copy(dir: &Path) -> Option<PathBuf> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join(PEER);
    if !src.join("tpcc.lua").exists() {
        eprintln!(
            "SKIPPED: {} missing (sysbench-tpcc is kept beside the repository)",
            src.display()
        );
        return None;
    }
    let dst = dir.join("sysbench-tpcc");
    std::fs::create_dir_all(&dst).unwrap();
    for f in std::fs::read_dir(&src).unwrap() {
        let f = f.unwrap().path();
        if f.extension().is_some_and(|e| e == "lua") {
            std::fs::copy(&f, dst.join(f.file_name().unwrap())).unwrap();
        }
    }
    Some(dst)
}

fn in_dir(tool: &str, dir: &Path, args: &[&str]) -> Output {
    let o = Command::new(tool)
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap();
    if !o.status.success() {
        panic!(
            "{tool} {args:?}: exit {:?}\n{}{}",
            o.status.code(),
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        );
    }
    o
}

/// The lines of `check`'s output that carry its verdicts (`Check N, warehouse: W PASSED`).
fn verdicts(o: &Output) -> Vec<String> {
    let mut v: Vec<String> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .filter(|l| l.starts_with("Check "))
        .map(str::to_string)
        .collect();
    v.sort();
    v
}

/// prepare, run, check (beside sysbench's own check), cleanup on one engine; `count` reads a
/// table's rows from an independent session; `com_checked`: the server has Com_* counters.
fn lifecycle(conn: &[&str], com_checked: bool, count: &mut dyn FnMut(&str) -> Option<i64>) {
    let dir = scratch("lua-tpcc");
    let Some(folder) = peer_copy(&dir) else {
        return;
    };
    let with = |head: &[&str]| -> Vec<String> {
        ["./tpcc.lua", "--scale=1", "--tables=1", "--threads=2"]
            .iter()
            .chain(conn)
            .chain(head)
            .map(|s| s.to_string())
            .collect()
    };
    let run = |tool: &str, extra: &[&str]| {
        let a = with(extra);
        in_dir(
            tool,
            &folder,
            &a.iter().map(String::as_str).collect::<Vec<_>>(),
        )
    };
    run(bin(), &["cleanup"]);
    run(bin(), &["prepare"]);
    for (table, rows) in [
        ("warehouse1", 1),
        ("district1", 10),
        ("customer1", 30_000),
        ("history1", 30_000),
        ("item1", 100_000),
        ("stock1", 100_000),
        ("orders1", 30_000),
        ("new_orders1", 9_000),
    ] {
        assert_eq!(count(table), Some(rows), "{table} after dbpress's prepare");
    }

    let out = dir.join("r.json");
    let o = run(
        bin(),
        &[
            "--time=4",
            "--report-interval=1",
            "--output",
            out.to_str().unwrap(),
            "run",
        ],
    );
    let text = String::from_utf8_lossy(&o.stdout);
    // The script's report_intermediate hook prints sysbench.report_default's lines (err/s with
    // no colon, unlike the tool's own interval line).
    let hooked: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("[ ") && l.contains("s ] thds: 2 tps: "))
        .collect();
    assert!(hooked.len() >= 3, "{text}");
    assert!(
        hooked
            .iter()
            .all(|l| l.contains(" err/s ") && l.contains(" reconn/s: ")),
        "{text}"
    );
    let r = json(&out);
    crate::export::assert_valid(&r);
    assert!(r["summary"]["events"].as_u64().unwrap() > 0, "{r}");
    // MariaDB's Com_* counters check dbpress's reads/writes/other; PostgreSQL has no per-class
    // statement counters, so there is nothing of that kind to check there.
    let checks = r["server_counters"]["checks"]
        .as_array()
        .expect("server counters read");
    assert_eq!(checks.is_empty(), !com_checked, "{}", r["server_counters"]);
    for c in checks {
        assert_eq!(
            c["server"], c["dbpress"],
            "dbpress's {} against the server's {}",
            c["what"], c["counters"]
        );
    }

    let ours = verdicts(&run(bin(), &["check"]));
    let theirs = verdicts(&run("sysbench", &["check"]));
    assert!(!theirs.is_empty(), "sysbench's check printed no verdict");
    assert_eq!(ours, theirs);

    run(bin(), &["cleanup"]);
    assert_eq!(count("warehouse1"), None, "cleanup left warehouse1");
}

#[test]
fn issue_41_sysbench_tpcc_runs_unchanged_on_mariadb() {
    let Some(mut srv) = server("issue_41_sysbench_tpcc_mariadb") else {
        return;
    };
    let conn = [
        "--mysql-socket=/run/mysqld/mysqld.sock",
        "--mysql-user=sbtest",
        "--mysql-password=sbtest",
        "--mysql-db=sbtest",
    ];
    lifecycle(&conn, true, &mut |t| srv.count_rows(t));
}

#[test]
fn issue_41_sysbench_tpcc_runs_unchanged_on_postgresql() {
    let Some((_g, mut c)) = pg_server("issue_41_sysbench_tpcc_pgsql") else {
        return;
    };
    let conn: Vec<&str> = ["--db-driver=pgsql"]
        .iter()
        .chain(PG_CONN)
        .copied()
        .collect();
    lifecycle(&conn, false, &mut |t| {
        c.query_one(&format!("SELECT COUNT(*) FROM {t}"), &[])
            .ok()
            .map(|row| row.get::<_, i64>(0))
    });
}
