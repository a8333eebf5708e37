//! Issue 41: what sysbench scripts reach beyond `sysbench.*`. A script that replaces
//! `thread_run` with its own loop over sysbench's C functions (`ffi.C.sb_more_events`, …), and
//! counts errors itself with `ffi.C.sb_counter_inc`, as sysbench-tpcc does; a 0.5-style script
//! (`db_query`, `db_prepare`/`db_bind_param`/`db_execute`, bulk inserts); `sysbench.histogram`
//! printed as sysbench prints it; the 1.1 rand superset. MariaDB counts the statements.

use crate::common::{dbpress, json, scratch, server, stderr, stdout, Server, CONN};
use crate::sysbench_ref::{have_sysbench, SYSBENCH};
use std::collections::HashMap;

fn args<'a>(head: &[&'a str], tail: &[&'a str]) -> Vec<&'a str> {
    head.iter().chain(CONN).chain(tail).copied().collect()
}

fn delta(before: &HashMap<String, u64>, after: &HashMap<String, u64>, k: &str) -> u64 {
    after[k] - before[k]
}

/// dbpress run with `args`, which must succeed, and the server's Com_* counters around it.
fn counted(srv: &mut Server, args: &[&str]) -> (HashMap<String, u64>, HashMap<String, u64>) {
    let before = srv.com();
    let o = dbpress(args);
    let after = srv.com();
    assert!(o.status.success(), "{}", stderr(&o));
    (before, after)
}

fn count(srv: &mut Server, sql: &str) -> u64 {
    use mysql::prelude::Queryable;
    srv.conn.query_first(sql).unwrap().unwrap()
}

fn drop_own_tables(srv: &mut Server) {
    use mysql::prelude::Queryable;
    for t in srv.tables_like("luaffi%") {
        srv.conn.query_drop(format!("DROP TABLE `{t}`")).unwrap();
    }
}

/// Its own `thread_run`, the one of sysbench-iibench's thread_groups.lua in shape: claim, a
/// pause of its own (its pacing: not the event's time), start, one prepared point select, one
/// error and one write counted by the script, stop.
const OWN_LOOP: &str = r#"
ffi.cdef[[
void sb_counter_inc(int, sb_counter_type);
bool sb_more_events(int);
int usleep(unsigned int);
]]
function thread_init(tid)
  con = sysbench.sql.driver():connect()
  stmt = con:prepare("SELECT c FROM luaffi_loop WHERE id = ?")
  id = stmt:bind_create(sysbench.sql.type.INT)
  stmt:bind_param(id)
end
function event() error("the script's own thread_run runs the events") end
function thread_run(tid)
  local C = ffi.C
  while C.sb_more_events(tid) do
    C.usleep(10000)
    C.sb_event_start(tid)
    id:set(C.sb_rand_uniform(1, 10))
    stmt:execute()
    C.sb_counter_inc(tid, C.SB_CNT_ERROR)
    C.sb_counter_inc(tid, C.SB_CNT_WRITE)
    C.sb_event_stop(tid)
  end
end
"#;

#[test]
fn issue_41_a_script_running_its_own_loop_through_sysbenchs_c_functions_counts_exactly() {
    let Some(mut srv) = server("issue_41_lua_ffi_own_loop") else {
        return;
    };
    drop_own_tables(&mut srv);
    {
        use mysql::prelude::Queryable;
        srv.conn
            .query_drop("CREATE TABLE luaffi_loop (id INT PRIMARY KEY, c CHAR(10))")
            .unwrap();
        let rows: Vec<String> = (1..=10).map(|i| format!("({i}, 'x')")).collect();
        srv.conn
            .query_drop(format!("INSERT INTO luaffi_loop VALUES {}", rows.join(",")))
            .unwrap();
    }
    let dir = scratch("lua-ffi-loop");
    let script = dir.join("own_loop.lua");
    std::fs::write(&script, OWN_LOOP).unwrap();
    let out = dir.join("r.json");
    let run = [
        "--threads=2",
        "--time=0",
        "--events=300",
        "--output",
        out.to_str().unwrap(),
    ];
    let (before, after) = counted(&mut srv, &args(&[script.to_str().unwrap(), "run"], &run));
    let r = json(&out);
    assert_eq!(r["summary"]["events"], 300, "{}", r["summary"]);
    // The server's count: one prepared select per event, prepared once per thread.
    assert_eq!(delta(&before, &after, "Com_stmt_execute"), 300);
    assert_eq!(delta(&before, &after, "Com_select"), 300);
    assert_eq!(delta(&before, &after, "Com_stmt_prepare"), 2);
    // The select as a read; the script's own counts as a write and an error per event.
    assert_eq!(r["summary"]["reads"], 300);
    assert_eq!(r["summary"]["writes"], 300);
    assert_eq!(r["summary"]["errors"], 300);
    assert_eq!(
        r["errors_by_code"]["sb_counter_inc"], 300,
        "{}",
        r["errors_by_code"]
    );
    // Timed from sb_event_start: the 10 ms pause before it is not in the events' latency.
    let p50 = r["summary"]["latency"]["p50_ms"].as_f64().unwrap();
    assert!(p50 < 5.0, "{}", r["summary"]["latency"]);
    drop_own_tables(&mut srv);
}

/// In the style of sysbench 0.5's select.lua and oltp_simple.lua: the implicit connection,
/// string options taken as numbers, a text select and a prepared update whose bound table
/// `db_execute` reads again each time (its string growing past its first length), a bulk load.
const LEGACY: &str = r#"
rows = "2000"
function prepare()
  db_query("CREATE TABLE luaffi_legacy (id INTEGER PRIMARY KEY, k INTEGER, c VARCHAR(255))")
  db_bulk_insert_init("INSERT INTO luaffi_legacy (id, k, c) VALUES")
  for i = 1, tonumber(rows) do
    db_bulk_insert_next("(" .. i .. "," .. sb_rand(1, rows) .. ",'" .. sb_rand_str(string.rep("@", 250)) .. "')")
  end
  db_bulk_insert_done()
end
function thread_init(thread_id)
  stmt = db_prepare("UPDATE luaffi_legacy SET c = ? WHERE id = ?")
  params = {"", 1}
  db_bind_param(stmt, params)
end
function event(thread_id)
  rs = db_query("SELECT k FROM luaffi_legacy WHERE id=" .. sb_rand(1, rows))
  params[1] = sb_rand_str("@@@@@@@@")
  params[2] = sb_rand_uniform(1, rows)
  rs = db_execute(stmt)
  db_store_results(rs)
  db_free_results(rs)
end
function cleanup()
  db_query("DROP TABLE luaffi_legacy")
end
"#;

#[test]
fn issue_41_a_0_5_style_script_runs_on_the_implicit_connection_and_the_server_counts_it() {
    let Some(mut srv) = server("issue_41_lua_ffi_legacy") else {
        return;
    };
    drop_own_tables(&mut srv);
    let dir = scratch("lua-ffi-legacy");
    let script = dir.join("select_legacy.lua");
    std::fs::write(&script, LEGACY).unwrap();
    let path = script.to_str().unwrap();

    let (before, after) = counted(&mut srv, &args(&[path, "prepare"], &[]));
    // 2000 rows of ~270 bytes: two INSERTs, split at sysbench's 512 KiB.
    assert_eq!(delta(&before, &after, "Com_insert"), 2);
    assert_eq!(delta(&before, &after, "Com_create_table"), 1);
    assert_eq!(count(&mut srv, "SELECT COUNT(*) FROM luaffi_legacy"), 2000);

    let out = dir.join("r.json");
    let out_s = out.to_str().unwrap();
    let run = ["--threads=2", "--time=0", "--events=250", "--output", out_s];
    let (before, after) = counted(&mut srv, &args(&[path, "run"], &run));
    assert_eq!(json(&out)["summary"]["events"], 250);
    // One text select and one prepared update per event, each thread preparing once.
    assert_eq!(delta(&before, &after, "Com_select"), 250);
    assert_eq!(delta(&before, &after, "Com_update"), 250);
    assert_eq!(delta(&before, &after, "Com_stmt_execute"), 250);
    assert_eq!(delta(&before, &after, "Com_stmt_prepare"), 2);
    // The updates wrote what the table held at each execute: whole 8-letter strings (the
    // parameter rebound as it grew from 0), on rows all over the table (ids read again).
    let rewritten = count(
        &mut srv,
        "SELECT COUNT(*) FROM luaffi_legacy WHERE c REGEXP '^[a-zA-Z]{8}$'",
    );
    assert!(
        (150..=250).contains(&rewritten),
        "{rewritten} rows rewritten"
    );

    let o = dbpress(&args(&[path, "cleanup"], &[]));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(srv.tables_like("luaffi%").is_empty());

    // A failed 0.5 call is one line: the call, the server's cause, the script's line.
    let o = dbpress(&args(&[path, "cleanup"], &[]));
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains(&format!("{path}:25: db_query() failed: ")) && err.contains("1051"),
        "{err}"
    );
}

