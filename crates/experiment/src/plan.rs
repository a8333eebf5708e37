//! The plan file: an experiment in TOML. Every key is documented in docs/GUIDE.md ("Experiments");
//! an unknown key, a wrong type or a name used twice is refused with the file, the line and
//! what to write instead.
//!
//! ```toml
//! name = "double1-vs-double0"
//! [run]
//! threads = [4, 16]
//! repeats = 3
//! duration = 60
//! baseline = "double1"
//! [[target]]
//! name = "mariadb"
//! options = ["--mysql-host=127.0.0.1", "--mysql-user=sbtest"]
//! [[settings]]
//! name = "double1"
//! variables = { sync_binlog = 1, innodb_flush_log_at_trx_commit = 1 }
//! [[workload]]
//! name = "write_only"
//! command = "oltp_write_only --tables=4 --table-size=10000"
//! ```

use dbpress_core::error::{usage, Result};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use toml::Spanned;

/// A plan that reads and holds together.
#[derive(Clone, Debug)]
pub struct ExperimentPlan {
    pub name: String,
    pub description: String,
    pub path: PathBuf,
    /// The file as read: kept in the store with each generation of the experiment.
    pub text: String,
    /// The results store (`store = "…"`, relative to the plan's directory), if the plan names one.
    pub store: Option<PathBuf>,
    pub duration: u64,
    pub warmup: u64,
    pub pause: f64,
    pub repeats: u32,
    pub threads: Vec<u32>,
    pub order: Order,
    pub seed: u64,
    pub prepare: PrepareMode,
    pub cleanup: bool,
    pub report_interval: u64,
    pub baseline: Baseline,
    /// Options added to every run's command line (`--percentile=99`, `--server-waits=on`).
    pub options: Vec<String>,
    pub stop_on_error: bool,
    pub targets: Vec<Target>,
    pub settings: Vec<SettingsSet>,
    pub workloads: Vec<PlanWorkload>,
    /// The figures the report's tables show, in order.
    pub metrics: Vec<String>,
    /// The server status figures the report shows per cell (empty: every one that moved).
    pub status: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// Repeat 1 of every cell, then repeat 2…: drift and cache warming spread over all cells.
    Interleaved,
    /// Each cell's repeats one after the other.
    Sequential,
    /// Every cell in an order drawn from `seed`.
    Shuffled,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PrepareMode {
    /// Each workload's tables prepared once per target, before its first cell.
    Once,
    /// Prepared again whenever a cell's settings set differs from the one they were made under.
    PerSettings,
    /// The tables are there already; the experiment never creates or drops them.
    None,
}

/// What the ratios of the report are taken against.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Baseline {
    Target(usize),
    Settings(usize),
}

#[derive(Clone, Debug)]
pub struct Target {
    pub name: String,
    /// dbpress's connection options (a `db = "URL"` becomes `--db=URL`).
    pub args: Vec<String>,
}

#[derive(Clone, Debug)]
pub struct SettingsSet {
    pub name: String,
    /// Changed with SET GLOBAL / ALTER SYSTEM, read back, put back at the end.
    pub variables: Vec<(String, String)>,
    /// A command run (by `sh -c`) when the experiment switches to this set, for settings that need
    /// a restart; dbpress then waits until the server answers.
    pub restart: Option<String>,
    pub restart_timeout: u64,
    /// Read back (not set) after `restart`: the proof the restart applied them.
    pub expect: Vec<(String, String)>,
}

/// The kind of command a workload is, which says how threads and time are given to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WorkloadKind {
    /// `oltp_*`, `bulk_insert`, `tpcc`: sysbench's grammar (`--threads`, `--time`).
    Sysbench,
    /// `slap`: mysqlslap's (`--concurrency`; its own --iterations, no time limit).
    Slap,
    /// `script`: pgbench's (`-c`, `-T`).
    Script,
}

