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
    // 2 s at 500/s on a schedule: about 1000 events, never a burst beyond the schedule.
    assert!((900..=1001).contains(&events), "events {events}");
    assert!(r["summary"]["service_time"].is_object());
    assert!(stdout(&o).contains("queue length: "), "{}", stdout(&o));
    assert!(stdout(&o).contains("Response vs service time under --rate=500"));
}
