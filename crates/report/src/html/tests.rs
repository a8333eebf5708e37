//! A run's page drawn from a planted result: what it shades and how it draws each interval.

use super::run_page;
use dbpress_result::{Interval, RunResult};

/// The `<figure>` whose caption starts with `title`.
fn figure<'a>(page: &'a str, title: &str) -> &'a str {
    let at = page
        .find(&format!("<figcaption>{title}"))
        .unwrap_or_else(|| panic!("no chart {title:?}"));
    let f = &page[at..];
    &f[..f.find("</figure>").unwrap()]
}

/// The value of attribute `name` of each element `tag` in `svg`.
fn attrs<'a>(svg: &'a str, tag: &str, name: &str) -> Vec<&'a str> {
    svg.match_indices(&format!("<{tag} "))
        .map(|(at, _)| {
            let el = &svg[at..];
            let el = &el[..el.find('>').unwrap()];
            let v = &el[el.find(&format!(" {name}=\"")).expect(name) + name.len() + 3..];
            &v[..v.find('"').unwrap()]
        })
        .collect()
}

/// The first line's points of a chart, in pixels.
fn line_points(svg: &str) -> Vec<(f64, f64)> {
    attrs(svg, "polyline", "points")[0]
        .split(' ')
        .map(|p| {
            let (x, y) = p.split_once(',').unwrap();
            (x.parse().unwrap(), y.parse().unwrap())
        })
        .collect()
}

/// 20 intervals: 1 s ones of about 1000 events, and from 5 s one of 4.8 s holding 2 events
/// (the reporter missed its ticks at 6 to 9 s: one line, `[ 10s ]`, covers them).
fn planted() -> RunResult {
    let mut r = crate::text::tests::fixture();
    let mut t = 0.0;
    r.intervals = (0..20u64)
        .map(|k| {
            let (d, e) = if k == 5 { (4.8, 2) } else { (1.0, 990 + 3 * k) };
            t += d;
            Interval {
                time_s: t,
                duration_s: d,
                threads: 8,
                events: e,
                latency_pct_ms: 7.0,
                latency_p99_ms: 9.0,
                ..Interval::default()
            }
        })
        .collect();
    r.throughput = dbpress_result::stability::of(&r.intervals);
    r
}

#[test]
fn issue_43_a_stretched_interval_is_a_stall() {
    let r = planted();
    // The text names it a stall, with what it held and the ticks the reporter missed.
    let text = crate::text::summary(&r, false);
    assert!(
        text.contains(
            "    stalls (intervals in which no event finished, or so few that at the median rate most of a tick is unaccounted for): \
             1 of 20, in 1 stretch: 5s to 10s (2 events; the reporter missed 4 ticks)\n"
        ),
        "{text}"
    );
    assert!(
        text.contains("    the reporter missed 4 ticks during the stalls: dbpress itself was held up then too"),
        "{text}"
    );
    assert!(!text.contains("): none"), "{text}");
    // The JSON marks it.
    let json: serde_json::Value = serde_json::from_str(&crate::json::render(&r)).unwrap();
    let t = &json["throughput"];
    assert_eq!(
        (t["stalled_intervals"].as_u64(), t["near_stops"].as_u64()),
        (Some(1), Some(1))
    );
    let stall = &t["stalls"][0];
    assert_eq!(
        (stall["events"].as_u64(), stall["missed_ticks"].as_u64()),
        (Some(2), Some(4))
    );
    assert!(
        (stall["to_s"].as_f64().unwrap() - stall["from_s"].as_f64().unwrap() - 4.8).abs() < 1e-9
    );
    assert_eq!(t["stretched"][0]["stall"], true, "{t}");
    // The page shades it on the events chart, over its own 4.8 s ...
    let page = run_page(&r);
    let chart = figure(&page, "Events per second, per interval");
    let stalls: Vec<&str> = attrs(chart, "rect", "class")
        .into_iter()
        .filter(|c| *c == "stall")
        .collect();
    assert_eq!(stalls.len(), 1, "{chart}");
    let x0: f64 = attrs(chart, "rect", "x")[0].parse().unwrap();
    let width: f64 = attrs(chart, "rect", "width")[0].parse().unwrap();
    assert!(
        chart.contains(
            "<title>stall from 5s to 10s (4.8s): 2 events finished; the reporter missed 4 ticks"
        ),
        "{chart}"
    );
    // ... and draws it as a step across that span: two points per interval, the 1 s ones
    // each as wide, the stretched one 4.8 times as wide at the bottom of the chart.
    let p = line_points(chart);
    assert_eq!(p.len(), 2 * 20, "{chart}");
    let one_s = p[1].0 - p[0].0;
    let (a, b) = (p[10], p[11]);
    assert_eq!(a.1, b.1, "the stretched interval is level: {p:?}");
    assert!(((b.0 - a.0) - 4.8 * one_s).abs() < 0.2, "{p:?}");
    assert!(
        (a.0 - x0).abs() < 0.11 && ((b.0 - a.0) - width).abs() < 0.2,
        "{p:?} {x0} {width}"
    );
    assert!(
        p.iter().all(|q| q.1 <= a.1),
        "its 0.42 events/s is the lowest: {p:?}"
    );
    // Its neighbours meet it with verticals at its ends, not a slope across it.
    assert_eq!((p[9].0, p[12].0), (a.0, b.0), "{p:?}");
    // The latency chart shades it too.
    let latency = figure(&page, "Event latency per interval, ms");
    assert!(latency.contains(r#"<rect class="stall""#), "{latency}");
}

#[test]
fn a_stretched_interval_at_the_median_rate_is_shaded_as_the_reporters() {
    let mut r = planted();
    r.intervals[5].events = 4800;
    r.throughput = dbpress_result::stability::of(&r.intervals);
    let page = run_page(&r);
    let chart = figure(&page, "Events per second, per interval");
    assert!(!chart.contains(r#"<rect class="stall""#), "{chart}");
    assert!(chart.contains(r#"<rect class="missed-ticks""#), "{chart}");
    assert!(
        chart.contains(
            "<title>the reporter missed 4 ticks from 5s to 10s, no stall: 1000.00 events/s, "
        ),
        "{chart}"
    );
    let text = crate::text::summary(&r, false);
    assert!(
        text.contains("    stalls (intervals in which no event finished): none\n"),
        "{text}"
    );
    assert!(
        text.contains(
            "    the reporter missed 4 ticks with no stall: 5s to 10s (4 ticks, 1000.00 events/s, "
        ),
        "{text}"
    );
}
