//! PostgreSQL: plain sessions (Unix socket, sslmode=disable, sslmode=prefer when the server
//! offers no TLS) through dbpress's own protocol
//! client (pgsql_wire), TLS sessions through the sync `postgres` crate with rustls.
//!
//! Statements keep sysbench's `?` placeholders in the workloads; this driver numbers them
//! (`$1..$n`) as sysbench's pgsql driver does. Parameters adapt to the types the server inferred
//! for them (an id is int4), so workloads bind plain integers and byte strings. Errors carry the
//! SQLSTATE as their code, which is what --pgsql-ignore-errors lists.

use super::dialect::escape_standard;
use super::pgsql_target::{PgSslMode, PgTarget};
use super::{
    dialect, render_text, Connection, DbError, DbErrorKind, DbResult, Dialect, Driver, Hints,
    QueryKind, RowBatch, ServerInfo, StmtHandle, Value,
};
use crate::config::PsMode;
use postgres::fallible_iterator::FallibleIterator;
use postgres::types::{IsNull, ToSql, Type};
use postgres::{SimpleQueryMessage, Statement};
use std::io::Write;
use std::sync::atomic::{AtomicU8, Ordering};
use std::time::Duration;

pub static PGSQL_HINTS: Hints = Hints {
    address: "--pgsql-host/--pgsql-port (a socket directory such as /var/run/postgresql is a host)",
    credentials: "--pgsql-user and --pgsql-password (or PGUSER, PGPASSWORD, ~/.pgpass)",
    database: "--pgsql-db",
    ignore: "--pgsql-ignore-errors",
    max_connections_fix: "ALTER SYSTEM SET max_connections = N and restart the server",
    files_per_session: 1,
};

pub struct PgDriver {
    target: PgTarget,
    ps_mode: PsMode,
    tls: Option<tokio_postgres_rustls::MakeRustlsConnect>,
    /// sslmode=prefer: whether the server offered TLS when first asked (0 not asked yet,
    /// 1 offered, 2 declined), so later connections skip the question.
    tls_offered: AtomicU8,
}

impl PgDriver {
    /// Fails only if the TLS configuration cannot be built (an unreadable CA file).
    pub fn new(target: PgTarget, ps_mode: PsMode) -> Result<PgDriver, String> {
        let tls = match target.ssl {
            PgSslMode::Disable => None,
            _ if target.is_socket() => None,
            mode => Some(tokio_postgres_rustls::MakeRustlsConnect::new(
                super::pgsql_tls::client_config(mode, target.ssl_root_cert.as_deref())?,
            )),
        };
        Ok(PgDriver {
            target,
            ps_mode,
            tls,
            tls_offered: AtomicU8::new(0),
        })
    }

    fn open(&self) -> DbResult<postgres::Client> {
        let t = &self.target;
        let mut cfg = postgres::Config::new();
        cfg.host(&t.host)
            .port(t.port)
            .user(&t.user)
            .dbname(&t.db)
            .application_name("dbpress")
            .connect_timeout(Duration::from_secs(10));
        if !t.password.is_empty() {
            cfg.password(t.password.expose());
        }
        if let Some(schema) = &t.schema {
            cfg.options(format!("-c search_path={schema}").as_str());
        }
        let r = match &self.tls {
            None => {
                cfg.ssl_mode(postgres::config::SslMode::Disable);
                cfg.connect(postgres::NoTls)
            }
            Some(tls) => {
                cfg.ssl_mode(if t.ssl == PgSslMode::Prefer {
                    postgres::config::SslMode::Prefer
                } else {
                    postgres::config::SslMode::Require
                });
                cfg.connect(tls.clone())
            }
        };
        r.map_err(|e| connect_error(e, t))
    }
}

