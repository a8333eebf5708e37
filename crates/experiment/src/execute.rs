//! `dbpress experiment run`: every cell of the plan that the store does not hold measured yet,
//! one dbpress process each, in the plan's order; settings switched and put back around them;
//! tables prepared where needed and dropped at the end; progress with the cell, its figures and
//! the time left. A signal stops the cell under way (its partial run is kept as interrupted),
//! puts the settings back and ends; running again resumes at the first missing cell.

use crate::cells::{cells, Cell};
use crate::command::{run_args, setup_args};
use crate::plan::{ExperimentPlan, PrepareMode};
use crate::settings::Servers;
use dbpress_core::error::{environment, Result};
use dbpress_core::signals::Signals;
use dbpress_result::RunResult;
use dbpress_store::{NewRun, Status, Store};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

pub struct Options {
    /// The dbpress binary each cell runs in (this one).
    pub exe: PathBuf,
    pub store: PathBuf,
    /// Start a new generation: every cell runs again (the older runs stay in the store).
    pub fresh: bool,
    /// Stop at the first cell that fails instead of recording it and going on.
    pub stop_on_error: bool,
}

/// How an experiment ended.
#[derive(Debug, Default)]
pub struct Outcome {
    pub cells: usize,
    pub already: usize,
    pub measured: usize,
    pub failed: usize,
    pub interrupted: Option<&'static str>,
    /// Settings that could not be put back (each a line for the user).
    pub not_restored: Vec<String>,
}

/// Where a cell's child writes its result: a directory of this process's own.
fn scratch() -> Result<PathBuf> {
    let dir = std::env::temp_dir().join(format!("dbpress-experiment-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| {
        environment(format!(
            "cannot make a scratch directory {}: {e}",
            dir.display()
        ))
    })?;
    Ok(dir)
}

/// What a child dbpress did: its exit code (None: killed), its error lines, its result.
struct ChildRun {
    code: Option<i32>,
    errors: String,
    result: Option<(RunResult, String)>,
}

/// Run dbpress with `args` in a process group of its own (so a Ctrl-C at the terminal reaches
/// only the experiment, which passes it on once: a second signal would end the child without its
/// result), forwarding the first stop signal the experiment gets.
fn run_child(
    exe: &Path,
    args: &[String],
    output: Option<&Path>,
    signals: &Signals,
) -> Result<ChildRun> {
    use std::os::unix::process::CommandExt;
    if let Some(o) = output {
        let _ = std::fs::remove_file(o);
    }
    let mut cmd = Command::new(exe);
    cmd.args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .process_group(0);
    // SAFETY: prctl(2) is async-signal-safe and touches only the child's own state. An experiment
    // killed outright (SIGKILL) takes its cell with it: the child, in a group of its own, would
    // otherwise go on loading the server unseen.
    unsafe {
        cmd.pre_exec(|| {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM);
            Ok(())
        });
    }
    let mut child = cmd
        .spawn()
        .map_err(|e| environment(format!("cannot start {}: {e}", exe.display())))?;
    let stderr = child.stderr.take();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        if let Some(mut e) = stderr {
            let _ = std::io::Read::read_to_string(&mut e, &mut s);
        }
        s
    });
    let mut forwarded = false;
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| environment(e.to_string()))? {
            break status;
        }
        if !forwarded {
            if let Some(sig) = signals.caught() {
                let n = match sig {
                    "SIGINT" => libc::SIGINT,
                    "SIGHUP" => libc::SIGHUP,
                    _ => libc::SIGTERM,
                };
                // SAFETY: kill(2) on our own child's pid.
                unsafe { libc::kill(child.id() as i32, n) };
                forwarded = true;
            }
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let all = reader.join().unwrap_or_default();
    let errors: Vec<&str> = all
        .lines()
        .filter(|l| l.starts_with("dbpress: error:") || l.starts_with("dbpress: interrupted"))
        .collect();
    let errors = if errors.is_empty() {
        all.lines().last().unwrap_or("").to_string()
    } else {
        errors.join("; ")
    };
    let result = match output {
        Some(o) => read_result(o)?,
        None => None,
    };
    Ok(ChildRun {
        code: status.code(),
        errors,
        result,
    })
}

