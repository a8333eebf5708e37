//! A session's failure in sysbench's own lines, for dbpress speaking as sysbench (#42): what
//! Debian's sysbench 1.0.20 prints when its stock OLTP scripts cannot connect (a server that
//! is not there, a login or database refused) or a thread cannot prepare a statement on a
//! table that is not there — in `thread_init` (run), in `prepare`'s command or in `cleanup`.
//! Only where every word is known (a stock OLTP test, a server's own error or the client
//! library's); anything else keeps dbpress's line.

use dbpress_config::{Command, RunConfig, Target};
use dbpress_driver::mysql::target::Transport;
use dbpress_driver::{DbError, DbErrorKind};

/// The lines of `cfg`'s command failing on `e` — `run`'s thread set-up, or `prepare`'s and
/// `cleanup`'s one session (their connection only) — after `FATAL: ` (each further one starts
/// with `FATAL: ` too), or None. A failing thread's lines come once: sysbench's threads print
/// theirs interleaved, in an order of their own, and its log folds a line equal to the one
/// before it (`(last message repeated 1 times)`), so with more threads there is no one text
/// to match.
pub fn failure(cfg: &RunConfig, e: &DbError) -> Option<String> {
    let stock = dbpress_workload::oltp::VARIANTS
        .iter()
        .any(|v| v.name == cfg.workload);
    if !stock {
        return None;
    }
    // Where in oltp_common.lua each command connects, and what follows its lines.
    let (function, line, after) = match cfg.command {
        Command::Run => ("thread_init", 349, Some("Thread initialization failed!")),
        Command::Prepare => ("sysbench.cmdline.call_command", 83, None),
        Command::Cleanup => ("cleanup", 388, None),
        _ => return None,
    };
    let failed_at = |what: &str| {
        format!("`{function}' function failed: /usr/share/sysbench/oltp_common.lua:{what}")
    };
    let mut lines = match &cfg.connection.target {
        Target::Mysql(t) => {
            mysql_failure(t.transports.first()?, e, (cfg.command, line), &failed_at)?
        }
        Target::Pgsql(t) => vec![
            pgsql_failure(&t.host, t.port, e)?,
            failed_at(&format!("{line}: connection creation failed")),
        ],
        _ => return None,
    };
    lines.extend(after.map(str::to_string));
    Some(lines.join("\nFATAL: "))
}

/// MySQL's lines: the driver's two (where it tried, the client library's error), then the
/// function's.
fn mysql_failure(
    at: &Transport,
    e: &DbError,
    (command, connect_line): (Command, u32),
    failed_at: &dyn Fn(&str) -> String,
) -> Option<Vec<String>> {
    // A server that never answered: the client library's own number and words.
    let said;
    let e = match e.kind {
        DbErrorKind::Unreachable => {
            said = dbpress_driver::mysql::libmariadb_words::connect_failure(e);
            &said
        }
        _ => e,
    };
    let code: u32 = e.code.parse().ok().filter(|c| *c > 0)?;
    match e.kind {
        DbErrorKind::NoSuchTable if command == Command::Run => Some(vec![
            "mysql_stmt_prepare() failed".to_string(),
            format!("MySQL error: {code} \"{}\"", e.message),
            failed_at("284: SQL API error"),
        ]),
        DbErrorKind::Auth
        | DbErrorKind::Unreachable
        | DbErrorKind::UnknownDatabase
        | DbErrorKind::TooManyConnections
        | DbErrorKind::PermissionDenied => Some(vec![
            format!(
                "unable to connect to MySQL server on {}, aborting...",
                place(at)
            ),
            format!("error {code}: {}", e.message),
            failed_at(&format!("{connect_line}: connection creation failed")),
        ]),
        _ => None,
    }
}

/// PostgreSQL's line: libpq's message (which ends in a newline, so a blank line follows it).
/// A login refused over the Unix socket, or a server not there, wherever (libpq tried once: no
/// TLS was reached to try again without). Over TCP a refused login's text depends on libpq's
/// TLS attempts (with `sslmode=prefer` a server with TLS gets two tries, each a line): left
/// to dbpress's line.
fn pgsql_failure(host: &str, port: u16, e: &DbError) -> Option<String> {
    let said_by_libpq = match e.kind {
        DbErrorKind::Auth => host.starts_with('/'),
        DbErrorKind::Unreachable => true,
        _ => false,
    };
    said_by_libpq.then(|| {
        let said = dbpress_driver::pgsql::libpq_words::connection(host, &port.to_string(), e);
        format!("Connection to database failed: {said}\n")
    })
}

/// Where sysbench says it tried: `socket '/run/mysqld/mysqld.sock'`, `host 'db1', port 3306`.
fn place(t: &Transport) -> String {
    match t {
        Transport::Socket(p) => format!("socket '{}'", p.display()),
        Transport::Tcp { host, port } => format!("host '{host}', port {port}"),
    }
}
