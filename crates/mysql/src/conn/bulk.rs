//! Bulk loading on the wire protocol: multi-row INSERTs, pipelined; prepared with binary values,
//! or as text with `--db-ps-mode=disable`.
//!
//! Why not LOAD DATA LOCAL INFILE: on MariaDB 10.11 the server parses LOAD DATA input one
//! character at a time (`READ_INFO::read_field`, ~40% of its CPU during a load); binary values of
//! a prepared INSERT arrive ready to store. Loading 250 000 sysbench rows cost the server 1.23 s
//! of CPU through LOAD DATA, 1.55 s through text INSERTs and 0.82 s through prepared INSERTs of
//! 1 000+ rows (bench/RESULTS.md). Pipelining: the next batch is generated and sent while the
//! server still inserts the previous one, so client and server work overlap instead of taking
//! turns; the server answers commands in order, and each answer is a small OK packet.
//!
//! ASCII strings go as binary (BLOB-typed) parameters when every string column of the table
//! stores ASCII as itself: the server then checks them with a byte scan instead of decoding
//! them as utf8mb4 (`my_string_metadata_get`, ~4.5% of its CPU during a load), and stores the
//! same bytes. Loading 250 000 sysbench rows: 0.67–0.74 s of server CPU instead of 0.77–0.82 s.

use super::{io_lost, protocol, send_text, WireConn};
use dbpress_session::connection::load_as_text;
use dbpress_session::text::multi_row_insert;
use dbpress_session::{Connection, DbResult, RowBatch, Value};

/// Rows per INSERT statement. Server CPU per row falls until ~1 000 rows per statement and is
/// flat beyond (measured 1.07 s at 100, 0.86 s at 1 000, 0.83 s at 5 000 for 250 000 rows).
const ROWS_PER_INSERT: usize = 2_000;
/// String bytes per statement at most, whatever max_allowed_packet allows.
const MAX_BATCH_BYTES: usize = 1 << 20;

/// One multi-row INSERT, as the session sends it.
enum Insert {
    /// A server-side statement id.
    Prepared(u32),
    /// A text template, values substituted on every send.
    Text(String),
}

impl WireConn {
    /// Insert rows from `fill` into `table` (`columns` comma-separated) with multi-row INSERTs,
    /// each batch sent before the previous one's result is read.
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
        // A third of the packet limit leaves room for the framing around the strings (or, as
        // text, for quotes and escapes).
        let max_bytes = (max_packet / 3).min(MAX_BATCH_BYTES);
        let mut batch = RowBatch::new(cols, max_rows, max_bytes);
        let raw_ascii = !self.text_mode && self.stores_ascii_as_itself(table)?;
        // Prepared before any row is generated, so a server that cannot prepare it (a proxy,
        // say) gets text INSERTs of the very same rows instead.
        let Some(full) = self.insert_statement(table, columns, cols, max_rows)? else {
            return load_as_text(self, table, columns, fill);
        };
        let how = match full {
            Insert::Prepared(_) => "prepared multi-row INSERTs",
            Insert::Text(_) => "multi-row INSERTs",
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
                    // A short batch (the last one, or one cut by the byte limit) gets a statement
                    // of its own size.
                    let one_off = if rows == max_rows {
                        None
                    } else {
                        self.read_answers(&mut unread, 0)?;
                        let s = self.insert_statement(table, columns, cols, rows)?;
                        Some(s.ok_or_else(|| protocol("multi-row INSERT not prepared"))?)
                    };
                    match one_off.as_ref().unwrap_or(&full) {
                        Insert::Prepared(id) => {
                            types.clear();
                            let raw = raw_ascii && batch.is_ascii();
                            types.extend(batch.values().map(|v| load_type_code(&v, raw)));
                            let send_types = one_off.is_some() || types != types_sent;
                            let bind = send_types.then_some(types.as_slice());
                            self.send_insert(*id, &batch, bind)?;
                            if send_types && one_off.is_none() {
                                std::mem::swap(&mut types_sent, &mut types);
                            }
                        }
                        Insert::Text(template) => {
                            let values: Vec<Value<'_>> = batch.values().collect();
                            let escapes = self.backslash_escapes;
                            send_text(
                                &mut self.io,
                                &mut self.text_buf,
                                escapes,
                                template,
                                &values,
                            )?;
                        }
                    }
                    unread += 1;
                    if let Some(s) = one_off {
                        let r = self.read_answers(&mut unread, 0);
                        self.release(s)?;
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
        // The load's own error, if any, is the one worth reporting.
        let released = self.release(full);
        r.and(released).map(|()| how)
    }

    /// Whether every string column of `table` has a character set in which ASCII text is the
    /// same bytes (all but the UCS-2/UTF-16/UTF-32 family), so ASCII can be sent as binary.
    fn stores_ascii_as_itself(&mut self, table: &str) -> DbResult<bool> {
        let wide = self.query_rows(&format!(
            "SELECT COUNT(*) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() \
             AND TABLE_NAME = '{}' AND (CHARACTER_SET_NAME LIKE 'ucs2%' \
             OR CHARACTER_SET_NAME LIKE 'utf16%' OR CHARACTER_SET_NAME LIKE 'utf32%')",
            table.replace('\'', "''")
        ))?;
        Ok(wide
            .first()
            .and_then(|r| r.first().cloned().flatten())
            .as_deref()
            == Some("0"))
    }

    /// Read the answers of sent INSERTs, oldest first, until only `keep` are unread.
    fn read_answers(&mut self, unread: &mut u32, keep: u32) -> DbResult<()> {
        while *unread > keep {
            *unread -= 1;
            self.read_result()?;
        }
        Ok(())
    }

    /// A `rows`-row INSERT: prepared on the server, or a text template in text mode; None if
    /// the server cannot prepare it.
    fn insert_statement(
        &mut self,
        table: &str,
        columns: &str,
        cols: usize,
        rows: usize,
    ) -> DbResult<Option<Insert>> {
        let sql = multi_row_insert(table, columns, cols, rows);
        if self.text_mode {
            return Ok(Some(Insert::Text(sql)));
        }
        Ok(self.prepare_one(&sql)?.id.map(Insert::Prepared))
    }

    /// Free a prepared INSERT on the server (COM_STMT_CLOSE, which has no answer).
    fn release(&mut self, s: Insert) -> DbResult<()> {
        let Insert::Prepared(id) = s else {
            return Ok(());
        };
        self.close_statement(id)
    }

    /// COM_STMT_CLOSE of the server's statement `id` (the server sends no answer).
    pub(super) fn close_statement(&mut self, id: u32) -> DbResult<()> {
        let out = self.io.begin_command();
        out.push(0x19);
        out.extend_from_slice(&id.to_le_bytes());
        self.io.send().map_err(io_lost)
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
}

/// The type of a loaded value: as `type_code`, except that strings go as binary (BLOB) when
/// `raw` says they are ASCII bound for columns that store ASCII as itself.
fn load_type_code(v: &Value<'_>, raw: bool) -> [u8; 2] {
    match v {
        Value::Str(_) if raw => [0xFC, 0x00], // BLOB: binary, no character decoding
        _ => type_code(v),
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
