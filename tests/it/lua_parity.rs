//! Issue 41: every stock sysbench 1.0.20 script, run as a modified copy (so dbpress runs the
//! file in Lua, not its built-in workload), makes the server do what sysbench makes it do with
//! the same file and options: the same Com_* deltas on MariaDB, the same rows inserted, updated
//! and deleted on PostgreSQL. sysbench runs live beside dbpress, on the same tables, one after
//! the other; no expected table is written down here. Both get `--rand-type=uniform` (dbpress's
//! default; sysbench 1.0.20's is `special`), so the keys drawn hit rows that exist.

use crate::common::{dbpress, scratch, server, stderr, CONN};
use crate::engines::{pg_server, PG_CONN};
use std::path::{Path, PathBuf};
use std::process::Command;

const SYSBENCH_DIR: &str = "/usr/share/sysbench";
const EVENTS: u64 = 60;

/// The MariaDB counters compared (the statements a sysbench script can send).
const COM: [&str; 9] = [
    "Com_begin",
    "Com_commit",
    "Com_rollback",
    "Com_delete",
    "Com_insert",
    "Com_select",
    "Com_update",
    "Com_stmt_prepare",
    "Com_stmt_execute",
];

/// (script, extra options) run under both tools on MariaDB.
const MARIADB_CASES: &[(&str, &str)] = &[
    ("oltp_read_write", ""),
    ("oltp_read_write", "--skip-trx=on"),
    ("oltp_read_write", "--db-ps-mode=disable"),
    ("oltp_read_only", ""),
    ("oltp_read_only", "--range-selects=off"),
    ("oltp_write_only", ""),
    ("oltp_point_select", ""),
    ("oltp_update_index", ""),
    ("oltp_update_non_index", "--non-index-updates=3"),
    ("oltp_delete", ""),
    ("oltp_insert", ""),
    ("select_random_points", ""),
    ("select_random_ranges", ""),
];

/// PostgreSQL: the scripts whose rows written do not depend on the keys drawn. Not oltp_delete
/// (a key drawn twice deletes nothing the second time) nor oltp_insert (random ids collide now
/// and then); their statements are compared on MariaDB. Transaction ids are not compared: they
/// are the cluster's, and other databases' sessions take them too (seen: 67 for 61).
const PG_CASES: &[(&str, &str)] = &[
    ("oltp_read_write", ""),
    ("oltp_write_only", ""),
    ("oltp_point_select", ""),
    ("oltp_update_index", ""),
    ("oltp_update_non_index", "--non-index-updates=2"),
];

/// sysbench and its scripts, or None outside CI when they are missing (scripts/services.sh
/// sysbench installs them; in CI a missing one fails).
fn sysbench_here() -> bool {
    if Path::new(SYSBENCH_DIR).join("oltp_common.lua").exists()
        && Command::new("sysbench").arg("--version").output().is_ok()
    {
        return true;
    }
    let ci = std::env::var("CI").is_ok_and(|v| v == "true" || v == "1");
    assert!(
        !ci,
        "sysbench missing: scripts/services.sh sysbench installs it"
    );
    eprintln!("SKIPPED: sysbench missing (scripts/services.sh sysbench)");
    false
}

/// `script`.lua copied into `dir` with a comment appended: not byte-identical to the stock file,
/// so dbpress runs it in Lua. It finds oltp_common.lua in /usr/share/sysbench, as sysbench does.
fn modified_copy(dir: &Path, script: &str) -> PathBuf {
    let mut text =
        std::fs::read_to_string(Path::new(SYSBENCH_DIR).join(format!("{script}.lua"))).unwrap();
    text.push_str("-- a modified copy (tests/it/lua_parity.rs)\n");
    let copy = dir.join(format!("{script}.lua"));
    std::fs::write(&copy, text).unwrap();
    copy
}

/// The options both tools get: the connection, the tables, one thread, EVENTS events.
fn run_options<'a>(conn: &'a [&'a str], extra: &'a str) -> Vec<String> {
    conn.iter()
        .map(|s| s.to_string())
        .chain(
            [
                "--tables=2",
                "--table-size=2000",
                "--threads=1",
                "--time=0",
                "--rand-type=uniform",
                &format!("--events={EVENTS}"),
            ]
            .iter()
            .map(|s| s.to_string()),
        )
        .chain(extra.split_whitespace().map(str::to_string))
        .collect()
}