#[derive(Clone, Debug)]
pub struct PlanWorkload {
    pub name: String,
    pub kind: WorkloadKind,
    /// The command as written, without prepare/run/cleanup, threads, time or output.
    pub args: Vec<String>,
    /// The command that makes its tables (None: it needs none, as slap).
    pub prepare: Option<Vec<String>>,
    /// The command that drops them again.
    pub cleanup: Option<Vec<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    name: Option<Spanned<String>>,
    #[serde(default)]
    description: String,
    store: Option<String>,
    #[serde(default)]
    run: RunSection,
    #[serde(default)]
    target: Vec<TargetSpec>,
    #[serde(default)]
    settings: Vec<SettingsSpec>,
    #[serde(default)]
    workload: Vec<WorkloadSpec>,
    #[serde(default)]
    report: ReportSection,
}

fn default_duration() -> u64 {
    60
}
fn one() -> u32 {
    1
}
fn default_threads() -> Vec<u32> {
    vec![1]
}
fn yes() -> bool {
    true
}
fn default_interval() -> u64 {
    1
}
fn default_restart_timeout() -> u64 {
    300
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RunSection {
    #[serde(default = "default_duration")]
    duration: u64,
    #[serde(default)]
    warmup: u64,
    #[serde(default)]
    pause: f64,
    #[serde(default = "one")]
    repeats: u32,
    #[serde(default = "default_threads")]
    threads: Vec<u32>,
    order: Option<Spanned<String>>,
    #[serde(default = "default_seed")]
    seed: u64,
    prepare: Option<Spanned<String>>,
    #[serde(default = "yes")]
    cleanup: bool,
    #[serde(default = "default_interval")]
    report_interval: u64,
    baseline: Option<Spanned<String>>,
    #[serde(default)]
    options: Vec<Spanned<String>>,
    #[serde(default)]
    stop_on_error: bool,
}

fn default_seed() -> u64 {
    1
}

impl Default for RunSection {
    fn default() -> Self {
        RunSection {
            duration: default_duration(),
            warmup: 0,
            pause: 0.0,
            repeats: 1,
            threads: default_threads(),
            order: None,
            seed: default_seed(),
            prepare: None,
            cleanup: true,
            report_interval: default_interval(),
            baseline: None,
            options: Vec::new(),
            stop_on_error: false,
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TargetSpec {
    name: Spanned<String>,
    #[serde(default)]
    options: Vec<Spanned<String>>,
    db: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SettingsSpec {
    name: Spanned<String>,
    #[serde(default)]
    variables: BTreeMap<String, Spanned<toml::Value>>,
    restart: Option<String>,
    #[serde(default = "default_restart_timeout")]
    restart_timeout: u64,
    #[serde(default)]
    expect: BTreeMap<String, Spanned<toml::Value>>,
}

/// A command as one string (split like a shell's words) or as a list of words.
#[derive(Deserialize)]
#[serde(untagged)]
enum CommandSpec {
    Line(String),
    Words(Vec<String>),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WorkloadSpec {
    name: Spanned<String>,
    command: Spanned<CommandSpec>,
    prepare: Option<Spanned<CommandSpec>>,
    cleanup: Option<Spanned<CommandSpec>>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct ReportSection {
    #[serde(default)]
    metrics: Vec<Spanned<String>>,
    #[serde(default)]
    status: Vec<String>,
}

/// The metrics a report may show.
pub const METRICS: &[&str] = &["tps", "qps", "p95", "p99", "avg", "tpmc", "errors"];

/// A plan error: the file and line, what is wrong and what to write.
fn at(path: &Path, text: &str, span: Option<std::ops::Range<usize>>, msg: String) -> String {
    match span {
        Some(s) => {
            let line = text[..s.start.min(text.len())].matches('\n').count() + 1;
            format!("{}:{line}: {msg}", path.display())
        }
        None => format!("{}: {msg}", path.display()),
    }
}

/// Words of a command line, split as a shell would for plain, '…' and "…" words.
pub fn split_words(line: &str) -> std::result::Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => cur.push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            (None, c) => {
                cur.push(c);
                in_word = true;
            }
        }
    }
    if quote.is_some() {
        return Err(format!("unclosed quote in '{line}'"));
    }
    if in_word {
        words.push(cur);
    }
    Ok(words)
}

fn words_of(c: &CommandSpec) -> std::result::Result<Vec<String>, String> {
    match c {
        CommandSpec::Line(l) => split_words(l),
        CommandSpec::Words(w) => Ok(w.clone()),
    }
}

/// A TOML value as the text a server setting takes (true/false as ON/OFF).
fn setting_value(v: &toml::Value) -> Option<String> {
    match v {
        toml::Value::String(s) => Some(s.clone()),
        toml::Value::Integer(i) => Some(i.to_string()),
        toml::Value::Float(f) => Some(f.to_string()),
        toml::Value::Boolean(true) => Some("ON".into()),
        toml::Value::Boolean(false) => Some("OFF".into()),
        _ => None,
    }
}

/// A name for a target, settings set or workload: usable in a cell's key, and not taken.
fn new_name(kind: &str, kind_again: &str, n: &str, taken: bool) -> std::result::Result<(), String> {
    if !good_name(n) {
        return Err(format!(
            "{kind} name '{n}': use letters, digits, _, . and -"
        ));
    }
    if taken {
        return Err(format!(
            "a second {kind_again} named '{n}': names must differ"
        ));
    }
    Ok(())
}

fn good_name(n: &str) -> bool {
    !n.is_empty()
        && n.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c))
}

/// The options an experiment sets itself, which a workload's or a target's command must not.
const SET_BY_THE_EXPERIMENT: &[&str] = &[
    "--threads",
    "--time",
    "--warmup",
    "--warmup-time",
    "--output",
    "--output-format",
    "--store",
    "--tag",
    "--report-interval",
    "--events",
];

impl ExperimentPlan {
    /// Read and check the plan at `path`.
    pub fn load(path: &Path) -> Result<ExperimentPlan> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| usage(format!("cannot read the plan {}: {e}", path.display())))?;
        ExperimentPlan::parse(path, &text)
    }

    /// Check the plan `text` (read from `path`); every error names its line.
    pub fn parse(path: &Path, text: &str) -> Result<ExperimentPlan> {
        let err =
            |span: Option<std::ops::Range<usize>>, msg: String| usage(at(path, text, span, msg));
        let f: File = toml::from_str(text).map_err(|e| {
            let msg = e.message().trim().to_string();
            let hint = if msg.contains("unknown field") {
                " (docs/GUIDE.md, \"Experiments\", lists every key)"
            } else {
                ""
            };
            err(e.span(), format!("{msg}{hint}"))
        })?;
        let name = match &f.name {
            Some(n) if !good_name(n.get_ref()) => {
                return Err(err(
                    Some(n.span()),
                    format!("name '{}': use letters, digits, _, . and -", n.get_ref()),
                ))
            }
            Some(n) => n.get_ref().clone(),
            None => path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| "experiment".into()),
        };
        let r = &f.run;
        if r.threads.is_empty() || r.threads.contains(&0) {
            return Err(err(None, "[run] threads: give one or more thread counts of 1 or more, such as threads = [1, 4, 16]".into()));
        }
        if r.repeats == 0 {
            return Err(err(None, "[run] repeats: 1 or more".into()));
        }
        if !(r.pause >= 0.0 && r.pause.is_finite()) {
            return Err(err(None, "[run] pause: seconds, 0 or more".into()));
        }
        let order = match r.order.as_ref().map(|o| (o.get_ref().as_str(), o.span())) {
            None | Some(("interleaved", _)) => Order::Interleaved,
            Some(("sequential", _)) => Order::Sequential,
            Some(("shuffled", _)) => Order::Shuffled,
            Some((other, span)) => {
                return Err(err(
                    Some(span),
                    format!(
                        "order = \"{other}\": use \"interleaved\", \"sequential\" or \"shuffled\""
                    ),
                ))
            }
        };
        let prepare = match r.prepare.as_ref().map(|o| (o.get_ref().as_str(), o.span())) {
            None | Some(("once", _)) => PrepareMode::Once,
            Some(("per-settings", _)) => PrepareMode::PerSettings,
            Some(("none", _)) => PrepareMode::None,
            Some((other, span)) => {
                return Err(err(
                    Some(span),
                    format!("prepare = \"{other}\": use \"once\", \"per-settings\" or \"none\""),
                ))
            }
        };
        let mut options = Vec::new();
        for o in &r.options {
            check_not_set_by_experiment(o.get_ref()).map_err(|m| err(Some(o.span()), m))?;
            options.push(o.get_ref().clone());
        }

        if f.target.is_empty() {
            return Err(err(
                None,
                "no [[target]]: name at least one, such as [[target]] name = \"local\" options = [\"--mysql-host=127.0.0.1\"]".into(),
            ));
        }
        let mut targets = Vec::new();
        for t in &f.target {
            let n = t.name.get_ref();
            let taken = targets.iter().any(|x: &Target| &x.name == n);
            new_name("target", "target", n, taken).map_err(|m| err(Some(t.name.span()), m))?;
            let mut args = Vec::new();
            for o in &t.options {
                check_not_set_by_experiment(o.get_ref()).map_err(|m| err(Some(o.span()), m))?;
                args.push(o.get_ref().clone());
            }
            if let Some(db) = &t.db {
                args.push(format!("--db={db}"));
            }
            if args.is_empty() {
                return Err(err(
                    Some(t.name.span()),
                    format!("target '{n}' names no server: give options = [\"--mysql-host=…\", …] or db = \"mysql://…\" (\"sqlite:PATH\" for an SQLite file)"),
                ));
            }
            targets.push(Target {
                name: n.clone(),
                args,
            });
        }

        let mut settings = Vec::new();
        for s in &f.settings {
            let n = s.name.get_ref();
            let taken = settings.iter().any(|x: &SettingsSet| &x.name == n);
            new_name("settings", "settings set", n, taken)
                .map_err(|m| err(Some(s.name.span()), m))?;
            let values =
                |m: &BTreeMap<String, Spanned<toml::Value>>| -> Result<Vec<(String, String)>> {
                    let mut out = Vec::new();
                    for (k, v) in m {
                        if dbpress_driver::settings::check_name(k).is_err() {
                            return Err(err(
                                Some(v.span()),
                                format!("'{k}' is not a server variable's name"),
                            ));
                        }
                        let value = setting_value(v.get_ref()).ok_or_else(|| {
                            err(
                                Some(v.span()),
                                format!("{k}: a setting is a number, a string or true/false"),
                            )
                        })?;
                        out.push((k.clone(), value));
                    }
                    Ok(out)
                };
            let expect = values(&s.expect)?;
            if !expect.is_empty() && s.restart.is_none() {
                return Err(err(
                    Some(s.name.span()),
                    format!("settings '{n}' has expect without restart: expect lists what a restart command applied; add restart = \"…\", or move them to variables to be set"),
                ));
            }
            settings.push(SettingsSet {
                name: n.clone(),
                variables: values(&s.variables)?,
                restart: s.restart.clone(),
                restart_timeout: s.restart_timeout,
                expect,
            });
        }
        if settings.is_empty() {
            // No settings sets: the servers as they are, one column per target.
            settings.push(SettingsSet {
                name: "as-is".into(),
                variables: Vec::new(),
                restart: None,
                restart_timeout: default_restart_timeout(),
                expect: Vec::new(),
            });
        }

        if f.workload.is_empty() {
            return Err(err(
                None,
                "no [[workload]]: name at least one, such as [[workload]] name = \"rw\" command = \"oltp_read_write --tables=4\"".into(),
            ));
        }
        let mut workloads = Vec::new();
        for w in &f.workload {
            let n = w.name.get_ref();
            let taken = workloads.iter().any(|x: &PlanWorkload| &x.name == n);
            new_name("workload", "workload", n, taken).map_err(|m| err(Some(w.name.span()), m))?;
            let span = w.command.span();
            let args = words_of(w.command.get_ref()).map_err(|m| err(Some(span.clone()), m))?;
            let workload =
                PlanWorkload::from_words(n, args, w.prepare.as_ref(), w.cleanup.as_ref())
                    .map_err(|m| err(Some(span), m))?;
            workloads.push(workload);
        }

        let baseline = match &r.baseline {
            // Two targets and no settings sets to set apart: an A/B of the targets, the first
            // the baseline; otherwise the first settings set on each target.
            None if targets.len() > 1 && f.settings.is_empty() => Baseline::Target(0),
            None => Baseline::Settings(0),
            Some(b) => {
                let n = b.get_ref();
                let t = targets.iter().position(|t| &t.name == n);
                let s = settings.iter().position(|s| &s.name == n);
                match (t, s) {
                    (Some(_), Some(_)) => {
                        return Err(err(
                            Some(b.span()),
                            format!(
                                "baseline '{n}' names both a target and a settings set: rename one"
                            ),
                        ))
                    }
                    (Some(t), None) => Baseline::Target(t),
                    (None, Some(s)) => Baseline::Settings(s),
                    (None, None) => {
                        let mut known: Vec<&str> =
                            targets.iter().map(|t| t.name.as_str()).collect();
                        known.extend(settings.iter().map(|s| s.name.as_str()));
                        return Err(err(
                            Some(b.span()),
                            format!("baseline '{n}' is neither a target nor a settings set: use one of {}", known.join(", ")),
                        ));
                    }
                }
            }
        };
        let mut metrics = Vec::new();
        for m in &f.report.metrics {
            if !METRICS.contains(&m.get_ref().as_str()) {
                return Err(err(
                    Some(m.span()),
                    format!("metric '{}': use {}", m.get_ref(), METRICS.join(", ")),
                ));
            }
            metrics.push(m.get_ref().clone());
        }
        if metrics.is_empty() {
            metrics = vec!["tps".into(), "qps".into(), "p95".into()];
            if workloads
                .iter()
                .any(|w| w.args.first().is_some_and(|a| a == "tpcc"))
            {
                metrics.insert(0, "tpmc".into());
            }
        }
        let store = f.store.as_ref().map(|s| {
            let p = PathBuf::from(s);
            match path.parent() {
                Some(dir) if p.is_relative() => dir.join(p),
                _ => p,
            }
        });
        Ok(ExperimentPlan {
            name,
            description: f.description.clone(),
            path: path.to_path_buf(),
            text: text.to_string(),
            store,
            duration: r.duration,
            warmup: r.warmup,
            pause: r.pause,
            repeats: r.repeats,
            threads: r.threads.clone(),
            order,
            seed: r.seed,
            prepare,
            cleanup: r.cleanup,
            report_interval: r.report_interval,
            baseline,
            options,
            stop_on_error: r.stop_on_error,
            targets,
            settings,
            workloads,
            metrics,
            status: f.report.status.clone(),
        })
    }
}

