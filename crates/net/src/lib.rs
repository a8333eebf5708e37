//! The byte streams dbpress's protocol clients talk over, and nothing of any protocol's
//! messages: TCP (with a connect time limit) or a Unix socket, TLS through rustls (no OpenSSL),
//! and zlib framing for a stream that compresses everything under its own packets (MySQL's
//! compressed protocol). Option names appear only as the callers pass them, for messages.
//!
//! - `stream`: `Stream` (TCP, Unix, TLS, zlib), `tcp_connect`, `tls_handshake`, and `Buffered`,
//!   one reusable read buffer whose messages are read in place
//! - `tls`: rustls client configurations: encryption only, CA-checked, name-checked; client
//!   certificates; cipher-suite lists by OpenSSL or IANA names
//! - `zlib`: compressed packets as a plain byte stream for the framing above

pub mod stream;
pub mod tls;
pub mod zlib;

pub use stream::{seconds, tcp_connect, timed_out, tls_handshake, Buffered, Stream, Tcp};
