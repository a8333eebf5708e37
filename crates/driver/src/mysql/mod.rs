//! MySQL-protocol servers (MySQL, MariaDB, Percona, TiDB…): one blocking connection per worker
//! thread, on dbpress's own protocol client (the dbpress-mysql crate), TLS by rustls; the `mysql` crate for
//! servers that want an auth plugin the own client does not speak.

pub mod libmariadb_words;
mod settings;
pub mod target;

use super::{
    dialect, render_text, Connection, DbError, DbErrorKind, DbResult, Dialect, Driver, Hints,
    QueryKind, ResultRows, ServerInfo, StmtHandle, Value,
};
use super::{CounterSpec, DataLocation, PsMode};
use crate::status::StatusKind;
use dbpress_mysql::errors::kind_of_code;
use dbpress_mysql::escape::{escape_ansi, escape_backslash};
use dbpress_mysql::{Fixes, OpenError, WireConn, WireOpts, WireTls};
use dbpress_net::tls::{client_config, CertCheck};
use mysql::prelude::Queryable;
use target::{MysqlTarget, SslMode, Transport};

pub static MYSQL_HINTS: Hints = Hints {
    address: "--mysql-host/--mysql-port/--mysql-socket",
    credentials: "--mysql-user and --mysql-password (or MYSQL_PWD, ~/.my.cnf)",
    database: "--mysql-db",
    schema: "--mysql-db",
    ignore: "--mysql-ignore-errors",
    max_connections_fix: "SET GLOBAL max_connections=N, or max_connections in my.cnf",
    files_per_session: 1,
};

/// The options to change when the handshake refuses the session, in sysbench's spelling.
static MYSQL_FIXES: Fixes = Fixes {
    ciphers_refused: "the server accepts none of the cipher suites or TLS versions offered: check --mysql-ssl-cipher (an ECDSA suite needs an ECDSA server certificate) and the server's ssl_cipher and tls_version",
    certificate_refused: "check that --mysql-ssl-ca is the CA that signed the server's certificate and, under verify_identity, that --mysql-host is a name the certificate was issued for (verify_ca checks the CA alone)",
    no_compression: "run without --mysql-compression",
    no_tls: "enable TLS on the server or use --mysql-ssl=off/preferred",
    connect_timeout: "--mysql-connect-timeout",
    needs_public_key: "add --mysql-get-server-public-key (the server sends its key; trust it only on a network you trust) or --mysql-server-public-key-path=FILE (a copy of the server's public_key.pem), or connect over TLS (--mysql-ssl=on) or the Unix socket (--mysql-socket)",
};

const MYSQL_READS: &[&str] = &["Com_select"];
const MYSQL_WRITES: &[&str] = &[
    "Com_insert",
    "Com_insert_select",
    "Com_update",
    "Com_update_multi",
    "Com_delete",
    "Com_delete_multi",
    "Com_replace",
    "Com_replace_select",
];
const MYSQL_OTHER: &[&str] = &["Com_begin", "Com_commit", "Com_rollback"];
/// Read beside the statement counters: InnoDB's row-lock waits and deadlocks
/// (Innodb_deadlocks is MariaDB's; a counter the server lacks is left out).
const MYSQL_LOCKS: &[&str] = &[
    "Innodb_row_lock_waits",
    "Innodb_row_lock_time",
    "Innodb_deadlocks",
];

/// What the server asked of its files, to set against the disk's figures: fsyncs (MariaDB
/// 10.8+ counts the redo log's in Innodb_data_fsyncs; MySQL keeps Innodb_os_log_fsyncs apart)
/// and bytes written to the redo log, the data files and the binary log.
const MYSQL_IO: &[&str] = &[
    "Innodb_data_fsyncs",
    "Innodb_os_log_fsyncs",
    "Innodb_os_log_written",
    "Innodb_data_written",
    "Binlog_bytes_written",
];

/// Where the server's time went besides executing: page requests the buffer pool missed (read
/// from disk, when the data outgrew it) out of all its page requests, waits for a free page
/// (flushing behind), waits for room in the redo log buffer, table-cache misses (too many
/// tables for table_open_cache) and temporary tables that spilled to disk.
const MYSQL_CACHES: &[&str] = &[
    "Innodb_buffer_pool_read_requests",
    "Innodb_buffer_pool_reads",
    "Innodb_buffer_pool_wait_free",
    "Innodb_log_waits",
    "Table_open_cache_misses",
    "Created_tmp_disk_tables",
];

