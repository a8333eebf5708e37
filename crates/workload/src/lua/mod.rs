//! A sysbench Lua script as a workload (#41): one LuaJIT state per worker, made on the
//! worker's thread (`worker`), whose `thread_init` prepares on the worker's session; each event
//! is the script's `event`, its statements run through `Exec` (timed and classified like a
//! native workload's) by the FFI calls of `dbpress-lua`; `thread_done` when the thread stops.
//! Statement kinds are the statements' texts with table numbers folded (`sbtest#`), interned as
//! the workers prepare them.

pub mod commands;

use crate::events::{EventGen, EventSteps, Exec};
use crate::workload::{Context, Workload};
use dbpress_config::run_config::ignore_list;
use dbpress_config::IgnoreList;
use dbpress_core::error::{failed, Result};
use dbpress_core::options::OptionValues;
use dbpress_core::rand::{DistParams, Distribution, Rng};
use dbpress_driver::{Connection, DbError, DbErrorKind, DbResult, Dialect, SqlFamily};
pub use dbpress_lua::driver_asked;
use dbpress_lua::{Script, ScriptError, State};
pub use hosts::SCRIPT_COUNTED;
use hosts::{Errors, EventHost, SetupHost};
use kinds::{Kinds, KIND_CAP, OTHER_KIND};
use std::sync::Arc;

mod hosts;
mod kinds;
mod report;

/// The error code of a script's own failure (not the server's).
pub const SCRIPT_ERROR: &str = "lua";

pub struct LuaWorkload {
    script: Arc<Script>,
    name: &'static str,
    dist: DistParams,
    seed: u64,
    kinds: Arc<Kinds>,
    /// --mysql-ignore-errors, --pgsql-ignore-errors, --sqlite-ignore-errors as the runner
    /// reads them: which errors a script's SQL raises as a restart.
    ignore: [IgnoreList; 3],
    /// The main state, lent for a run (`report.rs`: report_cumulative runs there), in a slot
    /// the lending command keeps too (a sweep's levels have it in turn). A Mutex only to be
    /// `Sync`: it is used on the run's own thread, which made it.
    main: MainSlot,
}

/// Where the main state is while runs use it: kept by the command that lent it, shared with
/// each run's workload (a sweep's levels in turn).
type MainSlot = Arc<std::sync::Mutex<Option<State>>>;

impl LuaWorkload {
    /// The script at `path` for `command`, with the run's options, random seed and
    /// distribution.
    pub fn new(
        path: &str,
        command: &str,
        opts: &OptionValues,
        dist: DistParams,
        seed: u64,
    ) -> Result<LuaWorkload> {
        let script = Script::load(path, command, opts).map_err(dbpress_core::error::usage)?;
        let stem = std::path::Path::new(path)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| path.to_string());
        Ok(LuaWorkload {
            script: Arc::new(script),
            name: Box::leak(stem.into_boxed_str()),
            dist,
            seed,
            kinds: Arc::default(),
            ignore: [
                ignore_option(opts, "mysql")?,
                ignore_option(opts, "pgsql")?,
                ignore_option(opts, "sqlite")?,
            ],
            main: MainSlot::default(),
        })
    }

    /// The main state (sysbench's global one), for prepare and cleanup.
    fn main_state(&self, dialect: &Dialect) -> Result<State> {
        State::new(
            &self.script,
            driver_name(dialect),
            0,
            Rng::new(self.seed, 0),
            &self.dist,
        )
        .map_err(|e| script_failed(&e))
    }

    /// The script's `name()` (prepare, cleanup) in the main state on a session of its own.
    fn run_main(&self, ctx: &Context<'_>, name: &str) -> Result<()> {
        let mut state = self.main_state(ctx.driver.dialect())?;
        if !state.defines(name) {
            return Err(failed(format!(
                "'{}' does not define {name}() as a function (dbpress does not run sysbench.cmdline.commands yet, #41): \
                 run the built-in workload's {name} with the same options (`dbpress oltp_read_write {name}`)",
                self.script.path
            )));
        }
        let mut conn = ctx.connect(0)?;
        let mut host = SetupHost {
            conn: conn.as_mut(),
            kinds: &self.kinds,
            errors: self.errors(ctx.driver.dialect()),
        };
        state.call(name, &mut host).map_err(|e| script_failed(&e))
    }
}

