//! `dbpress experiment report PLAN.toml|NAME`: the study's tables and charts from the runs the
//! store holds for its current generation (a report of a study still under way covers the
//! cells measured so far).

use dbpress_core::error::{usage, Result};
use dbpress_experiment::plan::{Baseline, ExperimentPlan};
use dbpress_report::model::experiment::{self, Experiment, ExperimentInput, ExperimentRun};
use dbpress_report::{by_format, FileFormat, Format};
use std::path::{Path, PathBuf};

pub fn main(
    what: Option<&String>,
    store_for: &dyn Fn(Option<&ExperimentPlan>) -> PathBuf,
    format: Option<&str>,
    output: Option<&str>,
) -> Result<u8> {
    let what = what.ok_or_else(|| {
        usage("`dbpress experiment report` needs the plan file or the experiment's name: dbpress experiment report study.toml")
    })?;
    let (plan, store_path) = plan_and_store(what, store_for)?;
    let store = super::results::open_existing(&store_path)?;
    let (_, generation) = store.experiment(&plan.name)?.ok_or_else(|| {
        usage(format!(
            "experiment {} has no runs in {}: run it first (dbpress experiment run {})",
            plan.name,
            store_path.display(),
            plan.path.display()
        ))
    })?;
    let runs = measured_cells(&store, &plan, generation)?;
    let e = experiment::experiment(&experiment_input(&plan, runs));
    if let Some(path) = output {
        dbpress_report::json::write_text(path, &by_format(FileFormat::of(path)).experiment(&e))?;
    }
    dbpress_core::out!("{}", render(&e, format.unwrap_or("text"))?);
    Ok(0)
}

/// The plan `what` names (a plan file, or the name of an experiment whose plan the store
/// keeps) and the store that holds its runs.
fn plan_and_store(
    what: &str,
    store_for: &dyn Fn(Option<&ExperimentPlan>) -> PathBuf,
) -> Result<(ExperimentPlan, PathBuf)> {
    if Path::new(what).is_file() {
        let plan = ExperimentPlan::load(Path::new(what))?;
        let path = store_for(Some(&plan));
        return Ok((plan, path));
    }
    let path = store_for(None);
    let store = super::results::open_existing(&path)?;
    let (text, _) = store.experiment(what)?.ok_or_else(|| {
        usage(format!(
            "'{what}' is neither a plan file nor an experiment in {}: give the plan file, or one of the names `dbpress results list` shows",
            path.display()
        ))
    })?;
    let plan = ExperimentPlan::parse(Path::new(&format!("{what} (as kept in the store)")), &text)?;
    Ok((plan, path))
}

/// The runs of the study's current generation that measured a cell the plan still has.
fn measured_cells(
    store: &dbpress_store::Store,
    plan: &ExperimentPlan,
    generation: i64,
) -> Result<Vec<ExperimentRun>> {
    let filter = dbpress_store::RunFilter {
        experiment: Some(plan.name.clone()),
        generation: Some(generation),
        tags: Vec::new(),
    };
    let mut runs = Vec::new();
    for row in store.list(&filter)? {
        if row.status != dbpress_store::Status::Ok {
            continue;
        }
        let Some(cell) = &row.cell else { continue };
        // Cells of names the plan no longer has are left out.
        let (Some(t), Some(s), Some(w)) = (
            plan.targets.iter().position(|x| x.name == cell.target),
            plan.settings.iter().position(|x| x.name == cell.settings),
            plan.workloads.iter().position(|x| x.name == cell.workload),
        ) else {
            continue;
        };
        let (_, result) = super::results::stored_result(store, row.id)?;
        runs.push(ExperimentRun {
            id: row.id,
            target: t,
            settings: s,
            workload: w,
            threads: cell.threads,
            repeat: cell.repeat,
            result,
        });
    }
    Ok(runs)
}

/// What the study's report is made from: the plan's names and the measured cells.
fn experiment_input(plan: &ExperimentPlan, runs: Vec<ExperimentRun>) -> ExperimentInput {
    ExperimentInput {
        name: plan.name.clone(),
        description: plan.description.clone(),
        targets: plan.targets.iter().map(|t| t.name.clone()).collect(),
        settings: plan.settings.iter().map(|s| s.name.clone()).collect(),
        settings_about: plan.settings.iter().map(settings_about).collect(),
        workloads: plan.workloads.iter().map(|w| w.name.clone()).collect(),
        workload_about: plan.workloads.iter().map(|w| w.args.join(" ")).collect(),
        threads: plan.threads.clone(),
        repeats: plan.repeats,
        baseline_target: match plan.baseline {
            Baseline::Target(t) => Some(t),
            Baseline::Settings(_) => None,
        },
        baseline_settings: match plan.baseline {
            Baseline::Settings(s) => Some(s),
            Baseline::Target(_) => None,
        },
        metrics: plan.metrics.clone(),
        status: plan.status.clone(),
        runs,
    }
}

/// What a settings set changes, in one line.
fn settings_about(s: &dbpress_experiment::plan::SettingsSet) -> String {
    let mut parts: Vec<String> = s
        .variables
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    if let Some(r) = &s.restart {
        parts.push(format!("restart: {r}"));
    }
    parts.extend(
        s.expect
            .iter()
            .map(|(k, v)| format!("{k}={v} (after restart)")),
    );
    if parts.is_empty() {
        "the servers as they are".into()
    } else {
        parts.join(", ")
    }
}

/// The experiment's report in format `f`, as --output-format names it.
fn render(e: &Experiment, f: &str) -> Result<String> {
    let format = Format::parse(f).ok_or_else(|| {
        usage(format!(
            "invalid value '{f}' for --output-format: use text, markdown, csv, html or json"
        ))
    })?;
    Ok(by_format(format).experiment(e))
}
