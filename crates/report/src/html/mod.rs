//! A result as one self-contained HTML page with charts: throughput and latency per interval
//! for a run (stalls shaded), throughput and latency against threads for a sweep, one line per
//! result for a comparison or an experiment. Everything else the text report says is on the page as text.
//! Rendered from saved JSON (`dbpress report FILE --output-format=html`, `dbpress compare …
//! --output-format=html`), so a page can be made at any time from what a run wrote.

mod comparison;
mod esc;
mod experiment;
mod frame;
mod host;
mod status;
mod svg;
mod tpcc;

use crate::model::comparison::Comparison;
use crate::model::experiment::Experiment;
use crate::model::metric::Metric;
use crate::render::Render;
use crate::text::Text;
use comparison::compare_page;
use dbpress_result::sweep::SweepResult;
use dbpress_result::{Interval, RunResult};
pub use esc::esc;
use experiment::experiment_page;
use frame::{levels_chart, page, text_block};
use std::fmt::Write;
use svg::{steps_of, Band, Chart, Series, XAxis};

/// HTML pages: a run's and a sweep's charts, a comparison's and an experiment's, each page
/// closing with the text report it charts.
pub struct Html;

impl Render for Html {
    fn run(&self, r: &RunResult) -> String {
        run_page(r)
    }

    fn sweep(&self, s: &SweepResult) -> String {
        sweep_page(s)
    }

    fn comparison(&self, c: &Comparison, metrics: &[Metric]) -> String {
        compare_page(c, &Text.comparison(c, metrics))
    }

    fn experiment(&self, e: &Experiment) -> String {
        experiment_page(e, &Text.experiment(e))
    }
}

/// The run's setting as a two-column table; `threads` as the page has them (a sweep's list).
fn about(o: &mut String, r: &RunResult, threads: &str) {
    let e = &r.environment;
    let rows = [
        ("workload", r.run.workload.clone()),
        ("target", e.target.clone()),
        ("server", r.server_name()),
        ("threads", threads.to_string()),
        ("stop condition", r.run.stop_condition.clone()),
        ("statements", r.run.ps_mode.clone()),
        ("random ids", r.run.rand_type.clone()),
        (
            "host",
            format!(
                "{} ({}, kernel {}, {} × {})",
                e.hostname, e.os, e.kernel, e.cpu_model, e.cpu_count
            ),
        ),
        ("command", r.command_line.join(" ")),
    ];
    o.push_str("<table>");
    for (k, v) in rows {
        let _ = write!(
            o,
            "<tr><td>{k}</td><td style=\"text-align:left\">{}</td></tr>",
            esc(&v)
        );
    }
    o.push_str("</table>\n");
}

/// The per-interval charts of one run: events/s with stalls shaded, and latency.
fn interval_charts(o: &mut String, r: &RunResult) {
    let full: Vec<_> = r.intervals.iter().filter(|i| !i.closing).collect();
    if full.len() < 2 {
        let _ = writeln!(
            o,
            "<p>Too short to chart: {} full interval(s) of {} s.</p>",
            full.len(),
            r.config
                .get("report-interval")
                .map_or("1", |v| if v == "0" { "1" } else { v })
        );
        return;
    }
    let rate = steps_of(&full, |i| Some(i.events as f64 / i.duration_s.max(1e-9)));
    let bands = bands(r);
    if !bands.is_empty() {
        let _ = writeln!(
            o,
            "<p>Each interval is drawn over its own span. Shaded red: stalls (no event, or next to none, finished); \
             grey: an interval stretched over ticks the reporter missed with no stall in it. Hover a shade for its figures.</p>"
        );
    }
    o.push_str(
        &Chart {
            title: "Events per second, per interval (stalls shaded)",
            y_label: "events/s",
            x: XAxis::Time,
            series: vec![Series {
                name: "events/s",
                points: rate,
            }],
            bands: bands.clone(),
            whiskers: vec![],
            y_at_least: 0.0,
        }
        .render(),
    );
    let pct = r.run.percentile;
    let pct_name = format!("p{pct}");
    let lat = |f: fn(&Interval) -> f64| steps_of(&full, |i| (i.events > 0).then(|| f(i)));
    let mut series = Vec::new();
    if pct > 0 {
        series.push(Series {
            name: &pct_name,
            points: lat(|i| i.latency_pct_ms),
        });
    }
    series.push(Series {
        name: "p99",
        points: lat(|i| i.latency_p99_ms),
    });
    // The max is left to the text: one slow event would flatten the percentiles to a line.
    o.push_str(
        &Chart {
            title: "Event latency per interval, ms (stalls shaded)",
            y_label: "ms",
            x: XAxis::Time,
            series,
            bands: bands.clone(),
            whiskers: vec![],
            y_at_least: 0.0,
        }
        .render(),
    );
    tpcc::interval_chart(o, &full, bands.clone());
    // What the machine did meanwhile, under the run's own figures.
    host::cpu_chart(o, &full, bands.clone());
    host::disk_charts(o, &full, bands.clone());
    host::waits_chart(o, &full, r, bands.clone());
    status::charts(o, &full, r, bands);
}