fn ignore_option(opts: &OptionValues, engine: &str) -> Result<IgnoreList> {
    let name = format!("{engine}-ignore-errors");
    ignore_list(opts.get(&name), &name)
}

impl LuaWorkload {
    /// How SQL errors on `dialect`'s engine are classified.
    fn errors(&self, dialect: &Dialect) -> Errors<'_> {
        let (i, pg) = match dialect.family {
            SqlFamily::Mysql => (0, false),
            SqlFamily::Postgres => (1, true),
            SqlFamily::Sqlite => (2, false),
        };
        Errors {
            ignore: &self.ignore[i],
            pg,
        }
    }
}

fn driver_name(dialect: &Dialect) -> &'static str {
    match dialect.family {
        SqlFamily::Mysql => "mysql",
        SqlFamily::Postgres => "pgsql",
        SqlFamily::Sqlite => "sqlite",
    }
}

/// A script error outside a run (loading, prepare, cleanup) as the one line the user reads:
/// sysbench's exit code 1.
fn script_failed(e: &ScriptError) -> dbpress_core::error::Error {
    let said = e.to_string();
    match &e.sql {
        // The server's error, unless the script's message already says it.
        Some(db) if !said.contains(&db.message) => {
            let code = if db.code.is_empty() {
                String::new()
            } else {
                format!(" {}", db.code)
            };
            failed(format!("{said} (server error{code}: {})", db.message))
        }
        _ => failed(said),
    }
}

/// A script error inside a run as the runner's error: the server's, when a SQL call failed
/// (so --mysql-ignore-errors and retries apply), else the script's own, never retried.
fn to_db_error(e: ScriptError) -> DbError {
    let db = match e.sql {
        Some(db) => db,
        None => DbError::new(DbErrorKind::Input, SCRIPT_ERROR, e.message),
    };
    match e.origin {
        Some(o) if db.origin.is_none() => db.at(o),
        _ => db,
    }
}

impl Workload for LuaWorkload {
    fn name(&self) -> &'static str {
        self.name
    }

    fn opened_database(&self) -> Option<bool> {
        Some(dbpress_lua::driver_asked())
    }

    fn statement_kinds(&self) -> &'static [&'static str] {
        // Asked before the workers prepare (to size their cells) and after the run (to name
        // them): always KIND_CAP long, the names as interned so far.
        let names = self.kinds.names.lock().unwrap_or_else(|p| p.into_inner());
        let mut all: Vec<&'static str> = names.clone();
        all.resize(KIND_CAP - 1, "");
        all.push(OTHER_KIND);
        Box::leak(all.into_boxed_slice())
    }

    fn transactional(&self) -> bool {
        false
    }

    fn describe(&self) -> Vec<String> {
        vec![format!(
            "Lua script {} in embedded LuaJIT (dbpress's sysbench API, #41)",
            self.script.path
        )]
    }

    fn missing_table_fix(&self) -> String {
        format!(
            "prepare the tables the script uses first (for an oltp_*.lua copy: `dbpress {} prepare` with the same options)",
            self.name.trim_end_matches("_copy")
        )
    }

    fn prepare(&self, ctx: &Context<'_>) -> Result<Option<dbpress_measure::host::HostUsage>> {
        self.run_main(ctx, "prepare")?;
        Ok(None)
    }

    fn cleanup(&self, ctx: &Context<'_>) -> Result<()> {
        self.run_main(ctx, "cleanup")
    }

    fn interval_report(
        &self,
        dialect: &'static Dialect,
        threads: u32,
    ) -> Option<Box<dyn crate::workload::IntervalReport + '_>> {
        self.lua_interval_report(dialect, threads)
    }

    fn checkpoint_report(
        &self,
        dialect: &'static Dialect,
        threads: u32,
    ) -> Option<Box<dyn crate::workload::CheckpointReport + '_>> {
        self.lua_checkpoint_report(dialect, threads)
    }

    fn final_report(
        &self,
        dialect: &'static Dialect,
        period: &dbpress_result::Summary,
        elapsed_s: f64,
        running: u32,
    ) -> bool {
        self.lua_final_report(dialect, period, elapsed_s, running)
    }

    fn worker(
        &self,
        conn: &mut dyn Connection,
        dialect: &'static Dialect,
        thread: u32,
        rng: Rng,
        _dist: Distribution,
    ) -> DbResult<Box<dyn EventGen>> {
        let mut state = State::new(&self.script, driver_name(dialect), thread, rng, &self.dist)
            .map_err(to_db_error)?;
        if state.defines("thread_init") {
            let mut host = SetupHost {
                conn,
                kinds: &self.kinds,
                errors: self.errors(dialect),
            };
            state.call("thread_init", &mut host).map_err(to_db_error)?;
        }
        state.settle();
        let done = state.defines("thread_done");
        Ok(Box::new(LuaEvents {
            state,
            kinds: self.kinds.clone(),
            done,
            ignore: self.errors(dialect).ignore.clone(),
            pg: dialect.family == SqlFamily::Postgres,
        }))
    }
}