/// The plan's text as the store keeps it: every password in it (an option's, a URL's,
/// mysqlslap's `-p…`) replaced by `***`, as in a result's command line.
pub fn redacted(text: &str) -> String {
    let mut out = text.to_string();
    let tokens = text.split(|c: char| c.is_whitespace() || "\"',[]{}".contains(c));
    for t in tokens.filter(|t| !t.is_empty()) {
        let mut r = dbpress_config::redact::redact_args(&[t.to_string()])
            .pop()
            .unwrap_or_default();
        let lower = t.to_ascii_lowercase();
        if lower.contains("password=") {
            let (name, _) = t.split_once('=').unwrap_or((t, ""));
            r = format!("{name}=***");
        }
        if t.contains("://") {
            r = dbpress_config::mysql_target::redact_url(&r);
        }
        if r != t {
            out = out.replace(t, &r);
        }
    }
    out
}

fn check_not_set_by_experiment(word: &str) -> std::result::Result<(), String> {
    let name = word.split('=').next().unwrap_or(word);
    match SET_BY_THE_EXPERIMENT.iter().find(|o| **o == name) {
        Some(o) => Err(format!(
            "{o} is set by the experiment for each run ([run] threads, duration, warmup, report_interval; results go to the store): remove it here"
        )),
        None => Ok(()),
    }
}