impl Driver for PgDriver {
    fn connect(&self, _index: usize) -> DbResult<Box<dyn Connection>> {
        // Plain sessions use dbpress's own protocol client; TLS sessions use the crate.
        let text_mode = self.ps_mode == PsMode::Disable;
        if self.tls.is_none() {
            return Ok(Box::new(super::pgsql_wire::PgWire::open(
                &self.target,
                text_mode,
            )?));
        }
        // sslmode=prefer with a server that offers no TLS (a container image's default): a
        // plain session, so through the lean client rather than the crate (~4× its cost).
        if self.target.ssl == PgSslMode::Prefer && self.tls_offered.load(Ordering::Relaxed) != 1 {
            match super::pgsql_wire::PgWire::open_unless_tls_offered(&self.target, text_mode)? {
                Some(plain) => {
                    self.tls_offered.store(2, Ordering::Relaxed);
                    return Ok(Box::new(plain));
                }
                None => self.tls_offered.store(1, Ordering::Relaxed),
            }
        }
        let client = self.open()?;
        Ok(Box::new(PgConnection {
            client,
            driver: PgDriver {
                target: self.target.clone(),
                ps_mode: self.ps_mode,
                tls: self.tls.clone(),
                tls_offered: AtomicU8::new(1),
            },
            text_mode: self.ps_mode == PsMode::Disable,
            stmts: Vec::new(),
            buf: Vec::new(),
        }))
    }

    fn dialect(&self) -> &'static Dialect {
        &dialect::PGSQL
    }

    fn describe(&self) -> String {
        self.target.describe()
    }

    fn hints(&self) -> &'static Hints {
        &PGSQL_HINTS
    }

    fn server_info(&self, conn: &mut dyn Connection) -> ServerInfo {
        let mut info = ServerInfo {
            product: "PostgreSQL".into(),
            ..ServerInfo::default()
        };
        let rows = conn.query_rows(
            "SELECT name, current_setting(name) FROM pg_settings WHERE name IN ('server_version', \
             'max_connections', 'shared_buffers', 'effective_cache_size', 'work_mem', 'synchronous_commit', \
             'fsync', 'full_page_writes', 'wal_level', 'wal_sync_method', 'max_wal_size', \
             'checkpoint_timeout', 'default_transaction_isolation', 'deadlock_timeout', 'ssl', \
             'huge_pages', 'autovacuum')",
        );
        for row in rows.unwrap_or_default() {
            if let (Some(Some(k)), Some(Some(v))) = (row.first(), row.get(1)) {
                info.variables.insert(k.clone(), v.clone());
            }
        }
        info.version = info
            .variables
            .get("server_version")
            .cloned()
            .unwrap_or_default();
        if self.tls.is_some() {
            let row = conn
                .query_rows(
                    "SELECT version, cipher FROM pg_stat_ssl WHERE pid = pg_backend_pid() AND ssl",
                )
                .unwrap_or_default();
            let field = |i: usize| {
                row.first()
                    .and_then(|r| r.get(i).cloned().flatten())
                    .unwrap_or_default()
            };
            info.session_tls = Some(super::tls_description(&field(0), &field(1)));
        }
        info
    }
}

/// `?` placeholders (outside quoted text) numbered `$1..$n`.
pub fn numbered_placeholders(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len() + 16);
    let mut n = 0;
    let mut quote: Option<char> = None;
    for c in sql.chars() {
        match (quote, c) {
            (None, '?') => {
                n += 1;
                out.push('$');
                out.push_str(&n.to_string());
                continue;
            }
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            _ => {}
        }
        out.push(c);
    }
    out
}

/// A workload value bound as whatever type the server inferred for the parameter.
#[derive(Debug)]
struct Param<'a>(Value<'a>);

impl ToSql for Param<'_> {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut bytes::BytesMut,
    ) -> Result<IsNull, Box<dyn std::error::Error + Sync + Send>> {
        match self.0 {
            Value::Null => Ok(IsNull::Yes),
            Value::Str(b) => {
                // Text-like types travel as their bytes in binary format too.
                out.extend_from_slice(b);
                Ok(IsNull::No)
            }
            Value::Int(n) => {
                match *ty {
                    Type::INT2 => out.extend_from_slice(&i16::try_from(n)?.to_be_bytes()),
                    Type::INT4 => out.extend_from_slice(&i32::try_from(n)?.to_be_bytes()),
                    Type::INT8 => out.extend_from_slice(&n.to_be_bytes()),
                    Type::FLOAT8 => out.extend_from_slice(&(n as f64).to_be_bytes()),
                    _ => out.extend_from_slice(n.to_string().as_bytes()),
                }
                Ok(IsNull::No)
            }
        }
    }

    fn accepts(_: &Type) -> bool {
        true
    }

    postgres::types::to_sql_checked!();
}

