//! dbpress's own MySQL client protocol implementation, for TCP (plain or TLS) and Unix-socket
//! sessions.
//!
//! Why it exists: the `mysql` crate decodes every row into allocated values (≈1 000 instructions
//! per row measured under callgrind), which makes the client, not the server, the bottleneck of a
//! range-heavy OLTP event. A load generator only needs to know that rows arrived and how many
//! statements did what, so this client speaks just that much of the protocol — handshake, TLS
//! (rustls, configured in dbpress_net::tls), mysql_native_password, client_ed25519, caching_sha2_password
//! and sha256_password (full authentication over TLS or the socket in cleartext, over plain TCP
//! encrypted with the server's RSA key, rsa.rs), COM_QUERY, COM_STMT_PREPARE/EXECUTE — and skips
//! rows in place. Servers that want another auth plugin get the `mysql` crate (see
//! `dbpress_driver::mysql`), and the run names it.

mod bulk;
mod rows;
mod session;

use crate::auth;
use crate::caps::*;
use crate::errors::kind_of_code;
use crate::escape::{escape_ansi, escape_backslash};
use crate::greeting::{BadGreeting, Greeting};
use crate::options::{Fixes, Transport, WireOpts};
use crate::packet::{cstr, lenenc, put_lenenc, PacketIo, Stream};
use dbpress_session::text::render_text;
use dbpress_session::{Connection, DbError, DbErrorKind, DbResult, QueryKind, Value};
use std::os::unix::net::UnixStream;
use std::sync::Arc;

const SERVER_MORE_RESULTS_EXISTS: u16 = 8;
/// utf8mb4_general_ci, understood by MySQL 5.5+ and MariaDB.
const CHARSET_UTF8MB4: u8 = 45;

/// Why a session could not be opened.
pub enum OpenError {
    Db(DbError),
    /// The server wants something this client does not speak; the caller falls back.
    Unsupported(String),
}

impl From<DbError> for OpenError {
    fn from(e: DbError) -> Self {
        OpenError::Db(e)
    }
}

struct Stmt {
    /// Server statement id, or None for a text template.
    id: Option<u32>,
    params: u16,
    sql: String,
    /// Parameter types last sent (one bit per parameter in each word: is it a string, is it
    /// NULL, is it an integer too wide for INT), or None before the first execute. Types go to the server only when they change, as
    /// libmysqlclient does, which spares the server re-binding them on every execute.
    bound: Option<(u64, u64, u64)>,
    /// Result column types from the prepare (or the last execute that resent them), for
    /// decoding binary rows; empty for a statement that returns none.
    columns: Vec<crate::packet::ColumnType>,
}

pub struct WireConn {
    io: PacketIo,
    deprecate_eof: bool,
    /// MARIADB_CLIENT_CACHE_METADATA was agreed: result headers carry a metadata-follows byte.
    cache_metadata: bool,
    opts: WireOpts,
    /// The server's id for this session (the handshake's connection id, SHOW PROCESSLIST's Id).
    connection_id: u32,
    text_mode: bool,
    backslash_escapes: bool,
    stmts: Vec<Stmt>,
    text_buf: Vec<u8>,
}

fn io_lost(e: std::io::Error) -> DbError {
    DbError::new(
        DbErrorKind::ConnectionLost,
        "2013",
        format!("lost connection to server during query: {e}"),
    )
}

fn protocol(msg: &str) -> DbError {
    DbError::new(
        DbErrorKind::ConnectionLost,
        "2027",
        format!("malformed packet from server: {msg}"),
    )
}

/// Parse an ERR packet (0xFF, code, '#', SQLSTATE, message) into a classified error.
fn err_packet(p: &[u8]) -> DbError {
    let code = p
        .get(1..3)
        .map(|b| u16::from_le_bytes([b[0], b[1]]))
        .unwrap_or(0);
    let msg_start = if p.get(3) == Some(&b'#') { 9 } else { 3 };
    let message = String::from_utf8_lossy(p.get(msg_start..).unwrap_or(&[])).into_owned();
    let e = DbError::new(kind_of_code(code), code.to_string(), message);
    match p.get(4..msg_start) {
        Some(state) if msg_start == 9 => e.with_sqlstate(state),
        _ => e,
    }
}

