//! A run's failures as the one line a user reads: a worker's session that could not be set up,
//! and the server error that stopped a run, each with its fix.

use dbpress_config::RunConfig;
use dbpress_core::error::{environment, failed, Error};
use dbpress_driver::{DbError, DbErrorKind, Hints, ServerInfo};
use dbpress_workload::Workload;

/// `alike`: how many sessions failed the way `e` did (threads set up at once, so which ones
/// failed says nothing; how many does).
pub fn worker_setup_error(
    e: &DbError,
    alike: usize,
    cfg: &RunConfig,
    info: &ServerInfo,
    h: &Hints,
    workload: &dyn Workload,
) -> Error {
    // As sysbench (#42): its own lines where every word of them is known.
    if dbpress_core::personality::is_sysbench() {
        if let Some(lines) = crate::as_sysbench::failure(cfg, e) {
            return failed(lines);
        }
    }
    let var = |name: &str| {
        info.variables
            .get(name)
            .cloned()
            .unwrap_or_else(|| "?".into())
    };
    let error = match e.kind {
        // The workload's own input (a Lua script's thread_init): its message, where it says.
        DbErrorKind::Input => failed(format!(
            "the script failed while setting up its thread: {}: fix the script",
            e.message
        )),
        DbErrorKind::TooManyConnections => environment(format!(
            "the server refused {alike} of the {} connections: max_connections={} reached (server error {}): \
             raise it ({}) or use fewer --threads",
            cfg.shape.threads,
            var("max_connections"),
            e.code,
            h.max_connections_fix
        )),
        DbErrorKind::TooManyPreparedStatements => environment(format!(
            "{} could not prepare {} statements: the server's max_prepared_stmt_count={} \
             (for all its sessions together) was reached (server error {}); every session prepares its own copy of the \
             workload's statements (the OLTP workloads: for every table): use --db-ps-mode=disable, fewer --threads \
             (or --tables), or raise it (SET GLOBAL max_prepared_stmt_count=N)",
            match cfg.shape.threads {
                1 => "the session".to_string(),
                n => format!("{alike} of the {n} sessions"),
            },
            if cfg.shape.threads == 1 { "its" } else { "their" },
            var("max_prepared_stmt_count"),
            e.code
        )),
        DbErrorKind::NoSuchTable => missing_table(e, workload),
        DbErrorKind::PermissionDenied => {
            dbpress_config::diagnose::permission_denied("a statement of the workload", e, h.credentials)
        }
        // The workload's own statement names a column the table lacks: the table is someone
        // else's (another tool's sbtest1, say), not a statement to fix.
        DbErrorKind::BadStatement if workload.names_a_foreign_table(e) => {
            environment(format!(
                "a table here is not the {} workload's: it lacks a column the workload's statements use ({}; server error {}); \
                 it was not made by `dbpress {} prepare`: keep it, and choose another database with {}",
                workload.name(),
                e.message,
                e.code,
                workload.name(),
                h.database
            ))
        }
        DbErrorKind::BadStatement => environment(format!(
            "the server rejected {} (server error {}: {}): fix it",
            if e.origin.is_some() { "this statement" } else { "a statement of the workload" },
            e.code,
            e.message
        )),
        _ => dbpress_config::diagnose::connect_failed(e, h),
    };
    error.located(e.origin.as_deref())
}

/// A statement named a table that is not there: the server's words and the workload's fix.
fn missing_table(e: &DbError, w: &dyn Workload) -> Error {
    environment(format!(
        "{} (server error {}): {}",
        e.message,
        e.code,
        w.missing_table_fix()
    ))
}

