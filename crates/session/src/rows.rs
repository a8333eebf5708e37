//! Generated rows on their way to a bulk load, typed: each row's values in column order,
//! integers as integers and strings in one shared buffer. A driver sends them the way its
//! server loads fastest (MySQL: prepared multi-row INSERTs with binary values; PostgreSQL: COPY
//! text; SQLite: one prepared INSERT per row) without parsing text back into values.

use crate::value::Value;

#[derive(Clone, Copy)]
enum Cell {
    Null,
    Int(i64),
    /// A string at `text[start..end]`.
    Str(u32, u32),
}

/// A batch of rows; a loader refills it until `is_full`, the driver sends it and clears it.
/// Once warm, refilling allocates nothing.
pub struct RowBatch {
    columns: usize,
    max_rows: usize,
    max_bytes: usize,
    cells: Vec<Cell>,
    text: Vec<u8>,
}

impl RowBatch {
    /// An empty batch of rows with `columns` values each, full at `max_rows` rows or when its
    /// strings pass `max_bytes`, whichever comes first.
    pub fn new(columns: usize, max_rows: usize, max_bytes: usize) -> RowBatch {
        RowBatch {
            columns: columns.max(1),
            max_rows: max_rows.max(1),
            max_bytes,
            cells: Vec::with_capacity(columns * max_rows.min(1 << 16)),
            text: Vec::new(),
        }
    }

    pub fn columns(&self) -> usize {
        self.columns
    }

    /// Complete rows so far.
    pub fn rows(&self) -> usize {
        self.cells.len() / self.columns
    }

    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// Whether the loader should stop adding rows and let the driver send these.
    pub fn is_full(&self) -> bool {
        self.rows() >= self.max_rows || self.text.len() >= self.max_bytes
    }

    pub fn clear(&mut self) {
        self.cells.clear();
        self.text.clear();
    }

    /// Append the next value of the current row.
    pub fn int(&mut self, v: i64) {
        self.cells.push(Cell::Int(v));
    }

    /// Append a NULL as the next value of the current row.
    pub fn null(&mut self) {
        self.cells.push(Cell::Null);
    }

    /// Append the next value of the current row.
    pub fn str(&mut self, s: &[u8]) {
        let start = self.text.len() as u32;
        self.text.extend_from_slice(s);
        self.cells.push(Cell::Str(start, self.text.len() as u32));
    }

    /// Every value of every row, row after row.
    pub fn values(&self) -> impl Iterator<Item = Value<'_>> + '_ {
        self.cells.iter().map(|c| match *c {
            Cell::Null => Value::Null,
            Cell::Int(v) => Value::Int(v),
            Cell::Str(a, b) => Value::Str(&self.text[a as usize..b as usize]),
        })
    }

    /// Whether every string in the batch is ASCII.
    pub fn is_ascii(&self) -> bool {
        self.text.is_ascii()
    }

    /// Bytes of string data in the batch (integers not counted).
    pub fn text_bytes(&self) -> usize {
        self.text.len()
    }

    /// The rows as tab-separated lines, in the text format that PostgreSQL's COPY and MySQL's
    /// LOAD DATA both read: backslash, tab, newline and carriage return escaped.
    pub fn write_tsv(&self, out: &mut Vec<u8>) {
        for (i, v) in self.values().enumerate() {
            match v {
                Value::Int(n) => crate::text::push_int(out, n),
                Value::Str(s) => {
                    let mut rest = s;
                    while let Some(at) = rest
                        .iter()
                        .position(|&b| matches!(b, b'\\' | b'\t' | b'\n' | b'\r'))
                    {
                        out.extend_from_slice(&rest[..at]);
                        out.extend_from_slice(match rest[at] {
                            b'\\' => b"\\\\",
                            b'\t' => b"\\t",
                            b'\n' => b"\\n",
                            _ => b"\\r",
                        });
                        rest = &rest[at + 1..];
                    }
                    out.extend_from_slice(rest);
                }
                Value::Null => out.extend_from_slice(b"\\N"),
            }
            out.push(if (i + 1) % self.columns == 0 {
                b'\n'
            } else {
                b'\t'
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_come_back_in_row_order_with_their_types() {
        let mut b = RowBatch::new(2, 10, 1 << 20);
        b.int(1);
        b.str(b"one");
        b.int(-2);
        b.str(b"");
        assert_eq!(b.rows(), 2);
        let got: Vec<String> = b.values().map(|v| format!("{v:?}")).collect();
        assert_eq!(
            got,
            ["Int(1)", "Str([111, 110, 101])", "Int(-2)", "Str([])"]
        );
    }

    #[test]
    fn full_at_the_row_limit_or_the_byte_limit() {
        let mut b = RowBatch::new(1, 3, 8);
        b.str(b"abc");
        b.str(b"def");
        assert!(!b.is_full());
        b.int(7);
        assert!(b.is_full(), "three rows");
        b.clear();
        assert!(b.is_empty() && !b.is_full());
        b.str(b"123456789");
        assert!(b.is_full(), "past eight bytes of strings");
    }

    #[test]
    fn tsv_escapes_what_copy_and_load_data_would_misread() {
        let mut b = RowBatch::new(2, 10, 1 << 20);
        b.int(42);
        b.str(b"a\tb\\c\nd\re");
        b.int(-1);
        b.str(b"plain");
        let mut out = Vec::new();
        b.write_tsv(&mut out);
        assert_eq!(out, b"42\ta\\tb\\\\c\\nd\\re\n-1\tplain\n");
    }
}
