//! One client session, as every engine's client offers it to the workloads, and the bulk load
//! any session can do.

use crate::error::DbResult;
use crate::error::{DbError, DbErrorKind};
use crate::result_rows::ResultRows;
use crate::rows::RowBatch;
use crate::text::multi_row_insert;
use crate::value::{QueryKind, StmtHandle, Value};

/// One client session.
pub trait Connection: Send {
    /// Prepare `sql` (with `?` placeholders). In text mode, or when the server cannot prepare
    /// this statement, the connection keeps it as a text template instead.
    fn prepare(&mut self, sql: &str) -> DbResult<StmtHandle>;
    /// Keep `sql` as a text template whatever the prepared-statement mode: executing it sends
    /// the statement with values substituted (sysbench's text-only workloads need exactly that).
    fn prepare_text(&mut self, sql: &str) -> DbResult<StmtHandle>;
    /// Execute a prepared statement, discarding any rows.
    fn execute(&mut self, stmt: StmtHandle, params: &[Value<'_>]) -> DbResult<QueryKind>;
    /// Execute a prepared statement and keep the rows of its (last) result in `rows`, which
    /// is emptied first; for workloads whose next statement depends on the answer (TPC-C).
    fn execute_rows(
        &mut self,
        _stmt: StmtHandle,
        _params: &[Value<'_>],
        _rows: &mut ResultRows,
    ) -> DbResult<QueryKind> {
        Err(DbError::new(
            DbErrorKind::Other,
            "client",
            "this connection cannot return rows to a workload",
        ))
    }
    /// Run text SQL, discarding any rows.
    fn query(&mut self, sql: &str) -> DbResult<QueryKind>;
    /// Run text SQL as `query` does, keeping the rows of its (last) result in `rows`, which is
    /// emptied first; for a script's `con:query`, whose result it may read (sysbench's Lua API).
    fn query_into(&mut self, _sql: &str, _rows: &mut ResultRows) -> DbResult<QueryKind> {
        Err(DbError::new(
            DbErrorKind::Other,
            "client",
            "this connection cannot return rows to a workload",
        ))
    }
    /// Run text SQL and return its rows as text (for setup and metadata, never on the hot path).
    fn query_rows(&mut self, sql: &str) -> DbResult<Vec<Vec<Option<String>>>>;
    /// Drop the session, open a new one, and re-prepare every statement.
    fn reconnect(&mut self) -> DbResult<()>;
    /// Bulk-load rows into `table` (`columns` comma-separated, in the order the rows give
    /// values) by the engine's fastest path (prepared multi-row INSERTs with binary values,
    /// COPY, or prepared INSERTs in one transaction; text multi-row INSERTs where there is no
    /// other). `fill` adds rows to the batch until it `is_full` and returns false once it has
    /// added the last row. Returns the name of the path taken, for messages.
    fn bulk_load(
        &mut self,
        table: &str,
        columns: &str,
        fill: &mut dyn FnMut(&mut RowBatch) -> bool,
    ) -> DbResult<&'static str> {
        load_as_text(self, table, columns, fill)
    }
    /// Run `sql`, a `COPY ... FROM STDIN` as the caller words it (a peer's own statement),
    /// sending the rows `fill` gives (`width` values each) as its data. PostgreSQL's alone.
    fn copy_in(
        &mut self,
        sql: &str,
        _width: usize,
        _fill: &mut dyn FnMut(&mut RowBatch) -> bool,
    ) -> DbResult<()> {
        Err(DbError::new(
            DbErrorKind::Setup,
            "0A000",
            format!("`{sql}`: COPY FROM STDIN is PostgreSQL's; this server has no such statement"),
        ))
    }
    /// Free every statement this session prepared on the server (MySQL's COM_STMT_CLOSE, which
    /// has no answer) before it ends, as a peer that closes its statements before quitting
    /// (tpcc_load) does, so the server counts the same. Handles are not valid afterwards.
    fn close_statements(&mut self) -> DbResult<()> {
        Ok(())
    }
    /// Enter pipeline mode (PostgreSQL's extended protocol without a Sync after each
    /// statement): from here prepared statements are sent and not waited for, until
    /// `pipeline_end`.
    fn pipeline_start(&mut self) -> DbResult<()> {
        Err(DbError::new(
            DbErrorKind::Unsupported,
            "client",
            "this connection cannot pipeline statements (PostgreSQL's can)",
        ))
    }
    /// Sync the pipeline, read every queued statement's result, and leave pipeline mode; the
    /// first error among them.
    /// A Sync inside the pipeline: the statements sent since the last one end (their
    /// implicit transaction commits, or an error skips to here), the pipeline going on.
    fn pipeline_sync(&mut self) -> DbResult<()> {
        Err(DbError::new(
            DbErrorKind::Unsupported,
            "client",
            "this connection is not in pipeline mode",
        ))
    }
    fn pipeline_end(&mut self) -> DbResult<()> {
        Err(DbError::new(
            DbErrorKind::Unsupported,
            "client",
            "this connection is not in pipeline mode",
        ))
    }
    /// Whether the session is inside a transaction block as the server last said (PostgreSQL's
    /// ReadyForQuery status); false where the client cannot tell.
    fn in_transaction(&self) -> bool {
        false
    }
    /// Keep the server's notices (from now on, until turned off) for `take_notices`, as
    /// libpq's notice processor would print them; where a server sends none, nothing.
    fn collect_notices(&mut self, _on: bool) {}
    /// The notices kept since the last call.
    fn take_notices(&mut self) -> Vec<String> {
        Vec::new()
    }
    /// The server's version as it told the client when the session started (PostgreSQL's
    /// `server_version` parameter); None where the protocol says none before a query.
    fn server_version(&self) -> Option<&str> {
        None
    }
    /// The server's id for this session (PostgreSQL's backend pid, MySQL's connection id), as
    /// its session views show it; None where there is none or it is not known.
    fn session_id(&self) -> Option<u64> {
        None
    }
    /// The session's socket, where the connection owns one (to find the server's process on
    /// this machine); None for an embedded engine or a session inside another client library.
    fn socket_fd(&self) -> Option<std::os::fd::RawFd> {
        None
    }
}

/// Rows per text INSERT of the fallback path, and its string bytes at most: ~300 KB statements
/// fit the smallest max_allowed_packet still in use (1 MiB, MySQL 5.5), and the server's cost per
/// row stops falling at about 1 000 rows per statement.
const TEXT_ROWS: usize = 1_000;
const TEXT_BYTES: usize = 256 << 10;

/// The bulk load every connection can do: multi-row INSERTs as text, values substituted by the
/// connection's own escaping (`prepare_text`). Returns the name of the path, for messages.
pub fn load_as_text<C: Connection + ?Sized>(
    conn: &mut C,
    table: &str,
    columns: &str,
    fill: &mut dyn FnMut(&mut RowBatch) -> bool,
) -> DbResult<&'static str> {
    let cols = columns.split(',').count();
    let mut batch = RowBatch::new(cols, TEXT_ROWS, TEXT_BYTES);
    let mut templates: Vec<(usize, StmtHandle)> = Vec::new();
    loop {
        batch.clear();
        let more = fill(&mut batch);
        if !batch.is_empty() {
            let rows = batch.rows();
            let stmt = match templates.iter().find(|(n, _)| *n == rows) {
                Some(&(_, s)) => s,
                None => {
                    let s = conn.prepare_text(&multi_row_insert(table, columns, cols, rows))?;
                    templates.push((rows, s));
                    s
                }
            };
            let params: Vec<Value<'_>> = batch.values().collect();
            conn.execute(stmt, &params)?;
        }
        if !more {
            return Ok("multi-row INSERTs");
        }
    }
}