/// Bytes the server read from and wrote to its clients' sockets: what the run asks of the
/// network between client and server (compressed bytes, under --mysql-compression).
const MYSQL_NETWORK: &[&str] = &["Bytes_received", "Bytes_sent"];

static MYSQL_COUNTERS: CounterSpec = CounterSpec {
    source: "SHOW GLOBAL STATUS, every session of the server",
    checks: &[
        ("reads", MYSQL_READS),
        ("writes", MYSQL_WRITES),
        ("other", MYSQL_OTHER),
    ],
    notes: &[],
    lifetime: &[(SERVER_STARTED_AT, "the server restarted")],
};

/// What a run samples of the server's status once a second: sessions running and connected,
/// open tables (table_open_cache pressure), slow queries, row locks waited for now and in all,
/// dirty pages and the checkpoint age (MariaDB's; MySQL's redo figures where it has them), redo
/// written, fsyncs, temporary tables on disk.
static MYSQL_STATUS: crate::status::StatusSpec = crate::status::StatusSpec {
    source: "SHOW GLOBAL STATUS",
    items: &[
        ("Threads_running", StatusKind::Gauge),
        ("Threads_connected", StatusKind::Gauge),
        ("Open_tables", StatusKind::Gauge),
        ("Slow_queries", StatusKind::Counter),
        ("Innodb_row_lock_current_waits", StatusKind::Gauge),
        ("Innodb_row_lock_waits", StatusKind::Counter),
        ("Innodb_buffer_pool_pages_dirty", StatusKind::Gauge),
        ("Innodb_checkpoint_age", StatusKind::Gauge),
        ("Innodb_os_log_written", StatusKind::Counter),
        ("Innodb_data_fsyncs", StatusKind::Counter),
        ("Created_tmp_disk_tables", StatusKind::Counter),
    ],
};

/// When the server started (seconds since the epoch, by this machine's clock), from Uptime: a
/// restart starts every status counter again from zero.
const SERVER_STARTED_AT: &str = "server_started_at";

pub struct MysqlDriver {
    target: MysqlTarget,
    ps_mode: PsMode,
    /// Built once from --mysql-ssl for TCP sessions; None when it is off.
    tls: Option<WireTls>,
    /// The option names error messages quote: sysbench's, or those of the command in use.
    hints: &'static Hints,
    /// Read once from --mysql-server-public-key-path.
    server_public_key: Option<std::sync::Arc<dbpress_mysql::rsa::PublicKey>>,
    sessions: crate::clients::SessionTally,
}

/// The client of every session the server lets it log in to.
const OWN_CLIENT: &str = "dbpress's MySQL protocol client";
/// The fallback, for servers that want what dbpress's client does not speak.
const CRATE_CLIENT: &str = "the mysql crate";

impl MysqlDriver {
    /// Fails only if the TLS configuration cannot be built (an unreadable CA file).
    pub fn new(target: MysqlTarget, ps_mode: PsMode) -> Result<MysqlDriver, String> {
        let check = match target.ssl {
            SslMode::Disabled => None,
            SslMode::Preferred | SslMode::Required => Some(CertCheck::None),
            SslMode::VerifyCa => Some(CertCheck::Ca),
            SslMode::VerifyIdentity => Some(CertCheck::Full),
        };
        let tls = match check {
            Some(c) => Some(WireTls {
                config: client_config(
                    c,
                    target.ssl_ca.as_deref(),
                    "--mysql-ssl-ca",
                    target.client_cert.as_ref(),
                    &dbpress_net::tls::cipher_suites(&target.ssl_cipher, "--mysql-ssl-cipher")?,
                )?,
                required: target.ssl != SslMode::Preferred,
            }),
            None => None,
        };
        let server_public_key = match &target.server_public_key_path {
            Some(path) => {
                let text = std::fs::read(path).map_err(|e| {
                    format!(
                        "cannot read the server's public key {}: {e}: give the path of a copy of the server's public_key.pem",
                        path.display()
                    )
                })?;
                let key = dbpress_mysql::rsa::PublicKey::from_pem(&text).map_err(|why| {
                    format!(
                        "{} is not the server's RSA public key: {why}: give a copy of the server's public_key.pem (SHOW STATUS LIKE 'Caching_sha2_password_rsa_public_key' prints it)",
                        path.display()
                    )
                })?;
                Some(std::sync::Arc::new(key))
            }
            None => None,
        };
        Ok(MysqlDriver {
            target,
            ps_mode,
            tls,
            hints: &MYSQL_HINTS,
            server_public_key,
            sessions: crate::clients::SessionTally::default(),
        })
    }