/// The fatal error that ended a run, as a user message.
pub fn fatal_message(e: &DbError, h: &Hints, w: &dyn Workload) -> Error {
    let error = match e.kind {
        // A Lua script's own error (`dbpress_workload::lua::SCRIPT_ERROR`) has no -D values.
        DbErrorKind::Input if e.code == dbpress_workload::lua::SCRIPT_ERROR => failed(format!(
            "the script failed while running: {}: fix the script",
            e.message
        )),
        DbErrorKind::Input => failed(format!(
            "the script failed while running: {}: fix the script or its -D values",
            e.message
        )),
        DbErrorKind::NoSuchTable => missing_table(e, w),
        // fileio's own failure (an IO error, a block that failed --validate): no server's.
        DbErrorKind::Other if e.code == dbpress_workload::machine::fileio::ERROR_CODE => {
            failed(e.message.clone())
        }
        // Not the run's failure but the account's: exit 2, with the grants to ask for.
        DbErrorKind::PermissionDenied => {
            dbpress_config::diagnose::permission_denied("a statement of the run", e, h.credentials)
        }
        DbErrorKind::BadStatement => failed(format!(
            "server error {} stopped the run: {}: the statement itself is wrong, so retrying cannot help: fix it",
            e.code, e.message
        )),
        DbErrorKind::Unsupported if e.message.to_ascii_lowercase().contains("local infile") => {
            failed(format!(
                "{} (server error {}): dbpress does not send local files for LOAD DATA LOCAL INFILE; load from a file on the server (LOAD DATA INFILE) or with INSERTs",
                e.message, e.code
            ))
        }
        DbErrorKind::Unsupported => failed(format!(
            "{} (error {}): not supported here, and retrying cannot help: change the statement",
            e.message, e.code
        )),
        DbErrorKind::Unreachable if e.code == crate::worker::ENDED_RECONNECTING => {
            failed(e.message.clone())
        }
        DbErrorKind::ConnectionLost => failed(format!(
            "{} (error {}): the connection was lost; add {} to {} to reconnect and continue",
            e.message, e.code, e.code, h.ignore
        )),
        _ => failed(format!(
            "server error {} stopped the run: {} (add {} to {} to count and retry it instead)",
            e.code, e.message, e.code, h.ignore
        )),
    };
    error.located(e.origin.as_deref())
}

#[cfg(test)]
mod tests {
    use super::*;
    use dbpress_core::options::OptionValues;

    /// A workload as the command line would build it, with every option at its default.
    fn workload(name: &str) -> Box<dyn dbpress_workload::Workload> {
        let defaults = OptionValues::new(dbpress_workload::registry::options());
        dbpress_workload::registry::build(name, &defaults, 1, 1).unwrap()
    }

    #[test]
    fn a_statement_that_can_never_run_is_not_offered_the_ignore_list() {
        let w = workload("oltp_point_select");
        let w = w.as_ref();
        let e = DbError::new(
            DbErrorKind::BadStatement,
            "1064",
            "You have an error in your SQL syntax",
        );
        let m = fatal_message(&e, &dbpress_driver::mysql::MYSQL_HINTS, w);
        assert_eq!(m.exit_code(), 1);
        assert!(
            m.message().contains("retrying cannot help: fix it"),
            "{}",
            m.message()
        );
        assert!(
            !m.message().contains("--mysql-ignore-errors"),
            "{}",
            m.message()
        );
        let located = fatal_message(
            &e.at("typo.sql:3".into()),
            &dbpress_driver::mysql::MYSQL_HINTS,
            w,
        );
        assert!(
            located
                .message()
                .starts_with("typo.sql:3: server error 1064"),
            "{}",
            located.message()
        );
    }

    #[test]
    fn a_missing_privilege_names_the_grant_not_the_session() {
        let w = workload("oltp_read_write");
        let e = DbError::new(
            DbErrorKind::PermissionDenied,
            "1142",
            "UPDATE command denied to user 'ro'@'localhost' for table `sbtest`.`sbtest1`",
        );
        let cfg = RunConfig::from_options(
            "oltp_read_write",
            dbpress_config::Command::Run,
            &Default::default(),
        )
        .unwrap();
        let m = worker_setup_error(
            &e,
            1,
            &cfg,
            &ServerInfo::default(),
            &dbpress_driver::mysql::MYSQL_HINTS,
            w.as_ref(),
        );
        assert_eq!(m.exit_code(), 2);
        assert!(
            m.message().contains("for lack of privilege"),
            "{}",
            m.message()
        );
        assert!(m.message().contains("GRANT"), "{}", m.message());
        assert!(
            !m.message().contains("cannot open a session"),
            "{}",
            m.message()
        );
        let m = fatal_message(&e, &dbpress_driver::mysql::MYSQL_HINTS, w.as_ref());
        assert!(
            !m.message().contains("--mysql-ignore-errors"),
            "{}",
            m.message()
        );
    }
}