/// A cell's JSON result: a run, or the first measured step of a sweep (slap writes one).
fn read_result(path: &Path) -> Result<Option<(RunResult, String)>> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Ok(None);
    };
    let value: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| environment(format!("{}: {e}", path.display())))?;
    let run = if value.get("kind").and_then(|k| k.as_str()) == Some("sweep") {
        match value["steps"]
            .as_array()
            .and_then(|s| s.iter().find(|s| !s["result"].is_null()))
        {
            Some(step) => step["result"].clone(),
            None => return Ok(None),
        }
    } else {
        value
    };
    let r: RunResult = serde_json::from_value(run.clone())
        .map_err(|e| environment(format!("{} is not a dbpress result: {e}", path.display())))?;
    Ok(Some((r, run.to_string())))
}

fn hms(secs: f64) -> String {
    let s = secs.max(0.0).round() as u64;
    format!("{}:{:02}:{:02}", s / 3600, (s / 60) % 60, s % 60)
}

/// Sleep `secs`, ending early on a stop signal.
fn pause(secs: f64, signals: &Signals) {
    let until = Instant::now() + Duration::from_secs_f64(secs);
    while Instant::now() < until && signals.caught().is_none() {
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Run the experiment.
pub fn run(plan: &ExperimentPlan, opts: &Options, out: &mut dyn Write) -> Result<Outcome> {
    let signals = Signals::install();
    let mut store = Store::open(&opts.store)?;
    let mut servers = Servers::new(plan);
    // An experiment stopped without putting its settings back (killed, or a second Ctrl-C): first
    // make the servers what they were.
    let left = store.changed_settings(&plan.name)?;
    if !left.is_empty() {
        // "study": the line as users have read it since it was written; the code says experiment.
        let _ = writeln!(
            out,
            "Putting back {} setting(s) an earlier run of this study changed and did not restore.",
            left.len()
        );
        let problems = servers.restore_all(&store);
        if !problems.is_empty() {
            return Err(environment(format!(
                "{}; fix the servers, then run again (or `dbpress experiment restore`)",
                problems.join("; ")
            )));
        }
    }
    let generation = store.generation(
        &plan.name,
        &crate::plan::redacted(&plan.text),
        &plan.path.display().to_string(),
        opts.fresh,
    )?;
    let all = cells(plan);
    let done = store.finished_cells(&plan.name, generation)?;
    let todo: Vec<Cell> = all
        .iter()
        .copied()
        .filter(|c| !done.contains(&c.key(plan, generation).name()))
        .collect();
    let outcome = Outcome {
        cells: all.len(),
        already: all.len() - todo.len(),
        ..Outcome::default()
    };
    announce(plan, opts, generation, &outcome, todo.len(), out);
    let started = Instant::now();
    let mut experiment = Experiment {
        plan,
        opts,
        store,
        servers,
        signals: &signals,
        generation,
        scratch: scratch()?,
        outcome,
        eta: Eta::new(plan),
    };
    let result = experiment.run_cells(&todo, out);
    // Whatever happened: the servers' settings back as they were.
    experiment.outcome.not_restored = experiment.servers.restore_all(&experiment.store);
    let _ = std::fs::remove_dir_all(&experiment.scratch);
    result?;
    let Experiment { store, outcome, .. } = experiment;
    let complete =
        outcome.interrupted.is_none() && outcome.already + outcome.measured == outcome.cells;
    if complete && plan.cleanup && plan.prepare != PrepareMode::None {
        cleanup_all(plan, opts, &store, generation, &signals, out)?;
    }
    let _ = writeln!(
        out,
        "\n{} of {} cells measured ({} this time, {} failed) in {}",
        outcome.already + outcome.measured,
        outcome.cells,
        outcome.measured,
        outcome.failed,
        hms(started.elapsed().as_secs_f64())
    );
    Ok(outcome)
}

/// The experiment's first lines: its cells, and how many a resumed run has measured already.
fn announce(
    plan: &ExperimentPlan,
    opts: &Options,
    generation: i64,
    outcome: &Outcome,
    todo: usize,
    out: &mut dyn Write,
) {
    let _ = writeln!(
        out,
        "Experiment {} (generation {generation}, store {}): {} cells = {} target(s) × {} settings × {} workload(s) × {} thread level(s) × {} repeat(s)",
        plan.name,
        opts.store.display(),
        outcome.cells,
        plan.targets.len(),
        plan.settings.len(),
        plan.workloads.len(),
        plan.threads.len(),
        plan.repeats
    );
    if outcome.already > 0 {
        let _ = writeln!(
            out,
            "Resuming: {} measured already, {} to run",
            outcome.already, todo
        );
    }
}

/// How long the cells left will take: the measured cells' mean (with the pause), or before the
/// first one, a guess from the plan.
struct Eta {
    measured_time: Duration,
    measured_cells: u32,
    guess: f64,
}

impl Eta {
    fn new(plan: &ExperimentPlan) -> Eta {
        Eta {
            measured_time: Duration::ZERO,
            measured_cells: 0,
            guess: plan.duration as f64 + plan.warmup as f64 + plan.pause + 3.0,
        }
    }

    fn measured(&mut self, took: Duration) {
        self.measured_time += took;
        self.measured_cells += 1;
    }

    fn left(&self, cells: usize, pause: f64) -> String {
        let per = if self.measured_cells > 0 {
            self.measured_time.as_secs_f64() / f64::from(self.measured_cells) + pause
        } else {
            self.guess
        };
        hms(per * cells as f64)
    }
}

/// An experiment under way: what every cell needs, and the tally so far.
struct Experiment<'a> {
    plan: &'a ExperimentPlan,
    opts: &'a Options,
    store: Store,
    servers: Servers<'a>,
    signals: &'a Signals,
    generation: i64,
    scratch: PathBuf,
    outcome: Outcome,
    eta: Eta,
}

impl Experiment<'_> {
    /// Each cell in turn, until the last, a stop signal, or a failure the plan stops at.
    fn run_cells(&mut self, todo: &[Cell], out: &mut dyn Write) -> Result<()> {
        for (i, cell) in todo.iter().enumerate() {
            if let Some(sig) = self.signals.caught() {
                self.outcome.interrupted = Some(sig);
                break;
            }
            let _ = write!(
                out,
                "[{:>3}/{}] {} … ",
                self.outcome.already + i + 1,
                self.outcome.cells,
                cell.describe(self.plan)
            );
            let _ = out.flush();
            self.run_cell(cell, todo.len() - i - 1, out)?;
            if let Some(sig) = self.signals.caught() {
                self.outcome.interrupted = Some(sig);
                break;
            }
            if i + 1 < todo.len() && self.plan.pause > 0.0 {
                pause(self.plan.pause, self.signals);
            }
        }
        Ok(())
    }

    /// One cell: its settings and tables made ready, then its dbpress run and what it left.
    fn run_cell(&mut self, cell: &Cell, left: usize, out: &mut dyn Write) -> Result<()> {
        let t0 = Instant::now();
        let plan = self.plan;
        let ready = self
            .servers
            .switch(&self.store, cell.target, cell.settings)
            .map_err(|e| {
                environment(format!(
                    "settings '{}' on target '{}': {e}",
                    plan.settings[cell.settings].name, plan.targets[cell.target].name
                ))
            })
            .and_then(|_| {
                let (opts, generation) = (self.opts, self.generation);
                prepared(plan, opts, &self.store, generation, cell, self.signals)
            });
        if let Err(why) = ready {
            return self.failed(cell, why.to_string(), out);
        }
        let output = self.scratch.join("cell.json");
        let args = run_args(plan, cell, &output);
        let child = run_child(&self.opts.exe, &args, Some(&output), self.signals)?;
        match child.result {
            Some(_) => self.record(cell, child, t0.elapsed(), left, out),
            None if self.signals.caught().is_some() => {
                let _ = writeln!(out, "interrupted before it measured anything");
                Ok(())
            }
            None => {
                let why = if child.errors.is_empty() {
                    format!("dbpress ended with {:?} and wrote no result", child.code)
                } else {
                    child.errors.clone()
                };
                self.failed(cell, why, out)
            }
        }
    }

    /// A cell's result kept in the store, with its figures (and the time left) on the line.
    fn record(
        &mut self,
        cell: &Cell,
        mut child: ChildRun,
        took: Duration,
        left: usize,
        out: &mut dyn Write,
    ) -> Result<()> {
        let Some((r, json)) = child.result.take() else {
            return Ok(());
        };
        let status = if r.run.interrupted_by.is_some() {
            Status::Interrupted
        } else if r.run.fatal_error.is_some() || child.code != Some(0) {
            Status::Failed
        } else {
            Status::Ok
        };
        let mut run = NewRun::of_result(&r, json, status);
        run.cell = Some(cell.key(self.plan, self.generation));
        if status == Status::Failed && run.error.is_none() {
            run.error = Some(child.errors.clone());
        }
        run.tags = self.servers.readings[cell.target].clone();
        let id = self.store.save(&run)?;
        let figures = format!(
            "{:.2} tps, {:.2} qps, p95 {:.2} ms{}",
            r.summary.tps,
            r.summary.qps,
            r.summary.latency.p95_ms,
            r.tpcc
                .as_ref()
                .map(|t| format!(", tpmC {}", t.tpmc))
                .unwrap_or_default()
        );
        match status {
            Status::Ok => {
                self.outcome.measured += 1;
                self.eta.measured(took);
                let more = self.eta.left(left, self.plan.pause);
                let _ = writeln!(out, "{figures}  (run {id}; {left} left, about {more} more)");
            }
            Status::Interrupted => {
                let _ = writeln!(
                    out,
                    "interrupted: {figures} (kept as run {id}, measured again on resume)"
                );
            }
            Status::Failed => {
                let why = run.error.as_deref().unwrap_or("");
                let _ = writeln!(out, "FAILED: {why} (run {id})");
                self.outcome.failed += 1;
            }
        }
        Ok(())
    }

    /// A cell that could not run, or ran and left no result: kept in the store as failed, and
    /// the experiment stops here when the plan or the command line says so.
    fn failed(&mut self, cell: &Cell, why: String, out: &mut dyn Write) -> Result<()> {
        let _ = writeln!(out, "FAILED: {why}");
        let w = &self.plan.workloads[cell.workload];
        let key = cell.key(self.plan, self.generation);
        let run = NewRun::failed(w.args.join(" "), w.args[0].clone(), cell.threads, key, &why);
        self.store.save(&run)?;
        self.outcome.failed += 1;
        if self.opts.stop_on_error || self.plan.stop_on_error {
            let label = cell.describe(self.plan);
            return Err(environment(format!(
                "stopped at the first failed cell ({label}): {why}"
            )));
        }
        Ok(())
    }
}

