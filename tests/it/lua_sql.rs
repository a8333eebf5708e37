//! Issue 41: sysbench.sql's object model and error classes, run by dbpress and by the real
//! sysbench 1.0.20 on the same servers with the same script: results and rows, query_row,
//! bulk inserts, restarts (errdesc tables a script's pcall catches, before_restart_event,
//! sql_error_ignorable), and a fatal error's one line. The server's counters must move alike.
//! Tables are `luasql_*`, apart from other tests' `sbtest*`.

use crate::common::{assert_fails_with, dbpress, json, scratch, server, stderr, CONN};
use crate::engines::{pg_scalar, pg_server, PG_CONN};
use crate::sysbench_ref::{have_sysbench, sysbench, SB_MYSQL, SB_PGSQL};
use std::collections::HashMap;
use std::path::Path;
use std::process::Output;

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A figure of sysbench's report: the number after `label` (`read:`, `ignored errors:`).
fn reported(out: &str, label: &str) -> u64 {
    out.lines()
        .find_map(|l| l.trim().strip_prefix(label))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no {label:?} in sysbench's output:\n{out}"))
}

fn delta(a: &HashMap<String, u64>, b: &HashMap<String, u64>, k: &str) -> u64 {
    b[k] - a[k]
}

fn args<'a>(head: &[&'a str], conn: &[&'a str], tail: &[&'a str]) -> Vec<&'a str> {
    head.iter().chain(conn).chain(tail).copied().collect()
}

/// Results, rows, query_row and bulk inserts, checked by the script itself (a failed check is
/// a script error): `prepare` loads 2000 rows of ~515 bytes through bulk_insert (two INSERTs at
/// sysbench's 512 KiB), each event reads them back 4 ways and runs an UPDATE matching nothing.
const ROWS_SCRIPT: &str = r#"-- tests/it/lua_sql.rs
local function check(ok, what) if not ok then error("check failed: " .. what, 2) end end

function prepare()
  local con = sysbench.sql.driver():connect()
  con:query("DROP TABLE IF EXISTS luasql_rows")
  con:query("CREATE TABLE luasql_rows (id INT PRIMARY KEY, c VARCHAR(600), n INT)")
  con:bulk_insert_init("INSERT INTO luasql_rows (id, c, n) VALUES")
  local pad = string.rep("x", 500)
  for i = 1, 2000 do
    con:bulk_insert_next(string.format("(%d, '%s', %s)", i, pad,
      i % 2 == 0 and tostring(i) or "NULL"))
  end
  con:bulk_insert_done()
end

function cleanup()
  sysbench.sql.driver():connect():query("DROP TABLE IF EXISTS luasql_rows")
end

function thread_init()
  con = sysbench.sql.driver():connect()
  stmt = con:prepare("SELECT c FROM luasql_rows WHERE id = ?")
  param = stmt:bind_create(sysbench.sql.type.INT)
  stmt:bind_param(param)
end

