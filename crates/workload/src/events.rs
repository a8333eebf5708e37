//! A worker's events: the `EventGen` trait, the single keyed statement the runner executes on
//! its fast path (`KeyedStatement`), and `Exec`, which times and classifies each statement.

use dbpress_core::rand::{DistKind, Distribution, Rng};
use dbpress_driver::{Connection, DbResult, QueryKind, StmtHandle, Value};
use dbpress_measure::stats::{now_ns, StmtStats};

/// One worker's event loop body.
pub trait EventGen: Send {
    /// Execute one event: every statement goes through `exec` so it is timed and classified.
    fn event(&mut self, exec: &mut Exec<'_>) -> DbResult<()>;

    /// Work left when the thread stops (bulk_insert's last partial INSERT). Its statements are
    /// counted, but it is not an event, as in sysbench's thread_done.
    fn finish(&mut self, _exec: &mut Exec<'_>) -> DbResult<()> {
        Ok(())
    }

    /// True when the terminal waits between events (TPC-C's keying and think times); the
    /// runner then asks `pause_ns` before each one. Asked once per worker, so a workload
    /// without pauses costs its loop nothing.
    fn pauses(&self) -> bool {
        false
    }

    /// How long to wait before the next event, in ns. The runner sleeps it outside the
    /// event's timing, waking at once when the run stops.
    fn pause_ns(&mut self) -> u64 {
        0
    }

    /// True when an event is its statements and nothing else worth timing: no sleep, no
    /// reconnect, only drawing parameters before and between them. A closed-loop event is then
    /// timed from its first statement's send to its last statement's reply, using those
    /// statements' own clock reads (a one-statement event needs two reads, not four); under
    /// --rate it is timed from its intended start as always. False unless a workload knows it.
    fn statements_bound_event(&self) -> bool {
        false
    }

    /// The event as a `KeyedStatement`, when that is all it is; the runner then runs it in a
    /// loop of its own and asks this generator for nothing more but `finish`. None unless a
    /// workload knows it.
    fn keyed_statement(&self) -> Option<KeyedStatement> {
        None
    }

    /// True when the generator runs its own event loop (a Lua script's `thread_run`, compiled
    /// by LuaJIT as one loop), asking the runner's `EventSteps` for each event; the runner then
    /// calls `run_loop` instead of `event` (closed loop only: under --rate it calls `event`).
    fn drives_loop(&self) -> bool {
        false
    }

    /// Run events until `steps.next` says no more (Ok), or until one fails: the error of the
    /// event `next` started last, which the runner then retries (calling `run_loop` again, its
    /// first `next` resuming that event) or ends the run with.
    fn run_loop(&mut self, _exec: &mut Exec<'_>, _steps: &mut dyn EventSteps) -> DbResult<()> {
        Ok(())
    }
}

/// The runner's side of a loop a generator drives (`EventGen::run_loop`).
pub trait EventSteps {
    /// Claim and start the next event (or resume the one a failed attempt left open): false
    /// when the run is over. Clears `exec`'s counts for it.
    fn next(&mut self, exec: &mut Exec<'_>) -> bool;
    /// The event `next` started has succeeded: record it with `exec`'s counts.
    fn done(&mut self, exec: &mut Exec<'_>);
    /// `done` then `next`, as one call from a loop that does nothing between them (the
    /// prelude's `thread_run`): a runner may read the clock once for the end of one event and
    /// the start of the next.
    fn step(&mut self, exec: &mut Exec<'_>) -> bool {
        self.done(exec);
        self.next(exec)
    }
    /// The event `next` claimed starts now: a loop that waits between claiming and starting
    /// (a script's own pacing) keeps that wait out of its time. Nothing for a resumed event.
    fn start(&mut self) {}
    /// The generator counts an error of its own in the open event, under `code` (a script's
    /// `sb_counter_inc(tid, SB_CNT_ERROR)`).
    fn error(&mut self, _code: &str) {}
    /// The error `run_loop` returns next restarts its event whatever the ignore list says
    /// (a script's `sql_error_ignorable` hook accepted it); its failed statements were counted
    /// by `error` as they failed.
    fn restart(&mut self) {}
    /// Whether the run has been told to stop (its time is up, a signal): a generator that
    /// retries inside an event stops retrying.
    fn stopping(&self) -> bool {
        false
    }
    /// Under --rate, how late the open event started after its slot in the schedule (ns);
    /// None in a closed loop.
    fn lag_ns(&self) -> Option<u64> {
        None
    }
    /// The slots --latency-limit skipped (not run, already too late when due) since the last
    /// call, each as the Unix time (µs) it was skipped: pgbench logs each one.
    fn take_skipped(&mut self) -> Vec<u64> {
        Vec::new()
    }
}

/// An event that is exactly one statement whose one parameter is a key drawn from the run's
/// distribution over 1..=`key_max`, on a table drawn uniformly when there are several
/// (oltp_point_select, oltp_update_index, oltp_delete). Such an event is the statement, so the
/// runner times it with the statement's two clock reads and records both at once
/// (`dbpress_run::keyed`): about half the client work of the general event path, which matters
/// when the server answers in microseconds.
pub struct KeyedStatement {
    /// Statement kind, as `Exec::run`'s `kind`.
    pub kind: u8,
    /// The statement on each table, the first table first.
    pub stmts: Vec<StmtHandle>,
    pub keys: Distribution,
    pub key_max: u32,
    /// The generator's random stream, so the draws are the ones its events would make.
    pub rng: Rng,
}

impl KeyedStatement {
    /// Draw the table (not with one table) then the key, in that order, like the event would.
    #[inline(always)]
    pub fn draw(&mut self) -> (StmtHandle, i64) {
        let stmt = if self.stmts.len() == 1 {
            self.stmts[0]
        } else {
            let t = self.rng.uniform(1, self.stmts.len() as u32) as usize - 1;
            self.stmts[t]
        };
        // The default distribution without `sample`'s dispatch.
        let key = if self.keys.kind() == DistKind::Uniform {
            self.rng.uniform(1, self.key_max)
        } else {
            self.keys.sample(&mut self.rng, 1, self.key_max)
        };
        (stmt, i64::from(key))
    }
}

/// Runs statements for an event, timing each into the worker's statement statistics and
/// counting it read/write/other as sysbench does.
pub struct Exec<'a> {
    pub conn: &'a mut dyn Connection,
    stmts: &'a mut StmtStats,
    /// False during warm-up: statements run but are not recorded.
    record: bool,
    pub reads: u64,
    pub writes: u64,
    pub other: u64,
    /// Reconnects the workload made itself (--reconnect).
    pub reconnects: u64,
    /// When the first statement was sent and the last one's reply arrived (`now_ns`), 0
    /// before the first statement.
    pub first_send_ns: u64,
    pub last_reply_ns: u64,
    /// The event's kind, for workloads that label their events (TPC-C's transactions).
    pub label: Option<u8>,
}

impl<'a> Exec<'a> {
    pub fn new(conn: &'a mut dyn Connection, stmts: &'a mut StmtStats, record: bool) -> Exec<'a> {
        Exec {
            conn,
            stmts,
            record,
            reads: 0,
            writes: 0,
            other: 0,
            reconnects: 0,
            first_send_ns: 0,
            last_reply_ns: 0,
            label: None,
        }
    }