fn tls_failed(transport: &Transport, why: &str, fixes: &Fixes) -> DbError {
    // The server's handshake_failure alert: it found nothing it accepts among what was
    // offered, which a certificate check cannot cause.
    let fix = if why.contains("HandshakeFailure") {
        fixes.ciphers_refused
    } else {
        fixes.certificate_refused
    };
    DbError::new(
        DbErrorKind::Setup,
        "2026",
        format!("TLS handshake with {transport} failed: {why}: {fix}"),
    )
}

/// The steps of opening a session that the connect timeout bounds one by one.
#[derive(Clone, Copy)]
enum HandshakeStep {
    Greeting,
    Tls,
    Login,
}

/// An I/O error during the handshake: the step that did not answer when a time limit ran out,
/// the lost connection otherwise.
fn handshake_lost(phase: HandshakeStep, e: std::io::Error, opts: &WireOpts) -> OpenError {
    if !dbpress_net::timed_out(&e) {
        return OpenError::Db(io_lost(e));
    }
    let within = dbpress_net::seconds(opts.connect_timeout.unwrap_or_default());
    let t = &opts.transport;
    let what = match phase {
        HandshakeStep::Greeting => format!(
            "the server at {t} accepted the connection but sent no greeting within {within}: it is hung, overloaded, or not a MySQL server"
        ),
        HandshakeStep::Tls => format!("the TLS handshake with the server at {t} did not finish within {within}"),
        HandshakeStep::Login => format!(
            "the server at {t} did not answer the login (authentication) within {within}"
        ),
    };
    OpenError::Db(DbError::new(
        DbErrorKind::NoAnswer,
        "2013",
        format!("{what} ({} sets this limit)", opts.fixes.connect_timeout),
    ))
}

fn connect_stream(t: &Transport, limit: Option<std::time::Duration>) -> Result<Stream, DbError> {
    let unreachable = |why: String| {
        let code = if matches!(t, Transport::Socket(_)) {
            "2002"
        } else {
            "2003"
        };
        DbError::new(
            DbErrorKind::Unreachable,
            code,
            format!("cannot connect to the server over {t}: {why}"),
        )
    };
    match t {
        Transport::Socket(p) => UnixStream::connect(p)
            .map(Stream::from)
            .map_err(|e| unreachable(e.to_string())),
        Transport::Tcp { host, port } => dbpress_net::tcp_connect(host, *port, limit)
            .map(Stream::Tcp)
            .map_err(unreachable),
    }
}

/// The handshake response's first 32 bytes (capabilities, max packet, character set, MariaDB's
/// extended capabilities), which are also the whole SSLRequest.
fn put_response_header(out: &mut Vec<u8>, caps: u32, ext_caps: u32) {
    out.extend_from_slice(&caps.to_le_bytes());
    out.extend_from_slice(&(1u32 << 30).to_le_bytes());
    out.push(CHARSET_UTF8MB4);
    out.extend_from_slice(&[0; 19]);
    out.extend_from_slice(&ext_caps.to_le_bytes());
}