/// Make sure the cell's workload has its tables on its target, under the settings the plan's
/// prepare mode asks for.
fn prepared(
    plan: &ExperimentPlan,
    opts: &Options,
    store: &Store,
    generation: i64,
    cell: &Cell,
    signals: &Signals,
) -> Result<()> {
    let w = &plan.workloads[cell.workload];
    let (Some(prepare), PrepareMode::Once | PrepareMode::PerSettings) = (&w.prepare, plan.prepare)
    else {
        return Ok(());
    };
    let target = &plan.targets[cell.target].name;
    let key = prepare.join(" ");
    let settings = &plan.settings[cell.settings].name;
    match store.prepared(&plan.name, generation, target, &key)? {
        Some(under) if under == FOUND => return Ok(()),
        Some(_) if plan.prepare == PrepareMode::Once => return Ok(()),
        Some(under) if &under == settings => return Ok(()),
        Some(_) => {
            // Prepared under another settings set: drop and make them again under this one.
            if let Some(cleanup) = &w.cleanup {
                setup(plan, opts, cell.target, cleanup, signals, "cleanup")?;
            }
            store.set_prepared(&plan.name, generation, target, &key, None)?;
        }
        None => {}
    }
    if let Err(why) = setup(plan, opts, cell.target, prepare, signals, "prepare") {
        // Tables already there (another workload of the experiment made the same ones, or they were
        // there before it): used if the workload's own check passes, and never dropped by this
        // workload's cleanup.
        let check = match (&w.kind, prepare.get(1).map(String::as_str)) {
            (crate::plan::WorkloadKind::Sysbench, Some("prepare")) => {
                let mut c = prepare.clone();
                c[1] = "check".into();
                Some(c)
            }
            _ => None,
        };
        if let Some(c) = check {
            if setup(plan, opts, cell.target, &c, signals, "check").is_ok() {
                return store.set_prepared(&plan.name, generation, target, &key, Some(FOUND));
            }
        }
        // Not as prepare leaves them (an earlier workload inserted or deleted rows): if the
        // experiment made what is in the way, it drops that and prepares afresh; tables it did not
        // make are never touched.
        if !clear_target(plan, opts, store, generation, cell.target, signals)? {
            return Err(why);
        }
        setup(plan, opts, cell.target, prepare, signals, "prepare")?;
    }
    store.set_prepared(&plan.name, generation, target, &key, Some(settings))
}