    /// Error messages quote these option names instead (`dbpress slap`'s mysqlslap flags).
    pub fn with_hints(self, hints: &'static Hints) -> MysqlDriver {
        MysqlDriver { hints, ..self }
    }

    /// Connection options for session `index`; `tls` says whether to ask for TLS at all.
    fn opts(&self, index: usize, tls: bool) -> mysql::Opts {
        let t = &self.target;
        let transport = &t.transports[index % t.transports.len()];
        let mut b = mysql::OptsBuilder::new()
            .user(Some(t.user.clone()))
            .pass((!t.password.is_empty()).then(|| t.password.expose().to_string()))
            .db_name(Some(t.db.clone()))
            // Statements are held by the connection for its whole life; the crate's LRU cache
            // would close them behind our back when a workload prepares more than it holds.
            .stmt_cache_size(0)
            // Known up front so the crate does not send `SELECT @@max_allowed_packet` on every
            // connect, which would show up in the server's Com_select and skew parity checks.
            .max_allowed_packet(Some(1 << 30))
            .tcp_connect_timeout(t.connect_timeout)
            // The crate would otherwise silently move a loopback TCP connection to the socket.
            .prefer_socket(false)
            .compress(t.compress.then(mysql::Compression::default));
        b = match transport {
            Transport::Tcp { host, port } => b.ip_or_hostname(Some(host.clone())).tcp_port(*port),
            Transport::Socket(p) => b.socket(Some(p.to_string_lossy().into_owned())),
        };
        let ssl = match t.ssl {
            _ if !tls => None,
            SslMode::Disabled => None,
            SslMode::Required | SslMode::Preferred => Some(
                mysql::SslOpts::default()
                    .with_danger_accept_invalid_certs(true)
                    .with_danger_skip_domain_validation(true),
            ),
            SslMode::VerifyCa => Some(
                mysql::SslOpts::default()
                    .with_root_cert_path(t.ssl_ca.clone())
                    .with_danger_skip_domain_validation(true),
            ),
            SslMode::VerifyIdentity => {
                Some(mysql::SslOpts::default().with_root_cert_path(t.ssl_ca.clone()))
            }
        };
        let ssl = ssl.map(|o| match &t.client_cert {
            Some(c) => o.with_client_identity(Some(mysql::ClientIdentity::new(
                c.cert.clone(),
                c.key.clone(),
            ))),
            None => o,
        });
        // TLS is not negotiated over a Unix socket (the socket is already local and private).
        if matches!(transport, Transport::Tcp { .. }) {
            b = b.ssl_opts(ssl);
        }
        b.into()
    }

    /// A session through the `mysql` crate (TLS, or auth methods the wire client lacks).
    fn connect_with_crate(&self, index: usize) -> DbResult<Box<dyn Connection>> {
        let transport = self.transport_of(index).clone();
        // The crate's TLS offers its own suites: a session there would not be what
        // --mysql-ssl-cipher asked for.
        if !self.target.ssl_cipher.is_empty()
            && self.target.ssl != SslMode::Disabled
            && matches!(transport, Transport::Tcp { .. })
        {
            return Err(DbError::new(
                DbErrorKind::Setup,
                "2026",
                format!("--mysql-ssl-cipher cannot be honoured with {transport}: the account's authentication method needs the mysql crate's client, whose TLS chooses its own cipher suites; drop --mysql-ssl-cipher or use an account with mysql_native_password"),
            ));
        }
        let mut opts = self.opts(index, self.target.ssl != SslMode::Disabled);
        let conn = match mysql::Conn::new(opts.clone()) {
            Ok(c) => c,
            // `preferred`: plain only when the server has no TLS at all.
            Err(mysql::Error::DriverError(mysql::DriverError::TlsNotSupported))
                if self.target.ssl == SslMode::Preferred =>
            {
                opts = self.opts(index, false);
                mysql::Conn::new(opts.clone()).map_err(|e| connect_error(e, &transport))?
            }
            Err(e) => return Err(connect_error(e, &transport)),
        };
        let mut c = MysqlConnection {
            conn,
            opts,
            transport,
            text_mode: self.ps_mode == PsMode::Disable,
            stmts: Vec::new(),
            text_buf: Vec::with_capacity(1024),
            backslash_escapes: true,
        };
        if c.text_mode {
            let mode = c.query_rows("SHOW SESSION VARIABLES LIKE 'sql_mode'")?;
            let mode = mode
                .first()
                .and_then(|r| r.get(1).cloned().flatten())
                .unwrap_or_default();
            c.backslash_escapes = !mode.contains("NO_BACKSLASH_ESCAPES");
        }
        Ok(Box::new(c))
    }

