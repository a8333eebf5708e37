//! PostgreSQL through dbpress's own protocol client (the dbpress-pg crate), plain or with TLS.
//!
//! Statements keep sysbench's `?` placeholders in the workloads; this driver numbers them
//! (`$1..$n`) as sysbench's pgsql driver does. Parameters adapt to the types the server inferred
//! for them (an id is int4), so workloads bind plain integers and byte strings. Errors carry the
//! SQLSTATE as their code, which is what --pgsql-ignore-errors lists.

pub mod libpq_words;
mod settings;

use crate::status::StatusKind;

use super::{
    dialect, Connection, DbError, DbErrorKind, DbResult, Dialect, Driver, Hints, ServerInfo,
};
use super::{CounterSpec, DataLocation, PsMode};
use dbpress_net::tls::{client_config, CertCheck};
use dbpress_pg::{PgSslMode, PgTarget};
use rustls::ClientConfig;
use std::sync::Arc;

pub static PGSQL_HINTS: Hints = Hints {
    address: "--pgsql-host/--pgsql-port (a socket directory such as /var/run/postgresql is a host)",
    credentials: "--pgsql-user and --pgsql-password (or PGUSER, PGPASSWORD, ~/.pgpass)",
    database: "--pgsql-db",
    schema: "--pgsql-schema",
    ignore: "--pgsql-ignore-errors",
    max_connections_fix: "ALTER SYSTEM SET max_connections = N and restart the server",
    files_per_session: 1,
};

static PGSQL_COUNTERS: CounterSpec = CounterSpec {
    source: "pg_stat_database, every session of the database",
    // Its counters are transactions and rows, not statements: nothing to set against
    // dbpress's reads/writes/other one for one.
    checks: &[],
    notes: &[
        "xact_commit also counts each session's setup (statement preparation) and the counter reads",
        "tup_* count rows, not statements",
        "wal_* (pg_stat_wal) count the whole cluster, every database",
    ],
    lifetime: &[
        ("server_started_at", "the server restarted"),
        (
            "stats_reset_at",
            "the database's statistics were reset (pg_stat_reset)",
        ),
    ],
};

/// What a run samples of PostgreSQL once a second: active and waiting backends, the database's
/// commits, rollbacks, blocks read, deadlocks and temporary files, checkpoints and the buffers
/// they and the backends wrote, and WAL written (pg_current_wal_lsn).
static PGSQL_STATUS: crate::status::StatusSpec = crate::status::StatusSpec {
    source: "pg_stat_activity, pg_locks, pg_stat_database, pg_stat_bgwriter (pg_stat_checkpointer from 17), pg_current_wal_lsn()",
    items: &[
        ("active_backends", StatusKind::Gauge),
        ("lock_waiting_backends", StatusKind::Gauge),
        ("xact_commit", StatusKind::Counter),
        ("xact_rollback", StatusKind::Counter),
        ("blks_read", StatusKind::Counter),
        ("deadlocks", StatusKind::Counter),
        ("temp_files", StatusKind::Counter),
        ("checkpoints_timed", StatusKind::Counter),
        ("checkpoints_req", StatusKind::Counter),
        ("buffers_checkpoint", StatusKind::Counter),
        ("buffers_backend", StatusKind::Counter),
        ("wal_bytes", StatusKind::Counter),
    ],
};

/// The default figures in one statement (the column aliases are their names): before 17, the
/// checkpoint figures are pg_stat_bgwriter's; from 17, pg_stat_checkpointer's under the same
/// names (it has no per-backend writes).
const PG_STATUS_SQL: &str = "SELECT \
    (SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND backend_type = 'client backend' AND application_name <> 'dbpress-monitor') AS active_backends, \
    (SELECT count(DISTINCT pid) FROM pg_locks WHERE NOT granted) AS lock_waiting_backends, \
    d.xact_commit, d.xact_rollback, d.blks_read, d.deadlocks, d.temp_files, \
    b.checkpoints_timed, b.checkpoints_req, b.buffers_checkpoint, b.buffers_backend, \
    pg_current_wal_lsn() - '0/0' AS wal_bytes \
    FROM pg_stat_database d, pg_stat_bgwriter b WHERE d.datname = current_database()";
