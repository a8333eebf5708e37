//! The user's own prepare and cleanup: each script run once, on one session, in order, by the
//! same client that runs them in a run (`\set`, `\if`, `\gset`, `\shell`); SQL sent with its
//! values bound, `\sleep` slept.

use super::client::{Client, Ready, Slot, SqlTarget};
use super::expr::{prng::PgPrng, Value};
use super::parse::{Command, Script};
use dbpress_core::error::{failed, usage, Result};
use dbpress_driver::{Connection, DbErrorKind, DbResult, ResultRows, StmtHandle, Value as Param};
use std::collections::HashMap;

/// A bare session as a client's target: nothing timed.
struct Session<'a>(&'a mut dyn Connection);

impl SqlTarget for Session<'_> {
    fn prepare(&mut self, sql: &str) -> DbResult<StmtHandle> {
        self.0.prepare(sql)
    }

    fn text(&mut self, _kind: u8, sql: &str, rows: Option<&mut ResultRows>) -> DbResult<()> {
        match rows {
            Some(r) => self.0.query_into(sql, r).map(|_| ()),
            None => self.0.query(sql).map(|_| ()),
        }
    }

    fn bound(
        &mut self,
        _kind: u8,
        stmt: StmtHandle,
        params: &[Param<'_>],
        rows: Option<&mut ResultRows>,
    ) -> DbResult<()> {
        match rows {
            Some(r) => self.0.execute_rows(stmt, params, r).map(|_| ()),
            None => self.0.execute(stmt, params).map(|_| ()),
        }
    }

    fn pipeline_start(&mut self) -> DbResult<()> {
        self.0.pipeline_start()
    }

    fn pipeline_sync(&mut self) -> DbResult<()> {
        self.0.pipeline_sync()
    }

    fn pipeline_end(&mut self) -> DbResult<()> {
        self.0.pipeline_end()
    }
}

/// Run a prepare/cleanup script once on one connection, its statements prepared and bound.
pub fn run_once(
    conn: &mut dyn Connection,
    s: &Script,
    globals: &HashMap<String, Value>,
    seed: u64,
) -> Result<()> {
    let mut vars = globals.clone();
    vars.insert("scale".into(), Value::Int(1));
    vars.insert("client_id".into(), Value::Int(0));
    let server_error = |line: usize, e: dbpress_driver::DbError| {
        failed(format!(
            "{}:{line}: server error {}: {}",
            s.name, e.code, e.message
        ))
    };
    // Each statement prepared when it is reached: an earlier one may create its table.
    let sql = s
        .commands
        .iter()
        .map(|c| matches!(c, Command::Sql(_)).then_some((0, Slot::Unprepared)))
        .collect();
    let mut ready = Ready {
        script: s.clone(),
        sql,
    };
    let mut client = Client::new(vars, PgPrng::new(seed));
    client
        .run(0, &mut ready, &mut Session(conn))
        .map_err(|a| match a.db {
            Some(e) if e.kind != DbErrorKind::Input => {
                let line = match &s.commands[a.command - 1] {
                    Command::Sql(q) => q.line,
                    _ => 0,
                };
                server_error(line, e)
            }
            Some(e) => usage(format!("{}: {}", s.name, e.message)),
            None => usage(format!("{}: {}: {}", s.name, a.subject, a.message)),
        })
}

#[cfg(test)]
mod tests;
