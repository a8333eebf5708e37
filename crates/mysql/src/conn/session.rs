//! The `Connection` trait over the wire client: what every workload calls, statement by
//! statement (the hot path: `execute` writes COM_STMT_EXECUTE in one buffer and reads the result
//! in place).

use super::bulk::type_code;
use super::{
    column_count, err_packet, io_lost, protocol, put_value, send_text, OpenError, Stmt, WireConn,
};
use crate::packet::lenenc;
use dbpress_session::{
    Connection, DbError, DbErrorKind, DbResult, QueryKind, ResultRows, RowBatch, StmtHandle, Value,
};

impl Connection for WireConn {
    fn session_id(&self) -> Option<u64> {
        Some(u64::from(self.connection_id))
    }

    fn socket_fd(&self) -> Option<std::os::fd::RawFd> {
        Some(self.io.raw_fd())
    }

    fn prepare(&mut self, sql: &str) -> DbResult<StmtHandle> {
        let s = self.prepare_one(sql)?;
        self.stmts.push(s);
        Ok(StmtHandle(self.stmts.len() as u32 - 1))
    }

    fn close_statements(&mut self) -> DbResult<()> {
        for s in std::mem::take(&mut self.stmts) {
            if let Some(id) = s.id {
                self.close_statement(id)?;
            }
        }
        Ok(())
    }

    fn prepare_text(&mut self, sql: &str) -> DbResult<StmtHandle> {
        self.stmts.push(Stmt {
            id: None,
            params: 0,
            sql: sql.to_string(),
            bound: None,
            columns: Vec::new(),
        });
        Ok(StmtHandle(self.stmts.len() as u32 - 1))
    }

    fn execute(&mut self, stmt: StmtHandle, params: &[Value<'_>]) -> DbResult<QueryKind> {
        self.send_execute(stmt, params)?;
        self.read_result()
    }

    fn execute_rows(
        &mut self,
        stmt: StmtHandle,
        params: &[Value<'_>],
        rows: &mut ResultRows,
    ) -> DbResult<QueryKind> {
        let binary = self.send_execute(stmt, params)?;
        self.read_result_rows(binary.then_some(stmt.0 as usize), rows)
    }

    fn query(&mut self, sql: &str) -> DbResult<QueryKind> {
        let out = self.io.begin_command();
        out.push(0x03);
        out.extend_from_slice(sql.as_bytes());
        self.io.send().map_err(io_lost)?;
        self.read_result()
    }

    fn query_into(&mut self, sql: &str, rows: &mut ResultRows) -> DbResult<QueryKind> {
        let out = self.io.begin_command();
        out.push(0x03);
        out.extend_from_slice(sql.as_bytes());
        self.io.send().map_err(io_lost)?;
        self.read_result_rows(None, rows)
    }

    fn query_rows(&mut self, sql: &str) -> DbResult<Vec<Vec<Option<String>>>> {
        let out = self.io.begin_command();
        out.push(0x03);
        out.extend_from_slice(sql.as_bytes());
        self.io.send().map_err(io_lost)?;
        let p = self.io.next().map_err(io_lost)?;
        let sent = match p.first() {
            Some(0x00) => return Ok(Vec::new()),
            Some(0xFF) => return Err(err_packet(p)),
            // A text query always carries its metadata (the flag byte says so all the same).
            _ => column_count(p, self.cache_metadata)?,
        };
        let columns = sent.ok_or_else(|| protocol("text result without metadata"))?;
        self.skip_metadata(sent)?;
        let mut rows = Vec::new();
        loop {
            let p = self.io.next().map_err(io_lost)?;
            match p.first() {
                Some(0xFE) if p.len() < 0xFF_FFFF => break,
                Some(0xFF) => return Err(err_packet(p)),
                _ => {}
            }
            let mut at = 0;
            let mut row = Vec::with_capacity(columns as usize);
            for _ in 0..columns {
                if p.get(at) == Some(&0xFB) {
                    at += 1;
                    row.push(None);
                    continue;
                }
                let n = lenenc(p, &mut at).ok_or_else(|| protocol("text row"))? as usize;
                let v = p.get(at..at + n).ok_or_else(|| protocol("text row"))?;
                row.push(Some(String::from_utf8_lossy(v).into_owned()));
                at += n;
            }
            rows.push(row);
        }
        Ok(rows)
    }

    fn bulk_load(
        &mut self,
        table: &str,
        columns: &str,
        fill: &mut dyn FnMut(&mut RowBatch) -> bool,
    ) -> DbResult<&'static str> {
        self.bulk_insert(table, columns, fill)
    }

    fn reconnect(&mut self) -> DbResult<()> {
        let fresh = match WireConn::open(&self.opts, self.text_mode) {
            Ok(c) => c,
            Err(OpenError::Db(e)) => return Err(e),
            Err(OpenError::Unsupported(why)) => {
                return Err(DbError::new(DbErrorKind::Other, "client", why));
            }
        };
        let old = std::mem::take(&mut self.stmts);
        *self = fresh;
        for s in old {
            let s = match s.id {
                Some(_) => self.prepare_one(&s.sql)?,
                None => s,
            };
            self.stmts.push(s);
        }
        Ok(())
    }
}

impl WireConn {
    /// Send COM_STMT_EXECUTE for a prepared statement, or the text of a template; true when
    /// the reply comes in the binary protocol (a prepared statement).
    #[inline(always)]
    fn send_execute(&mut self, stmt: StmtHandle, params: &[Value<'_>]) -> DbResult<bool> {
        let s = &mut self.stmts[stmt.0 as usize];
        let Some(id) = s.id else {
            send_text(
                &mut self.io,
                &mut self.text_buf,
                self.backslash_escapes,
                &s.sql,
                params,
            )?;
            return Ok(false);
        };
        if usize::from(s.params) != params.len() {
            return Err(DbError::new(
                DbErrorKind::Other,
                "client",
                format!(
                    "statement expects {} parameters, got {}",
                    s.params,
                    params.len()
                ),
            ));
        }
        let out = self.io.begin_command();
        let id = id.to_le_bytes();
        // COM_STMT_EXECUTE, the statement id, no cursor, one iteration: written at once.
        out.extend_from_slice(&[0x17, id[0], id[1], id[2], id[3], 0, 1, 0, 0, 0]);
        if !params.is_empty() {
            let bitmap_at = out.len();
            out.resize(bitmap_at + params.len().div_ceil(8), 0);
            for (i, p) in params.iter().enumerate() {
                if matches!(p, Value::Null) {
                    out[bitmap_at + i / 8] |= 1 << (i % 8);
                }
            }
            // Types are resent only when they differ from the last execute (or for > 64 params).
            // An integer that fits goes as a 4-byte LONG, as sysbench binds its ids; the server
            // then compares it with the INT column without widening.
            let mut sig = (0u64, 0u64, 0u64);
            for (i, p) in params.iter().enumerate().take(64) {
                match p {
                    Value::Str(_) => sig.0 |= 1 << i,
                    Value::Null => sig.1 |= 1 << i,
                    Value::Int(v) if i32::try_from(*v).is_err() => sig.2 |= 1 << i,
                    Value::Int(_) => {}
                }
            }
            if s.bound == Some(sig) && params.len() <= 64 {
                out.push(0); // types as bound before
            } else {
                s.bound = Some(sig);
                out.push(1); // types follow
                for p in params {
                    out.extend_from_slice(&type_code(p));
                }
            }
            for p in params {
                put_value(out, p);
            }
        }
        self.io.send().map_err(io_lost)?;
        Ok(true)
    }
}
