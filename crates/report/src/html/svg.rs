//! Line charts as inline SVG: no script, no external file, so a report opens anywhere and
//! can be mailed or attached to a ticket as one file.

use super::esc::esc;
use std::fmt::Write;

const W: f64 = 760.0;
const H: f64 = 240.0;
const LEFT: f64 = 64.0;
const RIGHT: f64 = 16.0;
const TOP: f64 = 16.0;
const BOTTOM: f64 = 40.0;
/// Series colours (colour-blind-safe, after Okabe and Ito).
const COLOURS: &[&str] = &[
    "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000",
];

pub struct Series<'a> {
    pub name: &'a str,
    /// (x, y); a None y breaks the line (a level that did not run).
    pub points: Vec<(f64, Option<f64>)>,
}

pub enum XAxis<'a> {
    /// Seconds from the start of measurement.
    Time,
    /// Evenly spaced categories (thread counts), labelled with these names.
    Levels(&'a [String]),
    /// Evenly spaced categories of another kind (percentiles), and the axis's name.
    Categories(&'a [String], &'a str),
}

/// A shaded span of the x axis, with the text shown on hover: a stall (red), or an interval
/// that stretched over ticks the reporter missed with no stall in it (grey).
#[derive(Clone)]
pub struct Band {
    pub from: f64,
    pub to: f64,
    pub title: String,
    pub stall: bool,
}

/// The points that draw each interval's value as a step over its own span (`from` to `to`): a
/// level line across the interval, joined to the next one's by a vertical at their common end.
/// A None leaves its span empty (the line breaks there). Joining the values at the intervals'
/// ends instead drew a 4.8 s interval of 2 events as a gentle slope between its neighbours.
pub fn steps(spans: impl IntoIterator<Item = (f64, f64, Option<f64>)>) -> Vec<(f64, Option<f64>)> {
    let mut points = Vec::new();
    for (from, to, y) in spans {
        match y {
            Some(y) => points.extend([(from, Some(y)), (to, Some(y))]),
            None => points.push((to, None)),
        }
    }
    points
}

/// Each interval's value as a step over its own span, from its start to its end: an interval
/// that stretched over missed ticks is drawn across all of them.
pub fn steps_of(
    full: &[&dbpress_result::Interval],
    f: impl Fn(&dbpress_result::Interval) -> Option<f64>,
) -> Vec<(f64, Option<f64>)> {
    steps(
        full.iter()
            .map(|i| (i.time_s - i.duration_s, i.time_s, f(i))),
    )
}

/// A vertical bar from `lo` to `hi` at `x`, in series `series`'s colour: the spread of a
/// group's runs around the median its point shows.
pub struct Whisker {
    pub series: usize,
    pub x: f64,
    pub lo: f64,
    pub hi: f64,
}

pub struct Chart<'a> {
    pub title: &'a str,
    pub y_label: &'a str,
    pub x: XAxis<'a>,
    pub series: Vec<Series<'a>>,
    pub bands: Vec<Band>,
    /// The y axis reaches at least this (the machine's CPUs on a CPU chart, so 1.0 of 2 reads
    /// as half); 0 to fit the data alone.
    pub y_at_least: f64,
    pub whiskers: Vec<Whisker>,
}