/// The spans every per-interval chart shades: each stall stretch, and each interval that
/// stretched over ticks the reporter missed with no stall in it.
fn bands(r: &RunResult) -> Vec<Band> {
    let Some(t) = &r.throughput else {
        return Vec::new();
    };
    let stalls = t.stalls.iter().map(|s| Band {
        from: s.from_s,
        to: s.to_s,
        title: if s.events == 0 && s.missed_ticks == 0 {
            format!("no event finished from {:.0}s to {:.0}s", s.from_s, s.to_s)
        } else {
            format!(
                "stall from {:.0}s to {:.0}s ({:.1}s): {} event{} finished{}",
                s.from_s,
                s.to_s,
                s.to_s - s.from_s,
                s.events,
                if s.events == 1 { "" } else { "s" },
                if s.missed_ticks > 0 {
                    format!(
                        "; the reporter missed {} tick{}: dbpress was held up too",
                        s.missed_ticks,
                        if s.missed_ticks == 1 { "" } else { "s" }
                    )
                } else {
                    String::new()
                }
            )
        },
        stall: true,
    });
    let late = t.stretched.iter().filter(|s| !s.stall).map(|s| Band {
        from: s.from_s,
        to: s.to_s,
        title: format!(
            "the reporter missed {} tick{} from {:.0}s to {:.0}s, no stall: {:.2} events/s, {:.0}% of the median",
            s.missed_ticks,
            if s.missed_ticks == 1 { "" } else { "s" },
            s.from_s,
            s.to_s,
            s.eps,
            100.0 * s.median_share
        ),
        stall: false,
    });
    stalls.chain(late).collect()
}

/// A --time run that went on past its end: the text report's line on it, above the charts.
fn overrun_note(o: &mut String, r: &RunResult) {
    if let Some(v) = &r.summary.overrun {
        let _ = writeln!(
            o,
            "<p class=\"note\">{}</p>",
            esc(&crate::text::overrun(v, r))
        );
    }
}

fn summary_table(o: &mut String, r: &RunResult) {
    let s = &r.summary;
    let l = &s.latency;
    let _ = writeln!(
        o,
        "<table><tr><th>TPS</th><th>QPS</th><th>events</th><th>errors</th><th>reconnects</th><th>time, s</th>\
         <th>avg ms</th><th>p95 ms</th><th>p99 ms</th><th>max ms</th></tr>\
         <tr><td>{:.2}</td><td>{:.2}</td><td>{}</td><td>{}</td><td>{}</td><td>{:.2}</td><td>{:.3}</td><td>{:.3}</td><td>{:.3}</td><td>{:.3}</td></tr></table>",
        s.tps, s.qps, s.events, s.errors, s.reconnects, s.total_time_s, l.avg_ms, l.p95_ms, l.p99_ms, l.max_ms
    );
}

/// One run: what ran, the figures, the charts, and the full text report.
fn run_page(r: &RunResult) -> String {
    let mut o = String::new();
    about(&mut o, r, &r.run.threads.to_string());
    o.push_str("<h2>Summary</h2>\n");
    summary_table(&mut o, r);
    overrun_note(&mut o, r);
    for w in &r.run.warnings {
        let _ = writeln!(o, "<p class=\"note\">Warning: {}</p>", esc(w));
    }
    if let Some(e) = &r.run.fatal_error {
        let _ = writeln!(o, "<p class=\"note\">Stopped by an error: {}</p>", esc(e));
    }
    if let Some(t) = &r.tpcc {
        tpcc::section(&mut o, t);
    }
    o.push_str("<h2>Over time</h2>\n");
    interval_charts(&mut o, r);
    text_block(&mut o, "The text report", &full_text(r), true);
    page(
        &format!("dbpress: {} on {}", r.run.workload, r.server_name()),
        &o,
    )
}