struct Prepared {
    /// The workload's SQL, `?` placeholders.
    sql: String,
    stmt: Option<Statement>,
}

pub struct PgConnection {
    client: postgres::Client,
    driver: PgDriver,
    text_mode: bool,
    stmts: Vec<Prepared>,
    buf: Vec<u8>,
}

impl PgConnection {
    fn run(
        &mut self,
        stmt: StmtHandle,
        params: &[Value<'_>],
    ) -> Result<QueryKind, postgres::Error> {
        let p = &self.stmts[stmt.0 as usize];
        let Some(statement) = &p.stmt else {
            render_text(&p.sql, params, escape_standard, &mut self.buf);
            let sql = std::str::from_utf8(&self.buf).unwrap_or_default();
            return simple(&mut self.client, sql);
        };
        let reads = !statement.columns().is_empty();
        let mut rows = self
            .client
            .query_raw(statement, params.iter().map(|v| Param(*v)))?;
        while rows.next()?.is_some() {}
        Ok(if reads {
            QueryKind::Read
        } else if rows.rows_affected().unwrap_or(0) > 0 {
            QueryKind::Write
        } else {
            QueryKind::Other
        })
    }
}

/// Run text SQL and classify it: any result set is a read, changed rows a write.
fn simple(client: &mut postgres::Client, sql: &str) -> Result<QueryKind, postgres::Error> {
    let mut kind = QueryKind::Other;
    for m in client.simple_query(sql)? {
        match m {
            SimpleQueryMessage::RowDescription(_) | SimpleQueryMessage::Row(_) => {
                kind = QueryKind::Read
            }
            SimpleQueryMessage::CommandComplete(n) if n > 0 && kind != QueryKind::Read => {
                kind = QueryKind::Write
            }
            _ => {}
        }
    }
    Ok(kind)
}

pub(super) fn kind_of_sqlstate(code: &str) -> DbErrorKind {
    match code {
        "40P01" | "40001" => DbErrorKind::Deadlock,
        "55P03" | "57014" => DbErrorKind::LockTimeout,
        "23505" => DbErrorKind::DuplicateKey,
        "42P01" => DbErrorKind::NoSuchTable,
        // Syntax error, undefined column or function, type mismatch, ambiguous column.
        "42601" | "42703" | "42883" | "42804" | "42702" | "42P18" => DbErrorKind::BadStatement,
        "42501" => DbErrorKind::PermissionDenied,
        "42P07" => DbErrorKind::TableExists,
        "3D000" => DbErrorKind::UnknownDatabase,
        "28P01" | "28000" => DbErrorKind::Auth,
        "53300" => DbErrorKind::TooManyConnections,
        "0A000" => DbErrorKind::Unsupported,
        c if c.starts_with("08") || c.starts_with("57P") => DbErrorKind::ConnectionLost,
        _ => DbErrorKind::Other,
    }
}

/// The crate's error as a `DbError`: SQLSTATE as the code; a closed session is 08006
/// (connection_failure), so `--pgsql-ignore-errors=08006` reconnects like sysbench's 2013.
pub fn db_error(e: postgres::Error) -> DbError {
    if let Some(db) = e.as_db_error() {
        let code = db.code().code();
        let mut message = db.message().to_string();
        if let Some(d) = db.detail() {
            message.push_str(": ");
            message.push_str(d);
        }
        return DbError::new(kind_of_sqlstate(code), code, message);
    }
    if let Some(code) = e.code() {
        return DbError::new(kind_of_sqlstate(code.code()), code.code(), e.to_string());
    }
    DbError::new(DbErrorKind::ConnectionLost, "08006", e.to_string())
}

fn connect_error(e: postgres::Error, t: &PgTarget) -> DbError {
    if e.as_db_error().is_some() {
        return db_error(e);
    }
    // No answer from a server: refused, unreachable, timed out, or a failed TLS handshake.
    let mut message = e.to_string();
    let mut source = std::error::Error::source(&e);
    while let Some(s) = source {
        message = format!("{message}: {s}");
        source = s.source();
    }
    if message.contains("password missing") {
        return DbError::new(
            DbErrorKind::Auth,
            "28P01",
            "the server asked for a password and none was given",
        );
    }
    if message.contains("TLS") || message.contains("certificate") {
        return DbError::new(
            DbErrorKind::Setup,
            "08001",
            format!(
                "TLS with the PostgreSQL server failed ({message}): check --pgsql-sslmode and --pgsql-sslrootcert, \
                 or connect by the name the certificate was issued for"
            ),
        );
    }
    // The crate's message ("error connecting to server: Connection refused") does not say where.
    DbError::new(
        DbErrorKind::Unreachable,
        "08001",
        format!(
            "cannot connect to the server over TCP {}:{}: {message}",
            t.host, t.port
        ),
    )
}

impl Connection for PgConnection {
    fn prepare(&mut self, sql: &str) -> DbResult<StmtHandle> {
        let stmt = if self.text_mode {
            None
        } else {
            Some(
                self.client
                    .prepare(&numbered_placeholders(sql))
                    .map_err(db_error)?,
            )
        };
        self.stmts.push(Prepared {
            sql: sql.to_string(),
            stmt,
        });
        Ok(StmtHandle(self.stmts.len() as u32 - 1))
    }

