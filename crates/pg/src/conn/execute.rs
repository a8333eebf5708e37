//! Statements on an open session: Parse, Bind/Execute/Sync in one write with DataRows skipped in
//! place, the simple protocol, and reading to ReadyForQuery.

use super::*;

impl PgWire {
    /// Read to ReadyForQuery after a Sync, returning the first error seen.
    pub(super) fn drain(&mut self) -> DbResult<()> {
        let mut err = None;
        loop {
            let (tag, body) = next_or(&mut self.io, &mut err)?;
            match tag {
                b'Z' => {
                    self.txn_status = ready_status(body);
                    return err.map_or(Ok(()), Err);
                }
                b'E' if err.is_none() => err = Some(error_response(body)),
                _ => {}
            }
        }
    }

    pub(super) fn parse(&mut self, index: usize) -> DbResult<()> {
        let name = format!("d{index}");
        let sql = numbered_placeholders(&self.stmts[index].sql);
        let io = &mut self.io;
        let at = io.begin(b'P');
        io.cstr(name.as_bytes());
        io.cstr(sql.as_bytes());
        io.out.extend_from_slice(&0u16.to_be_bytes());
        io.finish(at);
        let at = io.begin(b'D');
        io.out.push(b'S');
        io.cstr(name.as_bytes());
        io.finish(at);
        let at = io.begin(b'S');
        io.finish(at);
        io.flush().map_err(lost)?;
        let mut types = Vec::new();
        let mut rows = false;
        let mut columns = Vec::new();
        let mut err = None;
        loop {
            let (tag, body) = next_or(&mut self.io, &mut err)?;
            match tag {
                b't' => {
                    types = body
                        .get(2..)
                        .unwrap_or_default()
                        .chunks_exact(4)
                        .map(|c| u32::from_be_bytes([c[0], c[1], c[2], c[3]]))
                        .collect()
                }
                b'T' => {
                    rows = true;
                    columns = column_names(body)
                        .into_iter()
                        .map(|n| String::from_utf8_lossy(n).into_owned())
                        .collect();
                }
                b'E' if err.is_none() => err = Some(error_response(body)),
                b'Z' => {
                    self.txn_status = ready_status(body);
                    break;
                }
                _ => {}
            }
        }
        if let Some(e) = err {
            return Err(e);
        }
        let p = &mut self.stmts[index];
        p.name = Some(name);
        p.param_types = types;
        p.returns_rows = rows;
        p.columns = columns;
        Ok(())
    }

    /// Simple-protocol query; its DataRows go where `sink` says.
    pub(super) fn simple(&mut self, sql: &[u8], mut sink: Sink<'_>) -> DbResult<QueryKind> {
        let at = self.io.begin(b'Q');
        self.io.cstr(sql);
        self.io.finish(at);
        self.io.flush().map_err(lost)?;
        let mut kind = QueryKind::Other;
        let mut err = None;
        loop {
            let (tag, body) = next_or(&mut self.io, &mut err)?;
            match tag {
                b'T' => {
                    kind = QueryKind::Read;
                    // Typed rows keep the last result set, as the extended protocol's do.
                    if let Sink::Typed(rows) = &mut sink {
                        rows.start(0);
                        if rows.wants_names() {
                            rows.name_columns(column_names(body));
                        }
                    }
                }
                b'D' => match &mut sink {
                    Sink::Skip => {}
                    Sink::Text(out) => out.push(data_row_text(body)),
                    Sink::Typed(rows) => {
                        if data_row_into(body, rows).is_none() {
                            err.get_or_insert_with(|| protocol("DataRow"));
                        }
                    }
                },
                b'C' if kind != QueryKind::Read && tag_rows(body) > 0 => kind = QueryKind::Write,
                b'E' if err.is_none() => err = Some(error_response(body)),
                b'Z' => {
                    self.txn_status = ready_status(body);
                    break;
                }
                _ => {}
            }
        }
        err.map_or(Ok(kind), Err)
    }

