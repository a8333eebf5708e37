//! The `Host`s a script's SQL calls reach: `EventHost` during events (timed and classified by
//! `Exec`, with the runner's steps inside the loop the script drives) and `SetupHost` outside
//! them (thread_init, prepare, cleanup), on the session, untimed.

use super::Kinds;
use crate::events::{EventSteps, Exec};
use dbpress_driver::{Connection, DbError, DbErrorKind, DbResult, QueryKind, StmtHandle, Value};
use dbpress_lua::Host;

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
pub(super) struct EventHost<'e, 'a> {
    pub(super) exec: &'e mut Exec<'a>,
    pub(super) steps: Option<&'e mut dyn EventSteps>,
    pub(super) kinds: &'e Kinds,
}

impl Host for EventHost<'_, '_> {
    fn connect(&mut self) -> DbResult<()> {
        Err(one_connection())
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
}

fn one_connection() -> DbError {
    DbError::new(
        DbErrorKind::Unsupported,
        "",
        "drv:connect() called again: dbpress gives each thread one connection so far (#41)",
    )
}

/// SQL outside events (thread_init, prepare, cleanup): on the session, untimed.
pub(super) struct SetupHost<'e> {
    pub(super) conn: &'e mut dyn Connection,
    pub(super) kinds: &'e Kinds,
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