const PG17_STATUS_SQL: &str = "SELECT \
    (SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND backend_type = 'client backend' AND application_name <> 'dbpress-monitor') AS active_backends, \
    (SELECT count(DISTINCT pid) FROM pg_locks WHERE NOT granted) AS lock_waiting_backends, \
    d.xact_commit, d.xact_rollback, d.blks_read, d.deadlocks, d.temp_files, \
    c.num_timed AS checkpoints_timed, c.num_requested AS checkpoints_req, c.buffers_written AS buffers_checkpoint, \
    pg_current_wal_lsn() - '0/0' AS wal_bytes \
    FROM pg_stat_database d, pg_stat_checkpointer c WHERE d.datname = current_database()";

pub struct PgDriver {
    target: PgTarget,
    ps_mode: PsMode,
    /// Built once from sslmode; None for disable and for Unix sockets (no TLS there).
    tls: Option<Arc<ClientConfig>>,
    /// The option names error messages quote: sysbench's, or those of the command in use.
    hints: &'static Hints,
    sessions: crate::clients::SessionTally,
    /// The server is PostgreSQL 17 or later as far as its status views go.
    status_pg17: std::sync::atomic::AtomicBool,
}

impl PgDriver {
    /// Fails only if the TLS configuration cannot be built (an unreadable CA file).
    pub fn new(target: PgTarget, ps_mode: PsMode) -> Result<PgDriver, String> {
        let check = match target.ssl {
            PgSslMode::Disable => None,
            _ if target.is_socket() => None,
            PgSslMode::Prefer | PgSslMode::Require => Some(CertCheck::None),
            PgSslMode::VerifyCa => Some(CertCheck::Ca),
            PgSslMode::VerifyFull => Some(CertCheck::Full),
        };
        let tls = match check {
            Some(c) => Some(client_config(
                c,
                target.ssl_root_cert.as_deref(),
                "--pgsql-sslrootcert",
                target.client_cert.as_ref(),
                &[],
            )?),
            None => None,
        };
        Ok(PgDriver {
            target,
            ps_mode,
            tls,
            hints: &PGSQL_HINTS,
            sessions: crate::clients::SessionTally::default(),
            status_pg17: std::sync::atomic::AtomicBool::new(false),
        })
    }

    /// Error messages quote these option names instead (`dbpress slap`'s mysqlslap flags).
    pub fn with_hints(self, hints: &'static Hints) -> PgDriver {
        PgDriver { hints, ..self }
    }
}

impl Driver for PgDriver {
    fn connect(&self, _index: usize) -> DbResult<Box<dyn Connection>> {
        let c = dbpress_pg::PgWire::open(
            &self.target,
            self.tls.clone(),
            self.ps_mode == PsMode::Disable,
        )?;
        self.sessions
            .opened("dbpress's PostgreSQL protocol client", None);
        Ok(Box::new(c))
    }

    fn connect_monitor(&self) -> DbResult<Box<dyn Connection>> {
        let target = dbpress_pg::PgTarget {
            application_name: dbpress_pg::MONITOR_APPLICATION,
            ..self.target.clone()
        };
        let c =
            dbpress_pg::PgWire::open(&target, self.tls.clone(), self.ps_mode == PsMode::Disable)?;
        self.sessions
            .opened("dbpress's PostgreSQL protocol client", None);
        Ok(Box::new(c))
    }

    fn clients(&self) -> Vec<crate::clients::ClientSessions> {
        self.sessions.snapshot()
    }

    fn answers_within(&self, limit: std::time::Duration) -> bool {
        let target = dbpress_pg::PgTarget {
            connect_timeout: Some(limit),
            ..self.target.clone()
        };
        match dbpress_pg::PgWire::open(&target, self.tls.clone(), false) {
            Ok(_) => {
                self.sessions
                    .opened("dbpress's PostgreSQL protocol client", None);
                true
            }
            // A refused login is an answer too.
            Err(e) => !e.kind.out_of_reach(),
        }
    }

