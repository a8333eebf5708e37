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
/// literals as `?`, digits ending an identifier as `#` (`sbtest17` → `sbtest#`).
fn normalise(sql: &str) -> String {
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
}
