//! Issue 41: sysbench Lua scripts run as written in embedded LuaJIT. A modified copy of the
//! stock oltp_point_select.lua (it `require`s oltp_common.lua from /usr/share/sysbench, as under
//! sysbench) runs on MariaDB and the server counts exactly its statements; a script's error is
//! one line with the script's file and line.

use crate::common::{assert_fails_with, dbpress, json, scratch, server, stderr, stdout, CONN};

const STOCK: &str = "/usr/share/sysbench/oltp_point_select.lua";

/// A copy of the stock point-select script with a comment appended (so not byte-identical: dbpress
/// runs it in Lua, not as its built-in workload), or None where sysbench is not installed (never
/// in CI: scripts/test.sh installs it).
pub(crate) fn modified_point_select(dir: &std::path::Path) -> Option<std::path::PathBuf> {
    let ci = std::env::var("CI").is_ok_and(|v| v == "true" || v == "1");
    if !std::path::Path::new(STOCK).exists() {
        assert!(
            !ci,
            "{STOCK} missing: scripts/services.sh sysbench installs it"
        );
        eprintln!("SKIPPED: {STOCK} missing (scripts/services.sh sysbench)");
        return None;
    }
    let mut text = std::fs::read_to_string(STOCK).unwrap();
    text.push_str("-- a modified copy\n");
    let copy = dir.join("oltp_point_select.lua");
    std::fs::write(&copy, text).unwrap();
    Some(copy)
}

fn delta(
    before: &std::collections::HashMap<String, u64>,
    after: &std::collections::HashMap<String, u64>,
    k: &str,
) -> u64 {
    after[k] - before[k]
}

#[test]
fn issue_41_a_modified_point_select_runs_in_lua_and_the_server_counts_its_statements() {
    let Some(mut srv) = server("issue_41_lua_point_select") else {
        return;
    };
    let dir = scratch("lua-point-select");
    let Some(copy) = modified_point_select(&dir) else {
        return;
    };
    let copy = copy.to_str().unwrap();
    let with = |head: &[&str], tail: &[&str]| -> Vec<String> {
        head.iter()
            .chain(CONN)
            .chain(tail)
            .map(|s| s.to_string())
            .collect()
    };
    let run = |a: Vec<String>| dbpress(&a.iter().map(String::as_str).collect::<Vec<_>>());
    // The tables are the built-in workload's (the script's prepare is a parallel command,
    // which dbpress does not run from Lua yet).
    let o = run(with(
        &["oltp_point_select", "prepare"],
        &["--tables=2", "--table-size=1000"],
    ));
    assert!(o.status.success(), "{}", stderr(&o));

    let out = dir.join("r.json");
    let before = srv.com();
    let o = run(with(
        &[copy, "run"],
        &[
            "--tables=2",
            "--table-size=1000",
            "--threads=2",
            "--time=0",
            "--events=700",
            "--output",
            out.to_str().unwrap(),
        ],
    ));
    let after = srv.com();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("in embedded LuaJIT"), "{}", stderr(&o));
    let r = json(&out);
    assert_eq!(r["summary"]["events"], 700);
    assert_eq!(r["summary"]["reads"], 700);
    // The server's own counts: one prepared SELECT per event, nothing else.
    assert_eq!(delta(&before, &after, "Com_select"), 700);
    assert_eq!(delta(&before, &after, "Com_stmt_execute"), 700);
    // Each thread prepared the statement on both tables.
    assert_eq!(delta(&before, &after, "Com_stmt_prepare"), 4);
    // Per-statement latency, grouped by the statement's text with the table number folded.
    let stmts = r["statements"].as_array().unwrap();
    let select = stmts
        .iter()
        .find(|s| s["name"] == "SELECT c FROM sbtest# WHERE id=?")
        .unwrap_or_else(|| panic!("no point select among {stmts:?}"));
    assert_eq!(select["count"], 700);

    // The script's own cleanup(), in Lua: its print and its DROPs.
    let o = run(with(&[copy, "cleanup"], &["--tables=2"]));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("Dropping table 'sbtest2'..."),
        "{}",
        stdout(&o)
    );
    assert!(srv.tables().is_empty(), "{:?}", srv.tables());
}