impl WireConn {
    pub fn open(opts: &WireOpts, text_mode: bool) -> Result<WireConn, OpenError> {
        let limit = opts.connect_timeout;
        let stream = connect_stream(&opts.transport, limit)?;
        // Each step of the handshake waits at most `limit`: a server that accepted the
        // connection and then says nothing would otherwise hold the session forever.
        let _ = stream.set_io_timeout(limit);
        let lost_in = |phase: HandshakeStep, e: std::io::Error| handshake_lost(phase, e, opts);
        let mut io = PacketIo::new(stream);
        let p = io.next().map_err(|e| lost_in(HandshakeStep::Greeting, e))?;
        let Greeting {
            server_version,
            connection_id,
            mut scramble,
            server_caps,
            server_ext_caps,
            mut plugin,
        } = Greeting::parse(p).map_err(|bad| match bad {
            // e.g. 1040 too many connections, 1130 host not allowed: sent instead of a handshake.
            BadGreeting::Refused => OpenError::Db(err_packet(p)),
            BadGreeting::Protocol(v) => OpenError::Unsupported(format!("handshake protocol {v:?}")),
            BadGreeting::Malformed => OpenError::Db(protocol("handshake")),
        })?;
        if server_caps & CLIENT_PROTOCOL_41 == 0 {
            return Err(OpenError::Unsupported("server without protocol 4.1".into()));
        }
        let want = CLIENT_LONG_PASSWORD
            | CLIENT_LONG_FLAG
            | CLIENT_CONNECT_WITH_DB
            | CLIENT_PROTOCOL_41
            | CLIENT_TRANSACTIONS
            | CLIENT_SECURE_CONNECTION
            | CLIENT_MULTI_RESULTS
            | CLIENT_PS_MULTI_RESULTS
            | CLIENT_PLUGIN_AUTH
            | CLIENT_PLUGIN_AUTH_LENENC
            | CLIENT_DEPRECATE_EOF;
        let mut caps = want & server_caps;
        // Read by the server only when the client, too, leaves CLIENT_MYSQL clear.
        let ext_caps = if caps & CLIENT_LONG_PASSWORD == 0 {
            MARIADB_CLIENT_CACHE_METADATA & server_ext_caps
        } else {
            0
        };
        if opts.compress {
            if server_caps & CLIENT_COMPRESS == 0 {
                return Err(OpenError::Db(DbError::new(
                    DbErrorKind::Setup,
                    "2026",
                    format!(
                        "the server at {} does not offer protocol compression: {}",
                        opts.transport, opts.fixes.no_compression
                    ),
                )));
            }
            caps |= CLIENT_COMPRESS;
        }
        let mut encrypted = false;
        if let (Some(tls), Transport::Tcp { host, .. }) = (&opts.tls, &opts.transport) {
            if server_caps & CLIENT_SSL != 0 {
                caps |= CLIENT_SSL;
                // SSLRequest: the handshake response's first 32 bytes; the rest follows
                // encrypted.
                put_response_header(io.begin(), caps, ext_caps);
                io.send().map_err(|e| lost_in(HandshakeStep::Tls, e))?;
                io = io.start_tls(Arc::clone(&tls.config), host).map_err(|e| {
                    if dbpress_net::timed_out(&e) {
                        lost_in(HandshakeStep::Tls, e)
                    } else {
                        OpenError::Db(tls_failed(&opts.transport, &e.to_string(), opts.fixes))
                    }
                })?;
                encrypted = true;
            } else if tls.required {
                return Err(OpenError::Db(DbError::new(
                    DbErrorKind::Setup,
                    "2026",
                    format!(
                        "the server at {} does not offer TLS: {}",
                        opts.transport, opts.fixes.no_tls
                    ),
                )));
            }
        }
        let password = opts.password.expose().as_bytes();
        // A transport where a cleartext password cannot be read by others.
        let secure = encrypted || matches!(opts.transport, Transport::Socket(_));
        let mut login = Login {
            password,
            secure,
            padding: crate::rsa::Padding::for_server(&String::from_utf8_lossy(&server_version)),
            key: opts.server_public_key.clone(),
            awaiting_key: false,
            opts,
        };
        let reply = login.first_reply(&plugin, &scramble)?;
        {
            let out = io.begin();
            put_response_header(out, caps, ext_caps);
            out.extend_from_slice(opts.user.as_bytes());
            out.push(0);
            if caps & CLIENT_PLUGIN_AUTH_LENENC != 0 {
                put_lenenc(out, reply.len() as u64);
            } else {
                out.push(reply.len() as u8);
            }
            out.extend_from_slice(&reply);
            out.extend_from_slice(opts.db.as_bytes());
            out.push(0);
            out.extend_from_slice(&plugin);
            out.push(0);
        }
        io.send().map_err(|e| lost_in(HandshakeStep::Login, e))?;
        loop {
            let p = io
                .next()
                .map_err(|e| lost_in(HandshakeStep::Login, e))?
                .to_vec();
            let reply = match p.first() {
                Some(0x00) => {
                    // The OK that ends the login is the last packet sent as is.
                    if caps & CLIENT_COMPRESS != 0 {
                        io = io.start_compression();
                    }
                    break;
                }
                Some(0xFF) => return Err(OpenError::Db(err_packet(&p))),
                Some(0xFE) => {
                    // Auth switch: another plugin, with a fresh scramble.
                    let mut at = 1;
                    plugin = cstr(&p, &mut at).unwrap_or_default();
                    // Kept whole: the 20-byte scrambles' trailing NUL is cut by `auth_reply`,
                    // and client_ed25519's 32 random bytes may end in a zero that counts.
                    scramble = p.get(at..).unwrap_or(&[]).to_vec();
                    login.awaiting_key = false;
                    Some(login.first_reply(&plugin, &scramble)?)
                }
                Some(0x01) => login.more_data(&plugin, &p[1..], &scramble)?,
                _ => {
                    return Err(OpenError::Unsupported(
                        "unexpected authentication packet".into(),
                    ))
                }
            };
            if let Some(reply) = reply {
                io.begin().extend_from_slice(&reply);
                io.send().map_err(|e| lost_in(HandshakeStep::Login, e))?;
            }
        }
        // Logged in: from here on a statement may take as long as it takes.
        let _ = io.set_io_timeout(None);
        let mut conn = WireConn {
            connection_id,
            io,
            deprecate_eof: caps & CLIENT_DEPRECATE_EOF != 0,
            cache_metadata: ext_caps & MARIADB_CLIENT_CACHE_METADATA != 0,
            opts: opts.clone(),
            text_mode,
            backslash_escapes: true,
            stmts: Vec::new(),
            text_buf: Vec::with_capacity(1024),
        };
        if text_mode {
            let rows = conn.query_rows("SHOW SESSION VARIABLES LIKE 'sql_mode'")?;
            let mode = rows
                .first()
                .and_then(|r| r.get(1).cloned().flatten())
                .unwrap_or_default();
            conn.backslash_escapes = !mode.contains("NO_BACKSLASH_ESCAPES");
        }
        Ok(conn)
    }

