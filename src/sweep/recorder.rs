//! The record of a sweep as its steps run, and its end: the rows of levels never reached, the
//! table, the result file, the store and the exit code. `--threads=1,2,4`, `script -c 1,2` and
//! `slap -c 8,32 [-e innodb,myisam]` all record into one.

use crate::run;
use dbpress_config::redact::redact_args;
use dbpress_config::RunConfig;
use dbpress_core::error::{environment, Result};
use dbpress_core::signals;
use dbpress_report::OutputFormat;
use dbpress_result::sweep::{Step, SweepResult};
use dbpress_result::{RunResult, Tool, SCHEMA_VERSION, VERSION};
use std::io::Write;

/// Exit code of a sweep in which a level could not start (connections refused, a limit
/// reached): an environment problem, as for a single run that cannot start.
pub const MISSING_LEVEL_EXIT_CODE: u8 = 2;

/// How a sweep ends: the words, the table shown, the exit codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// A thread sweep (sysbench's grammar, `script -c`): a level left behind, forced to stop
    /// or not started decides the exit code; the table shows under --verbosity's notices.
    Levels,
    /// `dbpress slap`: mysqlslap's rounds; the table shows for more than one level, and
    /// nothing at all under -s or `--csv` on stdout (`shown` false).
    Rounds { shown: bool },
}

/// The steps of one sweep so far and where its end goes.
#[derive(Clone, Debug)]
pub struct Sweep {
    workload: String,
    command_line: Vec<String>,
    levels: Vec<u32>,
    /// `slap -e`: every level runs once per storage engine; `[None]` otherwise.
    engines: Vec<Option<String>>,
    output_format: OutputFormat,
    output_file: Option<String>,
    store: Option<std::path::PathBuf>,
    tags: Vec<(String, String)>,
    ending: Ending,
    steps: Vec<Step>,
    /// A step stopped on a server error, or a clean-up failed.
    failed: bool,
}

impl Sweep {
    /// A sweep over `levels` with the first level's configuration (its workload, output and
    /// store); `argv` is the command as the result file records it.
    pub fn new(first: &RunConfig, argv: &[String], levels: &[u32]) -> Sweep {
        Sweep {
            workload: first.workload.clone(),
            command_line: redact_args(argv),
            levels: levels.to_vec(),
            engines: vec![None],
            output_format: first.reporting.format,
            output_file: first.reporting.file.clone(),
            store: first.reporting.store.clone(),
            tags: first.reporting.tags.clone(),
            ending: Ending::Levels,
            steps: Vec::new(),
            failed: false,
        }
    }

    /// Every level once per storage engine (`slap -e`), in this order.
    pub fn per_engine(mut self, engines: Vec<Option<String>>) -> Sweep {
        self.engines = engines;
        self
    }

    pub fn ending(mut self, ending: Ending) -> Sweep {
        self.ending = ending;
        self
    }

    /// A step that ran; `fatal`: the server error that stopped it, as the user reads it.
    pub fn ran(
        &mut self,
        level: u32,
        engine: Option<&str>,
        result: RunResult,
        fatal: Option<String>,
    ) {
        self.failed |= fatal.is_some();
        self.steps.push(Step {
            threads: level,
            engine: engine.map(str::to_string),
            result: Some(result),
            error: fatal,
        });
    }

    /// A step that could not start, and why.
    pub fn missed(&mut self, level: u32, engine: Option<&str>, why: &str) {
        self.steps.push(Step {
            threads: level,
            engine: engine.map(str::to_string),
            result: None,
            error: Some(why.to_string()),
        });
    }

    /// Something besides a step failed (a round's clean-up): the exit code says so.
    pub fn mark_failed(&mut self) {
        self.failed = true;
    }

    /// The end: the document (file and stdout), the table, the store, and the exit code.
    pub fn finish(self, interrupted: Option<&'static str>) -> Result<u8> {
        self.finish_with(interrupted, || Ok(()))
    }

    /// Whether any step has a result (a run that measured something).
    pub fn ran_any(&self) -> bool {
        self.steps.iter().any(|s| s.result.is_some())
    }

    /// As `finish`, with `after_file` run once the result file is written and before the
    /// table is shown (slap's `--csv` lines).
    pub fn finish_with(
        self,
        interrupted: Option<&'static str>,
        after_file: impl FnOnce() -> Result<()>,
    ) -> Result<u8> {
        let (ending, failed) = (self.ending, self.failed);
        let (store, tags, format) = (self.store.clone(), self.tags.clone(), self.output_format);
        let doc = self.document(interrupted);
        if let Some(path) = &self.output_file {
            dbpress_report::write_sweep(path, &doc)?;
        }
        after_file()?;
        show(&doc, format, ending);
        let _ = std::io::stdout().flush();
        if let Some(store) = &store {
            let runs: Vec<&RunResult> =
                doc.steps.iter().filter_map(|s| s.result.as_ref()).collect();
            let batch = match ending {
                Ending::Levels => "sweep",
                Ending::Rounds { .. } => "slap",
            };
            crate::store_option::save(
                store,
                &tags,
                &runs,
                Some(&crate::store_option::batch_name(batch)),
            )?;
        }
        match ending {
            Ending::Levels => levels_exit_code(&doc.steps, interrupted, failed),
            Ending::Rounds { .. } => rounds_exit_code(&doc.steps, interrupted, failed),
        }
    }

