//! Bulk loading on the wire protocol: prepared multi-row INSERTs with binary values, pipelined.
//!
//! Why not LOAD DATA LOCAL INFILE: on MariaDB 10.11 the server parses LOAD DATA input one
//! character at a time (`READ_INFO::read_field`, ~40% of its CPU during a load); binary values of
//! a prepared INSERT arrive ready to store. Loading 250 000 sysbench rows cost the server 1.23 s
//! of CPU through LOAD DATA, 1.55 s through text INSERTs and 0.82 s through prepared INSERTs of
//! 1 000+ rows (bench/RESULTS.md). Pipelining: the next batch is generated and sent while the
//! server still inserts the previous one, so client and server work overlap instead of taking
//! turns; the server answers commands in order, and each answer is a small OK packet.

use super::{io_lost, protocol, WireConn};
use crate::driver::rows::{load_as_text, multi_row_insert, RowBatch};
use crate::driver::{Connection, DbResult, Value};

/// Rows per INSERT statement. Server CPU per row falls until ~1 000 rows per statement and is
/// flat beyond (measured 1.07 s at 100, 0.86 s at 1 000, 0.83 s at 5 000 for 250 000 rows).
const ROWS_PER_INSERT: usize = 2_000;
/// String bytes per statement at most, whatever max_allowed_packet allows.
const MAX_BATCH_BYTES: usize = 1 << 20;

impl WireConn {
    /// Insert rows from `fill` into `table` (`columns` comma-separated) with prepared
    /// multi-row INSERTs, each batch sent before the previous one's result is read.
    pub(super) fn bulk_insert(
        &mut self,
        table: &str,
        columns: &str,
        fill: &mut dyn FnMut(&mut RowBatch) -> bool,
    ) -> DbResult<&'static str> {
        let cols = columns.split(',').count();
        // A statement takes at most 65 535 parameters.
        let max_rows = (usize::from(u16::MAX) / cols).min(ROWS_PER_INSERT);
        let max_packet = self
            .query_rows("SELECT @@max_allowed_packet")?
            .first()
            .and_then(|r| r.first().cloned().flatten())
            .and_then(|v| v.parse::<usize>().ok())
            .unwrap_or(4 << 20);
        // Half the packet limit leaves room for the per-value framing around the strings.
        let max_bytes = (max_packet / 2).min(MAX_BATCH_BYTES);
        let mut batch = RowBatch::new(cols, max_rows, max_bytes);
        // Prepared before any row is generated, so a server that cannot prepare it (a proxy,
        // say) gets text INSERTs of the very same rows instead.
        let Some(full) = self.prepare_insert(table, columns, cols, max_rows)? else {
            return load_as_text(self, table, columns, fill);
        };
        let mut types_sent: Vec<[u8; 2]> = Vec::new();
        let mut types: Vec<[u8; 2]> = Vec::new();
        // INSERTs sent whose answers are still unread.
        let mut unread = 0;
        // One transaction per call: one log flush for the block, not one per statement.
        self.query("BEGIN")?;
        let r = (|| -> DbResult<()> {
            loop {
                batch.clear();
                let more = fill(&mut batch);
                if !batch.is_empty() {
                    let rows = batch.rows();
                    let (id, one_off) = if rows == max_rows {
                        (full, false)
                    } else {
                        // A short batch (the last one, or one cut by the byte limit) gets a
                        // statement of its own size.
                        self.read_answers(&mut unread, 0)?;
                        let id = self.prepare_insert(table, columns, cols, rows)?;
                        (
                            id.ok_or_else(|| protocol("multi-row INSERT not prepared"))?,
                            true,
                        )
                    };
                    types.clear();
                    types.extend(batch.values().map(|v| type_code(&v)));
                    let send_types = one_off || types != types_sent;
                    self.send_insert(id, &batch, send_types.then_some(types.as_slice()))?;
                    unread += 1;
                    if send_types && !one_off {
                        std::mem::swap(&mut types_sent, &mut types);
                    }
                    if one_off {
                        let r = self.read_answers(&mut unread, 0);
                        self.close_statement(id)?;
                        r?;
                    } else {
                        // The previous batch's answer, read only now that this one is on its
                        // way: the server never waits for the client between batches.
                        self.read_answers(&mut unread, 1)?;
                    }
                }
                if !more {
                    self.read_answers(&mut unread, 0)?;
                    return self.query("COMMIT").map(|_| ());
                }
            }
        })();
        if r.is_err() {
            // Keep the session in step even after a failure: every command gets its answer
            // (an error in one batch does not stop the server running the next one).
            while unread > 0 {
                unread -= 1;
                let _ = self.read_result();
            }
            let _ = self.query("ROLLBACK");
        }
        self.close_statement(full)?;
        r.map(|()| "prepared multi-row INSERTs")
    }

    /// Read the answers of sent INSERTs, oldest first, until only `keep` are unread.
    fn read_answers(&mut self, unread: &mut u32, keep: u32) -> DbResult<()> {
        while *unread > keep {
            *unread -= 1;
            self.read_result()?;
        }
        Ok(())
    }

    /// The server's id for a `rows`-row INSERT, or None if the server cannot prepare it.
    fn prepare_insert(
        &mut self,
        table: &str,
        columns: &str,
        cols: usize,
        rows: usize,
    ) -> DbResult<Option<u32>> {
        Ok(self
            .prepare_one(&multi_row_insert(table, columns, cols, rows))?
            .id)
    }

    /// COM_STMT_EXECUTE of `id` with the batch's values; `types` when they must be (re)bound.
    fn send_insert(
        &mut self,
        id: u32,
        batch: &RowBatch,
        types: Option<&[[u8; 2]]>,
    ) -> DbResult<()> {
        let n = batch.rows() * batch.columns();
        let out = self.io.begin_command();
        out.reserve(batch.text_bytes() + n * 6 + 16);
        let id = id.to_le_bytes();
        out.extend_from_slice(&[0x17, id[0], id[1], id[2], id[3], 0, 1, 0, 0, 0]);
        let bitmap_at = out.len();
        out.resize(bitmap_at + n.div_ceil(8), 0);
        for (i, v) in batch.values().enumerate() {
            if matches!(v, Value::Null) {
                out[bitmap_at + i / 8] |= 1 << (i % 8);
            }
        }
        match types {
            Some(types) => {
                out.push(1);
                for t in types {
                    out.extend_from_slice(t);
                }
            }
            None => out.push(0),
        }
        for v in batch.values() {
            super::put_value(out, &v);
        }
        self.io.send().map_err(io_lost)
    }

    /// COM_STMT_CLOSE: the server frees the statement and sends no answer.
    fn close_statement(&mut self, id: u32) -> DbResult<()> {
        let out = self.io.begin_command();
        out.push(0x19);
        out.extend_from_slice(&id.to_le_bytes());
        self.io.send().map_err(io_lost)
    }
}

/// The binary-protocol type of a value, as `put_value` encodes it.
pub(super) fn type_code(v: &Value<'_>) -> [u8; 2] {
    match v {
        Value::Int(v) if i32::try_from(*v).is_ok() => [0x03, 0x00], // LONG
        Value::Int(_) => [0x08, 0x00],                              // LONGLONG, signed
        Value::Str(_) => [0xFD, 0x00],                              // VAR_STRING
        Value::Null => [0x06, 0x00],                                // NULL
    }
}
