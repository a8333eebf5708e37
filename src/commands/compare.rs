//! `dbpress compare BASE.json OTHER.json […]`: results side by side as tables of relative
//! throughput and latency per thread count, after a list of everything else that differed
//! between the runs. Runs and sweeps mix freely; the first is the baseline; `NAME=a,b,c`
//! groups repeated runs into one column of medians with their ranges.

use dbpress_core::error::{usage, Result};
use dbpress_report::document::{read_document, Document};
use dbpress_report::json::write_text;
use dbpress_report::model::comparison as model;
use dbpress_report::model::metric::{Metric, METRIC_NAMES};
use dbpress_report::{by_format, FileFormat, Format};

const HELP: &str = "Usage: dbpress compare BASELINE OTHER [MORE…] [options]

Puts dbpress results (single runs or thread sweeps) side by side: per thread count, each
result's figures and their ratio to the first one's, after a list of everything else that
differs between the runs (options, server version and settings, host).

Each of BASELINE, OTHER… is a result file, or repeated runs of one thing as
NAME=a.json,b.json,c.json: their median, with the range of the runs beside it, so a ratio
can be read against the runs' own spread. A run kept in the results store is #ID (ids from
`dbpress results list`), in a group too (NAME=#4,#7,#9); tag:KEY=VALUE is every stored run
with that tag, as one group.

Options:
  --metrics=LIST          tables to print, from tps, qps, p95, p99, err, cpu (server
                          CPU per event), written (KiB written to the disk per event),
                          flushes (disk cache flushes per event), net (KiB through
                          the sessions' network interface per event), miss (% of page
                          requests the server's cache missed), wait (the most frequent
                          server wait event) [qps,p95]
  --output-format=FORMAT  text, json, csv (one row per thread count and result, for a
                          spreadsheet), markdown (tables for a wiki or a ticket) or
                          html (a page with charts) [text]
  --output=FILE           also write the comparison to FILE: as CSV, Markdown or HTML
                          when its name ends in .csv, .md or .html, else as JSON
  --store=PATH            the results store #ID and tag: read [./dbpress-results.db]
";

/// Run `dbpress compare` with its arguments; returns the exit code.
pub fn main(args: &[String]) -> Result<u8> {
    let mut files = Vec::new();
    let mut metrics = vec![Metric::Qps, Metric::P95];
    let mut format = Format::Text;
    let mut output = None;
    let mut store = None;
    let Some(parsed) = super::own_args::parse(
        "compare",
        args,
        &[],
        &["metrics", "output-format", "output", "store"],
    )?
    else {
        dbpress_core::out!("{HELP}");
        return Ok(0);
    };
    files.extend(parsed.words);
    for (name, v) in parsed.options {
        let value = || -> Result<String> { Ok(v.clone().unwrap_or_default()) };
        match name.as_str() {
            "metrics" => metrics = parse_metrics(&value()?)?,
            "output-format" => {
                let f = value()?;
                format = Format::parse(&f).ok_or_else(|| {
                    usage(format!(
                        "invalid value '{f}' for --output-format: use text, json, csv, markdown or html"
                    ))
                })?
            }
            "output" => output = Some(value()?),
            "store" => store = Some(value()?),
            _ => {
                return Err(usage(format!(
                    "unknown option '--{name}' for dbpress compare: it takes --metrics, --output-format, --output and --store (dbpress compare --help)"
                )))
            }
        }
    }
    if files.len() < 2 {
        return Err(usage(
            "dbpress compare needs two or more result files, the baseline first: dbpress compare before.json after.json",
        ));
    }
    let mut runs = StoredRuns {
        path: super::results::store_path(store),
        store: None,
    };
    let mut groups = Vec::new();
    for arg in &files {
        if let Some(tags) = arg.strip_prefix("tag:") {
            groups.push(runs.tagged(tags)?);
            continue;
        }
        let (label, list) = group_of(arg)?;
        let mut docs = Vec::new();
        for f in list {
            let doc = match f.strip_prefix('#') {
                Some(id) if !std::path::Path::new(f).exists() => runs.one(id)?,
                _ => read_document(f)?,
            };
            one_engine(f, &doc)?;
            docs.push((f.to_string(), doc));
        }
        groups.push(model::Group { label, docs });
    }
    let c = model::compare(&groups);
    if let Some(path) = &output {
        write_text(
            path,
            &by_format(FileFormat::of(path)).comparison(&c, &metrics),
        )?;
    }
    dbpress_core::out!("{}", by_format(format).comparison(&c, &metrics));
    Ok(0)
}

/// Rows are matched by thread count, so a `dbpress slap --engine=a,b` result, which holds each
/// level once per engine, would compare its first engine only; its own table compares them.
fn one_engine(file: &str, doc: &dbpress_report::document::Document) -> Result<()> {
    let dbpress_report::document::Document::Sweep(s) = doc else {
        return Ok(());
    };
    let mut engines: Vec<&str> = s
        .steps
        .iter()
        .filter_map(|st| st.engine.as_deref())
        .collect();
    engines.dedup();
    if engines.len() > 1 {
        return Err(usage(format!(
            "{file} holds {} storage engines ({}) from `dbpress slap --engine`; compare matches levels by thread count, one engine per result: its own table compares the engines (dbpress report {file}), or run slap once per engine",
            engines.len(),
            engines.join(", ")
        )));
    }
    Ok(())
}

/// `NAME=a.json,b.json`: repeated runs under one name; anything else is one file. (A file
/// whose name holds `=` is taken as a file when it exists.)
fn group_of(arg: &str) -> Result<(Option<String>, Vec<&str>)> {
    match arg.split_once('=') {
        Some((name, list)) if !std::path::Path::new(arg).exists() => {
            let files: Vec<&str> = list.split(',').filter(|f| !f.is_empty()).collect();
            if name.is_empty() || files.is_empty() {
                return Err(usage(format!(
                    "'{arg}' is neither a file nor a group: name repeated runs as NAME=a.json,b.json"
                )));
            }
            Ok((Some(name.to_string()), files))
        }
        _ => Ok((None, vec![arg])),
    }
}

fn parse_metrics(list: &str) -> Result<Vec<Metric>> {
    let mut out = Vec::new();
    for m in list.split(',').map(str::trim).filter(|m| !m.is_empty()) {
        out.push(Metric::parse(m).ok_or_else(|| {
            usage(format!(
                "unknown metric '{m}' in --metrics={list}: use {METRIC_NAMES}, like --metrics=qps,p95"
            ))
        })?);
    }
    if out.is_empty() {
        return Err(usage(format!(
            "--metrics={list} names no metric: use {METRIC_NAMES}"
        )));
    }
    Ok(out)
}

/// The results store `#ID` and `tag:` name, opened when first needed.
struct StoredRuns {
    path: std::path::PathBuf,
    store: Option<dbpress_store::Store>,
}

impl StoredRuns {
    fn open(&mut self) -> Result<&dbpress_store::Store> {
        if self.store.is_none() {
            self.store = Some(super::results::open_existing(&self.path)?);
        }
        Ok(self.store.as_ref().expect("opened above"))
    }

    /// `#ID`: one stored run.
    fn one(&mut self, id: &str) -> Result<Document> {
        let id: i64 = id.parse().map_err(|_| {
            usage(format!(
                "'#{id}' is not a stored run: #ID takes the number `dbpress results list` shows"
            ))
        })?;
        let (_, r) = super::results::stored_result(self.open()?, id)?;
        Ok(Document::Run(Box::new(r)))
    }

    /// `tag:KEY=VALUE[,KEY=VALUE]`: every stored run with all these tags, as one group.
    fn tagged(&mut self, list: &str) -> Result<model::Group> {
        let mut filter = dbpress_store::RunFilter::default();
        for kv in list.split(',').filter(|t| !t.is_empty()) {
            let (k, v) = kv.split_once('=').ok_or_else(|| {
                usage(format!(
                    "tag:{list}: select stored runs by tag:KEY=VALUE, such as tag:os=centos7"
                ))
            })?;
            filter.tags.push((k.to_string(), v.to_string()));
        }
        let store = self.open()?;
        let rows = store.list(&filter)?;
        let mut docs = Vec::new();
        for row in rows
            .iter()
            .filter(|r| r.status == dbpress_store::Status::Ok)
        {
            let (_, r) = super::results::stored_result(store, row.id)?;
            docs.push((format!("#{}", row.id), Document::Run(Box::new(r))));
        }
        if docs.is_empty() {
            return Err(usage(format!(
                "no measured run in {} has the tag {list}: `dbpress results list` shows the runs and their tags",
                store.path().display()
            )));
        }
        Ok(model::Group {
            label: Some(list.to_string()),
            docs,
        })
    }
}
