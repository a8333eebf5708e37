//! Issue 41: a Lua script is a workload of an experiment plan like any other: every cell runs
//! the script (not the built-in workload its file is a copy of), is stored, and each stored
//! run's reads agree with the server's own counters over that run.

use crate::common::{dbpress, scratch, server, stderr, stdout};
use std::path::Path;

/// The stored runs' results, as `dbpress results export` gives them.
fn stored_results(store: &Path) -> Vec<serde_json::Value> {
    let c = rusqlite::Connection::open(store).unwrap();
    let mut stmt = c
        .prepare("SELECT id FROM runs WHERE status = 'ok' ORDER BY id")
        .unwrap();
    let ids: Vec<i64> = stmt
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    ids.into_iter()
        .map(|id| {
            let store = format!("--store={}", store.display());
            let o = dbpress(&["results", "export", &id.to_string(), &store]);
            assert!(o.status.success(), "{}", stderr(&o));
            serde_json::from_str(&stdout(&o)).unwrap()
        })
        .collect()
}

#[test]
fn issue_41_a_lua_script_is_an_experiment_workload() {
    let Some(_srv) = server("issue_41_lua_experiment") else {
        return;
    };
    let dir = scratch("lua-experiment");
    let Some(copy) = crate::lua::modified_point_select(&dir) else {
        return;
    };
    let plan = dir.join("plan.toml");
    std::fs::write(
        &plan,
        format!(
            r#"name = "lua-ps"
store = "lua.db"

[run]
threads = [1, 2]
repeats = 1
duration = 1

[[target]]
name = "maria"
options = ["--mysql-socket=/run/mysqld/mysqld.sock", "--mysql-user=sbtest", "--mysql-password=sbtest", "--mysql-db=sbtest"]

[[workload]]
name = "ps-lua"
command = "{} --tables=1 --table-size=500"
prepare = "oltp_point_select prepare --tables=1 --table-size=500"
cleanup = "oltp_point_select cleanup --tables=1"
"#,
            copy.display()
        ),
    )
    .unwrap();
    let o = dbpress(&["experiment", "run", plan.to_str().unwrap()]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    let runs = stored_results(&dir.join("lua.db"));
    assert_eq!(runs.len(), 2, "{}", stdout(&o));
    for r in &runs {
        let workload = r["run"]["workload"].as_str().unwrap_or_default();
        assert!(workload.ends_with("oltp_point_select.lua"), "{workload}");
        assert!(r["summary"]["events"].as_u64().unwrap() > 0);
        let checks = r["server_counters"]["checks"].as_array().unwrap();
        let reads = checks.iter().find(|c| c["what"] == "reads").unwrap();
        assert_eq!(reads["server"], reads["dbpress"], "{checks:?}");
        assert_eq!(reads["dbpress"], r["summary"]["reads"]);
    }
}
