//! dbpress's own PostgreSQL protocol (v3) client, for every session: Unix socket, TCP, and TCP
//! with TLS (rustls, with libpq's sslmode meanings, configured in tls.rs). It writes
//! Bind/Execute/Sync into one buffer and skips DataRows in place; the `postgres` crate, which
//! dbpress used for TLS sessions before, runs a tokio runtime per client and decodes every row,
//! for several times the instructions per statement (bench/RESULTS.md).

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

const INT2: u32 = 21;
const INT4: u32 = 23;
const INT8: u32 = 20;

/// Message framing over the buffered stream, with one write buffer.
struct Io {
    r: Buffered,
    out: Vec<u8>,
}

impl Io {
    /// The next backend message: (type, body), the body valid until the next call.
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
        Ok((tag, self.r.take(5, len - 4)))
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
    for field in body.split(|&b| b == 0).filter(|f| !f.is_empty()) {
        let text = String::from_utf8_lossy(&field[1..]).into_owned();
        match field[0] {
            b'C' => code = text,
            b'M' => message = text,
            b'D' => detail = text,
            _ => {}
        }
    }
    if !detail.is_empty() {
        message = format!("{message}: {detail}");
    }
    DbError::new(kind_of_sqlstate(&code), code, message)
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
}

pub struct PgWire {
    io: Io,
    /// The backend's process id, as pg_stat_activity.pid shows it.
    pid: u32,
    target: PgTarget,
    /// The TLS configuration when sslmode asks for TLS over TCP; kept for reconnecting.
    tls: Option<Arc<ClientConfig>>,
    text_mode: bool,
    stmts: Vec<Prepared>,
    text_buf: Vec<u8>,
}

impl PgWire {
    /// Open a session. With `tls`, ask the server for TLS first, as libpq does: a server that
    /// declines gets a plain session under sslmode=prefer and an error otherwise.
    pub fn open(
        target: &PgTarget,
        tls: Option<Arc<ClientConfig>>,
        text_mode: bool,
    ) -> DbResult<PgWire> {
        let (io, pid) = connect(target, tls.as_ref())?;
        Ok(PgWire {
            io,
            pid,
            target: target.clone(),
            tls,
            text_mode,
            stmts: Vec::new(),
            text_buf: Vec::new(),
        })
    }

    /// Read to ReadyForQuery after a Sync, returning the first error seen.
    fn drain(&mut self) -> DbResult<()> {
        let mut err = None;
        loop {
            let (tag, body) = next_or(&mut self.io, &mut err)?;
            match tag {
                b'Z' => return err.map_or(Ok(()), Err),
                b'E' if err.is_none() => err = Some(error_response(body)),
                _ => {}
            }
        }
    }

    fn parse(&mut self, index: usize) -> DbResult<()> {
        let name = format!("d{index}");
        let sql = numbered_placeholders(&self.stmts[index].sql);
        let io = &mut self.io;
        let at = io.begin(b'P');
        io.cstr(name.as_bytes());
        io.cstr(sql.as_bytes());
        io.out.extend_from_slice(&0u16.to_be_bytes());
        io.finish(at);
        let at = io.begin(b'D');
        io.out.push(b'S');
        io.cstr(name.as_bytes());
        io.finish(at);
        let at = io.begin(b'S');
        io.finish(at);
        io.flush().map_err(lost)?;
        let mut types = Vec::new();
        let mut rows = false;
        let mut err = None;
        loop {
            let (tag, body) = next_or(&mut self.io, &mut err)?;
            match tag {
                b't' => {
                    types = body
                        .get(2..)
                        .unwrap_or_default()
                        .chunks_exact(4)
                        .map(|c| u32::from_be_bytes([c[0], c[1], c[2], c[3]]))
                        .collect()
                }
                b'T' => rows = true,
                b'E' if err.is_none() => err = Some(error_response(body)),
                b'Z' => break,
                _ => {}
            }
        }
        if let Some(e) = err {
            return Err(e);
        }
        let p = &mut self.stmts[index];
        p.name = Some(name);
        p.param_types = types;
        p.returns_rows = rows;
        Ok(())
    }

