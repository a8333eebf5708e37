//! Reading a result's rows into `ResultRows`, for workloads that use what the server answers:
//! the column types a prepared statement's metadata gives, and rows in the binary protocol
//! (prepared statements) or as text (text templates).

use super::{column_count, err_packet, io_lost, protocol, terminator_status, WireConn};
use crate::packet::{column_type, lenenc, ColumnType};
use dbpress_session::{DbResult, QueryKind, ResultRows};

impl WireConn {
    /// Read the column definitions that follow a result header (and the EOF that ends them,
    /// unless deprecated) into `types`.
    pub(super) fn read_column_types(
        &mut self,
        columns: u64,
        types: &mut Vec<ColumnType>,
    ) -> DbResult<()> {
        types.clear();
        for _ in 0..columns {
            let p = self.io.next().map_err(io_lost)?;
            types.push(column_type(p).ok_or_else(|| protocol("column definition"))?);
        }
        if !self.deprecate_eof {
            self.io.next().map_err(io_lost)?;
        }
        Ok(())
    }

    /// Read a command's response, keeping the rows of its last result set in `rows`: binary
    /// rows for prepared statement `stmt`, text rows for `None`. Classified as `read_result`.
    pub(super) fn read_result_rows(
        &mut self,
        stmt: Option<usize>,
        rows: &mut ResultRows,
    ) -> DbResult<QueryKind> {
        let mut kind = QueryKind::Other;
        rows.start(0);
        loop {
            let p = self.io.next().map_err(io_lost)?;
            let status = match p.first() {
                Some(0x00) => {
                    let mut at = 1;
                    let affected = lenenc(p, &mut at).ok_or_else(|| protocol("OK"))?;
                    lenenc(p, &mut at).ok_or_else(|| protocol("OK"))?;
                    if kind == QueryKind::Other && affected > 0 {
                        kind = QueryKind::Write;
                    }
                    p.get(at..at + 2)
                        .map(|b| u16::from_le_bytes([b[0], b[1]]))
                        .unwrap_or(0)
                }
                Some(0xFF) => return Err(err_packet(p)),
                None => return Err(protocol("empty packet")),
                Some(_) => {
                    kind = QueryKind::Read;
                    let sent = column_count(p, self.cache_metadata)?;
                    self.read_set(stmt, sent, rows)?
                }
            };
            if status & super::SERVER_MORE_RESULTS_EXISTS == 0 {
                return Ok(kind);
            }
        }
    }

    /// One result set after its header: metadata (when sent), rows, terminator.
    fn read_set(
        &mut self,
        stmt: Option<usize>,
        sent: Option<u64>,
        rows: &mut ResultRows,
    ) -> DbResult<u16> {
        let mut types = match stmt {
            Some(i) => std::mem::take(&mut self.stmts[i].columns),
            None => Vec::new(),
        };
        if let Some(n) = sent {
            self.read_column_types(n, &mut types)?;
        }
        let columns = types.len();
        rows.start(columns);
        let r = loop {
            let p = self.io.next().map_err(io_lost)?;
            match p.first() {
                Some(0xFE) if p.len() < 0xFF_FFFF => {
                    break Ok(terminator_status(p, self.deprecate_eof))
                }
                Some(0xFF) => break Err(err_packet(p)),
                _ => {}
            }
            let ok = if stmt.is_some() {
                binary_row(p, &types, rows)
            } else {
                text_row(p, columns, rows)
            };
            if ok.is_none() {
                break Err(protocol("result row"));
            }
        };
        if let Some(i) = stmt {
            self.stmts[i].columns = types;
        }
        r
    }
}

/// A text-protocol row: one length-encoded string per column, 0xFB for NULL.
fn text_row(p: &[u8], columns: usize, rows: &mut ResultRows) -> Option<()> {
    let mut at = 0;
    for _ in 0..columns {
        if p.get(at) == Some(&0xFB) {
            at += 1;
            rows.push_null();
            continue;
        }
        let n = lenenc(p, &mut at)? as usize;
        rows.push_bytes(p.get(at..at + n)?);
        at += n;
    }
    Some(())
}

