//! How dbpress reaches a database: the `Driver` trait (sessions, dialect, server facts, where
//! its counters, waits, process and data are), one module per engine, and the plain values a
//! driver is made from. Sessions are `dbpress_session::Connection`s: the protocol crates' own
//! for MySQL and PostgreSQL, rusqlite's for SQLite. Drivers never see what the user typed:
//! the configuration layer hands them typed targets (`MysqlTarget`, `PgTarget`, `SqliteTarget`).
//!
//! - `mysql/`: the MySQL-protocol driver (dbpress-mysql for every session, the `mysql` crate
//!   for auth plugins it lacks), its target (`mysql/target.rs`), counters and waits
//! - `pgsql/`: the PostgreSQL driver on dbpress-pg
//! - `sqlite/`: embedded SQLite, with the process-wide write queue (`sqlite/write_queue.rs`)
//! - `dry_run`: executes nothing, for measuring dbpress itself
//! - `clients`: which client library opened each session, counted (`SessionTally`)
//! - `dialect`: every SQL difference between engines, one value per engine
//! - `driver`: the `Driver` trait, `ServerInfo`, `Hints`, `PsMode`, `CounterSpec`, `DataLocation`
//! - `settings`: a server's global settings changed and put back (`GlobalSettings`), for
//!   experiments
//! - `status`: the server's status figures sampled during a run (`StatusSpec`, `StatusKind`)
//! - `flag_hints`: the option names errors quote, for each grammar a target can come from

pub mod clients;
pub mod dialect;
pub mod driver;
pub mod dry_run;
pub mod flag_hints;
pub mod mysql;
pub mod pgsql;
pub mod settings;
pub mod sqlite;
pub mod status;

pub use clients::{ClientSessions, SessionTally};
pub use dbpress_pg::placeholders::numbered_placeholders;
pub use dbpress_session::text::{push_int, render_text};
pub use dbpress_session::{
    rows, Connection, DbError, DbErrorFields, DbErrorKind, DbResult, QueryKind, ResultRows,
    RowBatch, StmtHandle, Value,
};
pub use dialect::{Dialect, SqlFamily};
pub use driver::{
    connect_checked, counter_rows, tls_description, CounterSpec, DataLocation, Driver, Hints,
    PsMode, ServerInfo,
};