    /// Simple-protocol query; its DataRows go where `sink` says.
    fn simple(&mut self, sql: &[u8], mut sink: Sink<'_>) -> DbResult<QueryKind> {
        let at = self.io.begin(b'Q');
        self.io.cstr(sql);
        self.io.finish(at);
        self.io.flush().map_err(lost)?;
        let mut kind = QueryKind::Other;
        let mut err = None;
        loop {
            let (tag, body) = next_or(&mut self.io, &mut err)?;
            match tag {
                b'T' => {
                    kind = QueryKind::Read;
                    // Typed rows keep the last result set, as the extended protocol's do.
                    if let Sink::Typed(rows) = &mut sink {
                        rows.start(0);
                    }
                }
                b'D' => match &mut sink {
                    Sink::Skip => {}
                    Sink::Text(out) => out.push(data_row_text(body)),
                    Sink::Typed(rows) => {
                        if data_row_into(body, rows).is_none() {
                            err.get_or_insert_with(|| protocol("DataRow"));
                        }
                    }
                },
                b'C' if kind != QueryKind::Read && tag_rows(body) > 0 => kind = QueryKind::Write,
                b'E' if err.is_none() => err = Some(error_response(body)),
                b'Z' => break,
                _ => {}
            }
        }
        err.map_or(Ok(kind), Err)
    }

