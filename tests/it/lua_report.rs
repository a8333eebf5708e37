//! Issue 41: a sysbench script's report hooks and sysbench's built-in reporters. A hook set to
//! `sysbench.report_csv` prints one line per tick in place of dbpress's, whose figures are the
//! result's intervals; `report_json` prints one JSON array, closed with the reporter's state;
//! `report_cumulative` replaces sysbench's part of the summary; the reporters print exactly what
//! sysbench 1.0.20's print for the same `stat`; a script's output and dbpress's lines keep their
//! order into a pipe.

use crate::common::{dbpress, json, scratch, server, stderr, stdout, CONN};
use crate::sysbench_ref::{have_sysbench, shape, SYSBENCH};
use serde_json::Value;

/// A SELECT (a read) and a DO (other) per event, on the connection thread_init opened.
const EVENT: &str = r#"
function thread_init()
  con = sysbench.sql.driver():connect()
end
function event()
  con:query("SELECT 1")
  con:query("DO 1")
end
"#;

fn script(dir: &std::path::Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

fn u(v: &Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("not a count: {v}"))
}

/// The result's intervals that had a tick (a line, or the hook's report), in order.
fn ticked(r: &Value) -> Vec<&Value> {
    let all = r["intervals"].as_array().unwrap();
    all.iter().filter(|i| i["closing"] != true).collect()
}

/// The count a rate of `text` (2 decimals) over `secs` came from.
fn count_of(text: &str, secs: f64) -> u64 {
    (text.parse::<f64>().unwrap() * secs).round() as u64
}

#[test]
fn issue_41_report_csv_prints_one_line_per_tick_with_the_results_figures() {
    let Some(mut srv) = server("issue_41_lua_report_csv") else {
        return;
    };
    let dir = scratch("lua-report-csv");
    let text = format!("{EVENT}\nsysbench.hooks.report_intermediate = sysbench.report_csv\n");
    let path = script(&dir, "csv_hook.lua", &text);
    let out = dir.join("r.json");
    let mut args = vec![path.as_str(), "run"];
    args.extend_from_slice(CONN);
    args.extend_from_slice(&[
        "--threads=2",
        "--time=3",
        "--report-interval=1",
        "--output",
        out.to_str().unwrap(),
    ]);
    let before = srv.com();
    let o = dbpress(&args);
    let after = srv.com();
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let r = json(&out);
    // The hook replaced dbpress's interval line; sysbench's summary stays (no cumulative hook).
    assert!(!text.contains("] thds: "), "{text}");
    assert!(text.contains("SQL statistics:"), "{text}");
    let lines: Vec<Vec<&str>> = text
        .lines()
        .filter(|l| l.split(',').count() == 10)
        .map(|l| l.split(',').collect())
        .collect();
    let ticks = ticked(&r);
    assert_eq!(lines.len(), ticks.len(), "{text}");
    let times: Vec<&str> = lines.iter().map(|c| c[0]).collect();
    assert_eq!(times, ["1", "2", "3"], "{text}");
    // sysbench's columns: time, threads, tps, qps, r/s, w/s, o/s, latency ms, err/s, reconn/s,
    // each the rate of the result's interval.
    for (c, i) in lines.iter().zip(&ticks) {
        let secs = f(&i["duration_s"]);
        let rate = |k: &str| format!("{:.2}", u(&i[k]) as f64 / secs);
        assert_eq!(c[1], i["threads"].to_string(), "{c:?} {i}");
        assert_eq!(c[2], rate("events"), "{c:?} {i}");
        let queries = u(&i["reads"]) + u(&i["writes"]) + u(&i["other"]);
        assert_eq!(c[3], format!("{:.2}", queries as f64 / secs), "{c:?} {i}");
        let want: Vec<String> = ["reads", "writes", "other", "errors", "reconnects"]
            .map(rate)
            .to_vec();
        assert_eq!(vec![c[4], c[5], c[6], c[8], c[9]], want, "{c:?} {i}");
        let lat: f64 = c[7].parse().unwrap();
        assert!((lat - f(&i["latency_pct_ms"])).abs() < 0.011, "{c:?} {i}");
        // Back from the rates to the counts: the interval's, exactly.
        assert_eq!(count_of(c[2], secs), u(&i["events"]), "{c:?} {i}");
        assert_eq!(count_of(c[3], secs), queries, "{c:?} {i}");
    }
    // The lines' events and queries with the closing interval's add up to the run's.
    let closing: u64 = r["intervals"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["closing"] == true)
        .map(|i| u(&i["events"]))
        .sum();
    let from_lines: u64 = lines
        .iter()
        .zip(&ticks)
        .map(|(c, i)| count_of(c[2], f(&i["duration_s"])))
        .sum();
    let s = &r["summary"];
    assert_eq!(from_lines + closing, u(&s["events"]));
    assert!(u(&s["events"]) > 0);
    assert_eq!(u(&s["reads"]), u(&s["events"]));
    assert_eq!(u(&s["other"]), u(&s["events"]));
    // And the server ran what the lines say: a SELECT per event (DO counts in Com_do).
    assert_eq!(after["Com_select"] - before["Com_select"], u(&s["reads"]));
    assert_eq!(after["Com_do"] - before["Com_do"], u(&s["other"]));
}