    /// What dbpress's own client needs to open session `index`. TLS is not negotiated over a
    /// Unix socket, whatever --mysql-ssl says.
    fn wire_opts(&self, index: usize) -> WireOpts {
        let transport = self.transport_of(index).clone();
        let tls = match transport {
            Transport::Tcp { .. } => self.tls.clone(),
            Transport::Socket(_) => None,
        };
        WireOpts {
            transport,
            user: self.target.user.clone(),
            password: self.target.password.clone(),
            db: self.target.db.clone(),
            tls,
            compress: self.target.compress,
            connect_timeout: self.target.connect_timeout,
            fixes: &MYSQL_FIXES,
            server_public_key: self.server_public_key.clone(),
            get_server_public_key: self.target.get_server_public_key,
        }
    }

    fn transport_of(&self, index: usize) -> &Transport {
        &self.target.transports[index % self.target.transports.len()]
    }
}

impl Driver for MysqlDriver {
    fn connect(&self, index: usize) -> DbResult<Box<dyn Connection>> {
        // Every session starts on dbpress's own protocol client (rows skipped without
        // decoding), TLS included; only a server that wants an auth method it does not speak
        // gets the crate.
        let wire = self.wire_opts(index);
        let why = match WireConn::open(&wire, self.ps_mode == PsMode::Disable) {
            Ok(c) => {
                self.sessions.opened(OWN_CLIENT, None);
                return Ok(Box::new(c));
            }
            Err(OpenError::Db(e)) => return Err(e),
            Err(OpenError::Unsupported(why)) => why,
        };
        let c = self.connect_with_crate(index)?;
        self.sessions.opened(
            CRATE_CLIENT,
            Some(&format!(
                "the server asked for {why}, which {OWN_CLIENT} does not speak"
            )),
        );
        Ok(c)
    }

    fn clients(&self) -> Vec<crate::clients::ClientSessions> {
        self.sessions.snapshot()
    }

    fn answers_within(&self, limit: std::time::Duration) -> bool {
        let wire = WireOpts {
            connect_timeout: Some(limit),
            ..self.wire_opts(0)
        };
        // In binary mode the session sends nothing after its login: the server's statement
        // counters see no probe.
        let answered = match WireConn::open(&wire, false) {
            Ok(_) => true,
            // It greeted and asked for a method this client lacks: it answers.
            Err(OpenError::Unsupported(_)) => return true,
            Err(OpenError::Db(e)) => !e.kind.out_of_reach(),
        };
        if answered {
            self.sessions.opened(OWN_CLIENT, None);
        }
        answered
    }