    /// A text template (text mode, or a statement kept as text) with `params` substituted, sent
    /// by the simple protocol.
    pub(super) fn simple_template(
        &mut self,
        stmt: StmtHandle,
        params: &[Value<'_>],
        sink: Sink<'_>,
    ) -> DbResult<QueryKind> {
        let mut buf = std::mem::take(&mut self.text_buf);
        render_text(
            &self.stmts[stmt.0 as usize].sql,
            params,
            escape_standard,
            &mut buf,
        );
        let r = self.simple(&buf, sink);
        self.text_buf = buf;
        r
    }
}

/// The column names a RowDescription gives (each a name, then 18 bytes of type facts).
pub(super) fn column_names(body: &[u8]) -> Vec<&[u8]> {
    let n = body
        .get(..2)
        .map_or(0, |b| u16::from_be_bytes([b[0], b[1]]) as usize);
    let mut names = Vec::with_capacity(n);
    let mut at = 2;
    for _ in 0..n {
        let Some(len) = body.get(at..).and_then(|b| b.iter().position(|&c| c == 0)) else {
            break;
        };
        names.push(&body[at..at + len]);
        at += len + 1 + 18;
    }
    names
}

/// A DataRow's text-format values into `rows`; None if the message is malformed.
pub(super) fn data_row_into(body: &[u8], rows: &mut ResultRows) -> Option<()> {
    let n = u16::from_be_bytes([*body.first()?, *body.get(1)?]) as usize;
    if rows.columns() != n {
        if !rows.is_empty() {
            return None;
        }
        rows.start(n);
    }
    if n == 0 {
        rows.push_empty_row();
    }
    let mut at = 2;
    for _ in 0..n {
        let len = i32::from_be_bytes(body.get(at..at + 4)?.try_into().ok()?);
        at += 4;
        if len < 0 {
            rows.push_null();
        } else {
            let end = at + len as usize;
            rows.push_bytes(body.get(at..end)?);
            at = end;
        }
    }
    Some(())
}

pub(super) fn data_row_text(body: &[u8]) -> Vec<Option<String>> {
    let n = u16::from_be_bytes([body[0], body[1]]) as usize;
    let mut at = 2;
    let mut row = Vec::with_capacity(n);
    for _ in 0..n {
        let len = i32::from_be_bytes([body[at], body[at + 1], body[at + 2], body[at + 3]]);
        at += 4;
        if len < 0 {
            row.push(None);
        } else {
            let end = at + len as usize;
            row.push(Some(String::from_utf8_lossy(&body[at..end]).into_owned()));
            at = end;
        }
    }
    row
}

impl PgWire {
    /// Bind and execute prepared statement `stmt` (unnamed portal) and, with `sync`, Sync, in
    /// one write (without: in a pipeline, kept for the Sync that ends it). Results come in
    /// binary when they are skipped, as text when `text_results` (read).
    #[inline(always)]
    pub(super) fn send_execute(
        &mut self,
        stmt: StmtHandle,
        params: &[Value<'_>],
        text_results: bool,
        sync: bool,
    ) -> DbResult<()> {
        let p = &self.stmts[stmt.0 as usize];
        let name = p.name.as_deref().unwrap_or_default();
        let io = &mut self.io;
        // Bind: unnamed portal; integers in binary where the server typed them as integers,
        // everything else as text; results in binary (they are skipped, never converted).
        let at = io.begin(b'B');
        io.out.push(0);
        io.cstr(name.as_bytes());
        io.out
            .extend_from_slice(&(params.len() as u16).to_be_bytes());
        for (i, v) in params.iter().enumerate() {
            let binary = matches!(v, Value::Int(_))
                && matches!(p.param_types.get(i), Some(&(INT2 | INT4 | INT8)));
            io.out.extend_from_slice(&u16::from(binary).to_be_bytes());
        }
        io.out
            .extend_from_slice(&(params.len() as u16).to_be_bytes());
        for (i, v) in params.iter().enumerate() {
            match *v {
                Value::Null => io.out.extend_from_slice(&(-1i32).to_be_bytes()),
                Value::Str(s) => {
                    io.out.extend_from_slice(&(s.len() as i32).to_be_bytes());
                    io.out.extend_from_slice(s);
                }
                Value::Int(n) => match p.param_types.get(i) {
                    Some(&INT4) => {
                        let n = i32::try_from(n).map_err(|_| out_of_range(n))?;
                        io.out.extend_from_slice(&4i32.to_be_bytes());
                        io.out.extend_from_slice(&n.to_be_bytes());
                    }
                    Some(&INT8) => {
                        io.out.extend_from_slice(&8i32.to_be_bytes());
                        io.out.extend_from_slice(&n.to_be_bytes());
                    }
                    Some(&INT2) => {
                        let n = i16::try_from(n).map_err(|_| out_of_range(n))?;
                        io.out.extend_from_slice(&2i32.to_be_bytes());
                        io.out.extend_from_slice(&n.to_be_bytes());
                    }
                    _ => {
                        let len_at = io.out.len();
                        io.out.extend_from_slice(&[0; 4]);
                        push_int(&mut io.out, n);
                        let len = (io.out.len() - len_at - 4) as i32;
                        io.out[len_at..len_at + 4].copy_from_slice(&len.to_be_bytes());
                    }
                },
            }
        }
        if text_results {
            io.out.extend_from_slice(&[0, 0]);
        } else {
            io.out.extend_from_slice(&[0, 1, 0, 1]);
        }
        io.finish(at);
        let at = io.begin(b'E');
        io.out.extend_from_slice(&[0, 0, 0, 0, 0]);
        io.finish(at);
        if sync {
            let at = io.begin(b'S');
            io.finish(at);
            io.flush().map_err(lost)?;
        }
        Ok(())
    }

    /// Read an execute's reply to ReadyForQuery, keeping its DataRows in `rows` when given.
    #[inline(always)]
    pub(super) fn read_execute(
        &mut self,
        returns_rows: bool,
        mut rows: Option<&mut ResultRows>,
    ) -> DbResult<QueryKind> {
        let mut changed = 0;
        let mut err = None;
        loop {
            let (tag, body) = next_or(&mut self.io, &mut err)?;
            match tag {
                b'D' => {
                    if let Some(out) = rows.as_deref_mut() {
                        if data_row_into(body, out).is_none() {
                            err.get_or_insert_with(|| protocol("DataRow"));
                        }
                    }
                }
                // Without `rows`, DataRows ('D') are skipped where they lie in the buffer.
                b'C' => changed = tag_rows(body),
                b'E' if err.is_none() => err = Some(error_response(body)),
                b'Z' => {
                    self.txn_status = ready_status(body);
                    break;
                }
                _ => {}
            }
        }
        if let Some(e) = err {
            return Err(e);
        }
        Ok(if returns_rows {
            QueryKind::Read
        } else if changed > 0 {
            QueryKind::Write
        } else {
            QueryKind::Other
        })
    }
}

/// ReadyForQuery's transaction status: `I` idle, `T` in a transaction block, `E` in a failed one.
fn ready_status(body: &[u8]) -> u8 {
    body.first().copied().unwrap_or(b'I')
}