    /// Read a command's response, skipping any rows, and classify it as sysbench does.
    fn read_result(&mut self) -> DbResult<QueryKind> {
        let mut kind = QueryKind::Other;
        loop {
            let p = self.io.next().map_err(io_lost)?;
            let status;
            match p.first() {
                Some(0x00) => {
                    let mut at = 1;
                    let affected = lenenc(p, &mut at).ok_or_else(|| protocol("OK"))?;
                    lenenc(p, &mut at).ok_or_else(|| protocol("OK"))?;
                    status = p
                        .get(at..at + 2)
                        .map(|b| u16::from_le_bytes([b[0], b[1]]))
                        .unwrap_or(0);
                    if kind == QueryKind::Other && affected > 0 {
                        kind = QueryKind::Write;
                    }
                }
                Some(0xFF) => return Err(err_packet(p)),
                Some(0xFB) => {
                    return Err(DbError::new(
                        DbErrorKind::Other,
                        "client",
                        "LOAD DATA LOCAL is not supported here",
                    ))
                }
                Some(_) => {
                    let columns = column_count(p, self.cache_metadata)?;
                    kind = QueryKind::Read;
                    self.skip_metadata(columns)?;
                    status = self.skip_rows()?;
                }
                None => return Err(protocol("empty packet")),
            }
            if status & SERVER_MORE_RESULTS_EXISTS == 0 {
                return Ok(kind);
            }
        }
    }

    /// Skip the column definitions (when sent) and the EOF that ends them (unless deprecated).
    fn skip_metadata(&mut self, columns: Option<u64>) -> DbResult<()> {
        for _ in 0..columns.unwrap_or(0) {
            self.io.next().map_err(io_lost)?;
        }
        if !self.deprecate_eof {
            self.io.next().map_err(io_lost)?;
        }
        Ok(())
    }

    /// Skip rows up to the terminating EOF/OK; return its status flags.
    fn skip_rows(&mut self) -> DbResult<u16> {
        loop {
            let p = self.io.next().map_err(io_lost)?;
            match p.first() {
                Some(0xFE) if p.len() < 0xFF_FFFF => {
                    return Ok(terminator_status(p, self.deprecate_eof))
                }
                Some(0xFF) => return Err(err_packet(p)),
                _ => {}
            }
        }
    }