    fn global_settings(&self) -> Option<&'static dyn crate::settings::GlobalSettings> {
        Some(&settings::MysqlSettings)
    }

    fn status_spec(&self) -> Option<&'static crate::status::StatusSpec> {
        // With several hosts each server has only its own share.
        (self.target.transports.len() == 1).then_some(&MYSQL_STATUS)
    }

    fn read_status(
        &self,
        conn: &mut dyn Connection,
        names: &[String],
    ) -> DbResult<Vec<(String, f64)>> {
        // A SHOW: it counts in Com_show_status and Questions, none of the run's counters.
        let list: Vec<String> = names
            .iter()
            .filter(|n| crate::settings::check_name(n).is_ok())
            .map(|n| format!("'{n}'"))
            .collect();
        if list.is_empty() {
            return Ok(Vec::new());
        }
        let rows = conn.query_rows(&format!(
            "SHOW GLOBAL STATUS WHERE Variable_name IN ({})",
            list.join(", ")
        ))?;
        Ok(rows
            .into_iter()
            .filter_map(|r| {
                let mut c = r.into_iter();
                let name = c.next().flatten()?;
                let value = c.next().flatten()?.parse::<f64>().ok()?;
                Some((name, value))
            })
            .collect())
    }

    fn dialect(&self) -> &'static Dialect {
        &dialect::MYSQL
    }

    fn describe(&self) -> String {
        self.target.describe()
    }

    fn hints(&self) -> &'static Hints {
        self.hints
    }

    fn counters(&self) -> Option<&'static CounterSpec> {
        // With several hosts each server counts only its own share.
        (self.target.transports.len() == 1).then_some(&MYSQL_COUNTERS)
    }

    fn server_socket(&self, conn: &dyn Connection) -> Result<std::os::fd::RawFd, String> {
        if self.target.transports.len() > 1 {
            return Err(
                "not measured: sessions are spread over several servers, so no one process is the server".into(),
            );
        }
        conn.socket_fd().ok_or_else(|| {
            "not measured: this session goes through the mysql crate, which does not expose its socket".into()
        })
    }

    fn wait_source(&self) -> Option<&'static str> {
        // With several hosts each server lists only its own sessions.
        (self.target.transports.len() == 1).then_some("SHOW PROCESSLIST")
    }

    fn sample_waits(&self, conn: &mut dyn Connection, sessions: &[u64]) -> DbResult<Vec<String>> {
        // A SHOW, not a SELECT from information_schema, which would count in Com_select beside
        // the run's. The run's sessions by their connection ids (or, not knowing them, this
        // user's in this database but the one running the SHOW).
        let rows = conn.query_rows("SHOW FULL PROCESSLIST")?;
        let field =
            |r: &[Option<String>], k: usize| r.get(k).cloned().flatten().unwrap_or_default();
        let ours = |r: &Vec<Option<String>>| match sessions {
            [] => {
                field(r, 1) == self.target.user
                    && field(r, 3) == self.target.db
                    && !field(r, 7).starts_with("SHOW FULL PROCESSLIST")
            }
            ids => field(r, 0)
                .parse::<u64>()
                .is_ok_and(|id| ids.binary_search(&id).is_ok()),
        };
        Ok(rows
            .into_iter()
            .filter(ours)
            .map(|r| match (field(&r, 4), field(&r, 6)) {
                (command, _) if command == "Sleep" => "Sleep (waiting for the client)".to_string(),
                (command, state) if state.is_empty() => format!("{command}: (no state)"),
                (command, state) => format!("{command}: {state}"),
            })
            .collect())
    }

    fn data_location(&self, conn: &mut dyn Connection) -> DataLocation {
        // A SHOW, like the counter reads: a SELECT would count in Com_select beside the run's.
        let reported = conn
            .query_rows("SHOW GLOBAL VARIABLES LIKE 'datadir'")
            .ok()
            .and_then(|rows| rows.into_iter().next()?.into_iter().nth(1)?);
        DataLocation::Server { reported }
    }

    fn read_counters(
        &self,
        conn: &mut dyn Connection,
        _settle: bool,
    ) -> DbResult<Vec<(String, u64)>> {
        // A SHOW: it counts in Com_show_status, none of the counters read here. A session's
        // counts are in the global ones while it lives and after it ends, so no settling.
        let names = [
            MYSQL_READS,
            MYSQL_WRITES,
            MYSQL_OTHER,
            MYSQL_LOCKS,
            MYSQL_IO,
            MYSQL_CACHES,
            MYSQL_NETWORK,
            &["Uptime"],
        ]
        .concat()
        .iter()
        .map(|n| format!("'{n}'"))
        .collect::<Vec<_>>()
        .join(", ");
        let rows = super::counter_rows(conn.query_rows(&format!(
            "SHOW GLOBAL STATUS WHERE Variable_name IN ({names})"
        ))?);
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        Ok(rows
            .into_iter()
            .map(|(name, value)| match name.as_str() {
                "Uptime" => (SERVER_STARTED_AT.to_string(), now.saturating_sub(value)),
                _ => (name, value),
            })
            .collect())
    }

    fn server_info(&self, conn: &mut dyn Connection) -> ServerInfo {
        let mut info = ServerInfo {
            product: "MySQL".into(),
            ..ServerInfo::default()
        };
        let vars = conn.query_rows(
            "SHOW GLOBAL VARIABLES WHERE Variable_name IN ('version', 'version_comment', \
             'innodb_buffer_pool_size', 'innodb_flush_log_at_trx_commit', 'sync_binlog', 'log_bin', \
             'innodb_doublewrite', 'innodb_flush_method', 'innodb_log_file_size', \
             'transaction_isolation', 'tx_isolation', 'max_connections', 'max_prepared_stmt_count', \
             'thread_handling', 'default_storage_engine', 'innodb_deadlock_detect', \
             'innodb_lock_wait_timeout', 'have_ssl', 'max_allowed_packet')",
        );
        for row in vars.unwrap_or_default() {
            if let (Some(Some(k)), Some(Some(v))) = (row.first(), row.get(1)) {
                info.variables.insert(k.clone(), v.clone());
            }
        }
        info.version = info.variables.get("version").cloned().unwrap_or_default();
        if info.version.to_ascii_lowercase().contains("mariadb") {
            info.product = "MariaDB".into();
        } else if let Some(c) = info.variables.get("version_comment") {
            if c.contains("Percona") {
                info.product = "Percona Server".into();
            }
        }
        if info.version.contains("TiDB") {
            info.product = "TiDB".into();
        }
        // `conn` is connection 0 (the probe); TLS is tried over TCP only.
        if self.target.ssl != SslMode::Disabled
            && matches!(self.transport_of(0), Transport::Tcp { .. })
        {
            let status = conn
                .query_rows(
                    "SHOW SESSION STATUS WHERE Variable_name IN ('Ssl_version', 'Ssl_cipher')",
                )
                .unwrap_or_default();
            let value = |name: &str| {
                status
                    .iter()
                    .find(|r| r.first().cloned().flatten().as_deref() == Some(name))
                    .and_then(|r| r.get(1).cloned().flatten())
                    .unwrap_or_default()
            };
            info.session_tls = Some(super::tls_description(
                &value("Ssl_version"),
                &value("Ssl_cipher"),
            ));
        }
        info
    }
}

