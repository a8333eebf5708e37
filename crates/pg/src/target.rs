//! Where a PostgreSQL session goes, as whom, and how it is secured: plain values, filled in by
//! whoever reads the user's options, libpq's environment or a URL.

use dbpress_net::tls::ClientCert;
use dbpress_session::Secret;
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PgSslMode {
    Disable,
    /// TLS when the server offers it, certificate not checked (libpq's default).
    Prefer,
    /// TLS required, certificate not checked.
    Require,
    /// TLS, certificate signed by the root certificate's CA; host name not checked.
    VerifyCa,
    /// TLS, CA-signed certificate issued for the host.
    VerifyFull,
}

impl PgSslMode {
    pub const NAMES: &'static str = "disable, allow, prefer, require, verify-ca, verify-full";

    /// libpq's spelling of a mode (any case, `_` for `-`); None for an unknown one.
    pub fn parse(s: &str) -> Option<PgSslMode> {
        match s.to_ascii_lowercase().replace('_', "-").as_str() {
            "disable" => Some(PgSslMode::Disable),
            // libpq's allow tries plain first; the server decides either way.
            "allow" | "prefer" => Some(PgSslMode::Prefer),
            "require" => Some(PgSslMode::Require),
            "verify-ca" => Some(PgSslMode::VerifyCa),
            "verify-full" => Some(PgSslMode::VerifyFull),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            PgSslMode::Disable => "disable",
            PgSslMode::Prefer => "prefer",
            PgSslMode::Require => "require",
            PgSslMode::VerifyCa => "verify-ca",
            PgSslMode::VerifyFull => "verify-full",
        }
    }
}

#[derive(Clone, Debug)]
pub struct PgTarget {
    /// A host name or address (TCP), or a directory holding the server's socket (starts with /).
    pub host: String,
    pub port: u16,
    pub user: String,
    pub password: Secret,
    pub db: String,
    pub ssl: PgSslMode,
    pub ssl_root_cert: Option<PathBuf>,
    /// Presented when the server asks for a certificate (`cert` in pg_hba.conf).
    pub client_cert: Option<ClientCert>,
    /// Schema the session works in (search_path), when not the server's default.
    pub schema: Option<String>,
    /// Server settings for the session in libpq's `options` form (`-c name=value …`, from
    /// PGOPTIONS), as libpq sends them at startup.
    pub options: Option<String>,
    /// How long connecting may take, then each step of the handshake; None: no limit.
    pub connect_timeout: Option<std::time::Duration>,
    /// The name pg_stat_activity shows for the session: [`RUN_APPLICATION`] for the sessions
    /// that do the benchmark's work, [`MONITOR_APPLICATION`] for those that watch the server.
    pub application_name: &'static str,
    /// What the messages tell the user to change, in the caller's option names.
    pub fixes: &'static Fixes,
}

/// pg_stat_activity's application_name of the sessions that do a run's work.
pub const RUN_APPLICATION: &str = "dbpress";
/// pg_stat_activity's application_name of the sessions that read the server while a run works
/// (status, wait events, counters), so that counts of sessions at work can leave them out.
pub const MONITOR_APPLICATION: &str = "dbpress-monitor";

/// How the tool above tells its user to fix a refused TLS session, in its own words (its option
/// names): the client knows no command line.
#[derive(Debug)]
pub struct Fixes {
    /// After "TLS with the PostgreSQL server failed (why): ".
    pub tls_failed: &'static str,
    /// The option that sets the sslmode, as the user would write it.
    pub ssl_mode_option: &'static str,
    /// The settings that bound connecting and logging in.
    pub connect_timeout: &'static str,
}

/// Fixes in libpq's terms, for a caller with no options of its own.
pub static PLAIN_FIXES: Fixes = Fixes {
    tls_failed:
        "check sslmode and sslrootcert, or connect by the name the certificate was issued for",
    ssl_mode_option: "sslmode",
    connect_timeout: "connect_timeout",
};

impl PgTarget {
    pub fn is_socket(&self) -> bool {
        self.host.starts_with('/')
    }

    /// Where the session goes: "TCP host:port" or "Unix socket /dir/.s.PGSQL.port".
    pub fn place(&self) -> String {
        if self.is_socket() {
            format!(
                "Unix socket {}/.s.PGSQL.{}",
                self.host.trim_end_matches('/'),
                self.port
            )
        } else {
            format!("TCP {}:{}", self.host, self.port)
        }
    }

    pub fn describe(&self) -> String {
        let place = self.place();
        let tls = match (self.is_socket(), self.ssl) {
            (true, _) | (_, PgSslMode::Disable) => String::new(),
            (false, m) => format!(", sslmode={}", m.name()),
        };
        let cert = match &self.client_cert {
            Some(c) if !tls.is_empty() => format!(", client certificate {}", c.cert.display()),
            _ => String::new(),
        };
        let schema = self
            .schema
            .as_ref()
            .map_or(String::new(), |s| format!(", schema {s}"));
        format!(
            "PostgreSQL over {place}, user {}, database {}{schema}{tls}{cert}",
            self.user, self.db
        )
    }
}
