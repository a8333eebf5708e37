//! A sysbench Lua script as a workload (#41): one LuaJIT state per worker, made on the
//! worker's thread (`worker`), whose `thread_init` prepares on the worker's session; each event
//! is the script's `event`, its statements run through `Exec` (timed and classified like a
//! native workload's) by the FFI calls of `dbpress-lua`; `thread_done` when the thread stops.
//! Statement kinds are the statements' texts with table numbers folded (`sbtest#`), interned as
//! the workers prepare them.

pub mod commands;

use crate::events::{EventGen, EventSteps, Exec};
use crate::workload::{Context, Workload};
use dbpress_core::error::{failed, Result};
use dbpress_core::options::OptionValues;
use dbpress_core::rand::{DistParams, Distribution, Rng};
use dbpress_driver::{Connection, DbError, DbErrorKind, DbResult, Dialect, SqlFamily, StmtHandle};
use dbpress_driver::{QueryKind, Value};
use dbpress_lua::{Host, Script, ScriptError, State};
use std::sync::{Arc, Mutex};

/// Statement kinds a script can have apart; the rest share the last one.
const KIND_CAP: usize = 64;
const OTHER_KIND: &str = "other statements";

/// The error code of a script's own failure (not the server's).
pub const SCRIPT_ERROR: &str = "lua";

/// The error code of the errors a script counts itself (`sb_counter_inc(tid, SB_CNT_ERROR)`).
pub const SCRIPT_COUNTED: &str = "sb_counter_inc";

pub struct LuaWorkload {
    script: Arc<Script>,
    name: &'static str,
    dist: DistParams,
    seed: u64,
    kinds: Arc<Kinds>,
}

/// Statement texts interned as kinds, shared by the workers.
#[derive(Default)]
struct Kinds {
    names: Mutex<Vec<&'static str>>,
}

impl Kinds {
    fn intern(&self, sql: &str) -> u8 {
        let name = normalise(sql);
        let mut names = self.names.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(i) = names.iter().position(|n| *n == name) {
            return i as u8;
        }
        if names.len() + 1 >= KIND_CAP {
            return (KIND_CAP - 1) as u8;
        }
        names.push(Box::leak(name.into_boxed_str()));
        (names.len() - 1) as u8
    }
}

/// A statement's text as its kind's name: whitespace runs as one space, numbers and quoted
/// literals as `?`, digits ending an identifier as `#` (`sbtest17` → `sbtest#`).
fn normalise(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let b = sql.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            while i < b.len() && b[i].is_ascii_whitespace() {
                i += 1;
            }
            if !out.is_empty() && i < b.len() {
                out.push(' ');
            }
            continue;
        }
        if c == b'\'' || c == b'"' {
            i += 1;
            while i < b.len() && b[i] != c {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push('?');
            continue;
        }
        if c.is_ascii_digit() {
            while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'.') {
                i += 1;
            }
            out.push('?');
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                if b[i].is_ascii_digit() {
                    while i < b.len() && b[i].is_ascii_digit() {
                        i += 1;
                    }
                    out.push('#');
                } else {
                    out.push(b[i] as char);
                    i += 1;
                }
            }
            continue;
        }
        // Multi-byte characters pass whole.
        let ch = sql[i..].chars().next().expect("in bounds");
        out.push(ch);
        i += ch.len_utf8();
    }
    out
}

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
        };
        state.call(name, &mut host).map_err(|e| script_failed(&e))
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
    match &e.sql {
        Some(db) => failed(format!("{e} (server error {}: {})", db.code, db.message)),
        None => failed(e.to_string()),
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
            };
            state.call("thread_init", &mut host).map_err(to_db_error)?;
        }
        let done = state.defines("thread_done");
        Ok(Box::new(LuaEvents {
            state,
            kinds: self.kinds.clone(),
            done,
        }))
    }
}

/// A worker's events: its state's `event`.
struct LuaEvents {
    state: State,
    kinds: Arc<Kinds>,
    done: bool,
}

impl EventGen for LuaEvents {
    #[inline]
    fn event(&mut self, exec: &mut Exec<'_>) -> DbResult<()> {
        let mut host = EventHost {
            exec,
            steps: None,
            kinds: &self.kinds,
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
        };
        self.state
            .call("thread_run", &mut host)
            .map_err(to_db_error)
    }

