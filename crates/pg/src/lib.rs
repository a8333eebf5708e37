//! dbpress's own PostgreSQL client (protocol v3), for every session: Unix socket, TCP, and TCP
//! with TLS (rustls, with libpq's sslmode meanings). It writes Bind/Execute/Sync into one
//! buffer and skips DataRows in place; a general client (the `postgres` crate runs a tokio
//! runtime per client and decodes every row) costs several times the instructions per
//! statement. It implements `dbpress_session::Connection` directly, and knows nothing of
//! dbpress's options: a `PgTarget` is filled in by the caller, messages' fixes included.
//!
//! - `target`: where a session goes, as whom, with which sslmode (`PgTarget`, `PgSslMode`)
//! - `conn`: startup and login, SSLRequest, Parse/Describe once, Bind/Execute/Sync per
//!   statement, simple query, COPY
//! - `auth`: SCRAM-SHA-256 and MD5
//! - `errors`: SQLSTATEs as normalised kinds
//! - `placeholders`: `?` as `$1..$n`

mod auth;
mod conn;
pub mod errors;
pub mod placeholders;
pub mod target;

pub use conn::PgWire;
pub use target::{Fixes, PgSslMode, PgTarget, MONITOR_APPLICATION, PLAIN_FIXES, RUN_APPLICATION};
