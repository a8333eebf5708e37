//! What a session is opened with: where it goes, as whom, with TLS or compression, and the
//! fixes its messages suggest in the caller's words.

use dbpress_session::Secret;
use rustls::ClientConfig;
use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

/// Where a session goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Transport {
    Tcp { host: String, port: u16 },
    Socket(PathBuf),
}

impl fmt::Display for Transport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Transport::Tcp { host, port } => write!(f, "TCP {host}:{port}"),
            Transport::Socket(p) => write!(f, "Unix socket {}", p.display()),
        }
    }
}

/// How the tool above tells its user to fix what the handshake found, in its own words (its
/// option names): the client knows no command line.
#[derive(Debug)]
pub struct Fixes {
    /// The server accepted none of the cipher suites or TLS versions offered.
    pub ciphers_refused: &'static str,
    /// The server's certificate failed the check.
    pub certificate_refused: &'static str,
    /// Compression was asked of a server that does not offer it.
    pub no_compression: &'static str,
    /// TLS was required of a server that offers none.
    pub no_tls: &'static str,
    /// The setting that bounds connecting and logging in, as the user would write it.
    pub connect_timeout: &'static str,
    /// Full authentication over plain TCP needs the server's RSA public key, and none was given
    /// or allowed to be asked for.
    pub needs_public_key: &'static str,
}

/// Fixes in the protocol's own terms, for a caller with no options of its own.
pub static PLAIN_FIXES: Fixes = Fixes {
    ciphers_refused: "the server accepts none of the cipher suites or TLS versions offered",
    certificate_refused: "check the CA certificate the server's is checked against",
    no_compression: "connect without compression",
    no_tls: "enable TLS on the server or connect without it",
    connect_timeout: "the connect timeout",
    needs_public_key: "give the server's RSA public key or allow asking the server for it, or connect over TLS or a Unix socket",
};

/// Everything needed to open (and reopen) a session.
#[derive(Clone, Debug)]
pub struct WireOpts {
    pub transport: Transport,
    pub user: String,
    pub password: Secret,
    pub db: String,
    /// TLS over TCP, when the user asks for it.
    pub tls: Option<WireTls>,
    /// The compressed protocol (zlib), when the user asks for it.
    pub compress: bool,
    /// How long connecting may take, and then each step of the handshake (greeting, TLS,
    /// login); None: no limit.
    pub connect_timeout: Option<std::time::Duration>,
    /// What the messages tell the user to change, in the caller's option names.
    pub fixes: &'static Fixes,
    /// The server's RSA public key, for full authentication over plain TCP (caching_sha2 and
    /// sha256_password), when the user gave its file.
    pub server_public_key: Option<Arc<crate::rsa::PublicKey>>,
    /// Ask the server for its RSA public key when caching_sha2_password's full authentication
    /// needs it over plain TCP and none was given (the mysql client's --get-server-public-key:
    /// off by default, because a key taken from the wire is only as good as the network).
    pub get_server_public_key: bool,
}

#[derive(Clone, Debug)]
pub struct WireTls {
    pub config: Arc<ClientConfig>,
    /// Refuse a server that offers no TLS (every mode but preferred).
    pub required: bool,
}
