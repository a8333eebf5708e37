//! A workload's side of a run: what its lifecycle commands (prepare, cleanup, check, prewarm)
//! get, and the `Workload` trait every workload implements.

use crate::events::EventGen;
use dbpress_core::error::{usage, Result};
use dbpress_core::rand::{DistParams, Distribution, Rng};
use dbpress_driver::{Connection, DbResult, Dialect, Driver};

/// Everything a workload's lifecycle commands need besides the driver.
pub struct Context<'a> {
    pub driver: &'a dyn Driver,
    pub threads: u32,
    pub dist: &'a DistParams,
    /// The command line to suggest in messages (e.g. "dbpress oltp_read_write").
    pub invocation: String,
}

impl Context<'_> {
    /// Open connection `index`, turning a failure into the one-line message for this driver.
    pub fn connect(&self, index: usize) -> Result<Box<dyn Connection>> {
        dbpress_driver::connect_checked(self.driver, index)
            .map_err(|e| dbpress_config::diagnose::connect_failed(&e, self.driver.hints()))
    }
}

/// A setup-time database error (creating, loading, checking, dropping tables) as the one line
/// the user sees: what failed, and the server's code and message.
pub fn setup_error(e: dbpress_driver::DbError, what: &str) -> dbpress_core::error::Error {
    if e.kind == dbpress_driver::DbErrorKind::PermissionDenied {
        // The account's to fix, not the server's failure: exit 2 with the grants to ask for.
        return dbpress_config::diagnose::permission_denied(what, &e, "the connection options");
    }
    dbpress_core::error::failed(format!(
        "{what} failed: server error {}: {}",
        e.code, e.message
    ))
}

/// A workload's own report of each `--report-interval` tick, printed in place of dbpress's
/// interval line (a sysbench script's `report_intermediate` hook). Made and called on the
/// reporter's thread, and dropped there when the run's ticks end.
pub trait IntervalReport {
    fn report(&mut self, interval: &dbpress_result::Interval);
}

/// A workload's own report of each `--report-checkpoints` checkpoint, printed in place of
/// dbpress's (a sysbench script's `report_cumulative` hook, which sysbench calls at
/// checkpoints too). Made and called on the reporter's thread.
pub trait CheckpointReport {
    fn report(&mut self, checkpoint: &dbpress_result::Checkpoint, threads_running: u32);
}

pub trait Workload: Send + Sync {
    /// Whether the workload used the database at all, where that is up to it (a sysbench script
    /// asks for a driver or not); None for a workload that always does. sysbench reports SQL
    /// statistics only for a script that asked.
    fn opened_database(&self) -> Option<bool> {
        None
    }

