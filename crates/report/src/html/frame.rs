//! What every page shares: the frame (title, style, footer), a folded block of text, and a
//! chart against thread counts.

use super::esc::esc;
use super::svg::{Chart, Series, Whisker, XAxis};
use std::fmt::Write;

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:24px;max-width:980px;color:#222}\
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.6em}\
table{border-collapse:collapse;margin:8px 0}td,th{padding:3px 10px;border-bottom:1px solid #e4e4e4;text-align:right}\
td:first-child,th:first-child{text-align:left}figure{margin:12px 0}figcaption{font-weight:600;margin-bottom:4px}\
.tick{font-size:11px;fill:#555}.axis{font-size:12px;fill:#333}.legend span{margin-right:16px;font-size:13px}\
.legend i{display:inline-block;width:12px;height:12px;margin-right:5px;vertical-align:-1px}\
pre{background:#f6f6f6;padding:10px;overflow-x:auto;font-size:12px}.note{color:#a33}";

pub fn page(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title><style>{STYLE}</style></head>\n<body>\n<h1>{}</h1>\n{body}<p class=\"tick\">Made by dbpress {}.</p>\n</body></html>\n",
        esc(title),
        esc(title),
        dbpress_result::VERSION
    )
}

pub fn text_block(o: &mut String, title: &str, text: &str, open: bool) {
    let _ = writeln!(
        o,
        "<details{}><summary>{}</summary><pre>{}</pre></details>",
        if open { " open" } else { "" },
        esc(title),
        esc(text)
    );
}

/// A chart against thread counts (`names`, evenly spaced), its y axis reaching at least
/// `y_at_least`, with the spread of repeated runs as `whiskers`.
pub fn levels_chart(
    title: &str,
    y: &str,
    names: &[String],
    series: Vec<Series<'_>>,
    y_at_least: f64,
    whiskers: Vec<Whisker>,
) -> String {
    Chart {
        title,
        y_label: y,
        x: XAxis::Levels(names),
        series,
        bands: vec![],
        y_at_least,
        whiskers,
    }
    .render()
}