/// Errors while opening a session: name the transport so the user knows what was tried.
fn connect_error(e: mysql::Error, transport: &Transport) -> DbError {
    // rustls failures surface as I/O errors of the crate's codec; name them as TLS problems.
    let text = e.to_string();
    if matches!(e, mysql::Error::IoError(_) | mysql::Error::CodecError(_))
        && (text.contains("certificate") || text.contains("TLS") || text.contains("tls"))
    {
        return DbError::new(
            DbErrorKind::Setup,
            "2026",
            format!(
                "TLS handshake with {transport} failed: {text}: {}",
                MYSQL_FIXES.certificate_refused
            ),
        );
    }
    match e {
        mysql::Error::IoError(io) => unreachable(transport, &io.to_string()),
        mysql::Error::DriverError(mysql::DriverError::CouldNotConnect(detail)) => {
            let why = detail
                .map(|(_, d, _)| d)
                .unwrap_or_else(|| "connection failed".into());
            unreachable(transport, &why)
        }
        mysql::Error::DriverError(mysql::DriverError::ConnectTimeout) => {
            unreachable(transport, "timed out after 10 s")
        }
        mysql::Error::DriverError(mysql::DriverError::TlsNotSupported) => DbError::new(
            DbErrorKind::Setup,
            "2026",
            format!("the server at {transport} does not offer TLS: enable TLS on the server or use --mysql-ssl=off/preferred"),
        ),
        mysql::Error::TlsError(t) => DbError::new(
            DbErrorKind::Setup,
            "2026",
            format!("TLS handshake with {transport} failed: {t}: {}", MYSQL_FIXES.certificate_refused),
        ),
        other => query_error(other),
    }
}

fn unreachable(transport: &Transport, why: &str) -> DbError {
    let code = match transport {
        Transport::Socket(_) => "2002",
        Transport::Tcp { .. } => "2003",
    };
    DbError::new(
        DbErrorKind::Unreachable,
        code,
        format!("cannot connect to the server over {transport}: {why}"),
    )
}