    fn global_settings(&self) -> Option<&'static dyn crate::settings::GlobalSettings> {
        Some(&settings::PgSettings)
    }

    fn status_spec(&self) -> Option<&'static crate::status::StatusSpec> {
        Some(&PGSQL_STATUS)
    }

    fn read_status(
        &self,
        conn: &mut dyn Connection,
        names: &[String],
    ) -> DbResult<Vec<(String, f64)>> {
        use std::sync::atomic::Ordering;
        let defaults: Vec<&str> = PGSQL_STATUS.items.iter().map(|(n, _)| *n).collect();
        let mut out = Vec::new();
        // pg_stat_bgwriter lost its checkpoint columns in 17 (42703/42P01): found out at the
        // first reading and remembered, so later readings ask once.
        let mut pg17 = self.status_pg17.load(Ordering::Relaxed);
        let rows = if pg17 {
            conn.query_rows(PG17_STATUS_SQL)?
        } else {
            match conn.query_rows(PG_STATUS_SQL) {
                Ok(rows) => rows,
                Err(e) if e.code == "42703" || e.code == "42P01" => {
                    self.status_pg17.store(true, Ordering::Relaxed);
                    pg17 = true;
                    conn.query_rows(PG17_STATUS_SQL)?
                }
                Err(e) => return Err(e),
            }
        };
        // PG17_STATUS_SQL's columns are the defaults but buffers_backend, in the same order.
        let cols: Vec<&str> = defaults
            .iter()
            .copied()
            .filter(|n| !(pg17 && *n == "buffers_backend"))
            .collect();
        if let Some(row) = rows.into_iter().next() {
            for (name, v) in cols.iter().zip(row) {
                if let Some(v) = v.and_then(|v| v.parse::<f64>().ok()) {
                    out.push((name.to_string(), v));
                }
            }
        }
        // The user's own: columns of pg_stat_database, by name.
        let extra: Vec<&String> = names
            .iter()
            .filter(|n| !defaults.contains(&n.as_str()))
            .filter(|n| crate::settings::check_name(n).is_ok())
            .collect();
        if !extra.is_empty() {
            let list: Vec<String> = extra.iter().map(|n| format!("d.{n}::float8")).collect();
            let rows = conn.query_rows(&format!(
                "SELECT {} FROM pg_stat_database d WHERE d.datname = current_database()",
                list.join(", ")
            ))?;
            if let Some(row) = rows.into_iter().next() {
                for (name, v) in extra.iter().zip(row) {
                    if let Some(v) = v.and_then(|v| v.parse::<f64>().ok()) {
                        out.push((name.to_string(), v));
                    }
                }
            }
        }
        Ok(out)
    }

    fn check_session(&self, conn: &mut dyn Connection) -> DbResult<()> {
        // The server takes a search_path naming no schema that exists without a word, and
        // tables are then made or looked for in none: current_schema() is NULL then.
        let Some(schema) = &self.target.schema else {
            return Ok(());
        };
        let rows = conn.query_rows("SELECT current_schema()")?;
        if rows
            .first()
            .and_then(|r| r.first().cloned().flatten())
            .is_some()
        {
            return Ok(());
        }
        Err(DbError::new(
            DbErrorKind::Setup,
            "3F000",
            format!(
                "schema '{schema}' does not exist in database '{}': create it (CREATE SCHEMA {schema}) or name an existing one with {}",
                self.target.db, self.hints.schema
            ),
        ))
    }

    fn dialect(&self) -> &'static Dialect {
        &dialect::PGSQL
    }

    fn describe(&self) -> String {
        self.target.describe()
    }

    fn hints(&self) -> &'static Hints {
        self.hints
    }

    fn counters(&self) -> Option<&'static CounterSpec> {
        Some(&PGSQL_COUNTERS)
    }

    fn wait_source(&self) -> Option<&'static str> {
        Some("pg_stat_activity")
    }

    fn sample_waits(&self, conn: &mut dyn Connection, sessions: &[u64]) -> DbResult<Vec<String>> {
        // The run's sessions by their backends' pids (or, not knowing them, every dbpress
        // session of this database but this one). A session without a wait event is running
        // (or in a wait PostgreSQL does not instrument); one waiting for its client says
        // whether between transactions (idle) or inside one (idle in transaction).
        let which = if sessions.is_empty() {
            "application_name = 'dbpress' AND pid <> pg_backend_pid() \
             AND datname = current_database() AND backend_type = 'client backend'"
                .to_string()
        } else {
            let pids: Vec<String> = sessions.iter().map(u64::to_string).collect();
            format!("pid IN ({})", pids.join(", "))
        };
        let rows = conn.query_rows(&format!(
            "SELECT CASE WHEN wait_event_type IS NULL THEN 'no wait event (running)' \
             WHEN wait_event_type = 'Client' THEN wait_event_type || ':' || wait_event || ' (' || state || ')' \
             ELSE wait_event_type || ':' || wait_event END \
             FROM pg_stat_activity WHERE {which}"
        ))?;
        Ok(rows
            .into_iter()
            .filter_map(|r| r.into_iter().next().flatten())
            .collect())
    }

    fn data_location(&self, conn: &mut dyn Connection) -> DataLocation {
        // pg_settings hides data_directory's row from roles that may not read it (neither
        // superuser nor pg_read_all_settings), where SHOW would log an error on the server.
        let reported = conn
            .query_rows("SELECT setting FROM pg_settings WHERE name = 'data_directory'")
            .ok()
            .and_then(|rows| rows.into_iter().next()?.into_iter().next()?);
        DataLocation::Server { reported }
    }

    fn read_counters(
        &self,
        conn: &mut dyn Connection,
        settle: bool,
    ) -> DbResult<Vec<(String, u64)>> {
        // A backend publishes its counts when it ends (or when idle for a while): after a run,
        // wait until the run's sessions have left, for at most 5 s.
        if settle {
            for _ in 0..100 {
                let left = conn.query_rows(
                    "SELECT COUNT(*) FROM pg_stat_activity WHERE application_name = 'dbpress' \
                     AND pid <> pg_backend_pid() AND datname = current_database()",
                )?;
                if left
                    .first()
                    .and_then(|r| r.first())
                    .cloned()
                    .flatten()
                    .as_deref()
                    == Some("0")
                {
                    break;
                }
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
        }
        let row = conn.query_rows(
            "SELECT xact_commit, xact_rollback, tup_inserted, tup_updated, tup_deleted, deadlocks, \
             blks_hit, blks_read, temp_files, temp_bytes, \
             EXTRACT(EPOCH FROM pg_postmaster_start_time())::bigint, \
             COALESCE(EXTRACT(EPOCH FROM stats_reset)::bigint, 0) \
             FROM pg_stat_database WHERE datname = current_database()",
        )?;
        let names = [
            "xact_commit",
            "xact_rollback",
            "tup_inserted",
            "tup_updated",
            "tup_deleted",
            "deadlocks",
            // Block requests shared_buffers answered and missed (a miss is read from the OS,
            // its page cache or the disk), and sorts and hashes that spilled to files.
            "blks_hit",
            "blks_read",
            "temp_files",
            "temp_bytes",
            "server_started_at",
            "stats_reset_at",
        ];
        let mut counters: Vec<(String, u64)> = row
            .into_iter()
            .next()
            .map(|r| {
                names
                    .iter()
                    .zip(r)
                    .filter_map(|(n, v)| Some((n.to_string(), v?.parse().ok()?)))
                    .collect()
            })
            .unwrap_or_default();
        // The WAL's writes and syncs, to set against the disk's flushes (PostgreSQL 14 and
        // later; an older server has no pg_stat_wal and the rows are left out).
        if let Ok(wal) =
            conn.query_rows("SELECT wal_sync, wal_write, wal_bytes::bigint FROM pg_stat_wal")
        {
            if let Some(r) = wal.into_iter().next() {
                counters.extend(
                    ["wal_sync", "wal_write", "wal_bytes"]
                        .iter()
                        .zip(r)
                        .filter_map(|(n, v)| Some((n.to_string(), v?.parse().ok()?))),
                );
            }
        }
        Ok(counters)
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

#[cfg(test)]
mod monitor_tests {
    /// The status's count of sessions at work leaves out the sessions named as monitors.
    #[test]
    fn active_backends_leave_out_dbpress_monitor_sessions() {
        let clause = format!(
            "application_name <> '{}') AS active_backends",
            dbpress_pg::MONITOR_APPLICATION
        );
        assert!(super::PG_STATUS_SQL.contains(&clause));
        assert!(super::PG17_STATUS_SQL.contains(&clause));
    }
}