/// A worker's events: its state's `event`.
struct LuaEvents {
    state: State,
    kinds: Arc<Kinds>,
    done: bool,
    ignore: IgnoreList,
    pg: bool,
}

impl EventGen for LuaEvents {
    #[inline]
    fn event(&mut self, exec: &mut Exec<'_>) -> DbResult<()> {
        let mut host = EventHost {
            exec,
            steps: None,
            kinds: &self.kinds,
            errors: Errors {
                ignore: &self.ignore,
                pg: self.pg,
            },
        };
        match self.state.event(&mut host) {
            // A true return stops a thread in sysbench; here the event counts (#41: not yet).
            Ok(_) => Ok(()),
            Err(e) => Err(to_db_error(e)),
        }
    }

    fn drives_loop(&self) -> bool {
        true
    }

    /// The script's `thread_run` (the prelude's loop unless the script has its own), its
    /// events claimed, started and recorded by `steps`.
    fn run_loop(&mut self, exec: &mut Exec<'_>, steps: &mut dyn EventSteps) -> DbResult<()> {
        let mut host = EventHost {
            exec,
            steps: Some(steps),
            kinds: &self.kinds,
            errors: Errors {
                ignore: &self.ignore,
                pg: self.pg,
            },
        };
        match self.state.call("thread_run", &mut host) {
            Ok(()) => Ok(()),
            Err(e) => {
                if e.restart {
                    if let Some(steps) = host.steps {
                        steps.restart();
                    }
                }
                Err(to_db_error(e))
            }
        }
    }

    fn finish(&mut self, exec: &mut Exec<'_>) -> DbResult<()> {
        if !self.done {
            return Ok(());
        }
        let mut host = EventHost {
            exec,
            steps: None,
            kinds: &self.kinds,
            errors: Errors {
                ignore: &self.ignore,
                pg: self.pg,
            },
        };
        self.state
            .call("thread_done", &mut host)
            .map_err(to_db_error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dbpress_driver::DbErrorKind;

    fn script_error(message: &str, code: &str, server: &str) -> ScriptError {
        ScriptError {
            message: message.into(),
            origin: Some("t.lua:3".into()),
            sql: Some(DbError::new(DbErrorKind::Input, code, server)),
            restart: false,
        }
    }

    #[test]
    fn a_script_error_names_the_servers_error_once() {
        let e = script_failed(&script_error("SQL API error", "1146", "no such table"));
        assert_eq!(
            e.message(),
            "t.lua:3: SQL API error (server error 1146: no such table)"
        );
        // Already in the script's message: not again; no code: no empty code.
        let e = script_failed(&script_error(
            "failed: no such table",
            "1146",
            "no such table",
        ));
        assert_eq!(e.message(), "t.lua:3: failed: no such table");
        let e = script_failed(&script_error("connection creation failed", "", "refused"));
        assert_eq!(
            e.message(),
            "t.lua:3: connection creation failed (server error: refused)"
        );
    }
}