    fn prepare_one(&mut self, sql: &str) -> DbResult<Stmt> {
        if self.text_mode {
            return Ok(Stmt {
                id: None,
                params: 0,
                sql: sql.to_string(),
                bound: None,
                columns: Vec::new(),
            });
        }
        let out = self.io.begin_command();
        out.push(0x16);
        out.extend_from_slice(sql.as_bytes());
        self.io.send().map_err(io_lost)?;
        let p = self.io.next().map_err(io_lost)?;
        match p.first() {
            Some(0x00) if p.len() >= 9 => {
                let id = u32::from_le_bytes([p[1], p[2], p[3], p[4]]);
                let columns = u16::from_le_bytes([p[5], p[6]]);
                let params = u16::from_le_bytes([p[7], p[8]]);
                if params > 0 {
                    for _ in 0..params {
                        self.io.next().map_err(io_lost)?;
                    }
                    if !self.deprecate_eof {
                        self.io.next().map_err(io_lost)?;
                    }
                }
                let mut types = Vec::new();
                if columns > 0 {
                    self.read_column_types(u64::from(columns), &mut types)?;
                }
                Ok(Stmt {
                    id: Some(id),
                    params,
                    sql: sql.to_string(),
                    bound: None,
                    columns: types,
                })
            }
            Some(0xFF) => {
                let e = err_packet(p);
                if e.kind == DbErrorKind::UnsupportedPrepare {
                    // Like sysbench: what the server cannot prepare goes as text.
                    Ok(Stmt {
                        id: None,
                        params: 0,
                        sql: sql.to_string(),
                        bound: None,
                        columns: Vec::new(),
                    })
                } else {
                    Err(e)
                }
            }
            _ => Err(protocol("prepare response")),
        }
    }
}

/// Send `template` with `params` substituted as one COM_QUERY (text mode), escaping strings the
/// way the session's sql_mode reads them; `buf` is reused across calls.
fn send_text(
    io: &mut PacketIo,
    buf: &mut Vec<u8>,
    backslash_escapes: bool,
    template: &str,
    params: &[Value<'_>],
) -> DbResult<()> {
    let escape = if backslash_escapes {
        escape_backslash
    } else {
        escape_ansi
    };
    render_text(template, params, escape, buf);
    let out = io.begin_command();
    out.push(0x03);
    out.extend_from_slice(buf);
    io.send().map_err(io_lost)
}

/// A value in the binary protocol's encoding for the type `bulk::type_code` gives it.
#[inline]
fn put_value(out: &mut Vec<u8>, v: &Value<'_>) {
    match v {
        Value::Null => {}
        Value::Int(i) => match i32::try_from(*i) {
            Ok(narrow) => out.extend_from_slice(&narrow.to_le_bytes()),
            Err(_) => out.extend_from_slice(&i.to_le_bytes()),
        },
        Value::Str(b) => {
            put_lenenc(out, b.len() as u64);
            out.extend_from_slice(b);
        }
    }
}

/// The column count of a result set header: `Some(n)` when the n column definitions follow,
/// `None` when the server left them out because they did not change since the last execute
/// (a flag byte after the count, present only with MARIADB_CLIENT_CACHE_METADATA).
fn column_count(p: &[u8], cache_metadata: bool) -> DbResult<Option<u64>> {
    let mut at = 0;
    let columns = lenenc(p, &mut at).ok_or_else(|| protocol("column count"))?;
    if cache_metadata && p.get(at) == Some(&0) {
        return Ok(None);
    }
    Ok(Some(columns))
}

/// Status flags of an EOF packet, or of an OK packet with the 0xFE header (CLIENT_DEPRECATE_EOF).
fn terminator_status(p: &[u8], deprecate_eof: bool) -> u16 {
    if deprecate_eof {
        let mut at = 1;
        if lenenc(p, &mut at).is_none() || lenenc(p, &mut at).is_none() {
            return 0;
        }
        p.get(at..at + 2)
            .map(|b| u16::from_le_bytes([b[0], b[1]]))
            .unwrap_or(0)
    } else {
        p.get(3..5)
            .map(|b| u16::from_le_bytes([b[0], b[1]]))
            .unwrap_or(0)
    }
}

/// One login's answers to the server's authentication packets.
struct Login<'a> {
    password: &'a [u8],
    /// TLS or a Unix socket: the password may travel in cleartext.
    secure: bool,
    padding: crate::rsa::Padding,
    /// The server's RSA public key: given by the user, or received during this login.
    key: Option<Arc<crate::rsa::PublicKey>>,
    /// The key was asked for; the next AuthMoreData carries it.
    awaiting_key: bool,
    opts: &'a WireOpts,
}

