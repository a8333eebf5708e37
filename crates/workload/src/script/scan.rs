//! A script file split into SQL commands and meta-command lines, as pgbench splits it (with
//! psql's lexer): a `;` outside quotes, comments and parentheses ends a statement; `\;` joins
//! two statements into one compound command; a backslash anywhere else starts a meta-command
//! that runs to the end of its line (a backslash before the newline continues it), and ends
//! the SQL before it (`SELECT 1 \gset`). `--` comments count as blanks.

/// One piece of a script, with the line it starts on (1-based).
#[derive(Clone, Debug, PartialEq)]
pub enum Piece {
    /// SQL as the server gets it (without the `;` that ended it), and its first line as
    /// pgbench shows it in reports (with the `;` when it ends there).
    Sql {
        text: String,
        line: usize,
        shown: String,
        /// Whether a `;` ended it (pgbench keeps it in the text it shows).
        ended: bool,
    },
    /// A meta-command: its name (without the backslash) and the rest of its line(s).
    Meta {
        name: String,
        /// Everything after the name, as written (continuations kept, so columns hold).
        args: String,
        line: usize,
        /// From the backslash to the end of the (continued) line, for error messages.
        source: String,
        /// Whether the file ends there without a newline.
        ends_file: bool,
    },
}

struct Scanner<'a> {
    s: &'a [u8],
    text: &'a str,
    at: usize,
    line: usize,
}

/// Split `text` into pieces. The error is an unterminated quote or comment: (line, message).
pub fn pieces(text: &str) -> Result<Vec<Piece>, (usize, String)> {
    let mut sc = Scanner {
        s: text.as_bytes(),
        text,
        at: 0,
        line: 1,
    };
    let mut out = Vec::new();
    let mut sql = String::new();
    let mut sql_line = 0;
    let mut depth = 0usize;
    while sc.at < sc.s.len() {
        let c = sc.s[sc.at];
        if sql.trim().is_empty() && (c.is_ascii_whitespace() || sc.starts("--")) {
            // Blanks and line comments before a statement are not part of it.
            sc.skip_blank_or_comment();
            sql.clear();
            continue;
        }
        if sql.is_empty() {
            sql_line = sc.line;
        }
        match c {
            b'\\' if sc.peek(1) == Some(b';') => {
                sql.push(';');
                sc.at += 2;
            }
            b'\\' => {
                flush(&mut out, &mut sql, sql_line, false);
                depth = 0;
                out.push(sc.meta());
            }
            b';' if depth == 0 => {
                sc.at += 1;
                flush(&mut out, &mut sql, sql_line, true);
            }
            b'(' | b')' => {
                depth = if c == b'(' {
                    depth + 1
                } else {
                    depth.saturating_sub(1)
                };
                sql.push(c as char);
                sc.at += 1;
            }
            b'\'' | b'"' => sql.push_str(sc.quoted(c)?),
            b'$' => sql.push_str(sc.dollar()),
            b'/' if sc.peek(1) == Some(b'*') => sql.push_str(sc.block_comment()?),
            b'-' if sc.peek(1) == Some(b'-') => {
                let start = sc.at;
                while sc.at < sc.s.len() && sc.s[sc.at] != b'\n' {
                    sc.at += 1;
                }
                sql.push_str(&text[start..sc.at]);
            }
            _ => {
                let ch = text[sc.at..].chars().next().unwrap_or(' ');
                if ch == '\n' {
                    sc.line += 1;
                }
                sql.push(ch);
                sc.at += ch.len_utf8();
            }
        }
    }
    flush(&mut out, &mut sql, sql_line, false);
    Ok(out)
}

/// The SQL gathered so far as a piece (`ended`: by a `;`), unless it is only blanks.
fn flush(out: &mut Vec<Piece>, sql: &mut String, line: usize, ended: bool) {
    let text = sql.trim();
    if !text.is_empty() {
        let mut shown = text.lines().next().unwrap_or_default().to_string();
        if ended && !text.contains('\n') {
            shown.push(';');
        }
        out.push(Piece::Sql {
            text: text.to_string(),
            line,
            shown,
            ended,
        });
    }
    sql.clear();
}

impl<'a> Scanner<'a> {
    fn peek(&self, ahead: usize) -> Option<u8> {
        self.s.get(self.at + ahead).copied()
    }