    /// A text template (text mode, or a statement kept as text) with `params` substituted, sent
    /// by the simple protocol.
    fn simple_template(
        &mut self,
        stmt: StmtHandle,
        params: &[Value<'_>],
        sink: Sink<'_>,
    ) -> DbResult<QueryKind> {
        let mut buf = std::mem::take(&mut self.text_buf);
        render_text(
            &self.stmts[stmt.0 as usize].sql,
            params,
            escape_standard,
            &mut buf,
        );
        let r = self.simple(&buf, sink);
        self.text_buf = buf;
        r
    }
}

/// Where a simple-protocol query's DataRows go.
enum Sink<'a> {
    Skip,
    /// As strings, every result set's rows (`query_rows`, for setup).
    Text(&'a mut Vec<Vec<Option<String>>>),
    /// Typed, the last result set's rows (`execute_rows`).
    Typed(&'a mut ResultRows),
}

/// A DataRow's text-format values into `rows`; None if the message is malformed.
fn data_row_into(body: &[u8], rows: &mut ResultRows) -> Option<()> {
    let n = u16::from_be_bytes([*body.first()?, *body.get(1)?]) as usize;
    if rows.columns() != n {
        if !rows.is_empty() {
            return None;
        }
        rows.start(n);
    }
    let mut at = 2;
    for _ in 0..n {
        let len = i32::from_be_bytes(body.get(at..at + 4)?.try_into().ok()?);
        at += 4;
        if len < 0 {
            rows.push_null();
        } else {
            let end = at + len as usize;
            rows.push_bytes(body.get(at..end)?);
            at = end;
        }
    }
    Some(())
}

fn data_row_text(body: &[u8]) -> Vec<Option<String>> {
    let n = u16::from_be_bytes([body[0], body[1]]) as usize;
    let mut at = 2;
    let mut row = Vec::with_capacity(n);
    for _ in 0..n {
        let len = i32::from_be_bytes([body[at], body[at + 1], body[at + 2], body[at + 3]]);
        at += 4;
        if len < 0 {
            row.push(None);
        } else {
            let end = at + len as usize;
            row.push(Some(String::from_utf8_lossy(&body[at..end]).into_owned()));
            at = end;
        }
    }
    row
}

/// Open a session; with `tls`, send SSLRequest first and run the TLS handshake if the server
/// agrees.
/// Returns the session and its backend's process id (BackendKeyData).
fn connect(t: &PgTarget, tls: Option<&Arc<ClientConfig>>) -> DbResult<(Io, u32)> {
    let unreachable = |e: String, place: String| {
        DbError::new(
            DbErrorKind::Unreachable,
            "08001",
            format!("cannot connect to the server over {place}: {e}"),
        )
    };
    let stream = if t.is_socket() {
        let path = format!("{}/.s.PGSQL.{}", t.host.trim_end_matches('/'), t.port);
        Stream::from(
            UnixStream::connect(&path)
                .map_err(|e| unreachable(e.to_string(), format!("Unix socket {path}")))?,
        )
    } else {
        Stream::Tcp(
            tcp_connect(&t.host, t.port, t.connect_timeout)
                .map_err(|e| unreachable(e, format!("TCP {}:{}", t.host, t.port)))?,
        )
    };
    // Each step of the handshake waits at most the connect timeout: a server that accepted
    // the connection and then says nothing would otherwise hold the session forever.
    let _ = stream.set_io_timeout(t.connect_timeout);
    let mut io = Io {
        r: Buffered::new(stream),
        out: Vec::with_capacity(1024),
    };
    if let Some(config) = tls {
        io = start_tls(io, t, config).map_err(|e| in_phase(e, Phase::Tls, t))?;
    }
    let (io, pid) = start_session(io, t).map_err(|e| in_phase(e, Phase::Startup, t))?;
    // Logged in: from here on a statement may take as long as it takes.
    let _ = io.r.stream.set_io_timeout(None);
    Ok((io, pid))
}

/// The steps of opening a session that the connect timeout bounds one by one.
#[derive(Clone, Copy)]
enum Phase {
    Tls,
    Startup,
}

/// A handshake step's error, said as the step that did not answer when a read or write ran
/// out of time (`lost` marks those).
fn in_phase(e: DbError, phase: Phase, t: &PgTarget) -> DbError {
    if e.code != TIMED_OUT || e.kind != DbErrorKind::Unreachable {
        return e;
    }
    let within = dbpress_net::seconds(t.connect_timeout.unwrap_or_default());
    let place = t.place();
    let what = match phase {
        Phase::Tls => format!(
            "the server at {place} accepted the connection but did not finish the TLS request and handshake within {within}"
        ),
        Phase::Startup => format!(
            "the server at {place} accepted the connection but did not answer the startup and authentication within {within}: it is hung, overloaded, or not a PostgreSQL server"
        ),
    };
    DbError::new(
        DbErrorKind::NoAnswer,
        "08001",
        format!("{what} ({} sets this limit)", t.fixes.connect_timeout),
    )
}

/// StartupMessage, authentication, then the server's parameters up to ReadyForQuery.
fn start_session(mut io: Io, t: &PgTarget) -> DbResult<(Io, u32)> {
    // StartupMessage: no type byte, protocol 3.0, then name/value pairs.
    io.out.extend_from_slice(&[0; 4]);
    io.out.extend_from_slice(&196_608u32.to_be_bytes());
    let options = t.schema.as_ref().map(|s| format!("-c search_path={s}"));
    for (k, v) in [
        ("user", t.user.as_str()),
        ("database", t.db.as_str()),
        ("application_name", "dbpress"),
        ("client_encoding", "UTF8"),
        ("options", options.as_deref().unwrap_or("")),
    ] {
        if v.is_empty() {
            continue;
        }
        io.cstr(k.as_bytes());
        io.cstr(v.as_bytes());
    }
    io.out.push(0);
    io.finish(0);
    io.flush().map_err(lost)?;
    authenticate(&mut io, t)?;
    // ParameterStatus, BackendKeyData, then ReadyForQuery.
    let mut pid = 0;
    loop {
        let (tag, body) = io.next().map_err(lost)?;
        match tag {
            b'K' => {
                if let Some(b) = body.get(0..4) {
                    pid = u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
                }
            }
            b'Z' => return Ok((io, pid)),
            b'E' => return Err(error_response(body)),
            _ => {}
        }
    }
}

/// SSLRequest, then the handshake if the server answers 'S'. 'N' leaves the session plain
/// under sslmode=prefer and fails under require and the verify modes.
fn start_tls(mut io: Io, t: &PgTarget, config: &Arc<ClientConfig>) -> DbResult<Io> {
    let failed = |why: String| {
        DbError::new(
            DbErrorKind::Setup,
            "08001",
            format!(
                "TLS with the PostgreSQL server failed ({why}): {}",
                t.fixes.tls_failed
            ),
        )
    };
    // SSLRequest: length 8, code 1234/5679; the answer is one byte, 'S' or 'N'.
    io.out.extend_from_slice(&8u32.to_be_bytes());
    io.out.extend_from_slice(&80_877_103u32.to_be_bytes());
    io.flush().map_err(lost)?;
    io.r.fill(1).map_err(lost)?;
    let answer = io.r.unread()[0];
    io.r.take(1, 0);
    match answer {
        b'S' => {}
        b'N' if t.ssl == PgSslMode::Prefer => return Ok(io),
        b'N' => {
            return Err(failed(format!(
                "the server does not accept TLS connections, and {}={} requires TLS",
                t.fixes.ssl_mode_option,
                t.ssl.name()
            )))
        }
        other => {
            return Err(DbError::new(
                DbErrorKind::Setup,
                "08P01",
                format!(
                    "the server answered the TLS request with {:?}, not S or N",
                    other as char
                ),
            ))
        }
    }
    let Stream::Tcp(tcp) = io.r.into_stream().map_err(|e| failed(e.to_string()))? else {
        return Err(protocol("TLS over a non-TCP stream"));
    };
    let stream = tls_handshake(tcp, Arc::clone(config), &t.host).map_err(|e| {
        if dbpress_net::timed_out(&e) {
            lost(e)
        } else {
            failed(e.to_string())
        }
    })?;
    Ok(Io {
        r: Buffered::new(stream),
        out: io.out,
    })
}

fn no_password() -> DbError {
    DbError::new(
        DbErrorKind::Auth,
        "28P01",
        "the server asked for a password and none was given",
    )
}

fn authenticate(io: &mut Io, t: &PgTarget) -> DbResult<()> {
    let mut scram: Option<auth::Scram> = None;
    loop {
        let (tag, body) = io.next().map_err(lost)?;
        if tag == b'E' {
            return Err(error_response(body));
        }
        if tag != b'R' || body.len() < 4 {
            return Err(protocol("authentication"));
        }
        let kind = u32::from_be_bytes([body[0], body[1], body[2], body[3]]);
        let data = body[4..].to_vec();
        let password = t.password.expose();
        match kind {
            0 => return Ok(()),
            3 => {
                if password.is_empty() {
                    return Err(no_password());
                }
                let at = io.begin(b'p');
                io.cstr(password.as_bytes());
                io.finish(at);
            }
            5 => {
                if password.is_empty() {
                    return Err(no_password());
                }
                let hashed = auth::md5_password(&t.user, password, &data[..4.min(data.len())]);
                let at = io.begin(b'p');
                io.cstr(hashed.as_bytes());
                io.finish(at);
            }
            10 => {
                if password.is_empty() {
                    return Err(no_password());
                }
                let offers_scram = data.split(|&b| b == 0).any(|m| m == b"SCRAM-SHA-256");
                if !offers_scram {
                    return Err(DbError::new(
                        DbErrorKind::Unsupported,
                        "28000",
                        "the server offers no SASL mechanism dbpress speaks (SCRAM-SHA-256)",
                    ));
                }
                let s = auth::Scram::new(password, nonce());
                let first = s.client_first();
                let at = io.begin(b'p');
                io.cstr(b"SCRAM-SHA-256");
                io.out
                    .extend_from_slice(&(first.len() as i32).to_be_bytes());
                io.out.extend_from_slice(first.as_bytes());
                io.finish(at);
                scram = Some(s);
            }
            11 => {
                let s = scram.as_mut().ok_or_else(|| protocol("SASL continue"))?;
                let fin = s
                    .client_final(&String::from_utf8_lossy(&data))
                    .map_err(|m| DbError::new(DbErrorKind::Auth, "28000", m))?;
                let at = io.begin(b'p');
                io.out.extend_from_slice(fin.as_bytes());
                io.finish(at);
            }
            12 => {
                let s = scram.as_ref().ok_or_else(|| protocol("SASL final"))?;
                s.verify_server_final(&String::from_utf8_lossy(&data))
                    .map_err(|m| DbError::new(DbErrorKind::Auth, "28000", m))?;
                continue;
            }
            other => {
                return Err(DbError::new(
                    DbErrorKind::Unsupported,
                    "28000",
                    format!("authentication method {other} is not supported by dbpress's client"),
                ))
            }
        }
        io.flush().map_err(lost)?;
    }
}

/// 18 unpredictable bytes for the SCRAM nonce (from the kernel, else the clock).
fn nonce() -> [u8; 18] {
    let mut b = [0u8; 18];
    let from_kernel = std::fs::File::open("/dev/urandom").and_then(|mut f| f.read_exact(&mut b));
    if from_kernel.is_err() {
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or(Duration::ZERO)
            .as_nanos()
            .to_le_bytes();
        b[..16].copy_from_slice(&t);
    }
    b
}

impl PgWire {
    /// Bind and execute prepared statement `stmt` (unnamed portal) and Sync, in one write.
    /// Results come in binary when they are skipped, as text when `text_results` (read).
    #[inline(always)]
    fn send_execute(
        &mut self,
        stmt: StmtHandle,
        params: &[Value<'_>],
        text_results: bool,
    ) -> DbResult<()> {
        let p = &self.stmts[stmt.0 as usize];
        let name = p.name.as_deref().unwrap_or_default();
        let io = &mut self.io;
        // Bind: unnamed portal; integers in binary where the server typed them as integers,
        // everything else as text; results in binary (they are skipped, never converted).
        let at = io.begin(b'B');
        io.out.push(0);
        io.cstr(name.as_bytes());
        io.out
            .extend_from_slice(&(params.len() as u16).to_be_bytes());
        for (i, v) in params.iter().enumerate() {
            let binary = matches!(v, Value::Int(_))
                && matches!(p.param_types.get(i), Some(&(INT2 | INT4 | INT8)));
            io.out.extend_from_slice(&u16::from(binary).to_be_bytes());
        }
        io.out
            .extend_from_slice(&(params.len() as u16).to_be_bytes());
        for (i, v) in params.iter().enumerate() {
            match *v {
                Value::Null => io.out.extend_from_slice(&(-1i32).to_be_bytes()),
                Value::Str(s) => {
                    io.out.extend_from_slice(&(s.len() as i32).to_be_bytes());
                    io.out.extend_from_slice(s);
                }
                Value::Int(n) => match p.param_types.get(i) {
                    Some(&INT4) => {
                        let n = i32::try_from(n).map_err(|_| out_of_range(n))?;
                        io.out.extend_from_slice(&4i32.to_be_bytes());
                        io.out.extend_from_slice(&n.to_be_bytes());
                    }
                    Some(&INT8) => {
                        io.out.extend_from_slice(&8i32.to_be_bytes());
                        io.out.extend_from_slice(&n.to_be_bytes());
                    }
                    Some(&INT2) => {
                        let n = i16::try_from(n).map_err(|_| out_of_range(n))?;
                        io.out.extend_from_slice(&2i32.to_be_bytes());
                        io.out.extend_from_slice(&n.to_be_bytes());
                    }
                    _ => {
                        let len_at = io.out.len();
                        io.out.extend_from_slice(&[0; 4]);
                        push_int(&mut io.out, n);
                        let len = (io.out.len() - len_at - 4) as i32;
                        io.out[len_at..len_at + 4].copy_from_slice(&len.to_be_bytes());
                    }
                },
            }
        }
        if text_results {
            io.out.extend_from_slice(&[0, 0]);
        } else {
            io.out.extend_from_slice(&[0, 1, 0, 1]);
        }
        io.finish(at);
        let at = io.begin(b'E');
        io.out.extend_from_slice(&[0, 0, 0, 0, 0]);
        io.finish(at);
        let at = io.begin(b'S');
        io.finish(at);
        io.flush().map_err(lost)?;

        Ok(())
    }

    /// Read an execute's reply to ReadyForQuery, keeping its DataRows in `rows` when given.
    #[inline(always)]
    fn read_execute(
        &mut self,
        returns_rows: bool,
        mut rows: Option<&mut ResultRows>,
    ) -> DbResult<QueryKind> {
        let mut changed = 0;
        let mut err = None;
        loop {
            let (tag, body) = next_or(&mut self.io, &mut err)?;
            match tag {
                b'D' => {
                    if let Some(out) = rows.as_deref_mut() {
                        if data_row_into(body, out).is_none() {
                            err.get_or_insert_with(|| protocol("DataRow"));
                        }
                    }
                }
                // Without `rows`, DataRows ('D') are skipped where they lie in the buffer.
                b'C' => changed = tag_rows(body),
                b'E' if err.is_none() => err = Some(error_response(body)),
                b'Z' => break,
                _ => {}
            }
        }
        if let Some(e) = err {
            return Err(e);
        }
        Ok(if returns_rows {
            QueryKind::Read
        } else if changed > 0 {
            QueryKind::Write
        } else {
            QueryKind::Other
        })
    }
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
        });
        Ok(StmtHandle(self.stmts.len() as u32 - 1))
    }