impl Login<'_> {
    /// The reply a plugin's first round sends with this scramble.
    fn first_reply(&mut self, plugin: &[u8], scramble: &[u8]) -> Result<Vec<u8>, OpenError> {
        let full_scramble = scramble;
        let scramble = &scramble[..scramble.len().min(20)];
        let password = self.password;
        match plugin {
            b"mysql_native_password" => Ok(auth::native_password(password, scramble)),
            b"caching_sha2_password" => Ok(auth::caching_sha2(password, scramble)),
            // The whole 32-byte scramble is the message MariaDB's server verifies.
            b"client_ed25519" => Ok(auth::ed25519(password, full_scramble)),
            // No password is one zero byte; over TLS or the socket the password itself;
            // otherwise encrypted with the server's key, asked for (one byte, 1) unless given,
            // as libmysqlclient does for this plugin whatever --get-server-public-key says.
            b"sha256_password" if password.is_empty() => Ok(vec![0]),
            b"sha256_password" if self.secure => Ok(with_nul(password)),
            b"sha256_password" => match &self.key {
                Some(_) => self.encrypted(scramble),
                None => {
                    self.awaiting_key = true;
                    Ok(vec![1])
                }
            },
            // The `mysql` crate, the fallback for other plugins, panics on this one unless built
            // with more dependencies: refuse it here, clearly.
            b"parsec" => Err(OpenError::Db(DbError::new(
                DbErrorKind::Setup,
                "1251",
                "the account authenticates with MariaDB's parsec plugin, which dbpress does not speak: \
                 use an account IDENTIFIED VIA ed25519 or mysql_native_password",
            ))),
            other => Err(OpenError::Unsupported(format!(
                "authentication plugin {}",
                String::from_utf8_lossy(other)
            ))),
        }
    }

    /// The answer to an AuthMoreData packet (its payload after the 0x01), if one is due.
    fn more_data(
        &mut self,
        plugin: &[u8],
        data: &[u8],
        scramble: &[u8],
    ) -> Result<Option<Vec<u8>>, OpenError> {
        let scramble = &scramble[..scramble.len().min(20)];
        if self.awaiting_key {
            // The server's public key, in PEM, as asked for.
            self.awaiting_key = false;
            let key = crate::rsa::PublicKey::from_pem(data).map_err(|why| {
                OpenError::Db(DbError::new(
                    DbErrorKind::Setup,
                    "2061",
                    format!(
                        "the server at {} sent an RSA public key dbpress cannot use: {why}",
                        self.opts.transport
                    ),
                ))
            })?;
            self.key = Some(Arc::new(key));
            return self.encrypted(scramble).map(Some);
        }
        match (plugin, data.first()) {
            // caching_sha2_password: the fast path succeeded; an OK packet follows.
            (b"caching_sha2_password", Some(3)) => Ok(None),
            // Full authentication: the server has no cached hash for this account (first login
            // since it started or since FLUSH PRIVILEGES) and wants the password itself.
            (b"caching_sha2_password", Some(4)) => {
                if self.secure {
                    Ok(Some(with_nul(self.password)))
                } else if self.key.is_some() {
                    self.encrypted(scramble).map(Some)
                } else if self.opts.get_server_public_key {
                    self.awaiting_key = true;
                    Ok(Some(vec![2]))
                } else {
                    Err(OpenError::Db(DbError::new(
                        DbErrorKind::Setup,
                        "2061",
                        format!(
                            "authentication plugin 'caching_sha2_password' needs the password itself from this client (the server has not cached the account since it started or since FLUSH PRIVILEGES), which over plain {} must be encrypted with the server's RSA public key: {}",
                            self.opts.transport, self.opts.fixes.needs_public_key
                        ),
                    )))
                }
            }
            _ => Err(OpenError::Unsupported(
                "unexpected authentication packet".into(),
            )),
        }
    }

    /// The password, scrambled and encrypted with the server's key.
    fn encrypted(&self, scramble: &[u8]) -> Result<Vec<u8>, OpenError> {
        let key = self.key.as_ref().expect("a key before encrypting");
        key.encrypt(
            &crate::rsa::obfuscate(self.password, scramble),
            self.padding,
        )
        .map_err(|why| OpenError::Db(DbError::new(DbErrorKind::Setup, "2061", why)))
    }
}

