//! One SQL command of a script: its text, the `:name`s in it, and what `\gset`/`\aset` keep of
//! its rows. pgbench's two ways of sending it: values pasted into the text (simple query mode:
//! a `:name` whose variable is set is replaced, anywhere, as pgbench does; others stay as
//! written), or bound as parameters (extended and prepared modes: each `:name` outside quotes
//! becomes a parameter).

/// Where `\gset` (the last result's one row) or `\aset` (every result's rows) put the columns:
/// variables named PREFIX + column.
#[derive(Clone, Debug, PartialEq)]
pub enum Store {
    Last(String),
    Every(String),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Part {
    Text(String),
    Var { name: String, quoted: bool },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Sql {
    /// As written (a `\;` compound holds `;` between its statements).
    pub text: String,
    pub line: usize,
    pub parts: Vec<Part>,
    /// The variables bound as parameters, in order (those outside quotes).
    pub params: Vec<String>,
    pub store: Option<Store>,
    /// Whether a `;` ended it in the script (pgbench's texts show it).
    pub ended: bool,
}

fn name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

impl Sql {
    pub fn new(text: &str, line: usize) -> Sql {
        let parts = parts(text);
        let params = parts
            .iter()
            .filter_map(|p| match p {
                Part::Var {
                    name,
                    quoted: false,
                } => Some(name.clone()),
                _ => None,
            })
            .collect();
        Sql {
            text: text.to_string(),
            line,
            params,
            parts,
            store: None,
            ended: false,
        }
    }

    /// Every variable named in the text.
    pub fn variables(&self) -> impl Iterator<Item = &str> {
        self.parts.iter().filter_map(|p| match p {
            Part::Var { name, .. } => Some(name.as_str()),
            Part::Text(_) => None,
        })
    }

    /// The text with `?` for each parameter, and the parameters' variables in order.
    pub fn bound(&self) -> (String, Vec<String>) {
        let mut text = String::with_capacity(self.text.len());
        let mut names = Vec::new();
        for p in &self.parts {
            match p {
                Part::Text(t) => text.push_str(t),
                Part::Var {
                    name,
                    quoted: false,
                } => {
                    text.push('?');
                    names.push(name.clone());
                }
                Part::Var { name, quoted: true } => {
                    text.push(':');
                    text.push_str(name);
                }
            }
        }
        (text, names)
    }

    /// The text with each set variable's value pasted in (`value` gives it, or None).
    pub fn substituted(&self, out: &mut String, mut value: impl FnMut(&str, &mut String) -> bool) {
        out.clear();
        for p in &self.parts {
            match p {
                Part::Text(t) => out.push_str(t),
                Part::Var { name, .. } => {
                    if !value(name, out) {
                        out.push(':');
                        out.push_str(name);
                    }
                }
            }
        }
    }

    /// The text with `$1`, `$2`… for the parameters, as the PostgreSQL driver sends a bound
    /// statement (what a server error's position counts in).
    pub fn numbered(&self) -> String {
        dbpress_driver::numbered_placeholders(&self.bound().0)
    }
}

/// Split SQL into text and `:name`s; `::` (a cast) is text. Names inside quotes are marked.
fn parts(sql: &str) -> Vec<Part> {
    let b = sql.as_bytes();
    let mut out = Vec::new();
    let mut text = String::new();
    let mut quote: Option<u8> = None;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match quote {
            Some(q) if c == q => quote = None,
            None if c == b'\'' || c == b'"' => quote = Some(c),
            _ => {}
        }
        if c == b':' && b.get(i + 1) == Some(&b':') {
            let mut end = i;
            while end < b.len() && b[end] == b':' {
                end += 1;
            }
            text.push_str(&sql[i..end]);
            i = end;
            continue;
        }
        if c == b':' && b.get(i + 1).is_some_and(|n| name_byte(*n)) {
            let start = i + 1;
            let mut end = start;
            while end < b.len() && name_byte(b[end]) {
                end += 1;
            }
            if !text.is_empty() {
                out.push(Part::Text(std::mem::take(&mut text)));
            }
            out.push(Part::Var {
                name: sql[start..end].to_string(),
                quoted: quote.is_some(),
            });
            i = end;
            continue;
        }
        let ch = sql[i..].chars().next().unwrap_or(' ');
        text.push(ch);
        i += ch.len_utf8();
    }
    if !text.is_empty() {
        out.push(Part::Text(text));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_become_parameters_outside_quotes_and_values_anywhere() {
        let s = Sql::new("SELECT ':a', x::int FROM t WHERE a = :a AND b = :b", 3);
        assert_eq!(
            s.bound(),
            (
                "SELECT ':a', x::int FROM t WHERE a = ? AND b = ?".to_string(),
                vec!["a".to_string(), "b".to_string()]
            )
        );
        let mut out = String::new();
        s.substituted(&mut out, |n, o| {
            (n == "a").then(|| o.push_str("42")).is_some()
        });
        assert_eq!(out, "SELECT '42', x::int FROM t WHERE a = 42 AND b = :b");
        assert_eq!(s.variables().collect::<Vec<_>>(), vec!["a", "a", "b"]);
    }
}