#[test]
fn issue_41_a_script_error_is_one_line_with_its_file_and_line() {
    let dir = scratch("lua-errors");
    // A runtime error in event(): sysbench's exit code 1, Lua's message at file:line.
    let bad = dir.join("bad_event.lua");
    std::fs::write(
        &bad,
        "function event()\n  local t = nil\n  return t.field\nend\n",
    )
    .unwrap();
    let o = dbpress(&[
        bad.to_str().unwrap(),
        "run",
        "--mysql-dry-run",
        "--events=10",
        "--time=0",
    ]);
    assert_fails_with(&o, 1, &format!("{}:3: ", bad.display()));
    assert!(
        stderr(&o).contains("attempt to index local 't'"),
        "{}",
        stderr(&o)
    );

    // A sysbench function dbpress's prelude lacks yet: named, with where the script calls it.
    let missing = dir.join("needs_hexadecimal.lua");
    std::fs::write(
        &missing,
        "-- a fork's hexadecimal\nfunction event()\n  return sysbench.rand.hexadecimal(1, 10)\nend\n",
    )
    .unwrap();
    let o = dbpress(&[
        missing.to_str().unwrap(),
        "run",
        "--mysql-dry-run",
        "--events=10",
        "--time=0",
    ]);
    assert_fails_with(&o, 1, &format!("{}:3: ", missing.display()));
    assert!(
        stderr(&o).contains("sysbench.rand.hexadecimal is not supported by dbpress yet"),
        "{}",
        stderr(&o)
    );

    // A syntax error: found as the script loads on the worker, before any event.
    let syntax = dir.join("syntax.lua");
    std::fs::write(&syntax, "function event()\n  x = = 1\nend\n").unwrap();
    let o = dbpress(&[
        syntax.to_str().unwrap(),
        "run",
        "--mysql-dry-run",
        "--events=10",
        "--time=0",
    ]);
    assert_fails_with(&o, 1, &format!("{}:2: ", syntax.display()));
}

/// A script of its own: init and done print once for the whole sweep, thread_init once per
/// thread of each level, each event a query the server counts.
const SWEEP_SCRIPT: &str = r#"
function init() print("@ init") end
function done() print("@ done") end
function thread_init() con = sysbench.sql.driver():connect() end
function event() con:query("SELECT 1") end
"#;

/// `--threads=1,3` with a script is a thread sweep, as with a built-in workload: a level per
/// count, each with that many threads all running events, the server counting every query, and
/// the script's init() and done() once around the levels.
#[test]
fn issue_41_a_script_sweeps_its_threads() {
    let Some(mut srv) = server("issue_41_lua_sweep") else {
        return;
    };
    let dir = scratch("lua-sweep");
    let script = dir.join("sweep.lua");
    std::fs::write(&script, SWEEP_SCRIPT).unwrap();
    let out = dir.join("sweep.json");
    let mut args = vec![
        script.to_str().unwrap(),
        "run",
        "--threads=1,3",
        "--time=1",
        "--server-status=off",
        "--server-waits=off",
    ];
    let output = format!("--output={}", out.display());
    args.push(&output);
    args.extend(CONN);
    let before = srv.com()["Com_select"];
    let o = dbpress(&args);
    let selects = srv.com()["Com_select"] - before;
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert_eq!(text.matches("@ init").count(), 1, "{text}");
    assert_eq!(text.matches("@ done").count(), 1, "{text}");
    assert!(text.contains("sweep.lua (2 levels):"), "{text}");
    let doc = json(&out);
    let steps = doc["steps"].as_array().unwrap();
    let mut queries = 0;
    for (step, threads) in steps.iter().zip([1u64, 3]) {
        let r = &step["result"];
        assert_eq!(r["run"]["threads"], threads);
        let per_thread = r["summary"]["fairness"]["events_per_thread"]
            .as_array()
            .unwrap();
        assert_eq!(per_thread.len() as u64, threads);
        assert!(per_thread.iter().all(|e| e.as_u64().unwrap() > 0));
        queries += r["summary"]["reads"].as_u64().unwrap();
    }
    assert_eq!(steps.len(), 2);
    // Every query of both levels, and nothing else, reached the server as a SELECT (the
    // run's own probes and counters are SHOW statements).
    assert_eq!(
        selects, queries,
        "server Com_select against dbpress's reads"
    );
    // Only `run` sweeps.
    let mut args = vec![script.to_str().unwrap(), "prepare", "--threads=1,3"];
    args.extend(CONN);
    let o = dbpress(&args);
    assert_fails_with(&o, 2, "--threads=1,3 is a list, which only `run` takes");
}
