//! Issue 42: sysbench's compiled-in test of the machine, `cpu`, in dbpress: the same work per
//! event as sysbench's (the primes below --cpu-max-prime), sysbench's report (its text as
//! sysbench, compared with the real one), and the figures in the result file.

use crate::common::{assert_matches_schema, dbpress, scratch, stderr, stdout};
use crate::dropin_sysbench::{as_sysbench, exactly_as_sysbench, sysbench_link};
use crate::sysbench_ref::{have_sysbench, in_dir};
use std::path::Path;

#[test]
fn issue_42_as_sysbench_cpu_prints_sysbenchs_report_help_and_errors() {
    if !have_sysbench() {
        return;
    }
    let dir = scratch("machine-cpu-as-sysbench");
    let link = sysbench_link(&dir);
    for args in [
        &["cpu", "--time=2", "--report-interval=1", "run"][..],
        &[
            "cpu",
            "--cpu-max-prime=2000",
            "--threads=2",
            "--events=400",
            "run",
        ][..],
    ] {
        as_sysbench(&dir, &link, args);
    }
    // --events is exact, as under sysbench.
    let o = in_dir(
        link.to_str().unwrap(),
        &dir,
        &["cpu", "--events=321", "--threads=3", "run"],
        None,
    );
    assert!(
        stdout(&o).contains("total number of events:              321\n"),
        "{}",
        stdout(&o)
    );
    // Its help, and the commands it has not, byte for byte.
    for args in [
        &["cpu", "help"][..],
        &["cpu", "prepare"][..],
        &["cpu", "cleanup"][..],
    ] {
        exactly_as_sysbench(&dir, &link, args);
    }
}

#[test]
fn issue_42_cpu_needs_no_database_and_keeps_its_figures_in_the_result() {
    let dir = scratch("machine-cpu");
    let file = dir.join("cpu.json");
    // A --db naming a server that is not there: the test of the machine does not connect.
    let o = dbpress(&[
        "cpu",
        "run",
        "--events=200",
        "--threads=2",
        "--cpu-max-prime=5000",
        "--db=mysql://nobody@127.0.0.1:1/none",
        &format!("--output={}", file.display()),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("Prime numbers limit: 5000\n"), "{text}");
    assert!(
        text.contains("Target: this machine (no database)"),
        "{text}"
    );
    assert!(
        text.contains("CPU speed:\n    events per second:"),
        "{text}"
    );
    assert!(!text.contains("SQL statistics"), "{text}");
    assert!(!text.contains("us per query"), "{text}");
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(Path::new(&file)).unwrap()).unwrap();
    assert_matches_schema(include_str!("../../docs/results.schema.json"), &doc);
    assert_eq!(doc["machine_test"]["test"], "cpu");
    assert_eq!(doc["machine_test"]["cpu_max_prime"], 5000);
    assert_eq!(doc["summary"]["events"], 200);
    // No tables to make: said in a line, exit 1 as sysbench's.
    let o = dbpress(&["cpu", "prepare"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("'cpu' test does not implement the 'prepare' command"));
}
