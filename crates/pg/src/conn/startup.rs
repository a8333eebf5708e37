//! Opening a session: the socket or TCP connection, TLS when asked for (SSLRequest), the
//! startup message, authentication, and the backend's key data; each step under the connect
//! timeout.

use super::login::authenticate;
use super::*;

impl PgWire {
    /// Open a session. With `tls`, ask the server for TLS first, as libpq does: a server that
    /// declines gets a plain session under sslmode=prefer and an error otherwise.
    pub fn open(
        target: &PgTarget,
        tls: Option<Arc<ClientConfig>>,
        text_mode: bool,
    ) -> DbResult<PgWire> {
        let (io, started) = connect(target, tls.as_ref())?;
        Ok(PgWire {
            io,
            pid: started.pid,
            server_version: started.server_version,
            target: target.clone(),
            tls,
            text_mode,
            stmts: Vec::new(),
            text_buf: Vec::new(),
            txn_status: b'I',
            pipeline: None,
        })
    }

    /// A new session to the same server in place of this one. A prefer session asks for TLS
    /// again, so a server that turned TLS on since is used with it.
    pub(super) fn reopen(&mut self) -> DbResult<()> {
        let started;
        (self.io, started) = connect(&self.target, self.tls.as_ref())?;
        self.pid = started.pid;
        self.server_version = started.server_version;
        self.txn_status = b'I';
        self.pipeline = None;
        Ok(())
    }
}

/// Open a session; with `tls`, send SSLRequest first and run the TLS handshake if the server
/// agrees.
/// Returns the session and what the server said of it as it started.
fn connect(t: &PgTarget, tls: Option<&Arc<ClientConfig>>) -> DbResult<(Io, Started)> {
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
        notices: None,
    };
    if let Some(config) = tls {
        io = start_tls(io, t, config).map_err(|e| in_phase(e, HandshakeStep::Tls, t))?;
    }
    let (io, started) = start_session(io, t).map_err(|e| in_phase(e, HandshakeStep::Startup, t))?;
    // Logged in: from here on a statement may take as long as it takes.
    let _ = io.r.stream.set_io_timeout(None);
    Ok((io, started))
}

/// What the server says of a session as it starts.
pub(super) struct Started {
    /// The backend's process id (BackendKeyData).
    pid: u32,
    /// Its `server_version` parameter (ParameterStatus), as libpq keeps it: what a client
    /// knows of the server without asking.
    server_version: String,
}

/// The steps of opening a session that the connect timeout bounds one by one.
#[derive(Clone, Copy)]
pub(super) enum HandshakeStep {
    Tls,
    Startup,
}

/// A handshake step's error, said as the step that did not answer when a read or write ran
/// out of time (`lost` marks those).
pub(super) fn in_phase(e: DbError, phase: HandshakeStep, t: &PgTarget) -> DbError {
    if e.code != TIMED_OUT || e.kind != DbErrorKind::Unreachable {
        return e;
    }
    let within = dbpress_net::seconds(t.connect_timeout.unwrap_or_default());
    let place = t.place();
    let what = match phase {
        HandshakeStep::Tls => format!(
            "the server at {place} accepted the connection but did not finish the TLS request and handshake within {within}"
        ),
        HandshakeStep::Startup => format!(
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
pub(super) fn start_session(mut io: Io, t: &PgTarget) -> DbResult<(Io, Started)> {
    // StartupMessage: no type byte, protocol 3.0, then name/value pairs.
    io.out.extend_from_slice(&[0; 4]);
    io.out.extend_from_slice(&196_608u32.to_be_bytes());
    let search_path = t.schema.as_ref().map(|s| format!("-c search_path={s}"));
    let options = match (t.options.as_deref(), search_path) {
        (Some(o), Some(p)) => Some(format!("{o} {p}")),
        (Some(o), None) => Some(o.to_string()),
        (None, p) => p,
    };
    for (k, v) in [
        ("user", t.user.as_str()),
        ("database", t.db.as_str()),
        ("application_name", t.application_name),
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
    let mut started = Started {
        pid: 0,
        server_version: String::new(),
    };
    loop {
        let (tag, body) = io.next().map_err(lost)?;
        match tag {
            b'K' => {
                if let Some(b) = body.get(0..4) {
                    started.pid = u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
                }
            }
            b'S' => {
                let mut parts = body.split(|b| *b == 0);
                if parts.next() == Some(b"server_version") {
                    let value = parts.next().unwrap_or_default();
                    started.server_version = String::from_utf8_lossy(value).into_owned();
                }
            }
            b'Z' => return Ok((io, started)),
            b'E' => return Err(error_response(body)),
            _ => {}
        }
    }
}

/// SSLRequest, then the handshake if the server answers 'S'. 'N' leaves the session plain
/// under sslmode=prefer and fails under require and the verify modes.
pub(super) fn start_tls(mut io: Io, t: &PgTarget, config: &Arc<ClientConfig>) -> DbResult<Io> {
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
        notices: io.notices,
    })
}