#[test]
fn issue_41_report_json_is_one_array_and_report_cumulative_replaces_sysbenchs_summary() {
    let dir = scratch("lua-report-json");
    let text = format!(
        r#"{EVENT}
sysbench.hooks.report_intermediate = sysbench.report_json
sysbench.hooks.report_cumulative = function(stat)
  print(string.format("cumulative: events=%d reads=%d other=%d errors=%d time=%.6f sum=%.9f min=%.9f max=%.9f",
    stat.events, stat.reads, stat.other, stat.errors, stat.time_total, stat.latency_sum,
    stat.latency_min, stat.latency_max))
end
"#
    );
    let path = script(&dir, "json_hook.lua", &text);
    let out = dir.join("r.json");
    let o = dbpress(&[
        &path,
        "run",
        "--mysql-dry-run",
        "--threads=2",
        "--time=2",
        "--report-interval=1",
        "--output",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let r = json(&out);
    // One array: `[` before the first object, `]` when the reporter's state closed, before
    // the final report.
    let open = text.find("\n[\n").expect("an opening [") + 1;
    let close = text.find("\n]\n").expect("a closing ]") + 3;
    let cumulative = text
        .find("cumulative: ")
        .expect("the cumulative hook's line");
    assert!(open < close && close <= cumulative, "{text}");
    let array: Value = serde_json::from_str(&text[open..close]).unwrap();
    let objects = array.as_array().unwrap();
    let ticks = ticked(&r);
    assert_eq!(objects.len(), ticks.len(), "{text}");
    for (j, i) in objects.iter().zip(&ticks) {
        let secs = f(&i["duration_s"]);
        assert_eq!(u(&j["time"]), f(&i["time_s"]).round() as u64, "{j} {i}");
        assert_eq!(j["threads"], i["threads"], "{j} {i}");
        let tps = format!("{:.2}", f(&j["tps"]));
        assert_eq!(count_of(&tps, secs), u(&i["events"]), "{j} {i}");
        let reads = format!("{:.2}", f(&j["qps"]["reads"]));
        assert_eq!(count_of(&reads, secs), u(&i["reads"]), "{j} {i}");
    }
    // report_cumulative got the run's figures, and replaced sysbench's part of the summary;
    // dbpress's own sections stay.
    let s = &r["summary"];
    let line = text[cumulative..].lines().next().unwrap();
    let field = |k: &str| -> f64 {
        let v = line
            .split(' ')
            .find_map(|w| w.strip_prefix(&format!("{k}=")));
        v.unwrap_or_else(|| panic!("no {k} in {line}"))
            .parse()
            .unwrap()
    };
    assert_eq!(field("events") as u64, u(&s["events"]), "{line}");
    assert_eq!(field("reads") as u64, u(&s["reads"]), "{line}");
    assert_eq!(field("other") as u64, u(&s["other"]), "{line}");
    assert_eq!(field("errors") as u64, u(&s["errors"]), "{line}");
    assert!(
        (field("time") - f(&s["total_time_s"])).abs() < 1e-6,
        "{line}"
    );
    let l = &s["latency"];
    for (k, ms) in [("sum", "sum_ms"), ("min", "min_ms"), ("max", "max_ms")] {
        let want = f(&l[ms]) / 1e3;
        assert!(
            (field(k) - want).abs() <= want * 1e-6 + 1e-9,
            "{k}: {line} {l}"
        );
    }
    for sysbench_part in [
        "SQL statistics:",
        "General statistics:",
        "Threads fairness:",
    ] {
        assert!(!text.contains(sysbench_part), "{text}");
    }
    assert!(
        text.contains("Latency by statement (ms, dbpress):"),
        "{text}"
    );
}

#[test]
fn issue_41_a_scripts_output_and_dbpress_lines_keep_their_order_into_a_pipe() {
    let dir = scratch("lua-report-order");
    let path = script(
        &dir,
        "order.lua",
        r#"
print("top level", sysbench.tid)
function thread_init()
  io.write("thread_init")
  io.stdout:write(" ", sysbench.tid, "\n")
end
function event() end
function thread_done()
  print("thread_done", sysbench.tid)
end
-- sysbench-tpcc's hook (tpcc.lua), its option declared as tpcc_common.lua declares it.
sysbench.cmdline.options = { report_csv = {"Report output in csv (default off)", "no"} }
function sysbench.hooks.report_intermediate(stat)
  if sysbench.opt.report_csv == "yes" then
    sysbench.report_csv(stat)
  else
    sysbench.report_default(stat)
  end
end
"#,
    );
    // Command::output reads stdout through a pipe, where C's stdio would hold the script's
    // output in a buffer of its own until the process exits.
    let o = dbpress(&[
        &path,
        "run",
        "--mysql-dry-run",
        "--threads=1",
        "--time=2",
        "--report-interval=1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    // In order, each found after the one before: the main state's top level (before the
    // header, as sysbench's), the worker's, then the reporter's (sysbench.tid = --threads),
    // before the threads start; the hook's lines after; thread_done before the summary (the
    // worker ends at --time as the reporter's last tick comes: either may print first, as in
    // sysbench).
    let mut from = 0;
    for needle in [
        "top level\t0\n",
        "dbpress ",
        "Initializing worker threads",
        "top level\t0\n",
        "thread_init 0\n",
        "top level\t1\n",
        "Threads started!",
        "[ 1s ] thds: 1 tps: ",
        "thread_done\t0\n",
        "General statistics:",
    ] {
        let at = text[from..].find(needle);
        from += at.unwrap_or_else(|| panic!("no {needle:?} after byte {from} in:\n{text}"));
    }
    let at = |needle: &str| text.find(needle).unwrap();
    assert!(
        at("[ 1s ]") < at("[ 2s ]") && at("[ 2s ]") < at("General statistics:"),
        "{text}"
    );
    // report_default's line: sysbench's, `err/s` without its colon.
    let line = text.lines().find(|l| l.starts_with("[ 1s ]")).unwrap();
    let shape = shape(line);
    assert_eq!(
        shape, "[ #s ] thds: # tps: # qps: # (r/w/o: #/#/#) lat (ms,#%): # err/s # reconn/s: #",
        "{line}"
    );
}

/// The reporters a script calls, with one `stat`, in the worker's state of a one-event run:
/// what sysbench 1.0.20 prints for the same script, byte for byte, from the first report to
/// report_json's `]` when the worker's state closes.
#[test]
fn issue_41_the_built_in_reporters_print_what_sysbench_prints() {
    if !have_sysbench() {
        return;
    }
    let dir = scratch("lua-report-formats");
    let path = script(
        &dir,
        "formats.lua",
        r#"
function event()
  local st = {time_total = 12.6, threads_running = 2, time_interval = 2, events = 5,
    reads = 7, writes = 3, other = 1, errors = 1, reconnects = 3, latency_pct = 0.0123456,
    queue_length = 4, concurrency = 2}
  print("<<")
  sysbench.report_csv(st)
  sysbench.report_default(st)
  sysbench.report_json(st)
  -- 12.5 rounds up in LuaJIT's string.format; big counts and short intervals.
  st.time_total, st.events, st.time_interval = 12.5, 1234567891, 0.37
  sysbench.report_json(st)
  sysbench.report_csv(st)
  sysbench.report_default(st)
  -- Ties at two decimals: 1/8, 3/8, 5/8, 7/8 per second.
  st.time_total, st.time_interval, st.events, st.reads, st.writes, st.other = 2.5, 8, 1, 3, 5, 7
  st.latency_pct = 0.0005
  sysbench.report_csv(st)
  sysbench.report_json(st)
  print(">>")
end
"#,
    );
    let from_first_report = |text: &str| -> String {
        let start = text
            .find("<<\n")
            .unwrap_or_else(|| panic!("no <<:\n{text}"));
        let end = text[start..].find("\n]\n").expect("report_json's ]") + start + 3;
        text[start..end].to_string()
    };
    let common = ["--events=1", "--time=0", "--threads=1", "--percentile=99"];
    let sb = std::process::Command::new(SYSBENCH)
        .arg(&path)
        .args(common)
        .arg("run")
        .output()
        .unwrap();
    assert!(sb.status.success(), "{}", stderr(&sb));
    let mut args = vec![path.as_str(), "run", "--mysql-dry-run"];
    args.extend_from_slice(&common);
    let o = dbpress(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        from_first_report(&stdout(&o)),
        from_first_report(&stdout(&sb))
    );
}

/// `report_cumulative` at each --report-checkpoints checkpoint, after sysbench's line, with the
/// period before it; after a checkpoint, sysbench's final report, and so the hook's `stat`,
/// covers the time since it; `time_total` is the time since the start.
#[test]
fn issue_41_report_cumulative_after_a_checkpoint_gets_the_period_since_it() {
    let dir = scratch("lua-report-checkpoint");
    let path = script(
        &dir,
        "checkpoint_hook.lua",
        r#"
function event() end
sysbench.hooks.report_cumulative = function(stat)
  print(string.format("cumulative: events=%d interval=%.6f total=%.6f", stat.events,
    stat.time_interval, stat.time_total))
end
"#,
    );
    let out = dir.join("r.json");
    let o = dbpress(&[
        &path,
        "run",
        "--mysql-dry-run",
        "--time=2",
        "--report-checkpoints=1",
        "--output",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let r = json(&out);
    let line = text
        .lines()
        .rev()
        .find(|l| l.starts_with("cumulative: "))
        .unwrap_or_else(|| panic!("no cumulative line in:\n{text}"));
    let want = format!(
        "cumulative: events={} interval={:.6} total={:.6}",
        u(&r["checkpoints"]["last_period"]["events"]),
        f(&r["checkpoints"]["last_period"]["total_time_s"]),
        f(&r["summary"]["total_time_s"]),
    );
    assert_eq!(line, want);
    assert!(u(&r["summary"]["events"]) > u(&r["checkpoints"]["last_period"]["events"]));
    // At the checkpoint, sysbench's line and the hook's report of the period before it, in
    // place of sysbench's block.
    let c = &r["checkpoints"]["reports"][0];
    let at_checkpoint = format!(
        "[ 1s ] Checkpoint report:\ncumulative: events={} interval={:.6} total={:.6}\n",
        u(&c["summary"]["events"]),
        f(&c["summary"]["total_time_s"]),
        f(&c["time_s"]),
    );
    assert!(text.contains(&at_checkpoint), "{at_checkpoint} in:\n{text}");
    assert!(!text.contains("SQL statistics:"), "{text}");
}
