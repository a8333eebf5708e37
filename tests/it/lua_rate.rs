//! Issue 41: `--rate` and `--warmup-time` apply to a Lua script as to a native workload. The
//! script's own loop (the prelude's `thread_run`) is paced by the schedule: events wait for
//! their slots, latency counts from the slot (a service time is kept beside it), and the
//! warm-up's statements are in the server's counters but in no figure of the run.

use crate::common::{dbpress, json, scratch, server, stderr, CONN};

#[test]
fn issue_41_a_lua_script_is_paced_by_rate_and_warms_up() {
    let Some(_srv) = server("issue_41_lua_rate") else {
        return;
    };
    let dir = scratch("lua-rate");
    let Some(copy) = crate::lua::modified_point_select(&dir) else {
        return;
    };
    let with = |head: &[&str]| -> Vec<String> {
        head.iter()
            .chain(CONN)
            .chain(&["--tables=1", "--table-size=500"])
            .map(|s| s.to_string())
            .collect()
    };
    let run = |a: Vec<String>| dbpress(&a.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(run(with(&["oltp_point_select", "prepare"]))
        .status
        .success());
    let out = dir.join("r.json");
    let o = run(with(&[
        copy.to_str().unwrap(),
        "run",
        "--threads=2",
        "--rate=200",
        "--time=2",
        "--warmup-time=1",
        "--output",
        out.to_str().unwrap(),
    ]));
    assert!(o.status.success(), "{}", stderr(&o));
    let r = json(&out);
    crate::export::assert_valid(&r);
    let s = &r["summary"];
    // Paced: a service time beside the latency from the slot.
    assert!(s["service_time"].is_object(), "{s}");
    let events = s["events"].as_u64().unwrap();
    // The schedule holds about 400 slots in 2 s (a Poisson count at 200/s); unpaced, one
    // thread alone does thousands a second here.
    assert!(
        events > 0 && events < 1000,
        "{events} events at --rate=200 for 2 s"
    );
    let counters = &r["server_counters"];
    assert!(
        counters["warmup"]["events"].as_u64().unwrap() > 0,
        "{counters}"
    );
    for c in counters["checks"].as_array().unwrap() {
        assert_eq!(c["server"], c["dbpress"], "{c}");
    }
    assert!(run(with(&["oltp_point_select", "cleanup"]))
        .status
        .success());
}

/// A script that wraps `thread_run` keeps its loop under --rate: the runner paces the loop's
/// steps instead of calling `event` itself (the script's event fails if its loop did not run).
#[test]
fn issue_41_rate_paces_the_scripts_own_thread_run() {
    let Some(_srv) = server("issue_41_lua_rate_thread_run") else {
        return;
    };
    let dir = scratch("lua-rate-loop");
    let script = dir.join("wrapped.lua");
    std::fs::write(
        &script,
        "local inherited = thread_run\n\
         function thread_run(tid)\n  looped = true\n  return inherited(tid)\nend\n\
         function thread_init()\n  con = sysbench.sql.driver():connect()\nend\n\
         function event()\n  assert(looped, 'event() called outside thread_run')\n  con:query('SELECT 1')\nend\n",
    )
    .unwrap();
    let out = dir.join("r.json");
    let mut a = vec![script.to_str().unwrap(), "run"];
    a.extend_from_slice(CONN);
    a.extend_from_slice(&["--rate=100", "--time=1", "--output", out.to_str().unwrap()]);
    let o = dbpress(&a);
    assert!(o.status.success(), "{}", stderr(&o));
    let r = json(&out);
    assert!(r["summary"]["service_time"].is_object(), "{}", r["summary"]);
    assert!(r["summary"]["events"].as_u64().unwrap() > 0);
    for c in r["server_counters"]["checks"].as_array().unwrap() {
        assert_eq!(c["server"], c["dbpress"], "{c}");
    }
}