fn with_nul(password: &[u8]) -> Vec<u8> {
    let mut v = password.to_vec();
    v.push(0);
    v
}

impl Drop for WireConn {
    fn drop(&mut self) {
        // COM_QUIT, so the server logs a clean disconnect rather than an aborted connection.
        self.io.begin_command().push(0x01);
        let _ = self.io.send();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn login(opts: &WireOpts, secure: bool) -> Login<'_> {
        Login {
            password: b"pw",
            secure,
            padding: crate::rsa::Padding::Oaep,
            key: None,
            awaiting_key: false,
            opts,
        }
    }

    fn plain_opts() -> WireOpts {
        WireOpts {
            transport: Transport::Tcp {
                host: "127.0.0.1".into(),
                port: 3306,
            },
            user: "u".into(),
            password: dbpress_session::Secret::new("pw".into()),
            db: "d".into(),
            tls: None,
            compress: false,
            connect_timeout: None,
            fixes: &crate::options::PLAIN_FIXES,
            server_public_key: None,
            get_server_public_key: false,
        }
    }

    #[test]
    fn auth_plugins_are_answered_handed_over_or_refused_clearly() {
        let scramble: Vec<u8> = (1..=32).collect();
        let opts = plain_opts();
        let mut l = login(&opts, false);
        let len = |r: Result<Vec<u8>, OpenError>| r.ok().map(|r| r.len());
        assert_eq!(
            len(l.first_reply(b"mysql_native_password", &scramble)),
            Some(20)
        );
        assert_eq!(len(l.first_reply(b"client_ed25519", &scramble)), Some(64));
        // Unknown plugins go to the `mysql` crate; parsec, on which it would panic, does not.
        assert!(matches!(
            l.first_reply(b"dialog", &scramble),
            Err(OpenError::Unsupported(_))
        ));
        match l.first_reply(b"parsec", &scramble) {
            Err(OpenError::Db(e)) => assert!(e.message.contains("parsec plugin"), "{e}"),
            _ => panic!("parsec must be refused with a message"),
        }
    }

    #[test]
    fn sha256_password_sends_cleartext_only_where_it_is_safe_and_else_asks_for_the_key() {
        let scramble: Vec<u8> = (1..=20).collect();
        let opts = plain_opts();
        let mut secure = login(&opts, true);
        assert_eq!(
            secure.first_reply(b"sha256_password", &scramble).ok(),
            Some(b"pw\0".to_vec())
        );
        let mut plain = login(&opts, false);
        assert_eq!(
            plain.first_reply(b"sha256_password", &scramble).ok(),
            Some(vec![1])
        );
        assert!(plain.awaiting_key);
    }

    #[test]
    fn caching_sha2_full_auth_over_plain_tcp_without_a_key_is_refused_with_the_fix() {
        let scramble: Vec<u8> = (1..=20).collect();
        let opts = plain_opts();
        let mut l = login(&opts, false);
        assert!(matches!(
            l.more_data(b"caching_sha2_password", &[3], &scramble),
            Ok(None)
        ));
        match l.more_data(b"caching_sha2_password", &[4], &scramble) {
            Err(OpenError::Db(e)) => {
                assert_eq!(e.code, "2061");
                assert!(e.message.contains("RSA public key"), "{e}");
            }
            _ => panic!("full auth without a key must be refused"),
        }
        let asking = WireOpts {
            get_server_public_key: true,
            ..plain_opts()
        };
        let mut l = login(&asking, false);
        assert_eq!(
            l.more_data(b"caching_sha2_password", &[4], &scramble).ok(),
            Some(Some(vec![2]))
        );
        assert!(l.awaiting_key);
    }
}
