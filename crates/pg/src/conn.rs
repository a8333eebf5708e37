//! dbpress's own PostgreSQL protocol (v3) client, for every session: Unix socket, TCP, and TCP
//! with TLS (rustls, with libpq's sslmode meanings, configured in dbpress_net::tls). It writes
//! Bind/Execute/Sync into one buffer and skips DataRows in place; the `postgres` crate, which
//! dbpress used for TLS sessions before, runs a tokio runtime per client and decodes every row,
//! for several times the instructions per statement (bench/RESULTS.md).
//!
//! By phase: here the message framing, the session and the `Connection` it implements;
//! `startup` opens it (socket or TCP, TLS, startup message), `login` answers the server's
//! authentication request, `execute` runs statements.

use crate::auth;
use crate::errors::kind_of_sqlstate;
use crate::placeholders::numbered_placeholders;
use crate::target::{PgSslMode, PgTarget};
use dbpress_net::{tcp_connect, tls_handshake, Buffered, Stream};
use dbpress_session::text::{escape_standard, push_int, render_text};
use dbpress_session::{
    Connection, DbError, DbErrorKind, DbResult, QueryKind, ResultRows, RowBatch, StmtHandle, Value,
};
use rustls::ClientConfig;
use std::io::{self, Read, Write};
use std::os::unix::net::UnixStream;
use std::sync::Arc;
use std::time::Duration;

// The phases add methods to `PgWire` and import from here; this file names none of them.
mod execute;
mod login;
mod startup;

const INT2: u32 = 21;
const INT4: u32 = 23;
const INT8: u32 = 20;

/// Message framing over the buffered stream, with one write buffer.
struct Io {
    r: Buffered,
    out: Vec<u8>,
    /// The server's notices as libpq prints them, when a caller collects them (pgbench's
    /// `-i` prints the DROP's); None: passed over like any message nobody reads.
    notices: Option<Vec<String>>,
}

impl Io {
    /// The next backend message: (type, body), the body valid until the next call. A notice
    /// is collected instead, when notices are.
    #[inline]
    fn next(&mut self) -> io::Result<(u8, &[u8])> {
        self.r.fill(5)?;
        let h = &self.r.unread()[..5];
        let tag = h[0];
        let len = u32::from_be_bytes([h[1], h[2], h[3], h[4]]) as usize;
        if len < 4 {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "bad message length",
            ));
        }
        self.r.fill(1 + len)?;
        if tag == b'N' && self.notices.is_some() {
            return self.next_after_notice(len);
        }
        Ok((tag, self.r.take(5, len - 4)))
    }

    /// The notice just read kept, then the next message. Out of the way of `next`'s path,
    /// which every result of every statement takes.
    #[cold]
    #[inline(never)]
    fn next_after_notice(&mut self, len: usize) -> io::Result<(u8, &[u8])> {
        let text = notice_text(self.r.take(5, len - 4));
        if let Some(notices) = &mut self.notices {
            notices.push(text);
        }
        self.next()
    }

    /// Start a message of type `tag` in the write buffer; `finish` fills in its length.
    fn begin(&mut self, tag: u8) -> usize {
        self.out.push(tag);
        let at = self.out.len();
        self.out.extend_from_slice(&[0; 4]);
        at
    }

    fn finish(&mut self, len_at: usize) {
        let len = (self.out.len() - len_at) as u32;
        self.out[len_at..len_at + 4].copy_from_slice(&len.to_be_bytes());
    }

    fn cstr(&mut self, s: &[u8]) {
        self.out.extend_from_slice(s);
        self.out.push(0);
    }

    fn flush(&mut self) -> io::Result<()> {
        let r = self.r.stream.write_all(&self.out);
        self.out.clear();
        r.and_then(|()| self.r.stream.flush())
    }
}

/// The next message; if the stream ends, the error the server sent before closing it (a FATAL
/// such as 57P01 after pg_terminate_backend), else a lost connection.
fn next_or<'a>(io: &'a mut Io, err: &mut Option<DbError>) -> DbResult<(u8, &'a [u8])> {
    match io.next() {
        Ok(m) => Ok(m),
        Err(e) => Err(err.take().unwrap_or_else(|| lost(e))),
    }
}