impl Chart<'_> {
    pub fn render(&self) -> String {
        let mut o = String::new();
        let (x_min, x_max) = match &self.x {
            XAxis::Time => {
                let xs = self
                    .series
                    .iter()
                    .flat_map(|s| s.points.iter().map(|p| p.0));
                let max = xs.fold(0.0f64, f64::max);
                (0.0, if max > 0.0 { max } else { 1.0 })
            }
            // Half a step of room on each side, so the first level's point and bar stay clear
            // of the y axis (and a single level sits in the middle).
            XAxis::Levels(names) | XAxis::Categories(names, _) => {
                (-0.5, names.len().max(1) as f64 - 0.5)
            }
        };
        let y_top = self
            .series
            .iter()
            .flat_map(|s| s.points.iter().filter_map(|p| p.1))
            .chain(self.whiskers.iter().map(|w| w.hi))
            .fold(self.y_at_least, f64::max);
        let (step, y_max) = nice_scale(y_top);
        let px = |x: f64| LEFT + (x - x_min) / (x_max - x_min) * (W - LEFT - RIGHT);
        let py = |y: f64| TOP + (1.0 - y / y_max) * (H - TOP - BOTTOM);
        let _ = write!(
            o,
            r#"<figure><figcaption>{}</figcaption><svg viewBox="0 0 {W} {H}" width="{W}" height="{H}" role="img" aria-label="{}">"#,
            esc(self.title),
            esc(self.title)
        );
        for b in &self.bands {
            let (x0, x1) = (px(b.from), px(b.to));
            let (class, fill) = if b.stall {
                ("stall", "#f4cccc")
            } else {
                ("missed-ticks", "#e6e6e6")
            };
            let _ = write!(
                o,
                r##"<rect class="{class}" x="{x0:.1}" y="{TOP}" width="{:.1}" height="{:.1}" fill="{fill}"><title>{}</title></rect>"##,
                (x1 - x0).max(1.0),
                H - TOP - BOTTOM,
                esc(&b.title)
            );
        }
        // Horizontal grid with y labels.
        let mut y = 0.0;
        while y <= y_max * (1.0 + 1e-9) {
            let _ = write!(
                o,
                r##"<line x1="{LEFT}" x2="{:.1}" y1="{yy:.1}" y2="{yy:.1}" stroke="#ddd"/><text x="{:.1}" y="{:.1}" text-anchor="end" class="tick">{}</text>"##,
                W - RIGHT,
                LEFT - 6.0,
                py(y) + 4.0,
                number(y),
                yy = py(y)
            );
            y += step;
        }
        // X ticks.
        match &self.x {
            XAxis::Time => {
                let (xstep, _) = nice_scale(x_max);
                let mut x = 0.0;
                while x <= x_max * (1.0 + 1e-9) {
                    let _ = write!(
                        o,
                        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle" class="tick">{}s</text>"#,
                        px(x),
                        H - BOTTOM + 16.0,
                        number(x)
                    );
                    x += xstep;
                }
            }
            XAxis::Levels(names) | XAxis::Categories(names, _) => {
                for (i, n) in names.iter().enumerate() {
                    let _ = write!(
                        o,
                        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle" class="tick">{}</text>"#,
                        px(i as f64),
                        H - BOTTOM + 16.0,
                        esc(n)
                    );
                }
            }
        }
        let x_name = match self.x {
            XAxis::Time => "time",
            XAxis::Levels(_) => "threads",
            XAxis::Categories(_, name) => name,
        };
        let _ = write!(
            o,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="middle" class="axis">{x_name}</text><text x="14" y="{:.1}" text-anchor="middle" class="axis" transform="rotate(-90 14 {:.1})">{}</text>"#,
            (LEFT + W - RIGHT) / 2.0,
            H - 6.0,
            (TOP + H - BOTTOM) / 2.0,
            (TOP + H - BOTTOM) / 2.0,
            esc(self.y_label)
        );
        for (k, s) in self.series.iter().enumerate() {
            let colour = COLOURS[k % COLOURS.len()];
            // One polyline per unbroken run of points.
            let mut runs: Vec<Vec<(f64, f64)>> = vec![Vec::new()];
            for &(x, y) in &s.points {
                match y {
                    Some(y) => runs.last_mut().unwrap().push((px(x), py(y))),
                    None => runs.push(Vec::new()),
                }
            }
            for run in runs.iter().filter(|r| !r.is_empty()) {
                let pts: Vec<String> = run.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
                let _ = write!(
                    o,
                    r#"<polyline class="series" fill="none" stroke="{colour}" stroke-width="1.8" points="{}"/>"#,
                    pts.join(" ")
                );
            }
            if matches!(self.x, XAxis::Levels(_) | XAxis::Categories(..)) {
                for &(x, y) in &s.points {
                    if let Some(y) = y {
                        let _ = write!(
                            o,
                            r#"<circle cx="{:.1}" cy="{:.1}" r="3" fill="{colour}"><title>{}: {}</title></circle>"#,
                            px(x),
                            py(y),
                            esc(s.name),
                            number(y)
                        );
                    }
                }
            }
        }
        for w in &self.whiskers {
            let colour = COLOURS[w.series % COLOURS.len()];
            let (x, lo, hi) = (px(w.x), py(w.lo), py(w.hi));
            let name = self.series.get(w.series).map_or("", |s| s.name);
            let _ = write!(
                o,
                r#"<path class="whisker" d="M{x:.1},{lo:.1}V{hi:.1}M{:.1},{lo:.1}H{:.1}M{:.1},{hi:.1}H{:.1}" stroke="{colour}" stroke-width="1.2" fill="none"><title>{}: {} to {}</title></path>"#,
                x - 4.0,
                x + 4.0,
                x - 4.0,
                x + 4.0,
                esc(name),
                number(w.lo),
                number(w.hi)
            );
        }
        o.push_str("</svg>");
        if self.series.len() > 1 {
            o.push_str(r#"<div class="legend">"#);
            for (k, s) in self.series.iter().enumerate() {
                let _ = write!(
                    o,
                    r#"<span><i style="background:{}"></i>{}</span>"#,
                    COLOURS[k % COLOURS.len()],
                    esc(s.name)
                );
            }
            o.push_str("</div>");
        }
        o.push_str("</figure>\n");
        o
    }
}

