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
//! - `options`: what a session is opened with (`WireOpts`: `Transport`, TLS, compression, `Fixes`)
//! - `conn`: handshake and login, TLS upgrade, prepared statements, results read in place;
//!   `conn/session.rs` the `Connection` trait over it, `conn/bulk.rs` pipelined multi-row
//!   INSERTs for bulk loads
//! - `greeting`: the server's first packet, decoded field by field; `caps`: capability flags
//! - `packet`: framing with one reusable buffer, over a plain or compressed stream
//! - `auth`: scrambles for mysql_native_password, caching_sha2_password and client_ed25519
//! - `rsa`: the server's RSA public key and the password encrypted under it (full
//!   authentication of caching_sha2_password and sha256_password over plain TCP)
//! - `errors`: server error numbers as normalised kinds
//! - `escape`: string literals with and without backslash escapes

mod auth;
mod caps;
mod conn;
pub mod errors;
pub mod escape;
mod greeting;
pub mod options;
mod packet;
pub mod rsa;

pub use conn::{OpenError, WireConn};
pub use options::{Fixes, Transport, WireOpts, WireTls, PLAIN_FIXES};
