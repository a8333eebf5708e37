//! Settings sets on the experiment's targets: switched to before a cell (what the previous set
//! changed and this one does not is put back first), read back to prove they took, and put back
//! at the end. Every change is remembered in the results store before it is made, so an experiment
//! killed in between is put right by the next `experiment run` or `experiment restore`.

use crate::plan::{ExperimentPlan, SettingsSet};
use dbpress_core::error::{environment, Result};
use dbpress_driver::settings::{same_value, GlobalSettings, Saved};
use dbpress_driver::{Connection, Driver};
use dbpress_store::experiment::ChangedSetting;
use dbpress_store::Store;
use std::time::{Duration, Instant};

/// A session to a target, for its settings.
struct Session {
    driver: Box<dyn Driver>,
    conn: Option<Box<dyn Connection>>,
}

/// The driver for a target's connection options.
pub fn driver_for(args: &[String]) -> Result<Box<dyn Driver>> {
    let opts = dbpress_core::options::scan::parse_options(args)?;
    let cfg =
        dbpress_config::RunConfig::from_options("experiment", dbpress_config::Command::Run, &opts)?;
    dbpress_config::to_driver::make_driver(&cfg)
}

/// The experiment's targets and the settings set each one is under.
pub struct Servers<'a> {
    plan: &'a ExperimentPlan,
    sessions: Vec<Option<Session>>,
    /// The settings set each target was last switched to, None before the first.
    current: Vec<Option<usize>>,
    /// What each target reads for the current set's variables, for the report.
    pub readings: Vec<Vec<(String, String)>>,
}

