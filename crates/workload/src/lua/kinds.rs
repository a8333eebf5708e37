//! Statement kinds of a script: its statements' texts with table numbers and literals folded
//! (`sbtest#`, `?`), interned as the workers prepare or run them, shared by the workers.

use std::sync::Mutex;

/// Statement kinds a script can have apart; the rest share the last one.
pub(super) const KIND_CAP: usize = 64;
pub(super) const OTHER_KIND: &str = "other statements";

/// Statement texts interned as kinds, shared by the workers.
#[derive(Default)]
pub(super) struct Kinds {
    pub(super) names: Mutex<Vec<&'static str>>,
}

impl Kinds {
    pub(super) fn intern(&self, sql: &str) -> u8 {
        let name = normalise(sql);
        let mut names = self.names.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(i) = names.iter().position(|n| *n == name) {
            return i as u8;
        }
        if names.len() + 1 >= KIND_CAP {
            return (KIND_CAP - 1) as u8;
        }
        names.push(Box::leak(name.into_boxed_str()));
        (names.len() - 1) as u8
    }
}

/// A statement's text as its kind's name: whitespace runs as one space, numbers and quoted
/// literals as `?`, digits ending an identifier as `#` (`sbtest17` → `sbtest#`), and a run of
/// identical parenthesised groups as the first and `,…` (a bulk INSERT's rows: one kind
/// whatever the number of rows, and a name a report can print).
fn normalise(sql: &str) -> String {
    let text = literals_folded(sql);
    // Runs on every `con:query`: the second pass (and its copy) only where a group is followed
    // by a comma.
    if text.contains("),") || text.contains(") ,") {
        fold_repeated_groups(&text)
    } else {
        text
    }
}

fn literals_folded(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let b = sql.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            while i < b.len() && b[i].is_ascii_whitespace() {
                i += 1;
            }
            if !out.is_empty() && i < b.len() {
                out.push(' ');
            }
            continue;
        }
        if c == b'\'' || c == b'"' {
            i += 1;
            while i < b.len() && b[i] != c {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push('?');
            continue;
        }
        if c.is_ascii_digit() {
            while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'.') {
                i += 1;
            }
            out.push('?');
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                if b[i].is_ascii_digit() {
                    while i < b.len() && b[i].is_ascii_digit() {
                        i += 1;
                    }
                    out.push('#');
                } else {
                    out.push(b[i] as char);
                    i += 1;
                }
            }
            continue;
        }
        // Multi-byte characters pass whole.
        let ch = sql[i..].chars().next().expect("in bounds");
        out.push(ch);
        i += ch.len_utf8();
    }
    out
}

/// `(?,?),(?,?),(?, ?)` as `(?,?),…`: each group followed by copies of itself (`,` between,
/// spaces anywhere) keeps the first.
fn fold_repeated_groups(s: &str) -> String {
    let mut out = String::with_capacity(s.len().min(1024));
    let mut i = 0;
    while let Some(open) = s[i..].find('(').map(|o| i + o) {
        out.push_str(&s[i..open]);
        let Some(close) = matching_paren(s, open) else {
            i = open;
            break;
        };
        let group = &s[open..=close];
        out.push_str(group);
        let mut next = close + 1;
        let mut folded = false;
        loop {
            let rest = s[next..].trim_start();
            let Some(after_comma) = rest.strip_prefix(',') else {
                break;
            };
            let candidate = after_comma.trim_start();
            let start = s.len() - candidate.len();
            if !candidate.starts_with('(') {
                break;
            }
            let Some(end) = matching_paren(s, start) else {
                break;
            };
            if !same_but_spaces(&s[start..=end], group) {
                break;
            }
            next = end + 1;
            folded = true;
        }
        if folded {
            out.push_str(",…");
        }
        i = next;
    }
    out.push_str(&s[i..]);
    out
}

fn same_but_spaces(a: &str, b: &str) -> bool {
    a.chars()
        .filter(|c| *c != ' ')
        .eq(b.chars().filter(|c| *c != ' '))
}

/// The `)` closing the `(` at `open`, nested groups skipped.
fn matching_paren(s: &str, open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (k, c) in s[open..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(open + k);
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_statement_is_named_by_its_text_with_table_numbers_and_literals_folded() {
        assert_eq!(
            normalise("SELECT c FROM sbtest17 WHERE id=?"),
            "SELECT c FROM sbtest# WHERE id=?"
        );
        assert_eq!(
            normalise("UPDATE  sbtest1 SET c='x y' WHERE id = 42\n"),
            "UPDATE sbtest# SET c=? WHERE id = ?"
        );
    }

    #[test]
    fn a_bulk_insert_is_one_kind_whatever_its_rows() {
        assert_eq!(
            normalise("INSERT INTO sbtest1 VALUES(1,1),(2,2), (3, 3)"),
            "INSERT INTO sbtest# VALUES(?,?),…"
        );
        assert_eq!(
            normalise("INSERT INTO sbtest1 VALUES(7,7)"),
            "INSERT INTO sbtest# VALUES(?,?)"
        );
        // Different groups stay; nested ones are part of their group; an unclosed one is kept.
        assert_eq!(
            normalise("INSERT INTO t VALUES (1,NOW()),(2,NOW()),(3,'x')"),
            "INSERT INTO t VALUES (?,NOW()),…,(?,?)"
        );
        assert_eq!(normalise("SELECT f((1)"), "SELECT f((?)");
    }
}
