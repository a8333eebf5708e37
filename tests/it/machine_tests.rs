//! Issue 42: sysbench's compiled-in tests of the machine, `cpu` and `memory`, in dbpress: the
//! same work per event as sysbench's (the primes below --cpu-max-prime; a block of words read
//! or written), sysbench's report (its text as sysbench, compared with the real one), and the
//! figures in the result file.

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

#[test]
fn issue_42_as_sysbench_memory_prints_sysbenchs_report_help_and_errors() {
    if !have_sysbench() {
        return;
    }
    let dir = scratch("machine-memory-as-sysbench");
    let link = sysbench_link(&dir);
    for args in [
        &["memory", "--memory-total-size=64M", "run"][..],
        &[
            "memory",
            "--memory-block-size=4K",
            "--memory-oper=read",
            "--memory-access-mode=rnd",
            "--memory-scope=local",
            "--threads=2",
            "--memory-total-size=8M",
            "run",
        ][..],
        &[
            "memory",
            "--memory-oper=none",
            "--memory-total-size=0",
            "--time=2",
            "--report-interval=1",
            "run",
        ][..],
    ] {
        as_sysbench(&dir, &link, args);
    }
    // The bytes asked, exactly: 8 MiB of 4 KiB blocks.
    let o = in_dir(
        link.to_str().unwrap(),
        &dir,
        &[
            "memory",
            "--memory-block-size=4K",
            "--memory-total-size=8M",
            "--threads=3",
            "run",
        ],
        None,
    );
    let text = stdout(&o);
    assert!(text.contains("Total operations: 2048 ("), "{text}");
    assert!(text.contains("8.00 MiB transferred ("), "{text}");
    // Its help, the commands it has not, and its refusals, byte for byte.
    for args in [
        &["memory", "help"][..],
        &["memory", "prepare"][..],
        &["memory", "--memory-block-size=3", "run"][..],
        &["memory", "--memory-block-size=abc", "run"][..],
        &["memory", "--memory-oper=copy", "run"][..],
        &["memory", "--memory-scope=both", "run"][..],
        &["memory", "--memory-access-mode=any", "run"][..],
    ] {
        exactly_as_sysbench(&dir, &link, args);
    }
}

#[test]
fn issue_42_memory_moves_the_bytes_asked_and_keeps_its_figures_in_the_result() {
    let dir = scratch("machine-memory");
    let file = dir.join("memory.json");
    let o = dbpress(&[
        "memory",
        "run",
        "--memory-block-size=4K",
        "--memory-total-size=4M",
        "--memory-oper=read",
        "--threads=2",
        "--db=mysql://nobody@127.0.0.1:1/none",
        &format!("--output={}", file.display()),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("  block size: 4KiB\n"), "{text}");
    assert!(text.contains("  operation: read\n"), "{text}");
    assert!(text.contains("4.00 MiB transferred ("), "{text}");
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(Path::new(&file)).unwrap()).unwrap();
    assert_matches_schema(include_str!("../../docs/results.schema.json"), &doc);
    assert_eq!(doc["machine_test"]["test"], "memory");
    assert_eq!(doc["machine_test"]["block_bytes"], 4096);
    assert_eq!(doc["machine_test"]["memory_oper"], "read");
    assert_eq!(doc["summary"]["events"], 1024);
    // A block that is not whole words: one line naming the fix, a usage error.
    let o = dbpress(&["memory", "run", "--memory-block-size=3"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("a block a multiple of 8 bytes"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn issue_42_as_sysbench_threads_and_mutex_print_sysbenchs_report_and_help() {
    if !have_sysbench() {
        return;
    }
    let dir = scratch("machine-threads-as-sysbench");
    let link = sysbench_link(&dir);
    for args in [
        &[
            "threads",
            "--thread-yields=100",
            "--events=200",
            "--threads=2",
            "run",
        ][..],
        &[
            "threads",
            "--time=2",
            "--report-interval=1",
            "--thread-locks=1",
            "--threads=3",
            "run",
        ][..],
        &[
            "mutex",
            "--mutex-locks=2000",
            "--mutex-loops=100",
            "--threads=2",
            "run",
        ][..],
        &[
            "mutex",
            "--mutex-num=1",
            "--mutex-locks=500",
            "--threads=4",
            "run",
        ][..],
    ] {
        as_sysbench(&dir, &link, args);
    }
    // The mutex test is one event per thread, whatever the threads.
    let o = in_dir(
        link.to_str().unwrap(),
        &dir,
        &["mutex", "--mutex-locks=100", "--threads=3", "run"],
        None,
    );
    let text = stdout(&o);
    assert!(
        text.contains("total number of events:              3\n"),
        "{text}"
    );
    assert!(
        text.contains("events (avg/stddev):           1.0000/0.00\n"),
        "{text}"
    );
    for args in [
        &["threads", "help"][..],
        &["mutex", "help"][..],
        &["threads", "prepare"][..],
        &["mutex", "cleanup"][..],
    ] {
        exactly_as_sysbench(&dir, &link, args);
    }
}

#[test]
fn issue_42_threads_and_mutex_keep_what_they_were_asked_in_the_result() {
    let dir = scratch("machine-threads");
    let file = dir.join("threads.json");
    let o = dbpress(&[
        "threads",
        "run",
        "--thread-yields=10",
        "--thread-locks=2",
        "--events=40",
        "--threads=3",
        &format!("--output={}", file.display()),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_matches_schema(include_str!("../../docs/results.schema.json"), &doc);
    assert_eq!(doc["machine_test"]["test"], "threads");
    assert_eq!(doc["machine_test"]["thread_yields"], 10);
    assert_eq!(doc["machine_test"]["thread_locks"], 2);
    assert_eq!(doc["summary"]["events"], 40);

    let file = dir.join("mutex.json");
    let o = dbpress(&[
        "mutex",
        "run",
        "--mutex-num=16",
        "--mutex-locks=300",
        "--mutex-loops=10",
        "--threads=2",
        &format!("--output={}", file.display()),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_matches_schema(include_str!("../../docs/results.schema.json"), &doc);
    assert_eq!(doc["machine_test"]["mutex_num"], 16);
    assert_eq!(doc["machine_test"]["mutex_locks"], 300);
    assert_eq!(doc["machine_test"]["mutex_loops"], 10);
    // One event per thread: each thread's locks are its one event.
    assert_eq!(doc["summary"]["events"], 2);
    // No mutex to lock: one line naming the fix, not sysbench's hang.
    let o = dbpress(&["mutex", "run", "--mutex-num=0"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--mutex-num"), "{}", stderr(&o));
}