impl<'a> Servers<'a> {
    pub fn new(plan: &'a ExperimentPlan) -> Servers<'a> {
        Servers {
            plan,
            sessions: plan.targets.iter().map(|_| None).collect(),
            current: vec![None; plan.targets.len()],
            readings: vec![Vec::new(); plan.targets.len()],
        }
    }

    fn session(&mut self, target: usize) -> Result<(&dyn GlobalSettings, &mut dyn Connection)> {
        let name = &self.plan.targets[target].name;
        if self.sessions[target].is_none() {
            let driver = driver_for(&self.plan.targets[target].args)
                .map_err(|e| environment(format!("target '{name}': {e}")))?;
            self.sessions[target] = Some(Session { driver, conn: None });
        }
        let s = self.sessions[target].as_mut().expect("made above");
        let settings = s.driver.global_settings().ok_or_else(|| {
            environment(format!(
                "target '{name}' ({}) has no server settings to change: give its settings sets no variables, or use a server",
                s.driver.describe()
            ))
        })?;
        if s.conn.is_none() {
            let conn = s.driver.connect(0).map_err(|e| {
                environment(format!(
                    "target '{name}': cannot connect to change its settings: {e}"
                ))
            })?;
            s.conn = Some(conn);
        }
        Ok((settings, s.conn.as_deref_mut().expect("connected above")))
    }

    /// Forget the session (the server restarted, or the session broke).
    fn drop_session(&mut self, target: usize) {
        if let Some(s) = self.sessions[target].as_mut() {
            s.conn = None;
        }
    }

    /// Put `target` under settings set `set` (if it is not already): put back what the previous
    /// set changed and this one does not, change this set's variables (remembering each original
    /// in the store first), run its restart command, and read every value back.
    pub fn switch(&mut self, store: &Store, target: usize, set: usize) -> Result<()> {
        if self.current[target] == Some(set) {
            return Ok(());
        }
        let plan = self.plan;
        let t = plan.targets[target].name.clone();
        let s: &SettingsSet = &plan.settings[set];
        // A switch that fails leaves the target in no known set: the next cell tries again.
        self.current[target] = None;
        let changed = store.changed_settings(&plan.name)?;
        for c in changed.iter().filter(|c| c.target == t) {
            if !s.variables.iter().any(|(v, _)| v == &c.variable) {
                self.restore_one(store, target, c)?;
            }
        }
        let mut readings = Vec::new();
        if !s.variables.is_empty() {
            let remembered: Vec<String> = changed
                .iter()
                .filter(|c| c.target == t)
                .map(|c| c.variable.clone())
                .collect();
            for (var, value) in &s.variables {
                let (gs, conn) = self.session(target)?;
                if !remembered.contains(var) {
                    let saved = gs
                        .save(conn, var)
                        .map_err(|e| environment(format!("reading {var}: {e}")))?;
                    store.remember_setting(
                        &plan.name,
                        &ChangedSetting {
                            target: t.clone(),
                            variable: var.clone(),
                            original: saved.original,
                            how: saved.how,
                        },
                    )?;
                }
                gs.apply(conn, var, value)
                    .map_err(|e| environment(format!("{} {var} = {value}: {e}", gs.verb())))?;
            }
        }
        if let Some(cmd) = &s.restart {
            self.drop_session(target);
            restart(cmd, &t, &s.name)?;
            self.wait_for(target, Duration::from_secs(s.restart_timeout))?;
        }
        for (var, value) in &s.variables {
            let read = self.read_back(target, var, value, "was set to")?;
            readings.push((var.clone(), read));
        }
        for (var, value) in &s.expect {
            let read = self.read_back(target, var, value, "should be, after the restart,")?;
            readings.push((var.clone(), read));
        }
        self.readings[target] = readings;
        self.current[target] = Some(set);
        // No idle session of the experiment's own during a measurement: the server would count it
        // among the run's (PostgreSQL's statistics wait for every session to end).
        self.drop_session(target);
        Ok(())
    }

    /// What the server reads for `var`, once it is `value` (PostgreSQL applies a reload to
    /// sessions as they next start a command, so the reading is tried for a few seconds).
    fn read_back(&mut self, target: usize, var: &str, value: &str, asked: &str) -> Result<String> {
        let until = Instant::now() + Duration::from_secs(5);
        loop {
            let (gs, conn) = self.session(target)?;
            let read = gs
                .read(conn, var)
                .map_err(|e| environment(format!("reading back {var}: {e}")))?;
            if same_value(value, &read) {
                return Ok(read);
            }
            if Instant::now() >= until {
                return Err(environment(format!(
                    "{var} {asked} {value} but the server reads {read}: the setting did not take (a value the server rounds or refuses, or one set elsewhere)"
                )));
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Wait until the target answers again after a restart.
    fn wait_for(&mut self, target: usize, limit: Duration) -> Result<()> {
        let until = Instant::now() + limit;
        loop {
            match self.session(target) {
                Ok(_) => return Ok(()),
                Err(e) if Instant::now() >= until => {
                    return Err(environment(format!(
                        "the server did not answer within {} s of the restart command: {e}",
                        limit.as_secs()
                    )))
                }
                Err(_) => std::thread::sleep(Duration::from_millis(500)),
            }
        }
    }

    fn restore_one(&mut self, store: &Store, target: usize, c: &ChangedSetting) -> Result<()> {
        let (gs, conn) = self.session(target)?;
        let saved = Saved {
            name: c.variable.clone(),
            original: c.original.clone(),
            how: c.how.clone(),
        };
        gs.restore(conn, &saved).map_err(|e| {
            environment(format!(
                "target '{}': putting {} back to {}: {e}",
                c.target, c.variable, c.original
            ))
        })?;
        store.forget_setting(&self.plan.name, &c.target, &c.variable)
    }

    /// Put back every setting the experiment (this process or an earlier one) changed and has not
    /// put back; one line per setting that could not be, and the others are still tried.
    pub fn restore_all(&mut self, store: &Store) -> Vec<String> {
        let mut problems = Vec::new();
        let changed = match store.changed_settings(&self.plan.name) {
            Ok(c) => c,
            Err(e) => return vec![e.to_string()],
        };
        for c in &changed {
            let Some(target) = self.plan.targets.iter().position(|t| t.name == c.target) else {
                problems.push(format!(
                    "{} on target '{}' is still {}-changed, but the plan no longer names that target: put it back to {} by hand",
                    c.variable, c.target, c.how, c.original
                ));
                continue;
            };
            if let Err(e) = self.restore_one(store, target, c) {
                // A broken session is opened again once before giving up on this setting.
                self.drop_session(target);
                if let Err(e2) = self.restore_one(store, target, c) {
                    problems.push(format!("{e} (and again: {e2})"));
                }
            }
        }
        self.current = vec![None; self.plan.targets.len()];
        problems
    }
}

/// Run a settings set's restart command with `sh -c`; it must succeed.
fn restart(cmd: &str, target: &str, set: &str) -> Result<()> {
    let status = std::process::Command::new("sh")
        .arg("-c")
        .arg(cmd)
        .stdin(std::process::Stdio::null())
        .status()
        .map_err(|e| {
            environment(format!(
                "settings '{set}': cannot run its restart command: {e}"
            ))
        })?;
    if status.success() {
        Ok(())
    } else {
        Err(environment(format!(
            "settings '{set}': its restart command for target '{target}' failed ({status}): {cmd}"
        )))
    }
}
