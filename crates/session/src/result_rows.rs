//! Rows a statement returned, for a workload that reads what the server answers (TPC-C reads a
//! district's next order id, an item's price, a customer list). Reused from one execute to the
//! next, so reading a result allocates nothing once warm. Each engine fills it in its own
//! encoding (MySQL's binary protocol gives integers; PostgreSQL's text format and decimals give
//! text), and the accessors read either.

#[derive(Clone, Copy, Debug, PartialEq)]
enum Cell {
    Null,
    Int(i64),
    Float(f64),
    /// Bytes at `text[start..end]`: a string, or a number as its decimal text.
    Bytes(u32, u32),
}

/// A row as (column name, text; None for NULL), for scripts that keep rows by name.
pub type NamedRow = Vec<(String, Option<String>)>;

/// The rows of one result, row after row.
#[derive(Debug, Default)]
pub struct ResultRows {
    columns: usize,
    cells: Vec<Cell>,
    text: Vec<u8>,
    /// A dry run's answer: one row whose every cell reads as 1 (see `dry_run`).
    wildcard: bool,
    /// Column names, kept only when asked for (`names.rs`).
    names: Option<Vec<String>>,
    /// Each earlier result set's last row, as (column, text), when asked for.
    earlier: Option<Vec<NamedRow>>,
    /// Rows of a result without columns (PostgreSQL's `SELECT` alone answers one).
    empty_rows: usize,
}

impl ResultRows {
    pub fn new() -> ResultRows {
        ResultRows::default()
    }

    /// Empty it for a result of `columns` columns.
    pub fn start(&mut self, columns: usize) {
        self.keep_last_row();
        self.columns = columns;
        self.cells.clear();
        self.text.clear();
        self.wildcard = false;
        self.empty_rows = 0;
    }

    /// A row of a result without columns.
    pub fn push_empty_row(&mut self) {
        self.empty_rows += 1;
    }

    /// The answer of a connection that sends nothing: one row, every cell 1, so code that reads
    /// results runs its whole path without a server.
    pub fn dry_run(&mut self) {
        self.start(0);
        self.wildcard = true;
    }

    pub fn push_null(&mut self) {
        self.cells.push(Cell::Null);
    }

    pub fn push_int(&mut self, v: i64) {
        self.cells.push(Cell::Int(v));
    }

    pub fn push_float(&mut self, v: f64) {
        self.cells.push(Cell::Float(v));
    }

    pub fn push_bytes(&mut self, b: &[u8]) {
        let start = self.text.len() as u32;
        self.text.extend_from_slice(b);
        self.cells.push(Cell::Bytes(start, self.text.len() as u32));
    }

    /// Whether this is a dry run's made-up answer (code matching rows by key then takes the one
    /// row for any key).
    pub fn is_dry_run(&self) -> bool {
        self.wildcard
    }

    pub fn columns(&self) -> usize {
        self.columns
    }