/// Map a crate error into the normalised kind, keeping the server's number as the code.
/// Client-side failures get libmysqlclient's numbers (2013 lost connection, 2006 gone away)
/// so that `--mysql-ignore-errors` lists written for sysbench keep working.
fn query_error(e: mysql::Error) -> DbError {
    match e {
        mysql::Error::MySqlError(m) => {
            DbError::new(kind_of_code(m.code), m.code.to_string(), m.message)
                .with_sqlstate(m.state.as_bytes())
        }
        mysql::Error::IoError(io) => DbError::new(
            DbErrorKind::ConnectionLost,
            "2013",
            format!("lost connection to server during query: {io}"),
        ),
        mysql::Error::CodecError(c) => DbError::new(
            DbErrorKind::ConnectionLost,
            "2013",
            format!("lost connection to server during query: {c}"),
        ),
        mysql::Error::DriverError(
            d @ (mysql::DriverError::PacketOutOfSync
            | mysql::DriverError::UnexpectedPacket
            | mysql::DriverError::Timeout),
        ) => DbError::new(
            DbErrorKind::ConnectionLost,
            "2006",
            format!("server has gone away: {d}"),
        ),
        other => DbError::new(DbErrorKind::Other, "client", other.to_string()),
    }
}

enum Prepared {
    Server { stmt: mysql::Statement, sql: String },
    Text { sql: String },
}

pub struct MysqlConnection {
    conn: mysql::Conn,
    opts: mysql::Opts,
    transport: Transport,
    text_mode: bool,
    stmts: Vec<Prepared>,
    text_buf: Vec<u8>,
    backslash_escapes: bool,
}

fn to_mysql(v: &Value<'_>) -> mysql::Value {
    match *v {
        Value::Int(i) => mysql::Value::Int(i),
        Value::Str(s) => mysql::Value::Bytes(s.to_vec()),
        Value::Null => mysql::Value::NULL,
    }
}

fn classify<T: mysql::prelude::Protocol>(
    result: mysql::QueryResult<'_, '_, '_, T>,
) -> DbResult<QueryKind> {
    classify_into(result, None)
}

/// Classify a result as `classify`, keeping its rows in `out` when given.
fn classify_into<T: mysql::prelude::Protocol>(
    mut result: mysql::QueryResult<'_, '_, '_, T>,
    mut out: Option<&mut ResultRows>,
) -> DbResult<QueryKind> {
    let returns_rows = !result.columns().as_ref().is_empty();
    let affected = result.affected_rows();
    if let Some(o) = out.as_deref_mut() {
        o.start(result.columns().as_ref().len());
    }
    for row in result.by_ref() {
        let row = row.map_err(query_error)?;
        if let Some(o) = out.as_deref_mut() {
            for v in row.unwrap() {
                match v {
                    mysql::Value::NULL => o.push_null(),
                    mysql::Value::Bytes(b) => o.push_bytes(&b),
                    mysql::Value::Int(n) => o.push_int(n),
                    mysql::Value::UInt(n) => o.push_int(n as i64),
                    mysql::Value::Float(f) => o.push_float(f64::from(f)),
                    mysql::Value::Double(f) => o.push_float(f),
                    other => o.push_bytes(other.as_sql(true).trim_matches('\'').as_bytes()),
                }
            }
        }
    }
    Ok(if returns_rows {
        QueryKind::Read
    } else if affected > 0 {
        QueryKind::Write
    } else {
        QueryKind::Other
    })
}

impl MysqlConnection {
    fn prepare_one(&mut self, sql: &str) -> DbResult<Prepared> {
        if self.text_mode {
            return Ok(Prepared::Text {
                sql: sql.to_string(),
            });
        }
        match self.conn.prep(sql) {
            Ok(stmt) => Ok(Prepared::Server {
                stmt,
                sql: sql.to_string(),
            }),
            Err(e) => {
                let e = query_error(e);
                if e.kind == DbErrorKind::UnsupportedPrepare {
                    // sysbench does the same: statements like BEGIN go as text.
                    Ok(Prepared::Text {
                        sql: sql.to_string(),
                    })
                } else {
                    Err(e)
                }
            }
        }
    }
}