/// A binary-protocol row: 0x00, a NULL bitmap offset by two bits, then each non-NULL value in
/// its type's encoding (fixed-width integers and floats, length-prefixed temporal values,
/// length-encoded strings for everything else, decimals included).
fn binary_row(p: &[u8], types: &[ColumnType], rows: &mut ResultRows) -> Option<()> {
    let bitmap = p.get(1..1 + (types.len() + 9) / 8)?;
    let mut at = 1 + bitmap.len();
    for (i, t) in types.iter().enumerate() {
        let bit = i + 2;
        if bitmap[bit / 8] & (1 << (bit % 8)) != 0 {
            rows.push_null();
            continue;
        }
        let fixed = |n: usize, at: &mut usize| -> Option<[u8; 8]> {
            let b = p.get(*at..*at + n)?;
            *at += n;
            let mut out = [0u8; 8];
            out[..n].copy_from_slice(b);
            Some(out)
        };
        match t.code {
            // TINY, SHORT/YEAR, LONG/INT24, LONGLONG
            1 | 2 | 13 | 3 | 9 | 8 => {
                let n = match t.code {
                    1 => 1,
                    2 | 13 => 2,
                    8 => 8,
                    _ => 4,
                };
                let b = fixed(n, &mut at)?;
                let u = u64::from_le_bytes(b);
                let v = if t.unsigned || n == 8 {
                    u as i64
                } else {
                    // Sign-extend from n bytes.
                    let shift = 64 - 8 * n as u32;
                    ((u << shift) as i64) >> shift
                };
                rows.push_int(v);
            }
            4 => {
                let b = fixed(4, &mut at)?;
                rows.push_float(f64::from(f32::from_le_bytes([b[0], b[1], b[2], b[3]])));
            }
            5 => rows.push_float(f64::from_le_bytes(fixed(8, &mut at)?)),
            // DATE, DATETIME, TIMESTAMP, TIME: a length byte, then that many bytes.
            7 | 10 | 11 | 12 => {
                let n = *p.get(at)? as usize;
                rows.push_bytes(p.get(at + 1..at + 1 + n)?);
                at += 1 + n;
            }
            _ => {
                let n = lenenc(p, &mut at)? as usize;
                rows.push_bytes(p.get(at..at + n)?);
                at += n;
            }
        }
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn col(code: u8, flags: u16) -> Vec<u8> {
        let mut p = Vec::new();
        for s in ["def", "db", "t", "t", "c", "c"] {
            p.push(s.len() as u8);
            p.extend_from_slice(s.as_bytes());
        }
        p.push(0x0c);
        p.extend_from_slice(&[45, 0, 11, 0, 0, 0, code]);
        p.extend_from_slice(&flags.to_le_bytes());
        p.extend_from_slice(&[0, 0, 0]);
        p
    }

    #[test]
    fn column_definitions_give_type_and_sign() {
        assert_eq!(
            column_type(&col(3, 0)),
            Some(ColumnType {
                code: 3,
                unsigned: false
            })
        );
        assert_eq!(column_type(&col(1, 0x20)).map(|t| t.unsigned), Some(true));
        assert_eq!(column_type(&[1, 2]), None);
    }

    #[test]
    fn binary_rows_decode_integers_decimals_nulls_and_strings() {
        // Scripted server message: (INT -5, NEWDECIMAL "12.50", NULL, TINY 200 unsigned,
        // VAR_STRING "abc").
        let types = [
            ColumnType {
                code: 3,
                unsigned: false,
            },
            ColumnType {
                code: 246,
                unsigned: false,
            },
            ColumnType {
                code: 253,
                unsigned: false,
            },
            ColumnType {
                code: 1,
                unsigned: true,
            },
            ColumnType {
                code: 253,
                unsigned: false,
            },
        ];
        let mut p = vec![0x00];
        // NULL bitmap: column 2 → bit 4.
        p.extend_from_slice(&[0b0001_0000]);
        p.extend_from_slice(&(-5i32).to_le_bytes());
        p.push(5);
        p.extend_from_slice(b"12.50");
        p.push(200);
        p.push(3);
        p.extend_from_slice(b"abc");
        let mut rows = ResultRows::new();
        rows.start(types.len());
        binary_row(&p, &types, &mut rows).expect("a well-formed row");
        assert_eq!(rows.int(0, 0), Some(-5));
        assert_eq!(rows.scaled(0, 1, 2), Some(1250));
        assert!(rows.is_null(0, 2));
        assert_eq!(rows.int(0, 3), Some(200));
        assert_eq!(rows.bytes(0, 4), Some(&b"abc"[..]));
        assert!(
            binary_row(&p[..6], &types, &mut rows).is_none(),
            "truncated"
        );
    }
}