    /// Rows held.
    pub fn len(&self) -> usize {
        if self.wildcard {
            1
        } else {
            self.cells
                .len()
                .checked_div(self.columns)
                .unwrap_or(self.empty_rows)
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn cell(&self, row: usize, col: usize) -> Option<Cell> {
        if self.wildcard {
            return (row == 0).then_some(Cell::Int(1));
        }
        if col >= self.columns {
            return None;
        }
        self.cells.get(row * self.columns + col).copied()
    }

    pub fn is_null(&self, row: usize, col: usize) -> bool {
        matches!(self.cell(row, col), Some(Cell::Null))
    }

    /// The cell as an integer (a decimal's fraction dropped); None for NULL, text that is not
    /// a number, or a cell that is not there.
    pub fn int(&self, row: usize, col: usize) -> Option<i64> {
        match self.cell(row, col)? {
            Cell::Int(v) => Some(v),
            Cell::Float(f) => Some(f as i64),
            Cell::Bytes(..) => self.scaled(row, col, 0),
            Cell::Null => None,
        }
    }

    /// The cell as a fixed-point number with `scale` decimals (cents for scale 2: "12.34" →
    /// 1234), rounded half away from zero past `scale`; None as for `int`.
    pub fn scaled(&self, row: usize, col: usize, scale: u32) -> Option<i64> {
        let unit = 10i64.checked_pow(scale)?;
        match self.cell(row, col)? {
            Cell::Int(v) => v.checked_mul(unit),
            Cell::Float(f) => Some((f * unit as f64).round() as i64),
            Cell::Bytes(a, b) => parse_scaled(&self.text[a as usize..b as usize], scale),
            Cell::Null => None,
        }
    }

    /// The cell's bytes when it is a string (or a number sent as text); None otherwise.
    pub fn bytes(&self, row: usize, col: usize) -> Option<&[u8]> {
        match self.cell(row, col)? {
            Cell::Bytes(a, b) => Some(&self.text[a as usize..b as usize]),
            _ if self.wildcard => Some(b"1"),
            _ => None,
        }
    }
}

/// "−12.345" with scale 2 → −1235: a decimal's text as an integer count of 10^-scale, rounded
/// half away from zero; also reads "1e3"-free forms only (what servers send for DECIMAL/REAL).
fn parse_scaled(s: &[u8], scale: u32) -> Option<i64> {
    let (neg, digits) = match s.first()? {
        b'-' => (true, &s[1..]),
        b'+' => (false, &s[1..]),
        _ => (false, s),
    };
    let mut v: i64 = 0;
    let mut frac: Option<u32> = None;
    let mut round_up = false;
    let mut any = false;
    for &c in digits {
        match c {
            b'.' if frac.is_none() => frac = Some(0),
            b'0'..=b'9' => {
                any = true;
                let d = i64::from(c - b'0');
                match frac {
                    Some(n) if n == scale => {
                        round_up = d >= 5;
                        frac = Some(n + 1);
                    }
                    Some(n) if n > scale => {}
                    Some(n) => {
                        v = v.checked_mul(10)?.checked_add(d)?;
                        frac = Some(n + 1);
                    }
                    None => v = v.checked_mul(10)?.checked_add(d)?,
                }
            }
            _ => return None,
        }
    }
    if !any {
        return None;
    }
    let have = frac.unwrap_or(0).min(scale);
    v = v.checked_mul(10i64.checked_pow(scale - have)?)?;
    if round_up {
        v += 1;
    }
    Some(if neg { -v } else { v })
}

mod names;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals_read_as_fixed_point_whatever_their_encoding() {
        let mut r = ResultRows::new();
        r.start(4);
        r.push_bytes(b"-10.00");
        r.push_bytes(b"0.1234");
        r.push_int(7);
        r.push_float(3.456);
        assert_eq!(r.len(), 1);
        assert_eq!(r.scaled(0, 0, 2), Some(-1000));
        assert_eq!(r.scaled(0, 1, 4), Some(1234));
        assert_eq!(r.scaled(0, 1, 2), Some(12));
        assert_eq!(r.scaled(0, 2, 2), Some(700));
        assert_eq!(r.scaled(0, 3, 2), Some(346));
        assert_eq!(r.int(0, 0), Some(-10));
        assert_eq!(parse_scaled(b"12.345", 2), Some(1235));
        assert_eq!(parse_scaled(b"5", 2), Some(500));
        assert_eq!(parse_scaled(b"abc", 2), None);
        assert_eq!(parse_scaled(b"", 2), None);
    }

    #[test]
    fn nulls_missing_cells_and_rows_read_as_none() {
        let mut r = ResultRows::new();
        r.start(2);
        r.push_null();
        r.push_bytes(b"ORIGINAL");
        r.push_int(3);
        r.push_bytes(b"x");
        assert_eq!(r.len(), 2);
        assert!(r.is_null(0, 0));
        assert_eq!(r.int(0, 0), None);
        assert_eq!(r.bytes(0, 1), Some(&b"ORIGINAL"[..]));
        assert_eq!(r.int(1, 0), Some(3));
        assert_eq!(r.int(2, 0), None, "no third row");
        assert_eq!(r.int(0, 2), None, "no third column");
        r.start(1);
        assert!(r.is_empty());
    }

    #[test]
    fn a_dry_run_answer_is_one_row_of_ones() {
        let mut r = ResultRows::new();
        r.dry_run();
        assert_eq!(r.len(), 1);
        assert_eq!(r.int(0, 5), Some(1));
        assert_eq!(r.scaled(0, 0, 2), Some(100));
        assert_eq!(r.int(1, 0), None);
    }
}
