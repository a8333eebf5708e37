//! Issue 43: no stall hidden. A client held up mid-run (here the whole process stopped, its
//! reporter and its workers alike) leaves one interval stretched over the ticks the reporter
//! missed, with next to no events in it: it is named a stall in the text, marked in the JSON
//! and shaded on the page; held up across the end of --time, the run says by how much it
//! overran and why.

use crate::common::*;
use crate::export::assert_valid;
use std::io::BufRead;

/// Stops a dbpress this test started; it runs again when this is dropped, a failed assertion
/// included.
struct Stopped<'a>(&'a std::process::Child);

impl<'a> Stopped<'a> {
    fn new(child: &'a std::process::Child) -> Self {
        send_signal(child, libc::SIGSTOP);
        Stopped(child)
    }
}

impl Drop for Stopped<'_> {
    fn drop(&mut self) {
        send_signal(self.0, libc::SIGCONT);
    }
}

/// Read lines until one is an interval line of a second in `seconds`.
fn until_line_of(
    lines: &mut std::io::BufReader<std::process::ChildStdout>,
    text: &mut String,
    seconds: &[&str],
) {
    loop {
        let mut line = String::new();
        assert!(lines.read_line(&mut line).unwrap() > 0, "{text}");
        text.push_str(&line);
        if seconds
            .iter()
            .any(|s| line.starts_with(&format!("[ {s}s ] ")))
        {
            return;
        }
    }
}

#[test]
fn issue_43_a_stopped_client_is_a_stall_and_its_overrun_is_explained() {
    let dir = scratch("issue-43-stopped");
    let out = dir.join("r.json");
    let mut child = spawn(&[
        "oltp_point_select",
        "run",
        "--mysql-dry-run",
        "--threads=1",
        "--time=12",
        "--report-interval=1",
        "--output",
        out.to_str().unwrap(),
    ]);
    // Stopped for 3 s right after the line of 4 s: the reporter misses 2 or 3 ticks. (Enough
    // plain intervals around the stops keep the median rate the plain one.)
    let (mut lines, mut text) = stdout_until(&mut child, "[ 4s ] ");
    {
        let _stopped = Stopped::new(&child);
        std::thread::sleep(std::time::Duration::from_secs(3));
    }
    // Then stopped again, for 4 s from the line of 9 s (or 10 s, had the reporter missed 9 s):
    // across the end of --time=12.
    until_line_of(&mut lines, &mut text, &["9", "10"]);
    {
        let _stopped = Stopped::new(&child);
        std::thread::sleep(std::time::Duration::from_secs(4));
    }
    std::io::Read::read_to_string(&mut lines, &mut text).unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let r = json(&out);
    assert_valid(&r);

    // The JSON: the first stop is a stall stretch with the ticks the reporter missed in it,
    // and its interval is listed as stretched and stalled.
    let t = &r["throughput"];
    let first = &t["stalls"][0];
    assert!(first["missed_ticks"].as_u64().unwrap() >= 1, "{t}");
    let (from, to) = (
        first["from_s"].as_f64().unwrap(),
        first["to_s"].as_f64().unwrap(),
    );
    let stretched = t["stretched"].as_array().unwrap();
    assert!(
        stretched.iter().any(|s| s["stall"] == true
            && s["from_s"].as_f64() == Some(from)
            && s["to_s"].as_f64() == Some(to)),
        "{t}"
    );
    // The text: named a stall, with the missed ticks, and never "none".
    let stall_line = text
        .lines()
        .find(|l| l.starts_with("    stalls ("))
        .unwrap_or_else(|| panic!("no stalls line in {text}"));
    assert!(!stall_line.ends_with(": none"), "{text}");
    assert!(
        stall_line.contains(&format!("{from:.0}s to {to:.0}s ("))
            && stall_line.contains("the reporter missed "),
        "{stall_line}\n{t}"
    );
    assert!(
        text.contains("    the reporter missed ")
            && text.contains(" during the stalls: dbpress itself was held up then too"),
        "{text}"
    );

    // Held up across the end: the tick at the end of --time still ends a full interval with
    // its line, stretched over the ticks missed, and the second stall. (An event the stop
    // caught may finish after it, in a closing interval.)
    let intervals = r["intervals"].as_array().unwrap();
    let last = intervals
        .iter()
        .rev()
        .find(|i| i["closing"] == false)
        .unwrap();
    assert!(
        last["time_s"].as_f64().unwrap() >= 12.0,
        "{}",
        r["intervals"]
    );
    let second = &t["stalls"][1];
    assert_eq!(second["to_s"], last["time_s"], "{t}");
    assert!(second["missed_ticks"].as_u64().unwrap() >= 1, "{t}");
    assert!(
        text.contains(&format!(
            "[ {:.0}s ] thds: 1 ",
            last["time_s"].as_f64().unwrap()
        )),
        "{text}"
    );
    // And the run overran --time, and says it was dbpress that was held.
    let v = &r["summary"]["overrun"];
    let by = v["by_s"]
        .as_f64()
        .unwrap_or_else(|| panic!("no overrun in {}", r["summary"]));
    let total = r["summary"]["total_time_s"].as_f64().unwrap();
    assert!((total - 12.0 - by).abs() < 1e-9, "{v} {total}");
    assert!(
        text.contains(&format!("The run overran --time=12 by {by:.2}s (total time {total:.2}s; its rates are per second of that): dbpress itself was held up across the end")),
        "{text}"
    );

    // The page shades the stall and draws its interval as one step over its own span.
    let page = dbpress(&["report", out.to_str().unwrap(), "--output-format=html"]);
    assert!(page.status.success(), "{}", stderr(&page));
    let page = stdout(&page);
    let events = &page[page
        .find("<figcaption>Events per second, per interval")
        .unwrap()..];
    let events = &events[..events.find("</figure>").unwrap()];
    assert!(
        events.contains(&format!("<title>stall from {from:.0}s to {to:.0}s (")),
        "{events}"
    );
    let full = r["intervals"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["closing"] == false)
        .count();
    assert_eq!(chart_steps(&page, "Events per second, per interval"), full);
    assert!(
        page.contains("<p class=\"note\">The run overran --time=12 by "),
        "{page}"
    );
}