    fn name(&self) -> &'static str;
    /// Names of the statement kinds this workload reports on, indexed by `Exec::run`'s `kind`.
    fn statement_kinds(&self) -> &'static [&'static str];
    /// Whether events run inside an explicit transaction (a retried event then starts with a
    /// ROLLBACK, since a lock wait timeout leaves the transaction open).
    fn transactional(&self) -> bool;
    /// Header lines describing the workload's effective settings.
    fn describe(&self) -> Vec<String>;
    /// Set when the workload sends text SQL whatever --db-ps-mode says, as the sysbench script
    /// it reproduces does: which one, for the run header.
    fn sends_text_as(&self) -> Option<&'static str> {
        None
    }
    /// Whether its statements' keys are drawn from --rand-type. Workloads with fixed SQL
    /// (slap), their own random functions (scripts) or sequential values (bulk_insert) say
    /// false, and the run header then does not name a distribution that drew nothing.
    fn draws_keys_from_rand_type(&self) -> bool {
        true
    }
    /// Create and load the tables; what the machine did meanwhile, where the workload measured
    /// it (a load bounded by the server's CPU looks nothing like one bounded by its disk).
    /// Nothing by default: a workload whose tables are the user's (slap's, a script's).
    fn prepare(&self, _ctx: &Context<'_>) -> Result<Option<dbpress_measure::host::HostUsage>> {
        Ok(None)
    }
    /// Drop what `prepare` made; nothing by default.
    fn cleanup(&self, _ctx: &Context<'_>) -> Result<()> {
        Ok(())
    }
    /// Verify the prepared data (tables, rows, ids, index) and report each table.
    fn check(&self, _ctx: &Context<'_>) -> Result<()> {
        Err(usage(format!(
            "the {} workload has no check command",
            self.name()
        )))
    }
    /// Load the prepared tables into the server's caches.
    fn prewarm(&self, _ctx: &Context<'_>) -> Result<()> {
        Err(usage(format!(
            "the {} workload has no prewarm command",
            self.name()
        )))
    }
    /// The fix to suggest when a statement names a table that does not exist.
    fn missing_table_fix(&self) -> String {
        format!(
            "run `dbpress {} prepare` with the same options first",
            self.name()
        )
    }
    /// Whether its own statement failing with `e` says a table here is not this workload's
    /// (another tool's sbtest1, lacking a column the statements use), rather than that a
    /// statement needs fixing. No by default.
    fn names_a_foreign_table(&self, _e: &dbpress_driver::DbError) -> bool {
        false
    }
    /// False for a test of the machine (sysbench's `cpu`): it runs on sessions that send
    /// nothing, whatever target the options name.
    fn needs_database(&self) -> bool {
        true
    }
    /// Where the test's own data lives, when not in the database (fileio's files in the
    /// current directory): the disk whose figures the run samples. None: the driver's.
    fn data_location(&self) -> Option<dbpress_driver::DataLocation> {
        None
    }
    /// What the test does after its header and before its threads start, failing there as
    /// the peer does (fileio opens its files). Nothing by default.
    fn before_threads(&self) -> Result<()> {
        Ok(())
    }
    /// Refuse a run the options cannot make (fileio without `--file-test-mode`), before
    /// anything is printed; prepare and cleanup may still work. Ok by default.
    fn runnable(&self) -> Result<()> {
        Ok(())
    }
    /// The events each of `threads` threads runs, when the workload decides it, whatever
    /// --events says (sysbench mutex's one per thread; memory's share of
    /// `--memory-total-size` in blocks); None by default.
    fn events_per_thread(&self, _threads: u32) -> Option<u64> {
        None
    }
    /// Lines the test prints before its threads start, in sysbench's header too (`cpu`'s
    /// `Prime numbers limit: 10000` and a blank line); none by default.
    fn preamble(&self) -> Vec<String> {
        Vec::new()
    }
    /// Fail with a clear message if the prepared data is missing, before any worker starts.
    /// Returns warnings: what lets the run go but must be known to read its figures (shown
    /// before the run and kept in its result). Ready by default: nothing prepared to check.
    fn check_ready(&self, _conn: &mut dyn Connection, _ctx: &Context<'_>) -> Result<Vec<String>> {
        Ok(Vec::new())
    }
    /// The workload's own figures of a finished run (TPC-C's tpmC, mix and response-time
    /// check), from its result and what the workers counted; None for most workloads.
    fn figures(
        &self,
        _result: &dbpress_result::RunResult,
    ) -> Option<dbpress_result::WorkloadFigures> {
        None
    }
    /// Its own report of each interval, in place of dbpress's line, made on the reporter's
    /// thread when interval lines are printed; None (dbpress's lines) by default.
    fn interval_report(
        &self,
        _dialect: &'static Dialect,
        _threads: u32,
    ) -> Option<Box<dyn IntervalReport + '_>> {
        None
    }
    /// Its own report of each checkpoint, in place of dbpress's, made on the reporter's thread
    /// when checkpoints are asked for; None (dbpress's reports) by default.
    fn checkpoint_report(
        &self,
        _dialect: &'static Dialect,
        _threads: u32,
    ) -> Option<Box<dyn CheckpointReport + '_>> {
        None
    }
    /// Print its own final report (a sysbench script's `report_cumulative` hook) in place of
    /// sysbench's part of the text summary; whether it did. `period`: what that part reports
    /// (the run, or the time since its last --report-checkpoints); `elapsed_s`: the time since
    /// the start; `threads_running`: the workers still running. No by default.
    fn final_report(
        &self,
        _dialect: &'static Dialect,
        _period: &dbpress_result::Summary,
        _elapsed_s: f64,
        _threads_running: u32,
    ) -> bool {
        false
    }
    /// Prepare statements on `conn` and return the per-thread event generator.
    fn worker(
        &self,
        conn: &mut dyn Connection,
        dialect: &'static Dialect,
        thread: u32,
        rng: Rng,
        dist: Distribution,
    ) -> DbResult<Box<dyn EventGen>>;
}