    /// Start another event on the same executor (a loop the generator drives): its counts and
    /// times cleared, recorded or not (`record`: false during the warm-up).
    #[inline(always)]
    pub fn restart(&mut self, record: bool) {
        self.record = record;
        self.reads = 0;
        self.writes = 0;
        self.other = 0;
        self.reconnects = 0;
        self.first_send_ns = 0;
        self.last_reply_ns = 0;
        self.label = None;
    }

    /// Whether this event counts (false during the warm-up).
    pub fn measuring(&self) -> bool {
        self.record
    }

    /// Record `ns` as one execution of statement kind `kind` (a workload whose kinds include
    /// whole transactions, as TPC-C's five, records their time here).
    pub fn record_kind(&mut self, kind: u8, ns: u64, failed: bool) {
        if self.record {
            self.stmts.record(kind, ns, failed);
        }
    }

    /// Run a prepared statement as `run` does, keeping its rows in `rows`.
    #[inline]
    pub fn run_rows(
        &mut self,
        kind: u8,
        stmt: StmtHandle,
        params: &[Value<'_>],
        rows: &mut dbpress_driver::ResultRows,
    ) -> DbResult<QueryKind> {
        let t0 = self.send_time();
        let r = self.conn.execute_rows(stmt, params, rows);
        let k = r.as_ref().ok().copied();
        self.account(kind, t0, r)?;
        Ok(k.unwrap_or(QueryKind::Other))
    }

    /// Run a prepared statement as `run` does and say how it was classified (a write changed
    /// rows; "other" changed none).
    /// Inlined like `run`: a Lua script's `execute` is this call.
    #[inline(always)]
    pub fn run_kind(
        &mut self,
        kind: u8,
        stmt: StmtHandle,
        params: &[Value<'_>],
    ) -> DbResult<QueryKind> {
        let t0 = self.send_time();
        let r = self.conn.execute(stmt, params);
        self.account_kind(kind, t0, r)
    }

    /// Reconnect as part of the event (sysbench's --reconnect), counted in reconn/s.
    pub fn reconnect(&mut self) -> DbResult<()> {
        self.conn.reconnect()?;
        self.reconnects += 1;
        Ok(())
    }

    // Inlined into each call site: a workload's event is mostly these calls, and the call
    // itself (saving registers, the result through memory) cost ~20 instructions per statement.
    #[inline(always)]
    pub fn run(&mut self, kind: u8, stmt: StmtHandle, params: &[Value<'_>]) -> DbResult<()> {
        let t0 = self.send_time();
        let r = self.conn.execute(stmt, params);
        self.account(kind, t0, r)
    }

    /// Run text SQL as `run_query` does, keeping the rows of its result in `rows`.
    #[inline]
    pub fn run_query_rows(
        &mut self,
        kind: u8,
        sql: &str,
        rows: &mut dbpress_driver::ResultRows,
    ) -> DbResult<QueryKind> {
        let t0 = self.send_time();
        let r = self.conn.query_into(sql, rows);
        let k = r.as_ref().ok().copied();
        self.account(kind, t0, r)?;
        Ok(k.unwrap_or(QueryKind::Other))
    }

    /// Run text SQL as statement `kind`, timed and classified like `run`.
    pub fn run_query(&mut self, kind: u8, sql: &str) -> DbResult<()> {
        let t0 = self.send_time();
        let r = self.conn.query(sql);
        self.account(kind, t0, r)
    }

    #[inline]
    fn send_time(&mut self) -> u64 {
        let t0 = now_ns();
        if self.first_send_ns == 0 {
            self.first_send_ns = t0;
        }
        t0
    }

    #[inline(always)]
    fn account(&mut self, kind: u8, t0: u64, r: DbResult<QueryKind>) -> DbResult<()> {
        self.account_kind(kind, t0, r).map(|_| ())
    }

    /// `account`, giving back the statement's class.
    #[inline(always)]
    fn account_kind(&mut self, kind: u8, t0: u64, r: DbResult<QueryKind>) -> DbResult<QueryKind> {
        let t1 = now_ns();
        self.last_reply_ns = t1;
        let ns = t1.saturating_sub(t0);
        match r {
            Ok(k) => {
                match k {
                    QueryKind::Read => self.reads += 1,
                    QueryKind::Write => self.writes += 1,
                    QueryKind::Other => self.other += 1,
                }
                if self.record {
                    self.stmts.record(kind, ns, false);
                }
                Ok(k)
            }
            Err(e) => {
                if self.record {
                    self.stmts.record(kind, ns, true);
                }
                Err(e)
            }
        }
    }
}
