//! `--mysql-dry-run`: every call succeeds without doing anything, so a run measures dbpress's
//! own cost per event (statement generation, timing, statistics). Like sysbench's dry run, every
//! statement counts as "other".

use super::{
    dialect, Connection, DbResult, Dialect, Driver, Hints, QueryKind, ServerInfo, StmtHandle, Value,
};

#[derive(Default)]
pub struct DryRunDriver {
    sessions: super::clients::SessionTally,
}

struct DryRunConnection {
    prepared: u32,
}

impl Driver for DryRunDriver {
    fn server_socket(&self, _conn: &dyn Connection) -> Result<std::os::fd::RawFd, String> {
        Err("none: a dry run sends nothing".into())
    }

    fn data_location(&self, _conn: &mut dyn Connection) -> super::DataLocation {
        super::DataLocation::Nowhere
    }

    fn connect(&self, _index: usize) -> DbResult<Box<dyn Connection>> {
        self.sessions
            .opened("none (dry run: nothing is sent)", None);
        Ok(Box::new(DryRunConnection { prepared: 0 }))
    }

    fn clients(&self) -> Vec<super::clients::ClientSessions> {
        self.sessions.snapshot()
    }
    fn dialect(&self) -> &'static Dialect {
        &dialect::DRY_RUN
    }
    fn hints(&self) -> &'static Hints {
        &super::mysql::MYSQL_HINTS
    }
    fn describe(&self) -> String {
        "dry run (no server; statements are generated and timed but not sent)".into()
    }
    fn server_info(&self, _conn: &mut dyn Connection) -> ServerInfo {
        ServerInfo {
            product: "dry-run".into(),
            ..ServerInfo::default()
        }
    }
}

impl Connection for DryRunConnection {
    fn prepare(&mut self, _sql: &str) -> DbResult<StmtHandle> {
        self.prepared += 1;
        Ok(StmtHandle(self.prepared - 1))
    }
    fn prepare_text(&mut self, sql: &str) -> DbResult<StmtHandle> {
        self.prepare(sql)
    }
    fn execute(&mut self, _stmt: StmtHandle, params: &[Value<'_>]) -> DbResult<QueryKind> {
        // Touch the parameters so the optimiser cannot drop their generation.
        std::hint::black_box(params);
        Ok(QueryKind::Other)
    }
    fn execute_rows(
        &mut self,
        _stmt: StmtHandle,
        params: &[Value<'_>],
        rows: &mut super::ResultRows,
    ) -> DbResult<QueryKind> {
        std::hint::black_box(params);
        rows.dry_run();
        Ok(QueryKind::Other)
    }
    fn query(&mut self, sql: &str) -> DbResult<QueryKind> {
        std::hint::black_box(sql);
        Ok(QueryKind::Other)
    }
    fn query_into(&mut self, sql: &str, rows: &mut super::ResultRows) -> DbResult<QueryKind> {
        std::hint::black_box(sql);
        rows.start(0);
        Ok(QueryKind::Other)
    }
    fn query_rows(&mut self, _sql: &str) -> DbResult<Vec<Vec<Option<String>>>> {
        Ok(Vec::new())
    }
    fn reconnect(&mut self) -> DbResult<()> {
        Ok(())
    }
}