fn lost(e: io::Error) -> DbError {
    if dbpress_net::timed_out(&e) {
        // Only the handshake reads and writes under a time limit; `in_phase` says which step.
        return DbError::new(DbErrorKind::Unreachable, TIMED_OUT, e.to_string());
    }
    DbError::new(DbErrorKind::ConnectionLost, "08006", e.to_string())
}

/// The code `lost` gives a read or write that ran out of the connect timeout (libpq's
/// SQLSTATE for a client unable to establish the connection), before `in_phase` words it.
const TIMED_OUT: &str = "08001";

fn protocol(what: &str) -> DbError {
    DbError::new(
        DbErrorKind::ConnectionLost,
        "08P01",
        format!("unexpected message from the server ({what})"),
    )
}

/// An ErrorResponse's fields as a `DbError` (SQLSTATE as the code).
fn error_response(body: &[u8]) -> DbError {
    let mut code = String::new();
    let mut message = String::new();
    let mut detail = String::new();
    let (mut position, mut hint, mut context) = (None, None, None);
    for field in body.split(|&b| b == 0).filter(|f| !f.is_empty()) {
        let text = String::from_utf8_lossy(&field[1..]).into_owned();
        match field[0] {
            b'C' => code = text,
            b'M' => message = text,
            b'D' => detail = text,
            b'P' => position = text.parse().ok(),
            b'H' => hint = Some(text),
            b'W' => context = Some(text),
            _ => {}
        }
    }
    let primary_len = message.len();
    if !detail.is_empty() {
        message = format!("{message}: {detail}");
    }
    let mut e = DbError::new(kind_of_sqlstate(&code), code, message);
    if !detail.is_empty() {
        e.primary_len = Some(primary_len);
    }
    e.position = position;
    e.hint = hint;
    e.context = context;
    e
}

/// Rows a CommandComplete tag reports ("UPDATE 1", "INSERT 0 1", "SELECT 5"; "BEGIN" has none).
fn tag_rows(body: &[u8]) -> u64 {
    let tag = body.strip_suffix(&[0]).unwrap_or(body);
    tag.rsplit(|&b| b == b' ')
        .next()
        .and_then(|n| std::str::from_utf8(n).ok()?.parse().ok())
        .unwrap_or(0)
}

struct Prepared {
    /// The workload's SQL (`?` placeholders), kept for text mode and re-preparing.
    sql: String,
    /// Server-side statement name; None for a text template.
    name: Option<String>,
    param_types: Vec<u32>,
    returns_rows: bool,
    /// Its result's column names (from the Describe when it was parsed).
    columns: Vec<String>,
}

pub struct PgWire {
    io: Io,
    /// The backend's process id, as pg_stat_activity.pid shows it.
    pid: u32,
    /// The server's version as it said when the session started.
    server_version: String,
    target: PgTarget,
    /// The TLS configuration when sslmode asks for TLS over TCP; kept for reconnecting.
    tls: Option<Arc<ClientConfig>>,
    text_mode: bool,
    stmts: Vec<Prepared>,
    text_buf: Vec<u8>,
    /// The last ReadyForQuery's transaction status (`I`, `T` or `E`).
    txn_status: u8,
    /// In pipeline mode: the Syncs sent inside it so far (`\syncpipeline`), each of whose
    /// ReadyForQuery is read at its end, as the final Sync's.
    pipeline: Option<u32>,
}

