//! A thread's failed set-up in sysbench's own lines, for dbpress speaking as sysbench (#42):
//! what Debian's sysbench 1.0.20 prints when its stock OLTP scripts' `thread_init` cannot
//! connect to MySQL or prepare a statement on a table that is not there, or PostgreSQL
//! refuses its login over the socket. Only where every word is known (a stock OLTP test, a
//! server's own error); anything else keeps dbpress's line.

use dbpress_config::{RunConfig, Target};
use dbpress_driver::mysql::target::Transport;
use dbpress_driver::{DbError, DbErrorKind};

/// The lines after `FATAL: ` (each further one starts with `FATAL: ` too), or None. A
/// failing thread's three lines come once: sysbench's threads print theirs interleaved, in an
/// order of their own, and its log folds a line equal to the one before it
/// (`(last message repeated 1 times)`), so with more threads there is no one text to match.
pub fn thread_init_failure(cfg: &RunConfig, e: &DbError) -> Option<String> {
    let stock = dbpress_workload::oltp::VARIANTS
        .iter()
        .any(|v| v.name == cfg.workload);
    if !stock {
        return None;
    }
    let t = match &cfg.connection.target {
        Target::Mysql(t) => t,
        Target::Pgsql(t) => return pgsql_failure(&t.host, t.port, e),
        _ => return None,
    };
    let code: u32 = e.code.parse().ok().filter(|c| *c > 0)?;
    let (first, second, why) = match e.kind {
        DbErrorKind::NoSuchTable => (
            "mysql_stmt_prepare() failed".to_string(),
            format!("MySQL error: {code} \"{}\"", e.message),
            "284: SQL API error",
        ),
        DbErrorKind::Auth
        | DbErrorKind::UnknownDatabase
        | DbErrorKind::TooManyConnections
        | DbErrorKind::PermissionDenied => (
            format!(
                "unable to connect to MySQL server on {}, aborting...",
                place(t.transports.first()?)
            ),
            format!("error {code}: {}", e.message),
            "349: connection creation failed",
        ),
        _ => return None,
    };
    Some(
        [
            first,
            second,
            format!("`thread_init' function failed: /usr/share/sysbench/oltp_common.lua:{why}"),
            "Thread initialization failed!".to_string(),
        ]
        .join("\nFATAL: "),
    )
}

/// A login PostgreSQL refuses over its Unix socket, as sysbench prints libpq's message (which
/// ends in a newline, so a blank line follows it). Over TCP libpq's text depends on its TLS
/// attempts (with `sslmode=prefer` a server with TLS gets two tries, each a line): left to
/// dbpress's line.
fn pgsql_failure(host: &str, port: u16, e: &DbError) -> Option<String> {
    if e.kind != DbErrorKind::Auth || !host.starts_with('/') {
        return None;
    }
    let place = format!("on socket \"{host}/.s.PGSQL.{port}\"");
    Some(
        [
            format!(
                "Connection to database failed: connection to server {place} failed: FATAL:  {}\n",
                e.message
            ),
            "`thread_init' function failed: /usr/share/sysbench/oltp_common.lua:349: connection creation failed".to_string(),
            "Thread initialization failed!".to_string(),
        ]
        .join("\nFATAL: "),
    )
}

/// Where sysbench says it tried: `socket '/run/mysqld/mysqld.sock'`, `host 'db1', port 3306`.
fn place(t: &Transport) -> String {
    match t {
        Transport::Socket(p) => format!("socket '{}'", p.display()),
        Transport::Tcp { host, port } => format!("host '{host}', port {port}"),
    }
}