    fn prepare_text(&mut self, sql: &str) -> DbResult<StmtHandle> {
        self.stmts.push(Prepared {
            sql: sql.to_string(),
            stmt: None,
        });
        Ok(StmtHandle(self.stmts.len() as u32 - 1))
    }

    fn execute(&mut self, stmt: StmtHandle, params: &[Value<'_>]) -> DbResult<QueryKind> {
        self.run(stmt, params).map_err(db_error)
    }

    fn query(&mut self, sql: &str) -> DbResult<QueryKind> {
        simple(&mut self.client, sql).map_err(db_error)
    }

    fn query_rows(&mut self, sql: &str) -> DbResult<Vec<Vec<Option<String>>>> {
        let mut out = Vec::new();
        for m in self.client.simple_query(sql).map_err(db_error)? {
            if let SimpleQueryMessage::Row(r) = m {
                out.push((0..r.len()).map(|i| r.get(i).map(str::to_string)).collect());
            }
        }
        Ok(out)
    }

    fn reconnect(&mut self) -> DbResult<()> {
        self.client = self.driver.open()?;
        for p in &mut self.stmts {
            if p.stmt.is_some() {
                p.stmt = Some(
                    self.client
                        .prepare(&numbered_placeholders(&p.sql))
                        .map_err(db_error)?,
                );
            }
        }
        Ok(())
    }

    fn bulk_load(
        &mut self,
        table: &str,
        columns: &str,
        fill: &mut dyn FnMut(&mut RowBatch) -> bool,
    ) -> DbResult<&'static str> {
        let mut w = self
            .client
            .copy_in(&format!("COPY {table} ({columns}) FROM STDIN"))
            .map_err(db_error)?;
        // COPY is one stream; batches only bound the memory between writes.
        let mut batch = RowBatch::new(columns.split(',').count(), 4096, 1 << 20);
        let mut chunk = Vec::with_capacity(2 << 20);
        loop {
            batch.clear();
            let more = fill(&mut batch);
            chunk.clear();
            batch.write_tsv(&mut chunk);
            w.write_all(&chunk)
                .map_err(|e| DbError::new(DbErrorKind::ConnectionLost, "08006", e.to_string()))?;
            if !more {
                break;
            }
        }
        w.finish().map_err(db_error)?;
        Ok("COPY")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_numbered_outside_quotes() {
        assert_eq!(
            numbered_placeholders("SELECT c FROM t WHERE id BETWEEN ? AND ? AND x = '?'"),
            "SELECT c FROM t WHERE id BETWEEN $1 AND $2 AND x = '?'"
        );
    }

    #[test]
    fn sqlstates_map_to_kinds() {
        assert_eq!(kind_of_sqlstate("40P01"), DbErrorKind::Deadlock);
        assert_eq!(kind_of_sqlstate("42P01"), DbErrorKind::NoSuchTable);
        assert_eq!(kind_of_sqlstate("57P01"), DbErrorKind::ConnectionLost);
        assert_eq!(kind_of_sqlstate("53300"), DbErrorKind::TooManyConnections);
    }
}
