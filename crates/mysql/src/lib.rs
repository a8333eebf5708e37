//! dbpress's own MySQL client protocol, for MySQL, MariaDB and the servers that speak it, over
//! TCP (plain or TLS), a Unix socket, and the compressed protocol.
//!
//! Why it exists: a general client decodes every row into allocated values (≈1 000 instructions
//! per row measured under callgrind), which makes the client, not the server, the bottleneck of a
//! range-heavy OLTP event. A load generator only needs to know that rows arrived and how many
//! statements did what, so this client speaks just that much of the protocol and skips rows in
//! place. It implements `dbpress_session::Connection` directly, and knows nothing of dbpress's
//! options: the messages' fixes come from the caller (`Fixes`).
//!
//! - `conn`: handshake and login, TLS upgrade, COM_QUERY, COM_STMT_PREPARE/EXECUTE, and (in
//!   `conn/bulk.rs`) pipelined multi-row INSERTs for bulk loads
//! - `packet`: framing with one reusable buffer, over a plain or compressed stream
//! - `auth`: scrambles for mysql_native_password, caching_sha2_password and client_ed25519
//! - `errors`: server error numbers as normalised kinds
//! - `escape`: string literals with and without backslash escapes

mod auth;
mod conn;
pub mod errors;
pub mod escape;
mod packet;

pub use conn::{OpenError, WireConn, WireOpts, WireTls};
use std::fmt;
use std::path::PathBuf;

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
}

/// Fixes in the protocol's own terms, for a caller with no options of its own.
pub static PLAIN_FIXES: Fixes = Fixes {
    ciphers_refused: "the server accepts none of the cipher suites or TLS versions offered",
    certificate_refused: "check the CA certificate the server's is checked against",
    no_compression: "connect without compression",
    no_tls: "enable TLS on the server or connect without it",
};
