//! The `Host`s a script's SQL calls reach: `EventHost` during events (timed and classified by
//! `Exec`, with the runner's steps inside the loop the script drives) and `SetupHost` outside
//! them (thread_init, prepare, cleanup), on the session, untimed.

use super::kinds::Kinds;
use crate::events::{EventSteps, Exec};
use dbpress_config::IgnoreList;
use dbpress_driver::{Connection, DbError, DbResult, QueryKind, ResultRows};
use dbpress_driver::{StmtHandle, Value};
use dbpress_lua::Host;

/// The error code of the errors a script counts itself (`sb_counter_inc(tid, SB_CNT_ERROR)`).
pub const SCRIPT_COUNTED: &str = "sb_counter_inc";

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
    pub(super) errors: Errors<'e>,
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
    fn execute(&mut self, t: u64, params: &[Value<'_>]) -> DbResult<QueryKind> {
        let (stmt, kind) = untoken(t);
        self.exec.run_kind(kind, stmt, params)
    }

    fn query(&mut self, sql: &str, rows: &mut ResultRows) -> DbResult<QueryKind> {
        let kind = self.kinds.intern(sql);
        self.exec.run_query_rows(kind, sql, rows)
    }

    fn reconnect(&mut self) -> DbResult<()> {
        self.exec.reconnect()
    }

    fn ignorable(&self, e: &DbError) -> bool {
        self.errors.ignore.restarts(e)
    }

    #[cold]
    fn failed(&mut self, e: &DbError) {
        if let Some(steps) = self.steps.as_mut() {
            steps.error(&e.code);
        }
        self.errors.after(self.exec.conn, e);
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

    #[inline]
    fn event_step(&mut self) -> bool {
        match self.steps.as_mut() {
            Some(steps) => steps.step(self.exec),
            None => false,
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

/// How a script's failed SQL is classified, and what follows an ignorable one.
#[derive(Clone, Copy)]
pub(super) struct Errors<'e> {
    /// The run's --mysql-ignore-errors (or its engine's): the runner's own list.
    pub(super) ignore: &'e IgnoreList,
    /// PostgreSQL: an error leaves the transaction aborted, so an ignorable one is followed by
    /// a ROLLBACK (uncounted) before the event restarts, as sysbench's driver does.
    pub(super) pg: bool,
}

/// No error restarts anything (the main state's commands).
static NO_IGNORE: IgnoreList = IgnoreList::Codes(Vec::new());

impl Errors<'_> {
    pub(super) const NONE: Errors<'static> = Errors {
        ignore: &NO_IGNORE,
        pg: false,
    };

    fn after(self, conn: &mut dyn Connection, e: &DbError) {
        if self.pg && self.ignore.restarts(e) && !e.kind.out_of_reach() {
            let _ = conn.query("ROLLBACK");
        }
    }
}

/// SQL outside events (thread_init, prepare, cleanup): on the session, untimed.
pub(super) struct SetupHost<'e> {
    pub(super) conn: &'e mut dyn Connection,
    pub(super) kinds: &'e Kinds,
    pub(super) errors: Errors<'e>,
}

impl Host for SetupHost<'_> {
    fn connect(&mut self) -> DbResult<()> {
        Ok(())
    }

    fn prepare(&mut self, sql: &str) -> DbResult<u64> {
        let kind = self.kinds.intern(sql);
        Ok(token(self.conn.prepare(sql)?, kind))
    }

    fn execute(&mut self, t: u64, params: &[Value<'_>]) -> DbResult<QueryKind> {
        self.conn.execute(untoken(t).0, params)
    }

    fn query(&mut self, sql: &str, rows: &mut ResultRows) -> DbResult<QueryKind> {
        self.conn.query_into(sql, rows)
    }

    fn reconnect(&mut self) -> DbResult<()> {
        self.conn.reconnect()
    }

    fn ignorable(&self, e: &DbError) -> bool {
        self.errors.ignore.restarts(e)
    }

    fn failed(&mut self, e: &DbError) {
        self.errors.after(self.conn, e);
    }
}
