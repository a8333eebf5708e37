//! Issue 42: sysbench's compiled-in test of the machine, `cpu`, in dbpress: the same work per
//! event as sysbench's (the primes below --cpu-max-prime), sysbench's report (its text as
//! sysbench, compared with the real one), and the figures in the result file.

use crate::common::{assert_matches_schema, bin, dbpress, scratch, stderr, stdout};
use crate::sysbench_ref::{have_sysbench, in_dir, shape};
use std::path::Path;
use std::process::Output;

/// stdout's lines with numbers as `#` and runs of spaces as one, interval lines apart (the
/// one of the tick that ends a --time run is printed by sysbench or not, by a race).
fn masked(o: &Output) -> (Vec<String>, Vec<String>) {
    let lines: Vec<String> = stdout(o)
        .lines()
        .map(|l| {
            shape(l)
                .split(' ')
                .filter(|w| !w.is_empty())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    lines.into_iter().partition(|l| !l.starts_with("[ #s ]"))
}

#[test]
fn issue_42_as_sysbench_cpu_prints_sysbenchs_report_help_and_errors() {
    if !have_sysbench() {
        return;
    }
    let dir = scratch("machine-cpu-as-sysbench");
    let link = dir.join("sysbench");
    std::os::unix::fs::symlink(bin(), &link).unwrap();
    let link = link.to_str().unwrap();
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
        let theirs = in_dir("/usr/bin/sysbench", &dir, args, None);
        let ours = in_dir(link, &dir, args, None);
        assert_eq!(ours.status.code(), theirs.status.code(), "{args:?}");
        let ((our_text, our_iv), (their_text, their_iv)) = (masked(&ours), masked(&theirs));
        assert_eq!(
            our_text,
            their_text,
            "{args:?}\n{}\n---\n{}",
            stdout(&theirs),
            stdout(&ours)
        );
        assert!(
            their_iv.len() <= our_iv.len() && our_iv.len() <= their_iv.len() + 1,
            "{args:?}: {their_iv:?} / {our_iv:?}"
        );
        assert!(
            their_iv.iter().zip(&our_iv).all(|(a, b)| a == b),
            "{our_iv:?}"
        );
        assert!(stderr(&ours).is_empty(), "{}", stderr(&ours));
    }
    // --events is exact, as under sysbench.
    let o = in_dir(
        link,
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
        let theirs = in_dir("/usr/bin/sysbench", &dir, args, None);
        let ours = in_dir(link, &dir, args, None);
        assert_eq!(ours.status.code(), theirs.status.code(), "{args:?}");
        assert_eq!(stdout(&ours), stdout(&theirs), "{args:?}");
        assert_eq!(stderr(&ours), stderr(&theirs), "{args:?}");
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