fn full_text(r: &RunResult) -> String {
    crate::text::interval_lines(r) + &crate::text::summary(r, false)
}

/// A thread sweep: throughput and latency against threads, the table, each step's report.
fn sweep_page(s: &SweepResult) -> String {
    let mut o = String::new();
    if let Some(r) = s.steps.iter().find_map(|st| st.result.as_ref()) {
        // A sweep ran at every level, not at its first step's.
        let levels: Vec<String> = s.levels.iter().map(u32::to_string).collect();
        about(&mut o, r, &levels.join(", "));
    }
    let names: Vec<String> = s
        .table
        .iter()
        .map(|r| match &r.engine {
            Some(e) => format!("{e} {}", r.threads),
            None => r.threads.to_string(),
        })
        .collect();
    let pts = |f: fn(&dbpress_result::sweep::Row) -> Option<f64>| -> Vec<(f64, Option<f64>)> {
        s.table
            .iter()
            .enumerate()
            .map(|(i, r)| (i as f64, f(r)))
            .collect()
    };
    // One level (mysqlslap's default) has no curve to draw.
    if s.table.len() > 1 {
        o.push_str("<h2>Against threads</h2>\n");
        if s.table.iter().any(|r| r.tpmc.is_some()) {
            o.push_str(&levels_chart(
                "TPC-C tpmC against connections",
                "tpmC",
                &names,
                vec![Series {
                    name: "tpmC",
                    points: pts(|r| r.tpmc),
                }],
                0.0,
                vec![],
            ));
        }
        for (title, y, series) in [
            (
                "Transactions per second",
                "TPS",
                vec![Series {
                    name: "TPS",
                    points: pts(|r| r.tps),
                }],
            ),
            (
                "Queries per second",
                "QPS",
                vec![Series {
                    name: "QPS",
                    points: pts(|r| r.qps),
                }],
            ),
            (
                "Latency, ms",
                "ms",
                vec![
                    Series {
                        name: "p95",
                        points: pts(|r| r.p95_ms),
                    },
                    Series {
                        name: "p99",
                        points: pts(|r| r.p99_ms),
                    },
                ],
            ),
        ] {
            o.push_str(&levels_chart(title, y, &names, series, 0.0, vec![]));
        }
        if s.table.iter().any(|r| r.cpu.is_some()) {
            let cpus = s
                .steps
                .iter()
                .find_map(|st| st.result.as_ref()?.host_usage.as_ref())
                .map_or(0.0, |h| f64::from(h.cpus));
            o.push_str(&levels_chart(
                "CPUs busy: the machine, the server's process, dbpress",
                "CPUs",
                &names,
                vec![
                    Series {
                        name: "machine",
                        points: pts(|r| r.cpu.as_ref().map(|c| c.busy)),
                    },
                    Series {
                        name: "server",
                        points: pts(|r| r.cpu.as_ref()?.server),
                    },
                    Series {
                        name: "dbpress",
                        points: pts(|r| r.cpu.as_ref().map(|c| c.dbpress)),
                    },
                ],
                cpus,
                vec![],
            ));
        }
        if s.table.iter().any(|r| r.disk.is_some()) {
            o.push_str(&levels_chart(
                "Disk busy against threads (% of the time with a request in flight)",
                "% busy",
                &names,
                vec![Series {
                    name: "disk busy",
                    points: pts(|r| r.disk.as_ref().map(|d| d.busy * 100.0)),
                }],
                100.0,
                vec![],
            ));
        }
    }
    text_block(
        &mut o,
        "The sweep table",
        &crate::text::sweep::render_table(s),
        true,
    );
    for st in &s.steps {
        let level = match &st.engine {
            Some(e) => format!("{} threads, engine {}", st.threads, esc(e)),
            None => format!("{} threads", st.threads),
        };
        match (&st.result, &st.error) {
            (Some(r), _) => {
                let _ = writeln!(o, "<h2>{level} over time</h2>");
                interval_charts(&mut o, r);
                text_block(
                    &mut o,
                    &format!("{level}: the text report"),
                    &full_text(r),
                    s.steps.len() == 1,
                );
            }
            (None, Some(e)) => {
                let _ = writeln!(o, "<p class=\"note\">{level} did not run: {}</p>", esc(e));
            }
            (None, None) => {}
        }
    }
    page(&format!("dbpress: {} thread sweep", s.workload), &o)
}

#[cfg(test)]
mod tests;