/// The sbtest tables the cases run on (2 × 2 000 rows), made by dbpress on `conn`.
fn prepare_tables(conn: &[&str]) {
    let mut args = vec![
        "oltp_read_write",
        "prepare",
        "--tables=2",
        "--table-size=2000",
    ];
    args.extend(conn);
    let o = dbpress(&args);
    assert!(o.status.success(), "prepare: {}", stderr(&o));
}

/// The tables `prepare_tables` made, dropped.
fn cleanup_tables(conn: &[&str]) {
    let mut args = vec!["oltp_read_write", "cleanup", "--tables=2"];
    args.extend(conn);
    assert!(dbpress(&args).status.success());
}

/// Run the copy under sysbench (from `dir`, as its users do) or dbpress; the run must succeed.
fn run_tool(tool: &str, dir: &Path, copy: &Path, opts: &[String]) {
    script_command(tool, dir, copy, "run", opts);
}

/// sysbench takes `--name=value` only: `--x`, `v` pairs joined.
fn joined(opts: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for o in opts {
        match out.last_mut() {
            Some(last) if !o.starts_with("--") => {
                last.push('=');
                last.push_str(o);
            }
            _ => out.push(o.clone()),
        }
    }
    out
}

#[test]
fn issue_41_every_stock_script_makes_mariadb_do_what_sysbench_makes_it_do() {
    let Some(mut srv) = server("issue_41_lua_parity_mariadb") else {
        return;
    };
    if !sysbench_here() {
        return;
    }
    let dir = scratch("lua-parity-mariadb");
    let mut failures = Vec::new();
    for (script, extra) in MARIADB_CASES {
        prepare_tables(CONN);
        let copy = modified_copy(&dir, script);
        let opts = run_options(CONN, extra);
        let mut deltas = Vec::new();
        for tool in ["sysbench", "dbpress"] {
            let before = srv.com();
            run_tool(tool, &dir, &copy, &opts);
            let after = srv.com();
            let d: Vec<u64> = COM.iter().map(|c| after[*c] - before[*c]).collect();
            deltas.push(d);
        }
        // Something was measured: at least one statement an event.
        let sent: u64 = deltas[0].iter().sum();
        assert!(sent >= EVENTS, "{script} {extra}: sysbench sent {sent}");
        if deltas[0] != deltas[1] {
            failures.push(format!(
                "{script} {extra}: sysbench {:?}, dbpress {:?}",
                deltas[0], deltas[1]
            ));
        }
        cleanup_tables(CONN);
    }
    assert!(
        failures.is_empty(),
        "the server counted different work ({COM:?}):\n{}",
        failures.join("\n")
    );
}

/// A sysbench 0.5-era OLTP script, written for these tests in that era's style (not sysbench's
/// own oltp.lua, which Debian's package does not ship): options as globals (legacy mode), the
/// 0.5 functions (`db_query`, `db_prepare`/`db_bind_param`/`db_execute` with the bound table
/// changed between executes, `sb_rand`, `sb_rand_uniform`, `sb_rand_str`), `thread_init` and
/// `event` taking the thread id.
const LEGACY_OLTP: &str = r#"
function thread_init(thread_id)
  tables = tonumber(oltp_tables_count) or 1
  rows = tonumber(oltp_table_size) or 10000
  span = tonumber(oltp_range_size) or 100
  points, keys = {}, {}
  for t = 1, tables do
    points[t] = db_prepare("SELECT c FROM sbtest" .. t .. " WHERE id=?")
    keys[t] = {0}
    db_bind_param(points[t], keys[t])
  end
end

-- (`#`, a template's digit, is char 35: the Rust raw string around this script cannot hold it
-- right after a double quote)
local DIGITS = string.rep(string.char(35), 11)
local C_TEMPLATE, PAD_TEMPLATE = DIGITS .. "-" .. DIGITS, DIGITS