/// Where a simple-protocol query's DataRows go.
enum Sink<'a> {
    Skip,
    /// As strings, every result set's rows (`query_rows`, for setup).
    Text(&'a mut Vec<Vec<Option<String>>>),
    /// Typed, the last result set's rows (`execute_rows`).
    Typed(&'a mut ResultRows),
}

impl Connection for PgWire {
    fn session_id(&self) -> Option<u64> {
        Some(u64::from(self.pid))
    }

    fn socket_fd(&self) -> Option<std::os::fd::RawFd> {
        Some(self.io.r.stream.raw_fd())
    }

    fn prepare(&mut self, sql: &str) -> DbResult<StmtHandle> {
        self.stmts.push(Prepared {
            sql: sql.to_string(),
            name: None,
            param_types: Vec::new(),
            returns_rows: false,
            columns: Vec::new(),
        });
        let i = self.stmts.len() - 1;
        if !self.text_mode {
            if let Err(e) = self.parse(i) {
                self.stmts.pop();
                return Err(e);
            }
        }
        Ok(StmtHandle(i as u32))
    }

    fn prepare_text(&mut self, sql: &str) -> DbResult<StmtHandle> {
        self.stmts.push(Prepared {
            sql: sql.to_string(),
            name: None,
            param_types: Vec::new(),
            returns_rows: false,
            columns: Vec::new(),
        });
        Ok(StmtHandle(self.stmts.len() as u32 - 1))
    }

    fn execute(&mut self, stmt: StmtHandle, params: &[Value<'_>]) -> DbResult<QueryKind> {
        let p = &self.stmts[stmt.0 as usize];
        if p.name.is_none() {
            return self.simple_template(stmt, params, Sink::Skip);
        }
        let returns_rows = p.returns_rows;
        if self.pipeline.is_some() {
            self.send_execute(stmt, params, false, false)?;
            return Ok(QueryKind::Other);
        }
        self.send_execute(stmt, params, false, true)?;
        self.read_execute(returns_rows, None)
    }

    fn pipeline_start(&mut self) -> DbResult<()> {
        self.pipeline = Some(0);
        Ok(())
    }

    fn pipeline_sync(&mut self) -> DbResult<()> {
        let Some(syncs) = &mut self.pipeline else {
            return Err(not_in_pipeline());
        };
        *syncs += 1;
        let at = self.io.begin(b'S');
        self.io.finish(at);
        self.io.flush().map_err(lost)
    }

    fn pipeline_end(&mut self) -> DbResult<()> {
        let Some(syncs) = self.pipeline.take() else {
            return Err(not_in_pipeline());
        };
        let at = self.io.begin(b'S');
        self.io.finish(at);
        self.io.flush().map_err(lost)?;
        // Each Sync's results to its ReadyForQuery: an error skips the rest of its segment
        // only; the first error is the pipeline's.
        let mut first = None;
        for _ in 0..=syncs {
            match self.drain() {
                Err(e) if e.kind == DbErrorKind::ConnectionLost => return Err(e),
                Err(e) => {
                    first.get_or_insert(e);
                }
                Ok(()) => {}
            }
        }
        first.map_or(Ok(()), Err)
    }

    fn execute_rows(
        &mut self,
        stmt: StmtHandle,
        params: &[Value<'_>],
        rows: &mut ResultRows,
    ) -> DbResult<QueryKind> {
        rows.start(0);
        let p = &self.stmts[stmt.0 as usize];
        if p.name.is_none() {
            return self.simple_template(stmt, params, Sink::Typed(rows));
        }
        if rows.wants_names() {
            rows.name_columns(p.columns.iter().map(String::as_bytes));
        }
        let returns_rows = p.returns_rows;
        if self.pipeline.is_some() {
            return Err(DbError::new(
                DbErrorKind::Input,
                "client",
                "a statement whose rows are read cannot be pipelined",
            ));
        }
        self.send_execute(stmt, params, true, true)?;
        self.read_execute(returns_rows, Some(rows))
    }

    fn query(&mut self, sql: &str) -> DbResult<QueryKind> {
        self.simple(sql.as_bytes(), Sink::Skip)
    }

    fn query_into(&mut self, sql: &str, rows: &mut ResultRows) -> DbResult<QueryKind> {
        rows.start(0);
        self.simple(sql.as_bytes(), Sink::Typed(rows))
    }

    fn query_rows(&mut self, sql: &str) -> DbResult<Vec<Vec<Option<String>>>> {
        let mut rows = Vec::new();
        self.simple(sql.as_bytes(), Sink::Text(&mut rows))?;
        Ok(rows)
    }

    fn in_transaction(&self) -> bool {
        self.txn_status != b'I'
    }

    fn collect_notices(&mut self, on: bool) {
        self.io.notices = on.then(Vec::new);
    }

    fn take_notices(&mut self) -> Vec<String> {
        self.io
            .notices
            .as_mut()
            .map(std::mem::take)
            .unwrap_or_default()
    }

    fn server_version(&self) -> Option<&str> {
        Some(&self.server_version)
            .filter(|v| !v.is_empty())
            .map(String::as_str)
    }

    fn reconnect(&mut self) -> DbResult<()> {
        self.reopen()?;
        for i in 0..self.stmts.len() {
            if self.stmts[i].name.is_some() {
                self.parse(i)?;
            }
        }
        Ok(())
    }

    fn bulk_load(
        &mut self,
        table: &str,
        columns: &str,
        fill: &mut dyn FnMut(&mut RowBatch) -> bool,
    ) -> DbResult<&'static str> {
        let sql = format!("COPY {table} ({columns}) FROM STDIN");
        let width = columns.split(',').count();
        self.copy_in(&sql, width, fill).map(|()| "COPY")
    }

    fn copy_in(
        &mut self,
        sql: &str,
        width: usize,
        fill: &mut dyn FnMut(&mut RowBatch) -> bool,
    ) -> DbResult<()> {
        let at = self.io.begin(b'Q');
        self.io.cstr(sql.as_bytes());
        self.io.finish(at);
        self.io.flush().map_err(lost)?;
        loop {
            let (tag, body) = self.io.next().map_err(lost)?;
            match tag {
                b'G' => break,
                b'E' => {
                    let e = error_response(body);
                    self.drain()?;
                    return Err(e);
                }
                _ => {}
            }
        }
        // COPY is one stream; batches only bound the memory between CopyData messages.
        let mut batch = RowBatch::new(width, 4096, 1 << 20);
        loop {
            batch.clear();
            let more = fill(&mut batch);
            if !batch.is_empty() {
                let at = self.io.begin(b'd');
                batch.write_tsv(&mut self.io.out);
                self.io.finish(at);
                self.io.flush().map_err(lost)?;
            }
            if !more {
                break;
            }
        }
        let at = self.io.begin(b'c');
        self.io.finish(at);
        self.io.flush().map_err(lost)?;
        self.drain()
    }
}

fn not_in_pipeline() -> DbError {
    DbError::new(DbErrorKind::Other, "client", "not in pipeline mode")
}

/// A NoticeResponse as libpq's default notice processor prints it: `SEVERITY:  message`,
/// then its detail and hint lines.
fn notice_text(body: &[u8]) -> String {
    let mut fields = std::collections::HashMap::new();
    for field in body.split(|b| *b == 0).filter(|f| !f.is_empty()) {
        fields.insert(field[0], String::from_utf8_lossy(&field[1..]).into_owned());
    }
    let mut text = format!(
        "{}:  {}",
        fields.get(&b'S').map_or("NOTICE", String::as_str),
        fields.get(&b'M').map_or("", String::as_str)
    );
    for (code, label) in [(b'D', "DETAIL"), (b'H', "HINT")] {
        if let Some(v) = fields.get(&code) {
            text.push_str(&format!("\n{label}:  {v}"));
        }
    }
    text
}

fn out_of_range(n: i64) -> DbError {
    DbError::new(
        DbErrorKind::Other,
        "22003",
        format!("value {n} is out of range for the parameter's integer type"),
    )
}

impl Drop for PgWire {
    fn drop(&mut self) {
        // Terminate, so the server ends the session at once instead of on a broken pipe.
        let at = self.io.begin(b'X');
        self.io.finish(at);
        let _ = self.io.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_tags_give_their_row_counts() {
        assert_eq!(tag_rows(b"UPDATE 1\0"), 1);
        assert_eq!(tag_rows(b"INSERT 0 3\0"), 3);
        assert_eq!(tag_rows(b"BEGIN\0"), 0);
        assert_eq!(tag_rows(b"SELECT 100\0"), 100);
    }

    #[test]
    fn error_fields_become_sqlstate_and_message() {
        let e = error_response(b"SERROR\0C40P01\0Mdeadlock detected\0DProcess 1 waits\0\0");
        assert_eq!(e.code, "40P01");
        assert_eq!(e.kind, DbErrorKind::Deadlock);
        assert_eq!(e.message, "deadlock detected: Process 1 waits");
        assert_eq!(e.primary_len, Some("deadlock detected".len()));
        let e = error_response(b"SERROR\0C42P01\0Mno such table\0\0");
        assert_eq!(e.primary_len, None);
    }
}