    fn execute(&mut self, stmt: StmtHandle, params: &[Value<'_>]) -> DbResult<QueryKind> {
        let p = &self.stmts[stmt.0 as usize];
        if p.name.is_none() {
            return self.simple_template(stmt, params, Sink::Skip);
        }
        let returns_rows = p.returns_rows;
        self.send_execute(stmt, params, false)?;
        self.read_execute(returns_rows, None)
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
        let returns_rows = p.returns_rows;
        self.send_execute(stmt, params, true)?;
        self.read_execute(returns_rows, Some(rows))
    }

    fn query(&mut self, sql: &str) -> DbResult<QueryKind> {
        self.simple(sql.as_bytes(), Sink::Skip)
    }

    fn query_rows(&mut self, sql: &str) -> DbResult<Vec<Vec<Option<String>>>> {
        let mut rows = Vec::new();
        self.simple(sql.as_bytes(), Sink::Text(&mut rows))?;
        Ok(rows)
    }

    fn reconnect(&mut self) -> DbResult<()> {
        // A prefer session asks for TLS again, so a server that turned TLS on since is used
        // with it, as a new session would be.
        (self.io, self.pid) = connect(&self.target, self.tls.as_ref())?;
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
        let mut batch = RowBatch::new(columns.split(',').count(), 4096, 1 << 20);
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
        self.drain().map(|()| "COPY")
    }
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
    }
}