local function range(name, what, tail)
  local lo = sb_rand(1, rows - span)
  db_query("SELECT " .. what .. " FROM " .. name .. " WHERE id BETWEEN " .. lo ..
    " AND " .. (lo + span - 1) .. (tail or ""))
end

function event(thread_id)
  local t = sb_rand_uniform(1, tables)
  local name = "sbtest" .. t
  db_query("BEGIN")
  for i = 1, 10 do
    keys[t][1] = sb_rand(1, rows)
    db_execute(points[t])
  end
  range(name, "c")
  range(name, "SUM(k)")
  range(name, "c", " ORDER BY c")
  range(name, "DISTINCT c", " ORDER BY c")
  db_query("UPDATE " .. name .. " SET k=k+1 WHERE id=" .. sb_rand(1, rows))
  db_query("UPDATE " .. name .. " SET c='" .. sb_rand_str(C_TEMPLATE) ..
    "' WHERE id=" .. sb_rand(1, rows))
  local id = sb_rand(1, rows)
  db_query("DELETE FROM " .. name .. " WHERE id=" .. id)
  db_query("INSERT INTO " .. name .. " (id, k, c, pad) VALUES (" .. id .. ", " ..
    sb_rand(1, rows) .. ", '" .. sb_rand_str(C_TEMPLATE) .. "', '" ..
    sb_rand_str(PAD_TEMPLATE) .. "')")
  db_query("COMMIT")
end
"#;

/// The legacy-mode script above makes MariaDB count the same statements under both tools.
#[test]
fn issue_41_a_0_5_era_oltp_script_makes_mariadb_do_what_sysbench_makes_it_do() {
    let Some(mut srv) = server("issue_41_lua_parity_legacy") else {
        return;
    };
    if !sysbench_here() {
        return;
    }
    let dir = scratch("lua-parity-legacy");
    let script = dir.join("legacy_oltp.lua");
    std::fs::write(&script, LEGACY_OLTP).unwrap();
    prepare_tables(CONN);
    let mut opts: Vec<String> = CONN.iter().map(|s| s.to_string()).collect();
    opts.extend(
        [
            "--oltp-tables-count=2",
            "--oltp-table-size=2000",
            "--threads=1",
            "--time=0",
        ]
        .map(String::from),
    );
    opts.push(format!("--events={EVENTS}"));
    let mut deltas = Vec::new();
    for tool in ["sysbench", "dbpress"] {
        let before = srv.com();
        run_tool(tool, &dir, &script, &opts);
        let after = srv.com();
        deltas.push(COM.map(|c| after[c] - before[c]));
    }
    // Per event: 10 prepared point selects, 4 ranges, 2 updates, a delete and an insert.
    assert!(
        deltas[0][8] >= 10 * EVENTS && deltas[0][5] >= 4 * EVENTS,
        "sysbench: {deltas:?}"
    );
    cleanup_tables(CONN);
    assert_eq!(deltas[1], deltas[0], "{COM:?}: dbpress then sysbench");
}

/// Events of bulk_insert.lua: rows of about 14 bytes, so the run crosses sysbench's 512 KiB
/// buffer twice and its INSERTs are cut where sysbench cuts them.
const BULK_EVENTS: u64 = 100_000;

/// bulk_insert.lua (its own prepare and cleanup: one table per thread, made by the script),
/// run as a modified copy under each tool in turn: the same INSERTs (Com_insert) and the same
/// rows in the table.
#[test]
fn issue_41_bulk_insert_sends_the_inserts_sysbench_sends() {
    let Some(mut srv) = server("issue_41_lua_parity_bulk_insert") else {
        return;
    };
    if !sysbench_here() {
        return;
    }
    let dir = scratch("lua-parity-bulk");
    let copy = modified_copy(&dir, "bulk_insert");
    let mut opts: Vec<String> = CONN.iter().map(|s| s.to_string()).collect();
    opts.extend(["--threads=1".into(), "--time=0".into()]);
    opts.push(format!("--events={BULK_EVENTS}"));
    let mut seen = Vec::new();
    for tool in ["sysbench", "dbpress"] {
        script_command(tool, &dir, &copy, "prepare", &opts);
        let before = srv.com()["Com_insert"];
        run_tool(tool, &dir, &copy, &opts);
        let inserts = srv.com()["Com_insert"] - before;
        let rows = srv.count_rows("sbtest1");
        script_command(tool, &dir, &copy, "cleanup", &opts);
        seen.push((inserts, rows));
    }
    assert_eq!(
        seen[0].1,
        Some(BULK_EVENTS as i64),
        "sysbench's rows: {seen:?}"
    );
    assert!(seen[0].0 >= 3, "sysbench sent {} INSERTs", seen[0].0);
    assert_eq!(seen[1], seen[0], "(INSERTs, rows): dbpress then sysbench");
}

