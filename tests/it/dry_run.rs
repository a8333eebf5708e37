use crate::common::*;

#[test]
fn events_limit_runs_exactly_that_many_events_and_counts_all_as_other() {
    let dir = scratch("dry-events");
    let out = dir.join("r.json");
    let o = dbpress(&[
        "oltp_read_write",
        "run",
        "--mysql-dry-run",
        "--threads=3",
        "--time=0",
        "--events=999",
        "--output",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let r = json(&out);
    assert_eq!(r["summary"]["events"], 999);
    assert_eq!(r["summary"]["other"], 999 * 20);
    assert_eq!(r["summary"]["reads"], 0);
    let per_thread: u64 = r["summary"]["fairness"]["events_per_thread"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(per_thread, 999);
    assert_eq!(r["run"]["stop_condition"], "events (999)");
    // The intervals add up to the summary, including the short one at the end.
    let in_intervals: u64 = r["intervals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["events"].as_u64().unwrap())
        .sum();
    assert_eq!(in_intervals, 999);
}

#[test]
fn warmup_is_excluded_from_every_figure() {
    let dir = scratch("dry-warmup");
    let out = dir.join("r.json");
    let o = dbpress(&[
        "oltp_point_select",
        "run",
        "--mysql-dry-run",
        "--time=1",
        "--warmup-time=1",
        "--events=5000",
        "--output",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let r = json(&out);
    // --events counts only measured events, so exactly 5000 even though warm-up ran many more.
    assert_eq!(r["summary"]["events"], 5000);
    // Statements of warm-up events are not in the statement table either.
    assert_eq!(r["statements"][0]["count"], 5000);
    assert!(stdout(&o).contains("Warming up for 1 seconds..."));
}

#[test]
fn rate_mode_reports_response_and_service_time() {
    let dir = scratch("dry-rate");
    let out = dir.join("r.json");
    let o = dbpress(&[
        "oltp_point_select",
        "run",
        "--mysql-dry-run",
        "--time=2",
        "--rate=500",
        "--report-interval=1",
        "--rate-arrival=uniform",
        "--output",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let r = json(&out);
    let events = r["summary"]["events"].as_u64().unwrap();
    // 2 s at 500/s on a schedule: never a burst beyond the schedule's 1000 slots (how many of
    // them a loaded machine meets in time is the lag's to say, not a bound of this test).
    assert!((1..=1001).contains(&events), "events {events}");
    assert!(r["summary"]["service_time"].is_object());
    assert!(stdout(&o).contains("queue length: "), "{}", stdout(&o));
    assert!(stdout(&o).contains("Response vs service time under --rate=500"));
}

/// `--latency-limit` (pgbench's -L): every finished event slower than the limit is counted,
/// exactly (a limit below any event's time counts them all, one above none); under --rate an
/// event already later than the limit when due is skipped, and every slot of the schedule is
/// either run or skipped.
#[test]
fn a_latency_limit_counts_the_slower_events_and_skips_the_hopelessly_late() {
    let dir = scratch("dry-latency-limit");
    let run = |name: &str, extra: &[&str]| {
        let out = dir.join(format!("{name}.json"));
        let mut args = vec!["oltp_point_select", "run", "--mysql-dry-run"];
        args.extend_from_slice(extra);
        let out_arg = format!("--output={}", out.display());
        args.push(&out_arg);
        let o = dbpress(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        (json(&out), stdout(&o))
    };
    let (r, text) = run(
        "all",
        &["--time=0", "--events=3000", "--latency-limit=0.000001"],
    );
    let l = &r["summary"]["latency_limit"];
    assert_eq!(l["above"], 3000, "{l}");
    assert_eq!(l["skipped"], 0, "{l}");
    assert!(
        text.contains(
            "Latency limit: 0.000001 ms (slower events are counted)
"
        ),
        "{text}"
    );
    assert!(
        text.contains(
            "    events above it: 3000 of 3000 (100.000%)
"
        ),
        "{text}"
    );
    assert!(!text.contains("skipped, already later"), "{text}");
    let (r, _) = run(
        "none",
        &["--time=0", "--events=3000", "--latency-limit=60000"],
    );
    assert_eq!(r["summary"]["latency_limit"]["above"], 0);
    // 100 000 events a second due to one thread, each allowed 1 us of lag: most are late
    // beyond hope. Every slot the worker reached before the end of --time was either run or
    // skipped; never more than were due, and on a machine that starves the worker (tests run
    // side by side on 2 cores) fewer, since it stops at the end with slots still unreached.
    let (r, text) = run(
        "paced",
        &[
            "--time=2",
            "--rate=100000",
            "--rate-arrival=uniform",
            "--latency-limit=0.001",
        ],
    );
    let l = &r["summary"]["latency_limit"];
    let events = r["summary"]["events"].as_u64().unwrap();
    let skipped = l["skipped"].as_u64().unwrap();
    assert!(skipped > 0, "{l}");
    assert!(
        (100_000..=200_001).contains(&(events + skipped)),
        "{events} run + {skipped} skipped of 200 000 due"
    );
    assert!(l["above"].as_u64().unwrap() <= events, "{l}");
    // The intervals, the closing one included, add up to the summary's skipped events.
    let per_interval: u64 = r["intervals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["skipped"].as_u64().unwrap())
        .sum();
    assert_eq!(per_interval, skipped);
    let line = format!(
        "    skipped, already later than it when due: {skipped} of {} (",
        events + skipped
    );
    assert!(text.contains(&line), "{line} in {text}");
    crate::export::assert_valid(&r);
}

/// dbpress under `ulimit -n LIMIT` (soft only, or soft and hard).
fn with_file_limit(limit: u32, hard_too: bool, args: &[&str]) -> std::process::Output {
    let flag = if hard_too { "-n" } else { "-Sn" };
    std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit {flag} {limit} && exec \"$0\" \"$@\""))
        .arg(bin())
        .args(args)
        .output()
        .expect("sh runs")
}

#[test]
fn issue_2_more_threads_than_open_files_allow_is_one_clear_line() {
    let args = [
        "oltp_point_select",
        "run",
        "--mysql-dry-run",
        "--threads=100",
        "--time=0",
        "--events=1000",
    ];
    // A soft limit below what 100 sessions need is raised up to the hard one: the run works.
    let o = with_file_limit(64, false, &args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("total number of events:              1000"));
    // With the hard limit that low too, the run stops before any thread starts.
    let o = with_file_limit(64, true, &args);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("--threads=100 needs about"), "{err}");
    assert!(err.contains("(ulimit -n: 64, hard limit 64)"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(!stdout(&o).contains("Threads started!"));
}

#[test]
fn issue_2_more_threads_than_memory_mappings_allow_is_one_clear_line() {
    let limit: u64 = std::fs::read_to_string("/proc/sys/vm/max_map_count")
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    // Four mappings per thread: 100 000 threads (--threads' most) pass the default 65 530
    // many times over, but fit under the 1 048 576 of some distributions, where they would
    // really start: skipped there, except in CI, whose machine must be able to run it.
    if limit >= 500_000 {
        let ci = std::env::var("CI").is_ok_and(|v| v == "true" || v == "1");
        assert!(
            !ci,
            "vm.max_map_count={limit} would let 100 000 threads start: CI needs the default 65530"
        );
        eprintln!("SKIPPED: vm.max_map_count={limit} would let 100 000 threads start");
        return;
    }
    let o = dbpress(&[
        "oltp_point_select",
        "run",
        "--mysql-dry-run",
        "--threads=100000",
        "--time=1",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains(&format!("more than this system's vm.max_map_count={limit}")),
        "{err}"
    );
    assert!(err.contains("sysctl -w vm.max_map_count="), "{err}");
}

#[test]
fn issue_2_a_run_interrupted_during_warm_up_measures_nothing() {
    // Before: measurement started on the way out of the cut-short warm-up, so a few ms of
    // events were reported as the run ("4587 events in 0.00s").
    let dir = scratch("dry-warmup-sigint");
    let out = dir.join("r.json");
    let child = spawn(&[
        "oltp_point_select",
        "run",
        "--mysql-dry-run",
        "--warmup-time=30",
        "--time=60",
        "--output",
        out.to_str().unwrap(),
    ]);
    std::thread::sleep(std::time::Duration::from_millis(1000));
    let o = signal_and_wait(child, libc::SIGINT);
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("Interrupted by SIGINT during the 30s warm-up: nothing was measured."),
        "{}",
        stdout(&o)
    );
    let r = json(&out);
    assert_eq!(r["run"]["interrupted_by"], "SIGINT");
    assert_eq!(r["summary"]["events"], 0);
    assert_eq!(r["summary"]["other"], 0);
    assert_eq!(r["intervals"].as_array().unwrap().len(), 0);
}

#[test]
fn verbosity_chooses_what_is_printed_as_sysbench_levels_do() {
    let dir = scratch("verbosity");
    let file = dir.join("quiet.json");
    let db = format!("--sqlite-path={}", dir.join("v.db").display());
    // Level 0: errors only, yet the result file is written.
    let o = dbpress(&[
        "oltp_point_select",
        "run",
        "--mysql-dry-run",
        "--time=1",
        "--report-interval=1",
        "--max-time=1",
        "--verbosity=0",
        "--output",
        file.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "");
    assert_eq!(
        stderr(&o),
        "",
        "the deprecation notice is a warning: hidden at 0"
    );
    assert!(json(&file)["summary"]["events"].as_u64().unwrap() > 0);
    let o = dbpress(&[
        "oltp_point_select",
        "prepare",
        &db,
        "--table-size=100",
        "--verbosity=0",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "", "prepare's messages are notices");
    // Level 2: warnings, no report.
    let o = dbpress(&[
        "oltp_point_select",
        "run",
        "--mysql-dry-run",
        "--max-time=1",
        "--verbosity=2",
    ]);
    assert_eq!(stdout(&o), "");
    assert!(
        stderr(&o).contains("--max-time is deprecated"),
        "{}",
        stderr(&o)
    );
    // Level 4: sysbench's INFO lines at the end of the run.
    let o = dbpress(&[
        "oltp_point_select",
        "run",
        "--mysql-dry-run",
        "--time=1",
        "--verbosity=4",
    ]);
    let out = stdout(&o);
    assert!(
        out.contains("Time limit exceeded, exiting...\n")
            && out.contains("Done.\n\nSQL statistics:"),
        "{out}"
    );
    // Errors are always printed.
    let o = dbpress(&[
        "oltp_point_select",
        "run",
        "--mysql-dry-run",
        "--verbosity=0",
        "--rate=x",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert_one_clean_line(&o);
}

/// Regression: with far more busy threads than cores, the reporter (which also ended the run)
/// waited for each preempted worker's statistics in turn and a `--time=2` run of 600 threads
/// lasted 60 s; it also counted the events of that wait as one second's. Workers now stop on
/// their own clock. The bound below is on the run's own measured length, not on speed: it
/// must be about the 2 s asked for (it was 30 times that).
#[test]
fn issue_2_a_time_limited_run_of_many_busy_threads_ends_on_time() {
    let dir = scratch("dry-many-threads");
    let out = dir.join("r.json");
    let o = dbpress(&[
        "oltp_point_select",
        "run",
        "--mysql-dry-run",
        "--threads=400",
        "--time=2",
        "--output",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let r = json(&out);
    let total = r["summary"]["total_time_s"].as_f64().unwrap();
    // At most twice what was asked: the bug made it thirty times; a busy machine's scheduler
    // stretches the end by a fraction of a second, not by another --time.
    assert!(
        (1.9..=4.0).contains(&total),
        "total time {total} s for --time=2"
    );
    // The intervals add up to the run: every event is in exactly one of them.
    let events: u64 = r["intervals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["events"].as_u64().unwrap())
        .sum();
    assert_eq!(events, r["summary"]["events"].as_u64().unwrap());
    let span: f64 = r["intervals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["duration_s"].as_f64().unwrap())
        .sum();
    assert!(
        (span - total).abs() < 0.05,
        "intervals span {span} s, run {total} s"
    );
}