    fn finish(&mut self, exec: &mut Exec<'_>) -> DbResult<()> {
        if !self.done {
            return Ok(());
        }
        let mut host = EventHost {
            exec,
            steps: None,
            kinds: &self.kinds,
        };
        self.state
            .call("thread_done", &mut host)
            .map_err(to_db_error)
    }
}

/// The token of a prepared statement: its handle and its kind.
#[inline(always)]
fn token(stmt: StmtHandle, kind: u8) -> u64 {
    (u64::from(stmt.0) << 8) | u64::from(kind)
}

#[inline(always)]
fn untoken(t: u64) -> (StmtHandle, u8) {
    (StmtHandle((t >> 8) as u32), t as u8)
}

/// SQL during an event: timed and classified by `Exec`; inside the loop the script drives
/// (`run_loop`), with the runner's steps that claim, start and record its events.
struct EventHost<'e, 'a> {
    exec: &'e mut Exec<'a>,
    steps: Option<&'e mut dyn EventSteps>,
    kinds: &'e Kinds,
}

impl Host for EventHost<'_, '_> {
    /// The worker's session is the state's connection, already open: a script that connects
    /// during an event (sysbench 0.5's implicit connection, made on first use) gets it.
    fn connect(&mut self) -> DbResult<()> {
        Ok(())
    }

    fn prepare(&mut self, sql: &str) -> DbResult<u64> {
        let kind = self.kinds.intern(sql);
        Ok(token(self.exec.conn.prepare(sql)?, kind))
    }

    #[inline(always)]
    fn execute(&mut self, t: u64, params: &[Value<'_>]) -> DbResult<()> {
        let (stmt, kind) = untoken(t);
        self.exec.run(kind, stmt, params)
    }

    fn query(&mut self, sql: &str) -> DbResult<()> {
        let kind = self.kinds.intern(sql);
        self.exec.run_query(kind, sql)
    }

    /// Outside the script's loop (`event`, `thread_done`) there is no next event.
    #[inline]
    fn next_event(&mut self) -> bool {
        match self.steps.as_mut() {
            Some(steps) => steps.next(self.exec),
            None => false,
        }
    }

    #[inline]
    fn event_done(&mut self) {
        if let Some(steps) = self.steps.as_mut() {
            steps.done(self.exec)
        }
    }

    fn event_start(&mut self) {
        if let Some(steps) = self.steps.as_mut() {
            steps.start()
        }
    }

    /// `sb_counter_inc`: reads, writes and others into the event's counts, errors into its
    /// errors (under SCRIPT_COUNTED), reconnects into its reconnects; events are the loop's.
    fn count(&mut self, counter: i32) {
        match counter {
            0 => self.exec.other += 1,
            1 => self.exec.reads += 1,
            2 => self.exec.writes += 1,
            4 => {
                if let Some(steps) = self.steps.as_mut() {
                    steps.error(SCRIPT_COUNTED)
                }
            }
            5 => self.exec.reconnects += 1,
            _ => {}
        }
    }
}

/// SQL outside events (thread_init, prepare, cleanup): on the session, untimed.
struct SetupHost<'e> {
    conn: &'e mut dyn Connection,
    kinds: &'e Kinds,
}

impl Host for SetupHost<'_> {
    fn connect(&mut self) -> DbResult<()> {
        Ok(())
    }

    fn prepare(&mut self, sql: &str) -> DbResult<u64> {
        let kind = self.kinds.intern(sql);
        Ok(token(self.conn.prepare(sql)?, kind))
    }

    fn execute(&mut self, t: u64, params: &[Value<'_>]) -> DbResult<()> {
        self.conn
            .execute(untoken(t).0, params)
            .map(|_: QueryKind| ())
    }

    fn query(&mut self, sql: &str) -> DbResult<()> {
        self.conn.query(sql).map(|_| ())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_statement_is_named_by_its_text_with_table_numbers_and_literals_folded() {
        assert_eq!(
            normalise("SELECT c FROM sbtest17 WHERE id=?"),
            "SELECT c FROM sbtest# WHERE id=?"
        );
        assert_eq!(
            normalise("UPDATE  sbtest1 SET c='x y' WHERE id = 42\n"),
            "UPDATE sbtest# SET c=? WHERE id = ?"
        );
    }
}
