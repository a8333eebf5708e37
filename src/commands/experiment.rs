//! `dbpress experiment check|run|restore|report PLAN.toml`: a whole study from one plan file
//! (`dbpress_experiment`), its runs in the results store, its tables and charts from them.

use dbpress_core::error::{environment, usage, Result};
use dbpress_experiment::execute::{self, Options};
use dbpress_experiment::plan::{ExperimentPlan, WorkloadKind};
use std::path::{Path, PathBuf};

const HELP: &str = "Usage: dbpress experiment check PLAN.toml
       dbpress experiment run PLAN.toml [--fresh] [--stop-on-error] [--store=PATH]
       dbpress experiment restore PLAN.toml [--store=PATH]
       dbpress experiment report PLAN.toml|NAME [--store=PATH] [--output-format=text|markdown|csv|html] [--output=FILE]

A study from one plan file: targets × settings sets × workloads × thread levels × repeats
(docs/GUIDE.md, \"Experiments\", documents every key).

  check    read the plan and say what it would run; a bad key is named with its line
  run      measure every cell the store does not hold yet (running it again resumes at the
           first missing one); server settings are changed with SET GLOBAL / ALTER SYSTEM,
           read back, and put back at the end, on error and on Ctrl-C
  restore  put back settings a study changed and could not restore (it was killed)
  report   the study's tables (median of the repeats, spread, ratio to the baseline) and,
           as HTML, its charts

Options:
  --fresh               start the study over (a new generation; earlier runs stay in the store)
  --stop-on-error       stop at the first cell that fails (default: record it and go on)
  --store=PATH          the results store [the plan's store, else ./dbpress-results.db]
  --output-format=F     report as text, markdown, csv or html [text]
  --output=FILE         also write the report to FILE (format by its extension)
";

struct Args {
    words: Vec<String>,
    fresh: bool,
    stop_on_error: bool,
    store: Option<String>,
    format: Option<String>,
    output: Option<String>,
}

fn parse(args: &[String]) -> Result<Option<Args>> {
    let mut a = Args {
        words: Vec::new(),
        fresh: false,
        stop_on_error: false,
        store: None,
        format: None,
        output: None,
    };
    let Some(parsed) = super::own_args::parse(
        "experiment",
        args,
        &["fresh", "stop-on-error"],
        &["store", "output-format", "output"],
    )?
    else {
        dbpress_core::out!("{HELP}");
        return Ok(None);
    };
    if parsed.words.first().is_some_and(|w| w == "help") {
        dbpress_core::out!("{HELP}");
        return Ok(None);
    }
    a.words = parsed.words;
    for (name, v) in parsed.options {
        let value = || -> Result<String> { Ok(v.clone().unwrap_or_default()) };
        match name.as_str() {
            "fresh" => a.fresh = true,
            "stop-on-error" => a.stop_on_error = true,
            "store" => a.store = Some(value()?),
            "output-format" => a.format = Some(value()?),
            "output" => a.output = Some(value()?),
            _ => {
                return Err(usage(format!(
                    "unknown option '--{name}' for dbpress experiment: it takes --fresh, --stop-on-error, --store, --output-format and --output (dbpress experiment --help)"
                )))
            }
        }
    }
    Ok(Some(a))
}

fn load(word: Option<&String>, what: &str) -> Result<ExperimentPlan> {
    let path = word.ok_or_else(|| {
        usage(format!(
            "`dbpress experiment {what}` needs a plan file: dbpress experiment {what} study.toml"
        ))
    })?;
    ExperimentPlan::load(Path::new(path))
}

fn store_of(a: &Args, plan: Option<&ExperimentPlan>) -> PathBuf {
    match (&a.store, plan.and_then(|p| p.store.clone())) {
        (Some(s), _) => PathBuf::from(s),
        (None, Some(p)) => p,
        (None, None) => PathBuf::from(dbpress_config::run_config::DEFAULT_STORE),
    }
}

pub fn main(args: &[String]) -> Result<u8> {
    let Some(a) = parse(args)? else {
        return Ok(0);
    };
    match a.words.first().map(String::as_str) {
        Some("check") => check(&load(a.words.get(1), "check")?),
        Some("run") => run(&a, &load(a.words.get(1), "run")?),
        Some("restore") => restore(&a, &load(a.words.get(1), "restore")?),
        Some("report") => super::experiment_report::main(
            a.words.get(1),
            &|plan| store_of(&a, plan),
            a.format.as_deref(),
            a.output.as_deref(),
        ),
        Some(other) => Err(usage(format!(
            "unknown experiment command '{other}': use check, run, restore or report (dbpress experiment --help)"
        ))),
        None => Err(usage(
            "`dbpress experiment` needs a command: check, run, restore or report, and a plan file (dbpress experiment --help)",
        )),
    }
}

/// What the plan would run, after checking what can be checked without a server: each
/// target's options, each sysbench-grammar workload's options.
fn check(plan: &ExperimentPlan) -> Result<u8> {
    for t in &plan.targets {
        dbpress_experiment::settings::driver_for(&t.args)
            .map_err(|e| usage(format!("{}: target '{}': {e}", plan.path.display(), t.name)))?;
    }
    // Each sysbench-grammar workload's cell command, as the study will run it, once against
    // the dry-run driver: an option the workload does not take is named now, not at its cell.
    let exe = std::env::current_exe()
        .map_err(|e| environment(format!("cannot find the dbpress binary: {e}")))?;
    let scratch = std::env::temp_dir().join(format!("dbpress-check-{}.json", std::process::id()));
    for (i, w) in plan.workloads.iter().enumerate() {
        if w.kind != WorkloadKind::Sysbench {
            continue;
        }
        let cell = dbpress_experiment::cells::Cell {
            target: 0,
            settings: 0,
            workload: i,
            threads: plan.threads[0],
            repeat: 1,
        };
        let args = dbpress_experiment::command::dry_run_args(plan, &cell, &scratch);
        let o = std::process::Command::new(&exe)
            .args(&args)
            .output()
            .map_err(|e| environment(format!("cannot run {}: {e}", exe.display())))?;
        let _ = std::fs::remove_file(&scratch);
        if !o.status.success() {
            let err = String::from_utf8_lossy(&o.stderr);
            let line = err
                .lines()
                .find(|l| l.starts_with("dbpress: error:"))
                .map(|l| l.trim_start_matches("dbpress: error: ").to_string())
                .unwrap_or_else(|| "it failed on a dry run".into());
            return Err(usage(format!(
                "{}: workload '{}' (command = \"{}\"): {line}",
                plan.path.display(),
                w.name,
                w.args.join(" ")
            )));
        }
    }
    let n = dbpress_experiment::cells::cells(plan).len();
    let each = plan.duration + plan.warmup;
    dbpress_core::outln!(
        "{}: experiment {}: {n} cells = {} target(s) × {} settings × {} workload(s) × {} thread level(s) × {} repeat(s), {} s each: at least {} of measuring",
        plan.path.display(),
        plan.name,
        plan.targets.len(),
        plan.settings.len(),
        plan.workloads.len(),
        plan.threads.len(),
        plan.repeats,
        each,
        {
            let s = n as u64 * each + (n as f64 * plan.pause) as u64;
            format!("{}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60)
        }
    );
    for s in &plan.settings {
        let vars: Vec<String> = s
            .variables
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        dbpress_core::outln!(
            "  settings {}: {}{}",
            s.name,
            if vars.is_empty() {
                "as the servers are".into()
            } else {
                vars.join(", ")
            },
            s.restart
                .as_ref()
                .map(|r| format!("; restart: {r}"))
                .unwrap_or_default()
        );
    }
    Ok(0)
}

fn run(a: &Args, plan: &ExperimentPlan) -> Result<u8> {
    let exe = std::env::current_exe().map_err(|e| {
        environment(format!(
            "cannot find the dbpress binary to run cells with: {e}"
        ))
    })?;
    let opts = Options {
        exe,
        store: store_of(a, Some(plan)),
        fresh: a.fresh,
        stop_on_error: a.stop_on_error,
    };
    let mut out = dbpress_core::out::Stdout;
    let outcome = execute::run(plan, &opts, &mut out)?;
    for line in &outcome.not_restored {
        eprintln!("dbpress: error: {line}");
    }
    if !outcome.not_restored.is_empty() {
        return Err(environment(format!(
            "{} setting(s) could not be put back: fix what the lines above say, then `dbpress experiment restore {}`",
            outcome.not_restored.len(),
            plan.path.display()
        )));
    }
    if let Some(sig) = outcome.interrupted {
        eprintln!(
            "dbpress: interrupted by {sig}; settings put back; `dbpress experiment run {}` resumes at the first missing cell",
            plan.path.display()
        );
        return Ok(dbpress_core::signals::exit_code(sig));
    }
    dbpress_core::outln!("Report: dbpress experiment report {}", plan.path.display());
    Ok(u8::from(outcome.failed > 0))
}

fn restore(a: &Args, plan: &ExperimentPlan) -> Result<u8> {
    let store = dbpress_store::Store::open(&store_of(a, Some(plan)))?;
    let left = store.changed_settings(&plan.name)?;
    if left.is_empty() {
        dbpress_core::outln!(
            "Nothing to put back: experiment {} left no setting changed.",
            plan.name
        );
        return Ok(0);
    }
    let problems = dbpress_experiment::settings::Servers::new(plan).restore_all(&store);
    for p in &problems {
        eprintln!("dbpress: error: {p}");
    }
    if problems.is_empty() {
        for c in &left {
            dbpress_core::outln!("{} on {}: put back to {}", c.variable, c.target, c.original);
        }
        Ok(0)
    } else {
        Err(environment(format!(
            "{} setting(s) could not be put back",
            problems.len()
        )))
    }
}
