//! A plain table, written as CSV (for spreadsheets, pandas, gnuplot) or as a Markdown pipe
//! table (for a wiki page, a ticket or a pull request). The renderers that build one decide
//! what the cells say; this file only decides how they are written down.

/// Which side a Markdown column's cells line up on (CSV has no alignment).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    Left,
    Right,
}

#[derive(Clone, Debug, Default)]
pub struct Table {
    head: Vec<(String, Align)>,
    rows: Vec<Vec<String>>,
}

impl Table {
    /// A table with these column names; the first lines up left, the others right (figures).
    pub fn new<S: AsRef<str>>(names: &[S]) -> Table {
        let head = names
            .iter()
            .enumerate()
            .map(|(i, n)| {
                let align = if i == 0 { Align::Left } else { Align::Right };
                (n.as_ref().to_string(), align)
            })
            .collect();
        Table {
            head,
            rows: Vec::new(),
        }
    }

    /// Line column `i` up on `align`'s side in Markdown.
    pub fn align(mut self, i: usize, align: Align) -> Table {
        if let Some(c) = self.head.get_mut(i) {
            c.1 = align;
        }
        self
    }

    /// Append a row; missing cells at its end are empty, surplus ones are an error of the
    /// caller's (debug builds say so).
    pub fn row(&mut self, mut cells: Vec<String>) {
        debug_assert!(cells.len() <= self.head.len(), "row wider than its table");
        cells.resize(self.head.len(), String::new());
        self.rows.push(cells);
    }

    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// RFC 4180 CSV with a header line; lines end in `\n`, as Unix tools and every spreadsheet
    /// read them.
    pub fn csv(&self) -> String {
        let mut out = String::new();
        let head: Vec<&str> = self.head.iter().map(|(n, _)| n.as_str()).collect();
        csv_line(&mut out, &head);
        for r in &self.rows {
            let cells: Vec<&str> = r.iter().map(String::as_str).collect();
            csv_line(&mut out, &cells);
        }
        out
    }

    /// A GitHub-flavoured Markdown pipe table; an empty cell shows as `-`.
    pub fn markdown(&self) -> String {
        let mut out = String::new();
        let head: Vec<String> = self.head.iter().map(|(n, _)| md_cell(n)).collect();
        out.push_str(&format!("| {} |\n", head.join(" | ")));
        let rule: Vec<&str> = self
            .head
            .iter()
            .map(|(_, a)| match a {
                Align::Left => ":---",
                Align::Right => "---:",
            })
            .collect();
        out.push_str(&format!("|{}|\n", rule.join("|")));
        for r in &self.rows {
            let cells: Vec<String> = r
                .iter()
                .map(|c| if c.is_empty() { "-".into() } else { md_cell(c) })
                .collect();
            out.push_str(&format!("| {} |\n", cells.join(" | ")));
        }
        out
    }
}

fn csv_line(out: &mut String, cells: &[&str]) {
    for (i, c) in cells.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        if c.contains([',', '"', '\n', '\r']) {
            out.push('"');
            out.push_str(&c.replace('"', "\"\""));
            out.push('"');
        } else {
            out.push_str(c);
        }
    }
    out.push('\n');
}

/// A cell's text made safe inside a pipe table: a `|` would end the cell and a line break the
/// row.
fn md_cell(s: &str) -> String {
    s.replace('|', "\\|").replace(['\n', '\r'], " ")
}

/// A figure with `prec` decimals, or an empty cell when there is none.
pub fn num(v: Option<f64>, prec: usize) -> String {
    v.map_or(String::new(), |v| format!("{v:.prec$}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Table {
        let mut t = Table::new(&["statement", "count", "note"]).align(2, Align::Left);
        t.row(vec!["point_select".into(), "10".into(), "plain".into()]);
        t.row(vec![
            "UPDATE t SET a = \"x\", b = 1".into(),
            "2".into(),
            "a|b\nc".into(),
        ]);
        t.row(vec!["short".into()]);
        t
    }

    #[test]
    fn csv_quotes_only_what_needs_quoting() {
        assert_eq!(
            sample().csv(),
            "statement,count,note\n\
             point_select,10,plain\n\
             \"UPDATE t SET a = \"\"x\"\", b = 1\",2,\"a|b\nc\"\n\
             short,,\n"
        );
    }

    #[test]
    fn markdown_escapes_pipes_and_breaks_and_marks_empty_cells() {
        assert_eq!(
            sample().markdown(),
            "| statement | count | note |\n\
             |:---|---:|:---|\n\
             | point_select | 10 | plain |\n\
             | UPDATE t SET a = \"x\", b = 1 | 2 | a\\|b c |\n\
             | short | - | - |\n"
        );
    }

    #[test]
    fn num_leaves_missing_figures_empty() {
        assert_eq!(num(Some(1.23456), 2), "1.23");
        assert_eq!(num(None, 2), "");
    }
}
