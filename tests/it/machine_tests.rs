//! Issue 42: sysbench's compiled-in tests of the machine, `cpu` and `memory`, in dbpress: the
//! same work per event as sysbench's (the primes below --cpu-max-prime; a block of words read
//! or written), sysbench's report (its text as sysbench, compared with the real one), and the
//! figures in the result file.

use crate::common::{assert_matches_schema, bin, dbpress, scratch, stderr, stdout};
use crate::dropin_sysbench::{as_sysbench, check, exactly_as_sysbench, sysbench_link};
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
    // The bytes asked, divided as sysbench divides them: 8 MiB of 4 KiB blocks over 3 threads
    // is 682 blocks each (sysbench 1.0.20 prints the same 2046), --events not counting.
    let o = in_dir(
        link.to_str().unwrap(),
        &dir,
        &[
            "memory",
            "--memory-block-size=4K",
            "--memory-total-size=8M",
            "--threads=3",
            "--events=100",
            "run",
        ],
        None,
    );
    let text = stdout(&o);
    assert!(text.contains("Total operations: 2046 ("), "{text}");
    assert!(text.contains("7.99 MiB transferred ("), "{text}");
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
        stderr(&o).contains("a block a power of two from 8 bytes"),
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
        // Few yields an event: on a loaded machine a yield gives the CPU away for a time
        // slice, and 1000 of them make an event of seconds, which overruns --time (sysbench
        // then prints interval lines past it, dbpress does not: its report says the overrun).
        &[
            "threads",
            "--time=2",
            "--report-interval=1",
            "--thread-yields=20",
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

/// fileio runs over prepared files, each compared with sysbench's: every mode, the sync
/// options, the flags, merged requests, threads, and each IO mode.
const FILEIO_RUNS: &[&[&str]] = &[
    &[
        "--file-test-mode=rndrw",
        "--time=2",
        "--report-interval=1",
        "run",
    ],
    &[
        "--file-test-mode=seqrewr",
        "--file-fsync-freq=10",
        "--events=200",
        "--time=0",
        "run",
    ],
    &[
        "--file-test-mode=seqrd",
        "--file-merged-requests=4",
        "--threads=2",
        "--events=500",
        "--time=0",
        "run",
    ],
    &[
        "--file-test-mode=rndrd",
        "--file-block-size=4096",
        "--events=500",
        "--time=0",
        "run",
    ],
    &[
        "--file-test-mode=rndwr",
        "--file-fsync-all=on",
        "--file-fsync-mode=fdatasync",
        "--events=100",
        "--time=0",
        "run",
    ],
    &[
        "--file-test-mode=rndrw",
        "--file-extra-flags=direct",
        "--file-rw-ratio=2",
        "--events=200",
        "--time=0",
        "run",
    ],
    &[
        "--file-test-mode=rndrw",
        "--file-fsync-freq=0",
        "--file-fsync-end=off",
        "--events=200",
        "--time=0",
        "run",
    ],
    &[
        "--file-test-mode=rndrw",
        "--file-io-mode=mmap",
        "--events=300",
        "--time=0",
        "run",
    ],
    &[
        "--file-test-mode=seqrd",
        "--file-io-mode=mmap",
        "--events=300",
        "--time=0",
        "run",
    ],
    &[
        "--file-test-mode=rndrw",
        "--file-io-mode=async",
        "--file-async-backlog=8",
        "--threads=2",
        "--events=400",
        "--time=0",
        "run",
    ],
];

#[test]
fn issue_42_as_sysbench_fileio_prepares_runs_and_cleans_up_as_sysbench() {
    if !have_sysbench() {
        return;
    }
    let dir = scratch("machine-fileio-as-sysbench");
    let link = sysbench_link(&dir);
    let files = ["fileio", "--file-num=4", "--file-total-size=8M"];
    let with = |more: &[&'static str]| -> Vec<&str> { files.iter().chain(more).copied().collect() };
    let sysbench = |args: &[&str]| in_dir("/usr/bin/sysbench", &dir, args, None);
    let dbpress = |args: &[&str]| in_dir(link.to_str().unwrap(), &dir, args, None);
    // prepare from nothing, each tool (the other's files removed first), then again over the
    // files there: `Reusing existing file`.
    let theirs = sysbench(&with(&["prepare"]));
    sysbench(&with(&["cleanup"]));
    let ours = dbpress(&with(&["prepare"]));
    check(&ours, &theirs, "prepare");
    assert!(
        stdout(&ours).contains("8388608 bytes written in "),
        "{}",
        stdout(&ours)
    );
    for i in 0..4 {
        let len = std::fs::metadata(dir.join(format!("test_file.{i}")))
            .unwrap()
            .len();
        assert_eq!(len, 2 << 20, "test_file.{i}");
    }
    as_sysbench(&dir, &link, &with(&["prepare"]));
    for more in FILEIO_RUNS {
        as_sysbench(&dir, &link, &with(more));
    }
    // Merged sequential requests (4 blocks of 16 KiB): each read moves 64 KiB, as sysbench
    // counts its throughput — MiB/s over reads/s is the request's size under both tools.
    let merged = with(&[
        "--file-test-mode=seqrd",
        "--file-merged-requests=4",
        "--events=400",
        "--time=0",
        "run",
    ]);
    for o in [sysbench(&merged), dbpress(&merged)] {
        let figure = |label: &str| -> f64 {
            stdout(&o)
                .lines()
                .find_map(|l| l.trim().strip_prefix(label))
                .and_then(|v| v.trim().parse().ok())
                .unwrap_or_else(|| panic!("no {label} in {}", stdout(&o)))
        };
        let per_read = figure("read, MiB/s:") * 1048576.0 / figure("reads/s:");
        assert!(
            (per_read / 65536.0 - 1.0).abs() < 0.01,
            "{per_read} bytes a read: {}",
            stdout(&o)
        );
    }
    // A sequential write is sysbench's creation test: it empties the files first, so 300
    // events (292 blocks written and two rounds of 4 syncs) leave the third file short and the
    // fourth empty (as under sysbench: 576KiB), and a test that needs them
    // whole stops before its threads, as sysbench's does.
    as_sysbench(
        &dir,
        &link,
        &with(&["--file-test-mode=seqwr", "--events=300", "--time=0", "run"]),
    );
    let len = |i: usize| {
        std::fs::metadata(dir.join(format!("test_file.{i}")))
            .unwrap()
            .len()
    };
    assert_eq!((len(1), len(2), len(3)), (2 << 20, (292 - 256) << 14, 0));
    exactly_as_sysbench(&dir, &link, &with(&["--file-test-mode=rndrd", "run"]));
    // A file of another test, or a name past --file-num, is not fileio's to remove.
    std::fs::write(dir.join("keep.txt"), "mine").unwrap();
    std::fs::write(dir.join("test_file.4"), "not of a 4-file test").unwrap();
    as_sysbench(&dir, &link, &with(&["cleanup"]));
    // dbpress's cleanup alone (sysbench's ran first above): prepared again, then removed.
    let o = dbpress(&with(&["prepare"]));
    assert!(o.status.success() && dir.join("test_file.3").exists());
    let o = dbpress(&with(&["cleanup"]));
    assert!(o.status.success(), "{}", stderr(&o));
    for i in 0..4 {
        assert!(
            !dir.join(format!("test_file.{i}")).exists(),
            "test_file.{i}"
        );
    }
    assert!(dir.join("keep.txt").exists() && dir.join("test_file.4").exists());
    // Its help and refusals, byte for byte; a run without prepared files fails as sysbench's.
    for more in [
        &["help"][..],
        &["run"][..],
        &["--file-test-mode=backwards", "run"][..],
        &["--file-test-mode=rndrd", "--file-io-mode=paper", "run"][..],
        &["--file-test-mode=rndrd", "--file-extra-flags=fast", "run"][..],
        &["--file-test-mode=rndrd", "--file-fsync-mode=never", "run"][..],
        &["--file-test-mode=rndrd", "run"][..],
    ] {
        exactly_as_sysbench(&dir, &link, &with(more));
    }
}

/// `--validate`: blocks sealed with sysbench's checksum and offset (each tool reads what the
/// other wrote and finds it whole), the header's and preamble's lines, and a block moved to
/// another offset stops the run in sysbench's three lines, exit code 1 — as sysbench's own
/// cram test (test_fileio.t) expects.
#[test]
fn issue_42_as_sysbench_fileio_validates_blocks_as_sysbench() {
    if !have_sysbench() {
        return;
    }
    let dir = scratch("machine-fileio-validate");
    let link = sysbench_link(&dir);
    let files = [
        "fileio",
        "--file-num=1",
        "--file-total-size=64K",
        "--file-block-size=4096",
        "--validate",
    ];
    let with = |more: &[&'static str]| -> Vec<&str> { files.iter().chain(more).copied().collect() };
    let sysbench = |args: &[&str]| in_dir("/usr/bin/sysbench", &dir, args, None);
    let dbpress = |args: &[&str]| in_dir(link.to_str().unwrap(), &dir, args, None);
    // One pass over the file.
    let read = with(&["--file-test-mode=seqrd", "--events=16", "--time=0", "run"]);
    let read_random = with(&["--file-test-mode=rndrd", "--events=200", "run"]);
    let write = with(&["--file-test-mode=rndwr", "--events=100", "run"]);
    // sysbench reads back every block dbpress prepared, and what dbpress wrote; dbpress reads
    // what sysbench wrote. (Sequential reads after random writes are left out: sysbench then
    // warns about its own sequential positions.)
    assert!(dbpress(&with(&["prepare"])).status.success());
    let theirs = sysbench(&read);
    assert_eq!(theirs.status.code(), Some(0), "{}", stdout(&theirs));
    assert!(dbpress(&write).status.success());
    let theirs = sysbench(&read_random);
    assert_eq!(theirs.status.code(), Some(0), "{}", stdout(&theirs));
    assert!(sysbench(&write).status.success());
    let ours = as_sysbench(&dir, &link, &read_random);
    assert_eq!(ours.status.code(), Some(0), "{}", stdout(&ours));
    let text = stdout(&ours);
    assert!(
        text.contains("Number of threads: 1\nValidation checks: on.\n\n"),
        "{text}"
    );
    assert!(
        text.contains("Using synchronous I/O mode\nUsing checksums validation.\n"),
        "{text}"
    );
    assert!(dbpress(&with(&["cleanup"])).status.success());
    assert!(dbpress(&with(&["prepare"])).status.success());
    // The second block copied over the fourth: its offset no longer matches.
    let path = dir.join("test_file.0");
    let mut bytes = std::fs::read(&path).unwrap();
    let second: Vec<u8> = bytes[4096..8192].to_vec();
    bytes[12288..16384].copy_from_slice(&second);
    std::fs::write(&path, &bytes).unwrap();
    exactly_as_sysbench(&dir, &link, &read);
    let o = dbpress(&read);
    assert!(
        stdout(&o).ends_with("FATAL: Offset mismatch in block:\nFATAL:    Actual offset: 12288    Stored offset: 4096\nFATAL: Validation failed on file 0, block offset 12288, exiting...\n"),
        "{}",
        stdout(&o)
    );
    // Zeros where a block was: its checksum fails first.
    bytes[8192..12288].fill(0);
    std::fs::write(&path, &bytes).unwrap();
    exactly_as_sysbench(&dir, &link, &read);
    // dbpress's own words, in one line with the fix.
    let own = in_dir(bin(), &dir, &read, None);
    assert_eq!(own.status.code(), Some(1));
    assert!(
        stderr(&own).contains("dbpress: error: --validate: the block at offset 8192 of test_file.0 fails its check (its CRC-32 is 0x8131530 where 0x0 is stored)"),
        "{}",
        stderr(&own)
    );
    assert!(dbpress(&with(&["cleanup"])).status.success());
}

#[test]
fn issue_42_fileio_spreads_its_requests_as_asked_and_keeps_them_in_the_result() {
    let dir = scratch("machine-fileio");
    let run = |args: &[&str]| {
        let mut all = vec!["fileio", "--file-num=2", "--file-total-size=1M"];
        all.extend_from_slice(args);
        in_dir(crate::common::bin(), &dir, &all, None)
    };
    let o = run(&["prepare"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let file = dir.join("fileio.json");
    let out = format!("--output={}", file.display());
    let o = run(&[
        "--file-test-mode=rndrw",
        "--events=1000",
        "--time=0",
        &out,
        "run",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_matches_schema(include_str!("../../docs/results.schema.json"), &doc);
    let m = &doc["machine_test"];
    assert_eq!(m["file_test_mode"], "rndrw");
    assert_eq!(m["file_num"], 2);
    assert_eq!(m["file_total_bytes"], 1 << 20);
    assert_eq!(m["block_bytes"], 16384);
    // 1000 events: reads and writes 3 to 2, each file synced after every 100 of them, and
    // both again at the end (not events).
    let s = &doc["summary"];
    let (reads, writes, syncs) = (
        s["reads"].as_u64().unwrap(),
        s["writes"].as_u64().unwrap(),
        s["other"].as_u64().unwrap(),
    );
    assert_eq!(s["events"], 1000);
    assert_eq!(reads + writes + syncs, 1000 + 2, "{s}");
    assert_eq!((reads + writes) / 100 * 2 + 2, syncs, "{s}");
    assert!((reads as f64 / writes as f64 - 1.5).abs() < 0.01, "{s}");
    // The disk under the files, from /proc, beside them (a run of a second or more).
    let o = run(&["--file-test-mode=rndwr", "--time=2", &out, "run"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let disk = &doc["host_usage"]["disk"];
    assert!(
        disk["path"]
            .as_str()
            .is_some_and(|p| p.ends_with("machine-fileio")),
        "{disk}"
    );
    assert!(disk["io"]["writes_s"].as_f64().is_some(), "{disk}");
    // Without --file-test-mode, run says what to add; cleanup leaves the directory as it was.
    let o = run(&["run"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("fileio run needs --file-test-mode"),
        "{}",
        stderr(&o)
    );
    let o = run(&["cleanup"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!dir.join("test_file.0").exists() && !dir.join("test_file.1").exists());
}

#[test]
fn issue_42_as_sysbench_the_general_help_is_sysbenchs_and_dbpress_words_are_tests_it_lacks() {
    if !have_sysbench() {
        return;
    }
    let dir = scratch("as-sysbench-help");
    let link = sysbench_link(&dir);
    for args in [
        &["--help"][..],
        &["--help=on"][..],
        &["help"][..],
        &["list"][..],
        &["report", "r.json"][..],
        &["help", "cpu"][..],
    ] {
        exactly_as_sysbench(&dir, &link, args);
    }
}

#[test]
fn issue_42_the_result_keeps_each_threads_events_time_and_extremes() {
    let dir = scratch("machine-per-thread");
    let file = dir.join("cpu.json");
    let o = dbpress(&[
        "cpu",
        "run",
        "--events=300",
        "--threads=3",
        "--cpu-max-prime=3000",
        &format!("--output={}", file.display()),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let r: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_matches_schema(include_str!("../../docs/results.schema.json"), &r);
    let s = &r["summary"];
    let threads = s["fairness"]["threads"]
        .as_array()
        .expect("per-thread figures");
    assert_eq!(threads.len(), 3);
    let events: u64 = threads.iter().map(|t| t["events"].as_u64().unwrap()).sum();
    assert_eq!(events, 300);
    let time_ms: f64 = threads.iter().map(|t| t["time_ms"].as_f64().unwrap()).sum();
    let sum_ms = s["latency"]["sum_ms"].as_f64().unwrap();
    assert!(
        (time_ms - sum_ms).abs() <= 0.01 * sum_ms,
        "{time_ms} vs {sum_ms}"
    );
    for t in threads {
        let (min, max) = (t["min_ms"].as_f64().unwrap(), t["max_ms"].as_f64().unwrap());
        if t["events"].as_u64().unwrap() > 0 {
            assert!(0.0 < min && min <= max, "{t}");
            assert!(
                min >= s["latency"]["min_ms"].as_f64().unwrap() - 0.001,
                "{t}"
            );
            assert!(
                max <= s["latency"]["max_ms"].as_f64().unwrap() + 0.001,
                "{t}"
            );
        }
    }
}
