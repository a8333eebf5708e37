//! Statements as text: `?` placeholders replaced by literal values (text mode,
//! `--db-ps-mode=disable`), standard SQL quoting, and integers as decimal text.

use crate::value::Value;

/// Substitute `?` placeholders with literal values, quoting strings with `escape`.
/// Used by text mode (`--db-ps-mode=disable`); `out` is reused across calls.
pub fn render_text(
    template: &str,
    params: &[Value<'_>],
    escape: fn(&[u8], &mut Vec<u8>),
    out: &mut Vec<u8>,
) {
    out.clear();
    let mut params = params.iter();
    let mut rest = template.as_bytes();
    // Literal runs are copied whole; only quotes and placeholders stop the copy.
    while let Some(i) = rest
        .iter()
        .position(|&b| matches!(b, b'?' | b'\'' | b'"' | b'`'))
    {
        out.extend_from_slice(&rest[..i]);
        let b = rest[i];
        rest = &rest[i + 1..];
        if b != b'?' {
            // A quoted literal: copy through its closing quote; a `?` inside is text.
            out.push(b);
            let end = rest
                .iter()
                .position(|&c| c == b)
                .map_or(rest.len(), |e| e + 1);
            out.extend_from_slice(&rest[..end]);
            rest = &rest[end..];
            continue;
        }
        match params.next() {
            Some(Value::Int(v)) => push_int(out, *v),
            Some(Value::Str(s)) => {
                out.push(b'\'');
                escape(s, out);
                out.push(b'\'');
            }
            Some(Value::Null) | None => out.extend_from_slice(b"NULL"),
        }
    }
    out.extend_from_slice(rest);
}

/// Decimal text of `v`, without going through `fmt`.
pub fn push_int(out: &mut Vec<u8>, v: i64) {
    let mut buf = [0u8; 20];
    let mut n = v.unsigned_abs();
    let mut at = buf.len();
    loop {
        at -= 1;
        buf[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    if v < 0 {
        out.push(b'-');
    }
    out.extend_from_slice(&buf[at..]);
}

/// Standard SQL quoting: double the single quote, nothing else (PostgreSQL with
/// standard_conforming_strings, SQLite).
pub fn escape_standard(s: &[u8], out: &mut Vec<u8>) {
    let mut rest = s;
    while let Some(i) = rest.iter().position(|&b| b == b'\'') {
        out.extend_from_slice(&rest[..=i]);
        out.push(b'\'');
        rest = &rest[i + 1..];
    }
    out.extend_from_slice(rest);
}

/// `INSERT INTO table (columns) VALUES (?,…),…` for `rows` rows of `cols` placeholders.
pub fn multi_row_insert(table: &str, columns: &str, cols: usize, rows: usize) -> String {
    let row = format!("({})", vec!["?"; cols].join(","));
    format!(
        "INSERT INTO {table} ({columns}) VALUES {}",
        vec![row.as_str(); rows].join(",")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mysql_escape(s: &[u8], out: &mut Vec<u8>) {
        for &b in s {
            match b {
                b'\'' => out.extend_from_slice(b"''"),
                b'\\' => out.extend_from_slice(b"\\\\"),
                _ => out.push(b),
            }
        }
    }

    #[test]
    fn integers_render_like_display() {
        for v in [0i64, 7, -7, 10, 1_234_567, i64::MAX, i64::MIN] {
            let mut out = Vec::new();
            push_int(&mut out, v);
            assert_eq!(String::from_utf8(out).unwrap(), v.to_string());
        }
    }

    #[test]
    fn text_rendering_substitutes_in_order_and_escapes_strings() {
        let mut out = Vec::new();
        render_text(
            "UPDATE t SET c=? WHERE id=? AND x='?'",
            &[Value::Str(b"it's a \\ test"), Value::Int(-42)],
            mysql_escape,
            &mut out,
        );
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "UPDATE t SET c='it''s a \\\\ test' WHERE id=-42 AND x='?'"
        );
    }

    #[test]
    fn multi_row_insert_has_a_placeholder_per_value() {
        assert_eq!(
            multi_row_insert("t", "a, b", 2, 3),
            "INSERT INTO t (a, b) VALUES (?,?),(?,?),(?,?)"
        );
    }
}