/// A tick step of 1, 2 or 5 × 10ⁿ giving about five ticks, and the axis top (a multiple of it).
fn nice_scale(max: f64) -> (f64, f64) {
    if max <= 0.0 || !max.is_finite() {
        return (1.0, 1.0);
    }
    let raw = max / 5.0;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * mag);
    (step, (max / step).ceil() * step)
}

/// A tick label: no decimals from 10 up, else up to three significant ones.
fn number(v: f64) -> String {
    if v.abs() >= 10.0 || v == 0.0 {
        format!("{v:.0}")
    } else {
        let s = format!("{v:.3}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scales_are_round_and_cover_the_data() {
        assert_eq!(nice_scale(0.0), (1.0, 1.0));
        assert_eq!(nice_scale(9.0), (2.0, 10.0));
        assert_eq!(nice_scale(2849.0), (1000.0, 3000.0));
        assert_eq!(nice_scale(0.37), (0.1, 0.4));
        let (step, top) = nice_scale(31_840.6);
        assert_eq!(step, 10_000.0);
        assert!(top >= 31_840.6);
        assert_eq!(number(0.25), "0.25");
        assert_eq!(number(12_345.6), "12346");
    }

    #[test]
    fn a_missing_point_breaks_the_line_and_names_are_escaped() {
        let levels = vec!["1".to_string(), "2".to_string(), "4".to_string()];
        let svg = Chart {
            title: "QPS <by> threads",
            y_label: "QPS",
            x: XAxis::Levels(&levels),
            series: vec![Series {
                name: "a&b",
                points: vec![(0.0, Some(10.0)), (1.0, None), (2.0, Some(30.0))],
            }],
            bands: vec![],
            whiskers: vec![],
            y_at_least: 0.0,
        }
        .render();
        assert_eq!(svg.matches("<polyline").count(), 2);
        assert_eq!(svg.matches("<circle").count(), 2);
        assert!(svg.contains("QPS &lt;by&gt; threads") && svg.contains("a&amp;b: 30"));
        assert!(!svg.contains("<by>"));
    }

    #[test]
    fn steps_span_each_interval_and_a_missing_value_breaks_the_line() {
        let p = steps([
            (0.0, 1.0, Some(10.0)),
            (1.0, 5.8, Some(0.5)),
            (5.8, 6.8, None),
            (6.8, 7.8, Some(9.0)),
        ]);
        assert_eq!(
            p,
            vec![
                (0.0, Some(10.0)),
                (1.0, Some(10.0)),
                (1.0, Some(0.5)),
                (5.8, Some(0.5)),
                (6.8, None),
                (6.8, Some(9.0)),
                (7.8, Some(9.0)),
            ]
        );
        let svg = Chart {
            title: "events/s",
            y_label: "events/s",
            x: XAxis::Time,
            series: vec![Series {
                name: "events/s",
                points: p,
            }],
            bands: vec![],
            whiskers: vec![],
            y_at_least: 0.0,
        }
        .render();
        assert_eq!(svg.matches("<polyline").count(), 2, "{svg}");
    }

    #[test]
    fn the_y_axis_reaches_at_least_what_is_asked() {
        let chart = |y_at_least: f64| {
            Chart {
                title: "CPUs",
                y_label: "CPUs",
                x: XAxis::Time,
                series: vec![Series {
                    name: "busy",
                    points: vec![(1.0, Some(0.9)), (2.0, Some(0.95))],
                }],
                bands: vec![],
                whiskers: vec![],
                y_at_least,
            }
            .render()
        };
        // Fitted to the data the top label is 1; spanning a 2-CPU machine it is 2.
        assert!(!chart(0.0).contains(">2</text>"));
        assert!(chart(2.0).contains(">2</text>"), "{}", chart(2.0));
    }

    #[test]
    fn a_whisker_spans_a_groups_runs_and_the_axis_covers_its_top() {
        let levels = vec!["4".to_string()];
        let svg = Chart {
            title: "QPS",
            y_label: "QPS",
            x: XAxis::Levels(&levels),
            series: vec![Series {
                name: "double0",
                points: vec![(0.0, Some(22569.34))],
            }],
            bands: vec![],
            whiskers: vec![Whisker {
                series: 0,
                x: 0.0,
                lo: 21400.0,
                hi: 31000.0,
            }],
            y_at_least: 0.0,
        }
        .render();
        assert_eq!(svg.matches(r#"class="whisker""#).count(), 1);
        assert!(
            svg.contains("<title>double0: 21400 to 31000</title>"),
            "{svg}"
        );
        // The axis reaches past the bar's top, not only the median's 22569.
        assert!(
            svg.contains(">35000</text>") || svg.contains(">40000</text>"),
            "{svg}"
        );
        // A single level sits in the middle of the plot, clear of the y axis.
        let mid = (LEFT + W - RIGHT) / 2.0;
        assert!(svg.contains(&format!(r#"<circle cx="{mid:.1}""#)), "{svg}");
    }
}
