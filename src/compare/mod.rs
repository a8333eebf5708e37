//! `dbpress compare BASE.json OTHER.json […]`: results side by side as tables of relative
//! throughput and latency per thread count, after a list of everything else that differed
//! between the runs. Runs and sweeps mix freely; the first file is the baseline.

pub mod model;
pub mod text;

use crate::error::{usage, Result};
use crate::export::json::{read_document, write_text};
use text::Metric;

const HELP: &str = "Usage: dbpress compare BASELINE.json OTHER.json [MORE.json…] [options]

Puts dbpress results (single runs or thread sweeps) side by side: per thread count, each
result's figures and their ratio to the first file's, after a list of everything else that
differs between the runs (options, server version and settings, host).

Options:
  --metrics=LIST          tables to print, from tps, qps, p95, p99, err [qps,p95]
  --output-format=FORMAT  text, json or html (a page with charts) [text]
  --output=FILE           also write the comparison as JSON to FILE
";

enum Format {
    Text,
    Json,
    Html,
}

/// Run `dbpress compare` with its arguments; returns the exit code.
pub fn main(args: &[String]) -> Result<u8> {
    let mut files = Vec::new();
    let mut metrics = vec![Metric::Qps, Metric::P95];
    let mut format = Format::Text;
    let mut output = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "-h" || a == "--help" {
            print!("{HELP}");
            return Ok(0);
        }
        let Some(opt) = a.strip_prefix("--") else {
            files.push(a.clone());
            continue;
        };
        let (name, inline) = match opt.split_once('=') {
            Some((n, v)) => (n.replace('_', "-"), Some(v.to_string())),
            None => (opt.replace('_', "-"), None),
        };
        let mut value = || {
            inline
                .clone()
                .or_else(|| it.next().cloned())
                .ok_or_else(|| usage(format!("--{name} needs a value: --{name}=VALUE")))
        };
        match name.as_str() {
            "metrics" => metrics = parse_metrics(&value()?)?,
            "output-format" => {
                format = match value()?.as_str() {
                    "text" => Format::Text,
                    "json" => Format::Json,
                    "html" => Format::Html,
                    other => {
                        return Err(usage(format!(
                            "invalid value '{other}' for --output-format: use text, json or html"
                        )))
                    }
                }
            }
            "output" => output = Some(value()?),
            _ => {
                return Err(usage(format!(
                    "unknown option '{a}' for dbpress compare: it takes --metrics, --output-format and --output (dbpress compare --help)"
                )))
            }
        }
    }
    if files.len() < 2 {
        return Err(usage(
            "dbpress compare needs two or more result files, the baseline first: dbpress compare before.json after.json",
        ));
    }
    let mut docs = Vec::new();
    for f in &files {
        docs.push((f.clone(), read_document(f)?));
    }
    let c = model::compare(&docs);
    let as_json = serde_json::to_string_pretty(&c).expect("Comparison always serialises") + "\n";
    if let Some(path) = &output {
        write_text(path, &as_json)?;
    }
    match format {
        Format::Json => print!("{as_json}"),
        Format::Text => print!("{}", text::render(&c, &metrics)),
        Format::Html => print!(
            "{}",
            crate::export::html::compare_page(&c, &text::render(&c, &metrics))
        ),
    }
    Ok(0)
}

fn parse_metrics(list: &str) -> Result<Vec<Metric>> {
    let mut out = Vec::new();
    for m in list.split(',').map(str::trim).filter(|m| !m.is_empty()) {
        out.push(Metric::parse(m).ok_or_else(|| {
            usage(format!(
                "unknown metric '{m}' in --metrics={list}: use tps, qps, p95, p99, err or cpu, like --metrics=qps,p95"
            ))
        })?);
    }
    if out.is_empty() {
        return Err(usage(format!(
            "--metrics={list} names no metric: use tps, qps, p95, p99, err or cpu"
        )));
    }
    Ok(out)
}
