//! String literals in MySQL's text protocol: with backslash escapes (the default sql_mode) or
//! without (NO_BACKSLASH_ESCAPES).

/// Bytes that need escaping inside a single-quoted literal: `'`, `\` and NUL by default;
/// only `'` under sql_mode NO_BACKSLASH_ESCAPES.
const fn special_bytes(backslash: bool) -> [bool; 256] {
    let mut t = [false; 256];
    t[b'\'' as usize] = true;
    if backslash {
        t[b'\\' as usize] = true;
        t[0] = true;
    }
    t
}
static SPECIAL_DEFAULT: [bool; 256] = special_bytes(true);
static SPECIAL_ANSI: [bool; 256] = special_bytes(false);

/// Escape for a single-quoted MySQL string literal (default sql_mode). Runs without special
/// characters are copied whole: generated values are digits and dashes, so usually one copy.
pub fn escape_backslash(s: &[u8], out: &mut Vec<u8>) {
    escape_with(s, out, &SPECIAL_DEFAULT)
}

/// Under sql_mode NO_BACKSLASH_ESCAPES a backslash is an ordinary character.
pub fn escape_ansi(s: &[u8], out: &mut Vec<u8>) {
    escape_with(s, out, &SPECIAL_ANSI)
}

#[inline(always)]
fn escape_with(s: &[u8], out: &mut Vec<u8>, special: &[bool; 256]) {
    let mut rest = s;
    while let Some(i) = rest.iter().position(|&b| special[usize::from(b)]) {
        out.extend_from_slice(&rest[..i]);
        out.extend_from_slice(match rest[i] {
            b'\'' => b"''",
            b'\\' => b"\\\\",
            _ => b"\\0",
        });
        rest = &rest[i + 1..];
    }
    out.extend_from_slice(rest);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_by_sql_mode() {
        let mut out = Vec::new();
        escape_backslash(b"a'b\\c\0d", &mut out);
        assert_eq!(out, b"a''b\\\\c\\0d");
        out.clear();
        escape_ansi(b"a'b\\c", &mut out);
        assert_eq!(out, b"a''b\\c");
        out.clear();
        escape_backslash(b"12345-678", &mut out);
        assert_eq!(out, b"12345-678");
    }
}
