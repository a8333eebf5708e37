//! One database session as the rest of dbpress sees it, whatever the engine: the `Connection`
//! trait, bound `Value`s, sysbench's `QueryKind`, and `DbError` with a normalised kind that keeps
//! the server's own code. The protocol clients (dbpress-mysql, dbpress-pg) implement
//! `Connection` here, as sqlx's drivers implement sqlx-core's traits, so a statement on the hot
//! path goes from the workload to the wire with no adapter between them.
//!
//! - `connection`: the `Connection` trait, and the text multi-row INSERT load any session can do
//! - `value`: bound `Value`s, `QueryKind`, `StmtHandle`
//! - `error`: `DbError`, its `DbErrorKind`, `DbResult`
//! - `rows`: typed row batches for bulk loads
//! - `result_rows`: the rows a statement returned, for workloads that read them
//! - `text`: `?` placeholders rendered as literals, standard SQL quoting, decimal integers,
//!   multi-row INSERT text
//! - `secret`: a password that never prints

pub mod connection;
pub mod error;
pub mod result_rows;
pub mod rows;
pub mod secret;
pub mod text;
pub mod value;

pub use connection::Connection;
pub use error::{DbError, DbErrorFields, DbErrorKind, DbResult};
pub use result_rows::ResultRows;
pub use rows::RowBatch;
pub use secret::Secret;
pub use value::{QueryKind, StmtHandle, Value};