impl MysqlConnection {
    fn execute_into(
        &mut self,
        stmt: StmtHandle,
        params: &[Value<'_>],
        rows: Option<&mut ResultRows>,
    ) -> DbResult<QueryKind> {
        match &self.stmts[stmt.0 as usize] {
            Prepared::Server { stmt, .. } => {
                let params = if params.is_empty() {
                    mysql::Params::Empty
                } else {
                    mysql::Params::Positional(params.iter().map(to_mysql).collect())
                };
                let result = self.conn.exec_iter(stmt, params).map_err(query_error)?;
                classify_into(result, rows)
            }
            Prepared::Text { sql } => {
                let escape = if self.backslash_escapes {
                    escape_backslash
                } else {
                    escape_ansi
                };
                let mut buf = std::mem::take(&mut self.text_buf);
                render_text(sql, params, escape, &mut buf);
                // The template is valid UTF-8 and values are ASCII digits or caller bytes that
                // came from str; a lossy view only matters for invalid input, which we never make.
                let text = String::from_utf8_lossy(&buf);
                let r = self
                    .conn
                    .query_iter(text.as_ref())
                    .map_err(query_error)
                    .and_then(|r| classify_into(r, rows));
                self.text_buf = buf;
                r
            }
        }
    }
}

impl Connection for MysqlConnection {
    fn close_statements(&mut self) -> DbResult<()> {
        use mysql::prelude::Queryable;
        for p in std::mem::take(&mut self.stmts) {
            if let Prepared::Server { stmt, .. } = p {
                self.conn.close(stmt).map_err(query_error)?;
            }
        }
        Ok(())
    }

    fn prepare(&mut self, sql: &str) -> DbResult<StmtHandle> {
        let p = self.prepare_one(sql)?;
        self.stmts.push(p);
        Ok(StmtHandle(self.stmts.len() as u32 - 1))
    }

    fn prepare_text(&mut self, sql: &str) -> DbResult<StmtHandle> {
        self.stmts.push(Prepared::Text {
            sql: sql.to_string(),
        });
        Ok(StmtHandle(self.stmts.len() as u32 - 1))
    }

    fn execute(&mut self, stmt: StmtHandle, params: &[Value<'_>]) -> DbResult<QueryKind> {
        self.execute_into(stmt, params, None)
    }

    fn execute_rows(
        &mut self,
        stmt: StmtHandle,
        params: &[Value<'_>],
        rows: &mut ResultRows,
    ) -> DbResult<QueryKind> {
        rows.start(0);
        self.execute_into(stmt, params, Some(rows))
    }

    fn query(&mut self, sql: &str) -> DbResult<QueryKind> {
        let result = self.conn.query_iter(sql).map_err(query_error)?;
        classify(result)
    }

    fn query_into(&mut self, sql: &str, rows: &mut ResultRows) -> DbResult<QueryKind> {
        rows.start(0);
        let result = self.conn.query_iter(sql).map_err(query_error)?;
        classify_into(result, Some(rows))
    }

    fn query_rows(&mut self, sql: &str) -> DbResult<Vec<Vec<Option<String>>>> {
        let rows: Vec<mysql::Row> = self.conn.query(sql).map_err(query_error)?;
        Ok(rows
            .into_iter()
            .map(|row| {
                row.unwrap()
                    .into_iter()
                    .map(|v| match v {
                        mysql::Value::NULL => None,
                        mysql::Value::Bytes(b) => Some(String::from_utf8_lossy(&b).into_owned()),
                        other => Some(other.as_sql(true).trim_matches('\'').to_string()),
                    })
                    .collect()
            })
            .collect())
    }

    fn reconnect(&mut self) -> DbResult<()> {
        let conn =
            mysql::Conn::new(self.opts.clone()).map_err(|e| connect_error(e, &self.transport))?;
        self.conn = conn;
        let old = std::mem::take(&mut self.stmts);
        let mut fresh = Vec::with_capacity(old.len());
        for p in old {
            fresh.push(match p {
                Prepared::Server { sql, .. } => self.prepare_one(&sql)?,
                text @ Prepared::Text { .. } => text,
            });
        }
        self.stmts = fresh;
        Ok(())
    }
}