    fn starts(&self, p: &str) -> bool {
        self.s[self.at..].starts_with(p.as_bytes())
    }

    fn skip_blank_or_comment(&mut self) {
        if self.starts("--") {
            while self.at < self.s.len() && self.s[self.at] != b'\n' {
                self.at += 1;
            }
            return;
        }
        if self.s[self.at] == b'\n' {
            self.line += 1;
        }
        self.at += 1;
    }

    /// A quoted string or identifier, doubled quotes inside; `E'…'` strings also take
    /// backslash escapes.
    fn quoted(&mut self, q: u8) -> Result<&'a str, (usize, String)> {
        let start = self.at;
        let line = self.line;
        let escapes = q == b'\''
            && start > 0
            && matches!(self.s[start - 1], b'e' | b'E')
            && (start < 2 || !self.s[start - 2].is_ascii_alphanumeric());
        self.at += 1;
        loop {
            let Some(&c) = self.s.get(self.at) else {
                let what = if q == b'\'' {
                    "unterminated quoted string"
                } else {
                    "unterminated quoted identifier"
                };
                return Err((line, what.into()));
            };
            self.at += 1;
            match c {
                b'\n' => self.line += 1,
                b'\\' if escapes => self.at += 1,
                _ if c == q && self.peek(0) == Some(q) => self.at += 1,
                _ if c == q => return Ok(&self.text[start..self.at]),
                _ => {}
            }
        }
    }

    /// `$tag$ … $tag$` (or a lone `$`, e.g. a `$1` parameter).
    fn dollar(&mut self) -> &'a str {
        let start = self.at;
        let mut end = self.at + 1;
        while end < self.s.len() && (self.s[end].is_ascii_alphanumeric() || self.s[end] == b'_') {
            end += 1;
        }
        let tag_ok = self.s.get(end) == Some(&b'$')
            && !self.s.get(start + 1).is_some_and(u8::is_ascii_digit);
        if !tag_ok {
            self.at += 1;
            return &self.text[start..self.at];
        }
        let tag = &self.text[start..=end];
        let body = end + 1;
        match self.text[body..].find(tag) {
            Some(off) => {
                let stop = body + off + tag.len();
                self.line += self.text[start..stop].matches('\n').count();
                self.at = stop;
                &self.text[start..stop]
            }
            None => {
                self.at = self.s.len();
                &self.text[start..]
            }
        }
    }

    /// `/* … */`, nested as PostgreSQL nests them.
    fn block_comment(&mut self) -> Result<&'a str, (usize, String)> {
        let start = self.at;
        let line = self.line;
        let mut depth = 0;
        while self.at < self.s.len() {
            if self.starts("/*") {
                depth += 1;
                self.at += 2;
            } else if self.starts("*/") {
                depth -= 1;
                self.at += 2;
                if depth == 0 {
                    return Ok(&self.text[start..self.at]);
                }
            } else {
                if self.s[self.at] == b'\n' {
                    self.line += 1;
                }
                self.at += 1;
            }
        }
        Err((line, "unterminated /* comment".into()))
    }

    /// A meta-command from its backslash to the end of the line; a backslash right before
    /// the newline continues it on the next.
    fn meta(&mut self) -> Piece {
        let line = self.line;
        let start = self.at + 1;
        let mut end = start;
        let mut name_end = None;
        while end < self.s.len() && self.s[end] != b'\n' {
            if self.s[end] == b'\\'
                && matches!(&self.s[end + 1..], [b'\n', ..] | [b'\r', b'\n', ..])
            {
                let newline = end + 1 + usize::from(self.s[end + 1] == b'\r');
                self.line += 1;
                end = newline + 1;
                continue;
            }
            if name_end.is_none() && self.s[end].is_ascii_whitespace() {
                name_end = Some(end);
            }
            end += 1;
        }
        let name_end = name_end.unwrap_or(end);
        let piece = Piece::Meta {
            name: self.text[start..name_end].to_string(),
            args: self.text[name_end..end].trim_end_matches('\r').to_string(),
            line,
            source: self.text[start - 1..end].trim_end_matches('\r').to_string(),
            ends_file: end == self.s.len(),
        };
        self.at = end;
        piece
    }
}

#[cfg(test)]
mod tests;