/// Drop every table the experiment made on `target` (each with its workload's cleanup) and forget
/// every prepare recorded there, those that used another's tables too; whether any was made.
fn clear_target(
    plan: &ExperimentPlan,
    opts: &Options,
    store: &Store,
    generation: i64,
    target: usize,
    signals: &Signals,
) -> Result<bool> {
    let name = &plan.targets[target].name;
    let mut made_any = false;
    for (t, prepare, under) in store.all_prepared(&plan.name, generation)? {
        if &t != name {
            continue;
        }
        if under != FOUND {
            let cleanup = plan
                .workloads
                .iter()
                .find(|w| w.prepare.as_ref().map(|p| p.join(" ")) == Some(prepare.clone()))
                .and_then(|w| w.cleanup.as_ref());
            if let Some(cleanup) = cleanup {
                setup(plan, opts, target, cleanup, signals, "cleanup")?;
                made_any = true;
            }
        }
        store.set_prepared(&plan.name, generation, &t, &prepare, None)?;
    }
    Ok(made_any)
}

/// The mark of tables a workload found in place (made by another of the experiment's workloads, or
/// there before the experiment): used as they are, dropped only by whoever made them.
const FOUND: &str = "=found";

/// A prepare or cleanup in a child dbpress; its error line when it fails.
fn setup(
    plan: &ExperimentPlan,
    opts: &Options,
    target: usize,
    words: &[String],
    signals: &Signals,
    what: &str,
) -> Result<()> {
    let args = setup_args(plan, target, words);
    let child = run_child(&opts.exe, &args, None, signals)?;
    if child.code == Some(0) {
        Ok(())
    } else {
        Err(environment(format!(
            "{what} ({}) failed: {}",
            words.join(" "),
            child.errors
        )))
    }
}

/// Drop every table the experiment's prepares made, once every cell is measured.
fn cleanup_all(
    plan: &ExperimentPlan,
    opts: &Options,
    store: &Store,
    generation: i64,
    signals: &Signals,
    out: &mut dyn Write,
) -> Result<()> {
    for (target, prepare, under) in store.all_prepared(&plan.name, generation)? {
        let Some(t) = plan.targets.iter().position(|x| x.name == target) else {
            continue;
        };
        if under == FOUND {
            store.set_prepared(&plan.name, generation, &target, &prepare, None)?;
            continue;
        }
        let Some(w) = plan
            .workloads
            .iter()
            .find(|w| w.prepare.as_ref().map(|p| p.join(" ")) == Some(prepare.clone()))
        else {
            continue;
        };
        if let Some(cleanup) = &w.cleanup {
            let _ = writeln!(out, "Cleaning up {} on {target}", w.name);
            setup(plan, opts, t, cleanup, signals, "cleanup")?;
        }
        store.set_prepared(&plan.name, generation, &target, &prepare, None)?;
    }
    Ok(())
}
