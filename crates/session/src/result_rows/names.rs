//! Column names and earlier result sets, for scripts that keep what a query returned in
//! variables named after its columns (pgbench's `\gset` and `\aset`). Off unless asked for, so
//! workloads that read cells by position pay nothing.

use super::{Cell, NamedRow, ResultRows};

impl ResultRows {
    /// Keep column names from the next result on (drivers then call `name_columns`), and with
    /// `every_set` also the last row of each result set before the last (a multi-statement
    /// query). Clears what an earlier query left.
    pub fn want_names(&mut self, every_set: bool) {
        self.names = Some(Vec::new());
        self.earlier = every_set.then(Vec::new);
        self.cells.clear();
        self.text.clear();
        self.columns = 0;
    }

    /// Whether the driver should name the columns of what it puts here.
    pub fn wants_names(&self) -> bool {
        self.names.is_some()
    }

    /// The current result's column names, as the server sent them (after `start`).
    pub fn name_columns<'a>(&mut self, names: impl IntoIterator<Item = &'a [u8]>) {
        if let Some(n) = &mut self.names {
            n.clear();
            n.extend(
                names
                    .into_iter()
                    .map(|b| String::from_utf8_lossy(b).into_owned()),
            );
            if self.columns == 0 {
                self.columns = n.len();
            }
        }
    }

    pub fn names(&self) -> &[String] {
        self.names.as_deref().unwrap_or_default()
    }

    /// The last rows of the result sets before the current one that had rows, oldest first.
    pub fn earlier_sets(&self) -> &[NamedRow] {
        self.earlier.as_deref().unwrap_or_default()
    }

    /// The cell as text, as the server would print it; None for NULL or no cell.
    pub fn text(&self, row: usize, col: usize) -> Option<String> {
        match self.cell(row, col)? {
            Cell::Null => None,
            Cell::Int(v) => Some(v.to_string()),
            Cell::Float(f) => Some(f.to_string()),
            Cell::Bytes(a, b) => {
                Some(String::from_utf8_lossy(&self.text[a as usize..b as usize]).into_owned())
            }
        }
    }

    /// Before a new result set starts: the one ending keeps its last row when asked to.
    pub(super) fn keep_last_row(&mut self) {
        let rows = self.len();
        if self.earlier.is_none() || rows == 0 || self.wildcard {
            return;
        }
        let row: NamedRow = (0..self.columns)
            .map(|c| {
                let name = self.names().get(c).cloned().unwrap_or_default();
                (name, self.text(rows - 1, c))
            })
            .collect();
        if let Some(e) = &mut self.earlier {
            e.push(row);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_earlier_sets_are_kept_only_when_asked_for() {
        let mut r = ResultRows::new();
        r.start(1);
        r.name_columns([&b"a"[..]]);
        assert!(r.names().is_empty(), "not asked for");
        r.want_names(true);
        r.start(0);
        r.name_columns([&b"one"[..], &b"two"[..]]);
        r.push_int(1);
        r.push_bytes(b"x");
        r.push_int(2);
        r.push_null();
        r.start(0);
        r.name_columns([&b"three"[..]]);
        r.push_float(0.5);
        assert_eq!(r.names(), ["three"]);
        assert_eq!(r.text(0, 0).as_deref(), Some("0.5"));
        assert_eq!(
            r.earlier_sets(),
            [vec![
                ("one".to_string(), Some("2".to_string())),
                ("two".to_string(), None)
            ]]
        );
        r.want_names(false);
        assert!(r.earlier_sets().is_empty() && r.is_empty());
    }
}