/// `command` of the copy under `tool` (from `dir`, as sysbench's users run it); it must
/// succeed. dbpress's run samples neither the server's status nor its waits (their queries are
/// not the script's).
fn script_command(tool: &str, dir: &Path, copy: &Path, command: &str, opts: &[String]) {
    let copy = copy.to_str().unwrap();
    let o = if tool == "sysbench" {
        Command::new("sysbench")
            .current_dir(dir)
            .arg(copy)
            .args(joined(opts))
            .arg(command)
            .output()
            .unwrap()
    } else {
        let mut args = vec![copy, command];
        if command == "run" {
            args.extend(["--server-status=off", "--server-waits=off"]);
        }
        args.extend(opts.iter().map(String::as_str));
        dbpress(&args)
    };
    assert!(
        o.status.success(),
        "{tool} {copy} {command} {opts:?}: {}{}",
        String::from_utf8_lossy(&o.stdout),
        stderr(&o)
    );
}

/// Rows inserted, updated and deleted in the sbtest tables, once the tool's sessions have left
/// and flushed their statistics.
fn pg_work(c: &mut postgres::Client) -> [i64; 3] {
    for _ in 0..200 {
        let others: i64 = c
            .query_one(
                "SELECT COUNT(*) FROM pg_stat_activity WHERE usename = 'sbtest' \
                 AND pid <> pg_backend_pid()",
                &[],
            )
            .unwrap()
            .get(0);
        if others == 0 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    c.batch_execute("SELECT pg_stat_clear_snapshot()").unwrap();
    let row = c
        .query_one(
            "SELECT COALESCE(SUM(n_tup_ins), 0)::bigint, \
             COALESCE(SUM(n_tup_upd), 0)::bigint, COALESCE(SUM(n_tup_del), 0)::bigint \
             FROM pg_stat_user_tables WHERE relname LIKE 'sbtest%'",
            &[],
        )
        .unwrap();
    [row.get(0), row.get(1), row.get(2)]
}

#[test]
fn issue_41_every_stock_script_makes_postgresql_do_what_sysbench_makes_it_do() {
    let Some((_g, mut c)) = pg_server("issue_41_lua_parity_pgsql") else {
        return;
    };
    if !sysbench_here() {
        return;
    }
    let dir = scratch("lua-parity-pgsql");
    let conn: Vec<&str> = ["--db-driver=pgsql"]
        .iter()
        .chain(PG_CONN)
        .copied()
        .collect();
    let mut failures = Vec::new();
    for (script, extra) in PG_CASES {
        prepare_tables(&conn);
        let copy = modified_copy(&dir, script);
        let opts = run_options(&conn, extra);
        let mut deltas = Vec::new();
        for tool in ["sysbench", "dbpress"] {
            let before = pg_work(&mut c);
            run_tool(tool, &dir, &copy, &opts);
            let after = pg_work(&mut c);
            deltas.push([
                after[0] - before[0],
                after[1] - before[1],
                after[2] - before[2],
            ]);
        }
        let written: i64 = deltas[0].iter().sum();
        if *script != "oltp_point_select" {
            assert!(
                written > 0,
                "{script}: sysbench wrote nothing: {:?}",
                deltas[0]
            );
        }
        if deltas[0] != deltas[1] {
            failures.push(format!(
                "{script} {extra}: sysbench {:?}, dbpress {:?}",
                deltas[0], deltas[1]
            ));
        }
        cleanup_tables(&conn);
    }
    assert!(
        failures.is_empty(),
        "PostgreSQL counted different rows ([inserted, updated, deleted]):\n{}",
        failures.join("\n")
    );
}
