//! For every workload, the server's own Com_* counters grow per event by exactly what sysbench
//! 1.0.20 sends. The expected table was measured from sysbench itself with
//! `bench/sysbench-mix.sh` (docs/GUIDE.md §2); the legacy `oltp` row follows oltp.lua's source.

use crate::common::*;

/// Per event: Com_begin, Com_commit, Com_delete, Com_insert, Com_select, Com_stmt_execute, Com_update.
type Mix = [u64; 7];
const COUNTERS: [&str; 7] = [
    "Com_begin",
    "Com_commit",
    "Com_delete",
    "Com_insert",
    "Com_select",
    "Com_stmt_execute",
    "Com_update",
];

const CASES: &[(&str, &str, Mix)] = &[
    ("oltp_read_write", "", [1, 1, 1, 1, 14, 20, 2]),
    ("oltp_read_write", "--skip-trx=on", [0, 0, 1, 1, 14, 18, 2]),
    (
        "oltp_read_write",
        "--db-ps-mode=disable",
        [1, 1, 1, 1, 14, 0, 2],
    ),
    ("oltp_read_only", "", [1, 1, 0, 0, 14, 16, 0]),
    (
        "oltp_read_only",
        "--range-selects=off",
        [1, 1, 0, 0, 10, 12, 0],
    ),
    ("oltp_write_only", "", [1, 1, 1, 1, 0, 6, 2]),
    (
        "oltp_write_only",
        "--db-ps-mode=disable",
        [1, 1, 1, 1, 0, 0, 2],
    ),
    ("oltp_point_select", "", [0, 0, 0, 0, 1, 1, 0]),
    ("oltp_update_index", "", [0, 0, 0, 0, 0, 1, 1]),
    ("oltp_update_non_index", "", [0, 0, 0, 0, 0, 1, 1]),
    (
        "oltp_update_non_index",
        "--non-index-updates=3",
        [0, 0, 0, 0, 0, 3, 3],
    ),
    ("oltp_delete", "", [0, 0, 1, 0, 0, 1, 0]),
    ("oltp_insert", "", [0, 0, 0, 1, 0, 0, 0]),
    ("oltp_insert", "--auto-inc=off", [0, 0, 0, 1, 0, 0, 0]),
    ("select_random_points", "", [0, 0, 0, 0, 1, 1, 0]),
    ("select_random_ranges", "", [0, 0, 0, 0, 1, 1, 0]),
    ("oltp", "", [1, 1, 1, 1, 14, 0, 2]),
    ("oltp", "--oltp-test-mode=nontrx", [0, 0, 1, 1, 14, 0, 2]),
    ("oltp", "--oltp-test-mode=simple", [0, 0, 0, 0, 1, 0, 0]),
];

#[test]
fn every_workload_sends_sysbenchs_statement_mix() {
    let Some(mut srv) = server("parity") else {
        return;
    };
    let n = 120u64;
    let events = format!("--events={n}");
    let mut failures = Vec::new();
    for (workload, extra, want) in CASES {
        let mut prep: Vec<&str> = vec![workload, "prepare"];
        prep.extend_from_slice(CONN);
        prep.extend_from_slice(&["--tables=2", "--table-size=2000"]);
        prep.extend(extra.split_whitespace());
        let o = dbpress(&prep);
        assert!(
            o.status.success(),
            "{workload} {extra} prepare: {}",
            stderr(&o)
        );
        let before = srv.com();
        let mut run: Vec<&str> = vec![workload, "run"];
        run.extend_from_slice(CONN);
        run.extend_from_slice(&[
            "--tables=2",
            "--table-size=2000",
            "--threads=1",
            "--time=0",
            &events,
        ]);
        run.extend(extra.split_whitespace());
        let o = dbpress(&run);
        assert!(o.status.success(), "{workload} {extra} run: {}", stderr(&o));
        let after = srv.com();
        let got: Vec<u64> = COUNTERS
            .iter()
            .map(|c| after.get(*c).unwrap_or(&0) - before.get(*c).unwrap_or(&0))
            .collect();
        let want: Vec<u64> = want.iter().map(|w| w * n).collect();
        if got != want {
            failures.push(format!(
                "{workload} {extra}: got {got:?}, want {want:?} ({COUNTERS:?})"
            ));
        }
        let mut clean: Vec<&str> = vec![workload, "cleanup"];
        clean.extend_from_slice(CONN);
        clean.push("--tables=2");
        assert!(dbpress(&clean).status.success());
    }
    assert!(
        failures.is_empty(),
        "statement mix differs from sysbench:\n{}",
        failures.join("\n")
    );
}
