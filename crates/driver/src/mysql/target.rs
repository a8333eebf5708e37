//! Where and how to reach a MySQL-protocol server: transports, credentials, TLS, compression,
//! as plain values (the configuration layer fills them in from what the user typed).

pub use dbpress_mysql::Transport;
use dbpress_net::tls::ClientCert;
use dbpress_session::Secret;
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SslMode {
    Disabled,
    Preferred,
    Required,
    VerifyCa,
    VerifyIdentity,
}

#[derive(Clone, Debug)]
pub struct MysqlTarget {
    /// Connections are spread over these round robin (sysbench's host × port lists).
    pub transports: Vec<Transport>,
    pub user: String,
    pub password: Secret,
    /// Where the password came from, for messages ("from MYSQL_PWD").
    pub password_source: &'static str,
    pub db: String,
    pub ssl: SslMode,
    pub ssl_ca: Option<PathBuf>,
    /// --mysql-ssl-cert and --mysql-ssl-key: presented when the server asks for a certificate.
    pub client_cert: Option<ClientCert>,
    /// --mysql-ssl-cipher: the only cipher suites offered (empty: rustls's defaults).
    pub ssl_cipher: String,
    /// --mysql-compression: every session speaks the compressed protocol (zlib).
    pub compress: bool,
    /// How long connecting may take, then each step of the handshake; None: no limit.
    pub connect_timeout: Option<std::time::Duration>,
    /// --mysql-server-public-key-path: the server's RSA public key (PEM), for full
    /// authentication over plain TCP.
    pub server_public_key_path: Option<PathBuf>,
    /// --mysql-get-server-public-key: ask the server for its RSA key when that needs it.
    pub get_server_public_key: bool,
}

impl MysqlTarget {
    /// One line for the run header: how connections reach the server.
    pub fn describe(&self) -> String {
        let list: Vec<String> = self.transports.iter().map(|t| t.to_string()).collect();
        let all_sockets = self
            .transports
            .iter()
            .all(|t| matches!(t, Transport::Socket(_)));
        let tls = match self.ssl {
            SslMode::Disabled => "",
            _ if all_sockets => ", TLS not used over a Unix socket",
            SslMode::Preferred => ", TLS preferred",
            SslMode::Required => ", TLS required",
            SslMode::VerifyCa => ", TLS verify_ca",
            SslMode::VerifyIdentity => ", TLS verify_identity",
        };
        let cert = match &self.client_cert {
            Some(c) if !all_sockets && self.ssl != SslMode::Disabled => {
                format!(", client certificate {}", c.cert.display())
            }
            _ => String::new(),
        };
        let cert = match self.ssl_cipher.as_str() {
            "" => cert,
            _ if all_sockets || self.ssl == SslMode::Disabled => cert,
            list => format!("{cert}, ciphers {list}"),
        };
        let compression = if self.compress {
            ", compressed protocol (zlib)"
        } else {
            ""
        };
        format!(
            "MySQL {} as '{}' db '{}'{compression}{tls}{cert}",
            list.join(", "),
            self.user,
            self.db
        )
    }
}
