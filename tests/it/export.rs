use crate::common::*;

pub fn assert_valid(result: &serde_json::Value) {
    assert_matches_schema(include_str!("../../docs/results.schema.json"), result);
}

#[test]
fn dry_run_result_validates_and_reports_back_identically() {
    let dir = scratch("export-dry");
    let out = dir.join("r.json");
    let o = dbpress(&[
        "oltp_read_write",
        "run",
        "--mysql-dry-run",
        "--time=0",
        "--events=300",
        "--report-interval=1",
        "--output",
        out.to_str().unwrap(),
        "--mysql-password=hunter2",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let r = json(&out);
    assert_valid(&r);
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(
        !text.contains("hunter2"),
        "password leaked into the result file"
    );

    // `report` re-renders the same summary from the file alone.
    let rep = dbpress(&["report", out.to_str().unwrap()]);
    assert!(rep.status.success(), "{}", stderr(&rep));
    let live = stdout(&o);
    let live_summary = &live[live.find("SQL statistics:").unwrap()..];
    let rep_out = stdout(&rep);
    let rep_summary = &rep_out[rep_out.find("SQL statistics:").unwrap()..];
    assert_eq!(live_summary, rep_summary);
}

#[test]
fn json_on_stdout_is_the_whole_stdout() {
    let o = dbpress(&[
        "oltp_point_select",
        "run",
        "--mysql-dry-run",
        "--time=0",
        "--events=10",
        "--output-format=json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let r: serde_json::Value =
        serde_json::from_slice(&o.stdout).expect("stdout is one JSON document");
    assert_valid(&r);
    assert_eq!(r["summary"]["events"], 10);
    assert!(stderr(&o).contains("Threads started!"));
}

#[test]
fn histogram_option_prints_sysbench_block() {
    let o = dbpress(&[
        "oltp_point_select",
        "run",
        "--mysql-dry-run",
        "--time=0",
        "--events=1000",
        "--histogram",
    ]);
    assert!(o.status.success());
    let out = stdout(&o);
    let at = out
        .find("Latency histogram (values are in milliseconds)")
        .expect("histogram printed");
    assert!(
        at < out.find("SQL statistics:").unwrap(),
        "histogram comes before the report"
    );
    assert!(out.contains("       value  ------------- distribution ------------- count"));
}

#[test]
fn an_unwritable_output_file_stops_before_the_run() {
    // Found before anything connects (the port is closed), not after an hour of benchmark.
    let run_to = |path: &str| {
        dbpress(&[
            "oltp_point_select",
            "run",
            "--mysql-host=127.0.0.1",
            "--mysql-port=1",
            "--output",
            path,
        ])
    };
    for (path, why) in [
        ("/nonexistent-dir/r.json", "No such file or directory"),
        ("/tmp", "Is a directory"),
    ] {
        let o = run_to(path);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert_one_clean_line(&o);
        let err = stderr(&o);
        assert!(
            err.contains(&format!("cannot write the result file {path}"))
                && err.contains(why)
                && err.contains("--output"),
            "{err}"
        );
    }
    // A writable path passes the check untouched: a new file is not left behind, an existing one
    // keeps its content (here the run then fails on the closed port and writes nothing).
    let dir = scratch("output-probe");
    let fresh = dir.join("fresh.json");
    let o = run_to(fresh.to_str().unwrap());
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("127.0.0.1"), "{}", stderr(&o));
    assert!(!fresh.exists(), "the probe left a file behind");
    let old = dir.join("old.json");
    std::fs::write(&old, "earlier result").unwrap();
    let o = run_to(old.to_str().unwrap());
    assert!(stderr(&o).contains("127.0.0.1"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&old).unwrap(), "earlier result");
}

#[test]
fn issue_2_the_stopping_tick_gets_its_line_and_report_prints_the_lines_the_run_printed() {
    let dir = scratch("export-report-lines");
    let paced = dir.join("paced.json");
    let o = dbpress(&[
        "oltp_point_select",
        "run",
        "--mysql-dry-run",
        "--time=2",
        "--report-interval=1",
        "--rate=2000",
        "--output",
        paced.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let r = json(&paced);
    assert_valid(&r);
    let intervals = r["intervals"].as_array().unwrap();
    let live = stdout(&o);
    let after_start = live.split_once("Threads started!\n\n").unwrap().1;
    // sysbench prints the tick at which a --time run stops ([ 2s ] of --time=2) too.
    let ticks: Vec<&str> = after_start
        .lines()
        .filter(|l| l.contains("thds:"))
        .map(|l| l.split(" ]").next().unwrap())
        .collect();
    assert_eq!(ticks, ["[ 1s", "[ 2s"], "{after_start}");
    // Under --rate the workers leave as their schedule runs out, but ran through the second.
    assert!(after_start.contains("[ 2s ] thds: 1 tps:"), "{after_start}");
    let full = intervals.iter().filter(|i| i["closing"] != true).count();
    assert_eq!(
        full, 2,
        "the two full ticks are the intervals not marked closing"
    );
    assert!(
        intervals
            .iter()
            .skip(2)
            .all(|i| i["closing"] == true && i["duration_s"].as_f64().unwrap() < 1.0),
        "what finished after the last tick is a short closing interval: {intervals:?}"
    );
    let rep = dbpress(&["report", paced.to_str().unwrap()]);
    assert!(rep.status.success(), "{}", stderr(&rep));
    assert_eq!(
        stdout(&rep),
        after_start,
        "report re-renders the interval lines (with their --rate lines) and the summary as printed"
    );
    assert!(after_start.contains("queue length:"));

    // Without --report-interval the run printed no interval line, and neither does report,
    // although the file keeps every second.
    let quiet = dir.join("quiet.json");
    let o = dbpress(&[
        "oltp_point_select",
        "run",
        "--mysql-dry-run",
        "--time=2",
        "--output",
        quiet.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(json(&quiet)["intervals"].as_array().unwrap().len() >= 2);
    let rep = dbpress(&["report", quiet.to_str().unwrap()]);
    assert!(!stdout(&rep).contains("thds:"), "{}", stdout(&rep));
    assert!(stdout(&rep).starts_with("SQL statistics:"));
}

#[test]
fn report_checkpoints_print_sysbench_reports_per_period_and_report_replays_them() {
    let dir = scratch("export-checkpoints");
    let file = dir.join("cp.json");
    let o = dbpress(&[
        "oltp_point_select",
        "run",
        "--mysql-dry-run",
        "--time=3",
        "--report-interval=1",
        "--report-checkpoints=2,1",
        "--output",
        file.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let live = stdout(&o);
    assert!(
        live.contains("Report intermediate results every 1 second(s)\nReport checkpoint(s) at 1, 2 seconds\nInitializing random"),
        "{live}"
    );
    let after_start = live.split_once("Threads started!\n\n").unwrap().1;
    // sysbench's order: each checkpoint's report, then that second's interval line.
    let marks: Vec<&str> = after_start
        .lines()
        .filter(|l| l.starts_with('['))
        .map(|l| {
            if l.contains("Checkpoint report:") {
                "cp"
            } else {
                "line"
            }
        })
        .collect();
    assert_eq!(marks, ["cp", "line", "cp", "line", "line"], "{after_start}");
    assert!(after_start.contains("[ 2s ] Checkpoint report:\nSQL statistics:\n"));
    assert!(after_start.contains("since the last checkpoint; what follows covers the whole run"));

    let r = json(&file);
    assert_valid(&r);
    let cp = &r["checkpoints"];
    let reports = cp["reports"].as_array().unwrap();
    assert_eq!(reports.len(), 2);
    // The periods partition the run: their events add up to the whole run's.
    let periods: u64 = reports
        .iter()
        .map(|c| c["summary"]["events"].as_u64().unwrap())
        .sum::<u64>()
        + cp["last_period"]["events"].as_u64().unwrap();
    assert_eq!(periods, r["summary"]["events"].as_u64().unwrap());
    // Each period is about a second (a checkpoint is taken when its second is due, so a busy
    // machine delays it, never advances it much): more than half a second, and together no
    // longer than the run.
    let mut total = 0.0;
    for c in reports {
        let len = c["summary"]["total_time_s"].as_f64().unwrap();
        assert!(len > 0.5, "each period is about a second long: {len}");
        total += len;
    }
    assert!(
        total <= r["summary"]["total_time_s"].as_f64().unwrap(),
        "{cp}"
    );
    // The final block is the last period's, with the total time since the start.
    let last_events = cp["last_period"]["events"].as_u64().unwrap();
    let final_block = after_start.rsplit_once("SQL statistics:").unwrap().1;
    assert!(
        final_block.contains(&format!(
            "    total number of events:              {last_events}\n"
        )),
        "{final_block}"
    );
    let rep = dbpress(&["report", file.to_str().unwrap()]);
    assert_eq!(
        stdout(&rep),
        after_start,
        "report replays checkpoints, lines and summary"
    );

    let bad = dbpress(&[
        "oltp_point_select",
        "run",
        "--mysql-dry-run",
        "--report-checkpoints=10,soon",
    ]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(stderr(&bad).contains("invalid checkpoint 'soon' in --report-checkpoints=10,soon"));
}

/// Every element the page opens it closes (the page is built by hand, so count them).
fn assert_balanced(html: &str) {
    assert!(html.starts_with("<!DOCTYPE html>") && html.trim_end().ends_with("</html>"));
    for tag in ["svg", "figure", "details", "table", "pre", "body", "head"] {
        let open =
            html.matches(&format!("<{tag}>")).count() + html.matches(&format!("<{tag} ")).count();
        let close = html.matches(&format!("</{tag}>")).count();
        assert_eq!(open, close, "<{tag}> opened {open} times, closed {close}");
    }
}

/// `report --output-format=html`: a page with a chart point per full interval, the run's text
/// report, and everything from the result escaped (a statement with `<` and `&` in it, a
/// password given on the command line that must stay hidden).
#[test]
fn html_report_of_a_run_charts_every_interval_and_escapes_the_result() {
    let dir = scratch("export-html");
    let out = dir.join("r.json");
    let o = dbpress(&[
        "slap",
        "--mysql-dry-run",
        "--query=select a<b from t where x>'&'",
        "-c",
        "2",
        "--number-of-queries=40000",
        "--rate=8000",
        "--mysql-password=hunter2",
        "--output",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = dbpress(&["report", out.to_str().unwrap(), "--output-format=html"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let html = stdout(&o);
    assert_balanced(&html);
    assert!(!html.contains("hunter2"));
    assert!(
        html.contains("select a&lt;b from t where x&gt;'&amp;'"),
        "{html}"
    );
    assert!(!html.contains("a<b"));
    // slap writes a sweep document, here of one level.
    let r = json(&out)["steps"][0]["result"].clone();
    let full = r["intervals"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["closing"] == false)
        .count();
    assert!(full >= 4, "{full} intervals");
    // The events/s chart, and the machine's CPUs on a chart of its own: a step per full
    // interval.
    assert_eq!(chart_steps(&html, "Events per second, per interval"), full);
    assert_eq!(chart_steps(&html, "The machine's CPUs per interval"), full);
    // The text report is on the page, as the run printed it.
    assert!(html.contains("SQL statistics:") && html.contains("Latency by statement"));
}

/// A sweep page charts one point per level; a comparison page one line per result.
#[test]
fn html_pages_of_a_sweep_and_a_comparison_chart_each_level_and_result() {
    let dir = scratch("export-html-sweep");
    let mut files = Vec::new();
    for name in ["a", "b"] {
        let out = dir.join(format!("{name}.json"));
        let o = dbpress(&[
            "oltp_point_select",
            "run",
            "--mysql-dry-run",
            "--threads=1,2,3",
            "--time=0",
            "--events=2000",
            "--output",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        files.push(out.to_str().unwrap().to_string());
    }
    let o = dbpress(&["report", &files[0], "--output-format=html"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let html = stdout(&o);
    assert_balanced(&html);
    // TPS and QPS charts one series each, latency two: a circle per level each.
    assert_eq!(html.matches("<circle").count(), 3 * 4, "{html}");
    assert!(html.contains("Thread sweep, oltp_point_select (3 levels):"));
    let o = dbpress(&["compare", &files[0], &files[1], "--output-format=html"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let html = stdout(&o);
    assert_balanced(&html);
    // Four charts (QPS, TPS, p95, p99), each a line per result with a point per level.
    assert_eq!(html.matches("<polyline").count(), 4 * 2);
    assert_eq!(html.matches("<circle").count(), 4 * 2 * 3);
    assert!(html.contains("Comparison of 2 results (baseline: a):"));
    let o = dbpress(&["compare", &files[0], &files[1], "--output-format=pdf"]);
    assert_fails_with(
        &o,
        2,
        "invalid value 'pdf' for --output-format: use text, json, csv, markdown or html",
    );
}

/// Result files are read back (report, compare, experiment, the store) by the binary users
/// run, which `cargo build` makes without the test build's dev-dependencies: serde_json's
/// float_roundtrip must be the binary's own, or a re-read latency prints differently there
/// (0.0000443695) than in these tests (0.000044369499999999996). Found in #40's review.
#[test]
fn issue_40_the_shipped_binary_reads_result_floats_back_exactly() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = std::process::Command::new(cargo)
        .args([
            "tree",
            "--offline",
            "-p",
            "dbpress",
            "-e",
            "features,normal",
        ])
        .args(["-i", "serde_json", "--prefix", "none"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo tree runs");
    let tree = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && tree.contains("serde_json feature \"default\""),
        "{tree}"
    );
    assert!(
        tree.contains("serde_json feature \"float_roundtrip\""),
        "{tree}"
    );
}