impl PlanWorkload {
    fn from_words(
        name: &str,
        args: Vec<String>,
        prepare: Option<&Spanned<CommandSpec>>,
        cleanup: Option<&Spanned<CommandSpec>>,
    ) -> std::result::Result<PlanWorkload, String> {
        let Some(first) = args.first() else {
            return Err(format!("workload '{name}' has an empty command: give one, such as command = \"oltp_read_write --tables=4\""));
        };
        if first.starts_with('-') {
            return Err(format!(
                "workload '{name}': the command starts with the workload, then its options (command = \"oltp_read_write {first} …\")"
            ));
        }
        for w in &args {
            check_not_set_by_experiment(w)?;
            if ["prepare", "run", "cleanup", "check", "prewarm"].contains(&w.as_str()) {
                return Err(format!(
                    "workload '{name}': leave '{w}' out of the command; the experiment prepares, runs and cleans up itself"
                ));
            }
        }
        let kind = match first.as_str() {
            "slap" => WorkloadKind::Slap,
            "script" => WorkloadKind::Script,
            _ => WorkloadKind::Sysbench,
        };
        let explicit =
            |c: Option<&Spanned<CommandSpec>>| -> std::result::Result<Option<Option<Vec<String>>>, String> {
                match c {
                    None => Ok(None),
                    Some(c) => {
                        let w = words_of(c.get_ref())?;
                        // An empty command says: none.
                        Ok(Some((!w.is_empty()).then_some(w)))
                    }
                }
            };
        let rest = &args[1..];
        let with = |verb: &str| -> Vec<String> {
            let mut v = vec![first.clone(), verb.to_string()];
            v.extend_from_slice(rest);
            v
        };
        // slap makes and drops its own tables; every other kind has prepare and cleanup.
        let (default_prepare, default_cleanup) = match kind {
            WorkloadKind::Slap => (None, None),
            _ => (Some(with("prepare")), Some(with("cleanup"))),
        };
        Ok(PlanWorkload {
            name: name.to_string(),
            kind,
            prepare: explicit(prepare)?.unwrap_or(default_prepare),
            cleanup: explicit(cleanup)?.unwrap_or(default_cleanup),
            args,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"
name = "d1-vs-d0"
[run]
threads = [2, 4]
repeats = 2
duration = 5
baseline = "double1"

[[target]]
name = "maria"
options = ["--mysql-host=127.0.0.1", "--mysql-user=sbtest"]

[[target]]
name = "pg"
db = "postgres://sbtest@127.0.0.1/sbtest"

[[settings]]
name = "double1"
variables = { sync_binlog = 1, innodb_flush_log_at_trx_commit = 1 }

[[settings]]
name = "double0"
variables = { sync_binlog = 0, innodb_flush_log_at_trx_commit = 0, some_flag = true }

[[workload]]
name = "write"
command = "oltp_write_only --tables=2 --table-size=1000"

[[workload]]
name = "slap"
command = ["slap", "--query=SELECT 1"]
"#;

    fn parse(text: &str) -> std::result::Result<ExperimentPlan, String> {
        ExperimentPlan::parse(Path::new("p.toml"), text).map_err(|e| e.to_string())
    }

    #[test]
    fn a_good_plan_reads_with_its_defaults() {
        let p = parse(GOOD).unwrap();
        assert_eq!(p.name, "d1-vs-d0");
        assert_eq!(p.threads, vec![2, 4]);
        assert_eq!(p.order, Order::Interleaved);
        assert_eq!(p.prepare, PrepareMode::Once);
        assert_eq!(p.baseline, Baseline::Settings(0));
        // Two targets and no settings sets: an A/B of the targets, the first the baseline.
        let ab = parse(
            "[[target]]\nname = \"a\"\ndb = \"sqlite:a\"\n[[target]]\nname = \"b\"\ndb = \"sqlite:b\"\n\
             [[workload]]\nname = \"w\"\ncommand = \"oltp_point_select\"\n",
        )
        .unwrap();
        assert_eq!(ab.baseline, Baseline::Target(0));
        assert_eq!(
            p.targets[1].args,
            vec!["--db=postgres://sbtest@127.0.0.1/sbtest"]
        );
        assert_eq!(
            p.settings[1].variables,
            vec![
                (
                    "innodb_flush_log_at_trx_commit".to_string(),
                    "0".to_string()
                ),
                ("some_flag".into(), "ON".into()),
                ("sync_binlog".into(), "0".into())
            ]
        );
        let w = &p.workloads[0];
        assert_eq!(w.kind, WorkloadKind::Sysbench);
        assert_eq!(
            w.prepare.as_deref().unwrap(),
            [
                "oltp_write_only",
                "prepare",
                "--tables=2",
                "--table-size=1000"
            ]
        );
        assert_eq!(p.workloads[1].kind, WorkloadKind::Slap);
        assert!(p.workloads[1].prepare.is_none());
        assert_eq!(p.metrics, vec!["tps", "qps", "p95"]);
    }

    #[test]
    fn bad_keys_and_names_are_named_with_their_line() {
        let e = parse(&GOOD.replace("repeats = 2", "repeat = 2")).unwrap_err();
        assert!(e.starts_with("p.toml:5: unknown field `repeat`"), "{e}");
        let e =
            parse(&GOOD.replace("baseline = \"double1\"", "baseline = \"double9\"")).unwrap_err();
        assert!(
            e.starts_with("p.toml:7: baseline 'double9' is neither"),
            "{e}"
        );
        assert!(e.contains("maria, pg, double1, double0"), "{e}");
        let e = parse(&GOOD.replace("name = \"double0\"", "name = \"double1\"")).unwrap_err();
        assert!(e.contains("a second settings set named 'double1'"), "{e}");
        let e = parse(&GOOD.replace("--tables=2 --table-size=1000", "--tables=2 --threads=8"))
            .unwrap_err();
        assert!(e.contains("--threads is set by the experiment"), "{e}");
        let e = parse(&GOOD.replace("oltp_write_only --tables", "oltp_write_only run --tables"))
            .unwrap_err();
        assert!(e.contains("leave 'run' out"), "{e}");
        let e = parse(&GOOD.replace("threads = [2, 4]", "threads = \"2\"")).unwrap_err();
        assert!(e.starts_with("p.toml:4: invalid type"), "{e}");
        let e = parse(&GOOD.replace("sync_binlog = 0,", "sync_binlog = [0],")).unwrap_err();
        assert!(
            e.contains("a setting is a number, a string or true/false"),
            "{e}"
        );
    }

    #[test]
    fn passwords_are_kept_out_of_the_stored_plan() {
        let text = "options = [\"--mysql-password=s3cret\", \"--pgsql-password=p2\"]\ndb = \"postgres://u:pw9@h/db\"\ncommand = \"slap -pzz1 --query='SELECT 1'\"\n";
        let r = redacted(text);
        for secret in ["s3cret", "p2\"", "pw9", "zz1"] {
            assert!(!r.contains(secret), "{r}");
        }
        assert!(
            r.contains("--mysql-password=***") && r.contains("postgres://u:***@h/db"),
            "{r}"
        );
    }

    #[test]
    fn shell_words_split_like_a_shell() {
        assert_eq!(
            split_words("slap --query='SELECT 1, 2' -c \"4\"").unwrap(),
            vec!["slap", "--query=SELECT 1, 2", "-c", "4"]
        );
        assert!(split_words("a 'b").is_err());
    }
}