/// sysbench.histogram, the C declarations scripts rely on, and the 1.1 rand superset, in a
/// script's prepare(): no server needed.
const HISTOGRAM: &str = r#"
function prepare()
  local h = sysbench.histogram.new(10, 1, 100)
  for i = 1, 100 do h:update(i) end
  h:print()
  local g = ffi.C.sb_histogram_new(3, 1, 100)
  for i = 1, 3 do ffi.C.sb_histogram_update(g, 100) end
  ffi.C.sb_histogram_update(g, 1)
  ffi.C.sb_histogram_print(g)
  ffi.C.sb_histogram_delete(g)
  io.write(tostring(h), "\n")
end
"#;

const EXPECTED_HISTOGRAMS: &str = "       value  ------------- distribution ------------- count
       1.000 |*                                        1
       1.668 |*                                        1
       2.783 |*                                        1
       4.642 |***                                      2
       7.743 |*****                                    4
      12.915 |*********                                7
      21.544 |**************                           11
      35.938 |*************************                19
      59.948 |**************************************** 31
     100.000 |******************************           23
       value  ------------- distribution ------------- count
       1.000 |*************                            1
     100.000 |**************************************** 3
<sb_histogram>
";

#[test]
fn issue_41_sysbench_histogram_prints_what_sysbench_prints() {
    let dir = scratch("lua-ffi-histogram");
    let script = dir.join("histogram.lua");
    std::fs::write(&script, HISTOGRAM).unwrap();
    let o = dbpress(&[script.to_str().unwrap(), "prepare", "--mysql-dry-run"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).ends_with(EXPECTED_HISTOGRAMS), "{}", stdout(&o));
    // sysbench itself, where installed, prints the same (all but its tostring, which fails).
    if have_sysbench() {
        let sb = std::process::Command::new(SYSBENCH)
            .arg(&script)
            .arg("prepare")
            .output()
            .unwrap();
        let text = stdout(&sb);
        let histograms = EXPECTED_HISTOGRAMS.trim_end_matches("<sb_histogram>\n");
        assert!(text.contains(histograms), "{text}");
    }
}