function event()
  local rs = con:query("SELECT id, c, n FROM luasql_rows WHERE id <= 3 ORDER BY id")
  check(tostring(rs) == "<sql_result>", "tostring " .. tostring(rs))
  check(rs.nrows == 3 and rs.nfields == 3, "nrows " .. tostring(rs.nrows))
  local r1 = rs:fetch_row()
  check(r1[1] == "1" and #r1[2] == 500 and r1[3] == nil, "row 1")
  local r2 = rs:fetch_row()
  check(r2[1] == "2" and r2[3] == "2", "row 2")
  check(rs:fetch_row()[1] == "3", "row 3")
  check(rs:fetch_row() == nil, "nil after the last row")
  local count, max = con:query_row("SELECT COUNT(*), MAX(id) FROM luasql_rows")
  check(count == "2000" and max == "2000", "query_row " .. tostring(count))
  local dml = con:query("UPDATE luasql_rows SET n = 7 WHERE id = 0")
  check(dml == nil and tostring(dml) == "<sql_result>", "a DML result")
  param:set(sysbench.rand.uniform(1, 2000))
  check(stmt:execute() ~= nil, "a prepared SELECT's result")
  local none = con:query("SELECT id FROM luasql_rows WHERE id < 0")
  check(none.nrows == 0 and none:fetch_row() == nil, "an empty result")
end
"#;

#[test]
fn issue_41_results_rows_and_bulk_inserts_move_the_server_as_under_sysbench() {
    let Some(mut srv) = server("issue_41_lua_sql_rows") else {
        return;
    };
    let dir = scratch("lua-sql-rows");
    let script = dir.join("rows.lua");
    std::fs::write(&script, ROWS_SCRIPT).unwrap();
    let script = script.to_str().unwrap();
    let out = dir.join("r.json");
    let run_tail = [
        "--threads=1",
        "--time=0",
        "--events=50",
        "--output",
        out.to_str().unwrap(),
    ];

    let c0 = srv.com();
    let o = dbpress(&args(&[script, "prepare"], CONN, &[]));
    assert!(o.status.success(), "{}", stderr(&o));
    let c1 = srv.com();
    let o = dbpress(&args(&[script, "run"], CONN, &run_tail));
    assert!(o.status.success(), "{}", stderr(&o));
    let c2 = srv.com();
    // Two flushes of the bulk insert; per event 4 SELECTs (one prepared) and the UPDATE.
    assert_eq!(delta(&c0, &c1, "Com_insert"), 2);
    assert_eq!(delta(&c1, &c2, "Com_select"), 200);
    assert_eq!(delta(&c1, &c2, "Com_update"), 50);
    // Counted as sysbench counts: a result set is a read, no row changed is "other".
    let r = json(&out);
    assert_eq!(r["summary"]["events"], 50);
    assert_eq!(r["summary"]["reads"], 200);
    assert_eq!(r["summary"]["writes"], 0);
    assert_eq!(r["summary"]["other"], 50);

    if !have_sysbench() {
        return;
    }
    let s0 = srv.com();
    let o = sysbench(&args(&[script], &SB_MYSQL, &["prepare"]));
    assert!(o.status.success(), "{}", text(&o));
    let s1 = srv.com();
    let o = sysbench(&args(&[script], &SB_MYSQL, &["--events=50", "run"]));
    assert!(o.status.success(), "{}", text(&o));
    let s2 = srv.com();
    for k in ["Com_insert", "Com_select", "Com_update", "Com_stmt_execute"] {
        assert_eq!(
            (delta(&c0, &c1, k), delta(&c1, &c2, k)),
            (delta(&s0, &s1, k), delta(&s1, &s2, k)),
            "{k}: dbpress's (prepare, run) against sysbench's"
        );
    }
    let report = text(&o);
    assert_eq!(reported(&report, "read:"), 200);
    assert_eq!(reported(&report, "other:"), 50);
    let o = dbpress(&args(&[script, "cleanup"], CONN, &[]));
    assert!(o.status.success(), "{}", stderr(&o));
}

/// Restarts: each event's first attempt fails on a duplicate key the script does not catch,
/// whose restart runs before_restart_event (a statement the server counts); every attempt also
/// catches one duplicate with pcall, which must be the errdesc table (inside a transaction:
/// PostgreSQL's is rolled back after an ignorable error, or the next statement would fail). `STATE` and `ERRNO` are
/// the engine's; `HOOK` the hook's statement.
const RESTART_SCRIPT: &str = r#"-- tests/it/lua_sql.rs
local attempts = 0
local dup = "INSERT INTO luasql_err (id, n) VALUES (1, 0)"

function prepare()
  local con = sysbench.sql.driver():connect()
  con:query("DROP TABLE IF EXISTS luasql_err")
  con:query("CREATE TABLE luasql_err (id INT PRIMARY KEY, n INT)")
  con:query(dup)
end

function cleanup()
  sysbench.sql.driver():connect():query("DROP TABLE IF EXISTS luasql_err")
end

function thread_init()
  con = sysbench.sql.driver():connect()
end

sysbench.hooks.before_restart_event = function(e)
  if e.errcode ~= sysbench.error.RESTART_EVENT then error("a restart without RESTART_EVENT") end
  con:query("HOOK")
end

function event()
  attempts = attempts + 1
  con:query("BEGIN")
  local ok, e = pcall(con.query, con, dup)
  if ok or type(e) ~= "table" then error("pcall caught " .. tostring(e)) end
  if e.errcode ~= sysbench.error.RESTART_EVENT or e.sql_errno ~= ERRNO or e.sql_state ~= "STATE"
    or e.query ~= dup or tostring(e.connection) ~= "<sql_connection>" then
    error(string.format("errdesc %s %s %s", tostring(e.sql_errno), tostring(e.sql_state), tostring(e.query)))
  end
  if attempts % 2 == 1 then
    con:query(dup)
  end
end
"#;

fn restart_script(dir: &Path, errno: &str, state: &str, hook: &str) -> String {
    let path = dir.join("restart.lua");
    let text = RESTART_SCRIPT
        .replace("ERRNO", errno)
        .replace("STATE", state)
        .replace("HOOK", hook);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn issue_41_an_ignorable_error_restarts_the_event_after_before_restart_event_on_mariadb() {
    let Some(mut srv) = server("issue_41_lua_sql_restart") else {
        return;
    };
    let dir = scratch("lua-sql-restart");
    let script = restart_script(&dir, "1062", "23000", "DO 1062");
    let script = script.as_str();
    let out = dir.join("r.json");
    let o = dbpress(&args(&[script, "prepare"], CONN, &[]));
    assert!(o.status.success(), "{}", stderr(&o));
    let _cleanup = ScriptCleanup(script);
    let ignore = "--mysql-ignore-errors=1062";
    let c0 = srv.com();
    let o = dbpress(&args(
        &[script, "run"],
        CONN,
        &[
            ignore,
            "--time=0",
            "--events=20",
            "--output",
            out.to_str().unwrap(),
        ],
    ));
    assert!(o.status.success(), "{}", stderr(&o));
    let c1 = srv.com();
    // Per event: the hook once, three duplicates (two caught, one restarting), each an error.
    assert_eq!(delta(&c0, &c1, "Com_do"), 20);
    assert_eq!(delta(&c0, &c1, "Com_insert"), 60);
    let r = json(&out);
    assert_eq!(r["summary"]["events"], 20);
    assert_eq!(r["summary"]["errors"], 60, "{}", r["summary"]);

    // Not in the ignore list, 1062 is fatal: the pcall catches the message, not a table.
    let o = dbpress(&args(&[script, "run"], CONN, &["--time=0", "--events=20"]));
    assert_fails_with(&o, 1, "pcall caught ");
    assert!(stderr(&o).contains("restart.lua:"), "{}", stderr(&o));

    if !have_sysbench() {
        return;
    }
    let s0 = srv.com();
    let o = sysbench(&args(&[script], &SB_MYSQL, &[ignore, "--events=20", "run"]));
    assert!(o.status.success(), "{}", text(&o));
    let s1 = srv.com();
    for k in ["Com_do", "Com_insert"] {
        assert_eq!(
            delta(&c0, &c1, k),
            delta(&s0, &s1, k),
            "{k} against sysbench's"
        );
    }
    assert_eq!(reported(&text(&o), "ignored errors:"), 60);
    // BEGIN twice and the hook's DO once per event, as sysbench counts them.
    assert_eq!(reported(&text(&o), "other:"), 60);
    assert_eq!(r["summary"]["other"], 60, "{}", r["summary"]);
}

/// A fatal error the script's `sql_error_ignorable` hook accepts restarts the event too; one it
/// does not is raised at the script's line, which stops the run with exit 1 as in sysbench.
const HOOK_SCRIPT: &str = r#"-- tests/it/lua_sql.rs
local attempts = 0
sysbench.hooks.sql_error_ignorable = function(e) return e.sql_errno == 1146 end
sysbench.hooks.before_restart_event = function(e) con:query("DO 1146") end
function thread_init() con = sysbench.sql.driver():connect() end
function event()
  attempts = attempts + 1
  if attempts % 2 == 1 then con:query("SELECT * FROM luasql_missing") end
  if sysbench.opt.fatal then con:query("SELEC 1") end
end
"#;

#[test]
fn issue_41_sql_error_ignorable_restarts_a_fatal_error_and_others_end_the_run_at_the_line() {
    let Some(mut srv) = server("issue_41_lua_sql_hook") else {
        return;
    };
    let dir = scratch("lua-sql-hook");
    let script = dir.join("hook.lua");
    std::fs::write(&script, HOOK_SCRIPT).unwrap();
    let script = script.to_str().unwrap();
    let out = dir.join("r.json");
    let c0 = srv.com();
    let o = dbpress(&args(
        &[script, "run"],
        CONN,
        &["--time=0", "--events=10", "--output", out.to_str().unwrap()],
    ));
    assert!(o.status.success(), "{}", stderr(&o));
    let c1 = srv.com();
    assert_eq!(delta(&c0, &c1, "Com_do"), 10);
    let r = json(&out);
    assert_eq!(r["summary"]["events"], 10);
    assert_eq!(r["summary"]["errors"], 10, "{}", r["summary"]);
    // The hook's statements count with the event they restart.
    assert_eq!(r["summary"]["other"], 10, "{}", r["summary"]);

    if have_sysbench() {
        let s0 = srv.com();
        let o = sysbench(&args(&[script], &SB_MYSQL, &["--events=10", "run"]));
        assert!(o.status.success(), "{}", text(&o));
        let s1 = srv.com();
        assert_eq!(delta(&c0, &c1, "Com_do"), delta(&s0, &s1, "Com_do"));
        assert_eq!(reported(&text(&o), "other:"), 10);
        assert_eq!(reported(&text(&o), "ignored errors:"), 10);
    }

    // A syntax error the hook does not accept: sysbench's message at the script's line 9.
    let fatal = dir.join("fatal.lua");
    std::fs::write(
        &fatal,
        HOOK_SCRIPT.replace("if sysbench.opt.fatal then ", "if true then "),
    )
    .unwrap();
    let o = dbpress(&args(
        &[fatal.to_str().unwrap(), "run"],
        CONN,
        &["--time=0", "--events=10"],
    ));
    assert_fails_with(&o, 1, &format!("{}:9: ", fatal.display()));
    assert!(stderr(&o).contains("1064"), "{}", stderr(&o));
}

#[test]
fn issue_41_a_duplicate_key_restarts_the_event_on_postgresql() {
    let Some((_guard, mut pg)) = pg_server("issue_41_lua_sql_pg_restart") else {
        return;
    };
    let dir = scratch("lua-sql-pg-restart");
    // The hook counts in the table itself (pg_stat would lag): n is the number of restarts.
    let script = restart_script(
        &dir,
        "0",
        "23505",
        "UPDATE luasql_err SET n = n + 1 WHERE id = 1",
    );
    let script = script.as_str();
    let out = dir.join("r.json");
    let o = dbpress(&args(&[script, "prepare"], PG_CONN, &[]));
    assert!(o.status.success(), "{}", stderr(&o));
    let o = dbpress(&args(
        &[script, "run"],
        PG_CONN,
        &["--time=0", "--events=20", "--output", out.to_str().unwrap()],
    ));
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        pg_scalar(&mut pg, "SELECT n FROM luasql_err WHERE id = 1").as_deref(),
        Some("20")
    );
    let r = json(&out);
    assert_eq!(r["summary"]["events"], 20);
    assert_eq!(r["summary"]["errors"], 60, "{}", r["summary"]);

    if have_sysbench() {
        pg.batch_execute("UPDATE luasql_err SET n = 0").unwrap();
        let o = sysbench(&args(&[script], &SB_PGSQL, &["--events=20", "run"]));
        assert!(o.status.success(), "{}", text(&o));
        assert_eq!(
            pg_scalar(&mut pg, "SELECT n FROM luasql_err WHERE id = 1").as_deref(),
            Some("20")
        );
        assert_eq!(reported(&text(&o), "ignored errors:"), 60);
    }
    pg.batch_execute("DROP TABLE luasql_err").unwrap();
}

#[test]
fn issue_41_results_and_rows_read_back_on_postgresql_as_under_sysbench() {
    let Some((_guard, mut pg)) = pg_server("issue_41_lua_sql_pg_rows") else {
        return;
    };
    let dir = scratch("lua-sql-pg-rows");
    let script = dir.join("rows.lua");
    std::fs::write(&script, ROWS_SCRIPT).unwrap();
    let script = script.to_str().unwrap();
    let out = dir.join("r.json");
    let o = dbpress(&args(&[script, "prepare"], PG_CONN, &[]));
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        pg_scalar(&mut pg, "SELECT COUNT(*) FROM luasql_rows WHERE n IS NULL").as_deref(),
        Some("1000")
    );
    let o = dbpress(&args(
        &[script, "run"],
        PG_CONN,
        &["--time=0", "--events=50", "--output", out.to_str().unwrap()],
    ));
    assert!(o.status.success(), "{}", stderr(&o));
    let r = json(&out);
    assert_eq!(r["summary"]["reads"], 200);
    assert_eq!(r["summary"]["other"], 50);
    if have_sysbench() {
        let o = sysbench(&args(&[script], &SB_PGSQL, &["--events=50", "run"]));
        assert!(o.status.success(), "{}", text(&o));
        assert_eq!(reported(&text(&o), "read:"), 200);
        assert_eq!(reported(&text(&o), "other:"), 50);
    }
    pg.batch_execute("DROP TABLE luasql_rows").unwrap();
}