    /// The sweep's document: its steps, and a table with a row for each level never reached.
    fn document(&self, interrupted: Option<&'static str>) -> SweepResult {
        let left_behind = self
            .steps
            .iter()
            .any(|s| s.result.as_ref().is_some_and(|r| r.run.abandoned.is_some()));
        let stopped_by = match interrupted {
            None if left_behind && self.ending == Ending::Levels => {
                "the sweep stopped: the server stopped answering".to_string()
            }
            _ => stopped_by(interrupted),
        };
        let not_reached = self.not_reached();
        let table = dbpress_report::sweep_row::table(&self.steps, &not_reached, &stopped_by);
        SweepResult {
            schema_version: SCHEMA_VERSION,
            kind: "sweep".into(),
            tool: Tool {
                name: "dbpress".into(),
                version: VERSION.into(),
            },
            command_line: self.command_line.clone(),
            workload: self.workload.clone(),
            levels: self.levels.clone(),
            steps: self.steps.clone(),
            table,
        }
    }

    /// (engine, level) of the levels without a single step: the sweep was interrupted (or
    /// forced to stop) before them.
    fn not_reached(&self) -> Vec<(Option<String>, u32)> {
        self.engines
            .iter()
            .flat_map(|e| self.levels.iter().map(move |&l| (e.clone(), l)))
            .filter(|(e, l)| !self.steps.iter().any(|s| s.threads == *l && s.engine == *e))
            .collect()
    }
}

/// Why a sweep ended before its last level, for the rows of the levels it never reached.
fn stopped_by(interrupted: Option<&str>) -> String {
    match interrupted {
        Some(sig) => format!("the sweep was interrupted by {sig}"),
        None => "the sweep stopped at the forced shutdown".to_string(),
    }
}

/// The document on stdout: the text table, or the whole document in another format.
fn show(doc: &SweepResult, format: OutputFormat, ending: Ending) {
    let table_shown = match ending {
        Ending::Levels => dbpress_core::verbosity::notices(),
        Ending::Rounds { shown: false } => return,
        Ending::Rounds { shown: true } => doc.levels.len() > 1,
    };
    match format {
        OutputFormat::Text if table_shown => {
            dbpress_core::out!("{}", dbpress_report::text::sweep::render_table(doc))
        }
        OutputFormat::Text => {}
        other => dbpress_core::out!("{}", dbpress_report::sweep_as(other, doc)),
    }
}

/// A thread sweep's exit code, after the line that explains it.
fn levels_exit_code(steps: &[Step], interrupted: Option<&str>, failed: bool) -> Result<u8> {
    if let Some((threads, a)) = steps.iter().find_map(|s| {
        let r = s.result.as_ref()?;
        Some((r.run.threads, r.run.abandoned.as_ref()?))
    }) {
        eprintln!(
            "dbpress: {}; the sweep stops at this level",
            run::abandoned_message(a, threads)
        );
        return Ok(run::abandoned_exit_code(a));
    }
    if let Some(sig) = interrupted {
        eprintln!("dbpress: interrupted by {sig}; the table covers the levels that ran");
        return Ok(signals::exit_code(sig));
    }
    if let Some((threads, f)) = steps.iter().find_map(|s| {
        let r = s.result.as_ref()?;
        Some((r.run.threads, r.run.forced_shutdown.as_ref()?))
    }) {
        eprintln!(
            "dbpress: {}; the sweep stops at this level",
            run::forced_message(f, threads)
        );
        return Ok(run::FORCED_EXIT_CODE);
    }
    if steps.iter().all(|s| s.result.is_none()) {
        return Err(environment(format!(
            "no level of the sweep could run: {}",
            steps[0].error.clone().unwrap_or_default()
        )));
    }
    // A level that could not start leaves a hole in the study: not a success, though every
    // level that ran is in the table and the file.
    let missing: Vec<String> = steps
        .iter()
        .filter(|s| s.result.is_none())
        .map(|s| s.threads.to_string())
        .collect();
    if !missing.is_empty() {
        eprintln!(
            "dbpress: level(s) {} did not run (see the table); the table and the result file cover the levels that ran",
            missing.join(", ")
        );
        return Ok(MISSING_LEVEL_EXIT_CODE);
    }
    Ok(u8::from(failed))
}

/// Slap's exit code: mysqlslap's rounds have no forced shutdown, and an engine the server
/// lacks is a row of the table, not a failure of the run.
fn rounds_exit_code(steps: &[Step], interrupted: Option<&str>, failed: bool) -> Result<u8> {
    if let Some(sig) = interrupted {
        eprintln!("dbpress: interrupted by {sig}; the results cover what ran");
        return Ok(signals::exit_code(sig));
    }
    if steps.iter().all(|s| s.result.is_none()) {
        return Err(environment(format!(
            "no round could run: {}",
            steps[0].error.clone().unwrap_or_default()
        )));
    }
    Ok(u8::from(failed))
}

#[cfg(test)]
mod tests;