/// Redeclaring a function is accepted, an enum constant is not (as under sysbench); the 1.1
/// rand functions stay in their ranges, `unique` never repeats, zipfian favours its low end.
const DECLARATIONS: &str = r#"
function prepare()
  ffi.cdef "void sb_counter_inc(int, sb_counter_type); uint64_t sb_counter_val(int, sb_counter_type);"
  local ok, err = pcall(ffi.cdef, "typedef enum { SB_CNT_OTHER } again_t;")
  print("enum again:", ok, err)
  print("SB_CNT_ERROR", ffi.C.SB_CNT_ERROR, "SQL_TYPE_VARCHAR", ffi.C.SQL_TYPE_VARCHAR)
  local seen, repeats = {}, 0
  for i = 1, 20000 do
    local u = sysbench.rand.unique()
    if seen[u] then repeats = repeats + 1 end
    seen[u] = true
  end
  print("unique repeats:", repeats)
  local low, bad = 0, 0
  for i = 1, 10000 do
    local z = sysbench.rand.zipfian(1, 1000)
    if z < 1 or z > 1000 then bad = bad + 1 end
    if z <= 10 then low = low + 1 end
  end
  print("zipfian out of range:", bad, "in the lowest 1%:", low > 1000)
  local lens, chars = {}, 0
  for i = 1, 2000 do
    local s = sysbench.rand.varstring(3, 5)
    lens[#s] = true
    if s:find("[^0-z]") then chars = chars + 1 end
  end
  print("varstring lengths:", lens[2], lens[3], lens[4], lens[5], lens[6], "bad chars:", chars)
  local q = sb_rand_uniq(1, 2^31)
  print("uniform 7..7:", ffi.C.sb_rand_uniform(7, 7), q >= 1 and q <= 2^31)
  print(pcall(sysbench.rand.varstring, 5, 3))
end
"#;

#[test]
fn issue_41_sysbench_declarations_and_the_rand_superset_behave_as_scripts_expect() {
    let dir = scratch("lua-ffi-declarations");
    let script = dir.join("declarations.lua");
    std::fs::write(&script, DECLARATIONS).unwrap();
    let o = dbpress(&[script.to_str().unwrap(), "prepare", "--mysql-dry-run"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for line in [
        "enum again:\tfalse\tattempt to redefine 'SB_CNT_OTHER'",
        "SB_CNT_ERROR\t4\tSQL_TYPE_VARCHAR\t12",
        "unique repeats:\t0",
        "zipfian out of range:\t0\tin the lowest 1%:\ttrue",
        "varstring lengths:\tnil\ttrue\ttrue\ttrue\tnil\tbad chars:\t0",
        "uniform 7..7:\t7\ttrue",
        "false\tsysbench.rand.varstring(min_len, max_len) needs 0 <= min_len <= max_len and max_len >= 1: got (5, 3)",
    ] {
        assert!(out.contains(line), "no {line:?} in:\n{out}");
    }
}