#[test]
fn issue_41_con_reconnect_opens_a_new_session_counted_in_reconnects() {
    let Some(mut srv) = server("issue_41_lua_sql_reconnect") else {
        return;
    };
    let dir = scratch("lua-sql-reconnect");
    let script = dir.join("reconnect.lua");
    std::fs::write(
        &script,
        "function thread_init() con = sysbench.sql.driver():connect() end\n\
         function event()\n  con:query(\"DO 1\")\n  con:reconnect()\nend\n",
    )
    .unwrap();
    let script = script.to_str().unwrap();
    let out = dir.join("r.json");
    let before = connections(&mut srv);
    let c0 = srv.com();
    let o = dbpress(&args(
        &[script, "run"],
        CONN,
        &["--time=0", "--events=10", "--output", out.to_str().unwrap()],
    ));
    assert!(o.status.success(), "{}", stderr(&o));
    let c1 = srv.com();
    assert_eq!(delta(&c0, &c1, "Com_do"), 10);
    let r = json(&out);
    assert_eq!(r["summary"]["reconnects"], 10, "{}", r["summary"]);
    assert_eq!(r["summary"]["other"], 10, "{}", r["summary"]);
    // Each a session of its own on the server (sysbench 1.0.20 itself crashes on this script
    // over the Unix socket, so it is not compared here).
    let opened = connections(&mut srv) - before;
    assert!(opened >= 10, "{opened} sessions opened");
}

/// The script's cleanup on the shared MariaDB when the test ends, however it ends.
struct ScriptCleanup<'a>(&'a str);

impl Drop for ScriptCleanup<'_> {
    fn drop(&mut self) {
        let _ = dbpress(&args(&[self.0, "cleanup"], CONN, &[]));
    }
}

/// The server's count of sessions opened so far.
fn connections(srv: &mut crate::common::Server) -> u64 {
    use mysql::prelude::Queryable;
    let row: Option<(String, u64)> = srv
        .conn
        .query_first("SHOW GLOBAL STATUS LIKE 'Connections'")
        .unwrap();
    row.unwrap().1
}
