//! Tokens of an expression, split as pgbench's scanner splits them: keywords in any case,
//! `:name` variables, integers (9223372036854775808 only after a minus), doubles, operators.

use super::tree::SyntaxError;

#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    Int(i64),
    /// 9223372036854775808, which only `-` may precede.
    MaxIntPlusOne,
    Double(f64),
    Var(String),
    Ident(String),
    Kw(Kw),
    Op(&'static str),
    LParen,
    RParen,
    Comma,
    End,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kw {
    And,
    Or,
    Not,
    Is,
    IsNull,
    NotNull,
    Null,
    True,
    False,
    Case,
    When,
    Then,
    Else,
    End,
}

const KEYWORDS: &[(&str, Kw)] = &[
    ("and", Kw::And),
    ("or", Kw::Or),
    ("not", Kw::Not),
    ("is", Kw::Is),
    ("isnull", Kw::IsNull),
    ("notnull", Kw::NotNull),
    ("null", Kw::Null),
    ("true", Kw::True),
    ("false", Kw::False),
    ("case", Kw::Case),
    ("when", Kw::When),
    ("then", Kw::Then),
    ("else", Kw::Else),
    ("end", Kw::End),
];

/// Longest first, so `<=` is not read as `<` then `=`.
const OPERATORS: &[&str] = &[
    "<<", ">>", "<=", ">=", "<>", "!=", "+", "-", "*", "/", "%", "&", "|", "#", "~", "=", "<", ">",
];

/// A token and the byte offsets it starts at and ends before.
pub type Spanned = (Tok, usize, usize);

fn name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

/// Split `text` into tokens, ending with `Tok::End`.
pub fn tokens(text: &str) -> Result<Vec<Spanned>, SyntaxError> {
    let s = text.as_bytes();
    let mut out = Vec::new();
    let mut at = 0;
    while at < s.len() {
        let c = s[at];
        // A backslash before a newline continues the expression on the next line.
        if c.is_ascii_whitespace() || (c == b'\\' && matches!(s.get(at + 1), Some(b'\n' | b'\r'))) {
            at += 1;
            continue;
        }
        let start = at;
        let tok = if c == b'(' {
            at += 1;
            Tok::LParen
        } else if c == b')' {
            at += 1;
            Tok::RParen
        } else if c == b',' {
            at += 1;
            Tok::Comma
        } else if c == b':' && s.get(at + 1).is_some_and(|b| name_byte(*b)) {
            at += 1;
            while at < s.len() && name_byte(s[at]) {
                at += 1;
            }
            Tok::Var(text[start + 1..at].to_string())
        } else if c.is_ascii_digit() || (c == b'.' && s.get(at + 1).is_some_and(u8::is_ascii_digit))
        {
            let (tok, end) = number(text, start)?;
            at = end;
            tok
        } else if c.is_ascii_alphabetic() || c == b'_' || c >= 0x80 {
            while at < s.len() && name_byte(s[at]) {
                at += 1;
            }
            let word = &text[start..at];
            let lower = word.to_ascii_lowercase();
            match KEYWORDS.iter().find(|(k, _)| *k == lower) {
                Some((_, kw)) => Tok::Kw(*kw),
                None => Tok::Ident(word.to_string()),
            }
        } else if let Some(op) = OPERATORS
            .iter()
            .find(|op| s[at..].starts_with(op.as_bytes()))
        {
            at += op.len();
            Tok::Op(op)
        } else {
            let ch = text[start..].chars().next().unwrap_or('?');
            return Err(SyntaxError {
                message: "unexpected character".into(),
                more: Some(ch.to_string()),
                column: start + ch.len_utf8() - 1,
            });
        };
        out.push((tok, start, at));
    }
    // The end is the newline after the text: errors there point just past it.
    out.push((Tok::End, s.len(), s.len() + 1));
    Ok(out)
}

/// A number starting at `start`: digits (an integer), or with a fraction or an exponent (a
/// double); where it ends.
fn number(text: &str, start: usize) -> Result<(Tok, usize), SyntaxError> {
    let s = text.as_bytes();
    let digits = |mut i: usize| {
        while i < s.len() && s[i].is_ascii_digit() {
            i += 1;
        }
        i
    };
    let mut at = digits(start);
    let mut is_double = false;
    if s.get(at) == Some(&b'.') {
        is_double = true;
        at = digits(at + 1);
    }
    if matches!(s.get(at), Some(b'e' | b'E')) {
        let mut e = at + 1;
        if matches!(s.get(e), Some(b'+' | b'-')) {
            e += 1;
        }
        if s.get(e).is_some_and(u8::is_ascii_digit) {
            is_double = true;
            at = digits(e);
        }
    }
    let word = &text[start..at];
    let overflow = |what: &str| SyntaxError {
        message: format!("{what} constant overflow"),
        more: Some(word.to_string()),
        column: at - 1,
    };
    if is_double {
        return match word.parse::<f64>() {
            // strtod's range error covers underflow to zero too.
            Ok(d)
                if d.is_finite()
                    && (d != 0.0
                        || !word.bytes().any(|b| (b'1'..=b'9').contains(&b))
                        || exponent_small(word)) =>
            {
                Ok((Tok::Double(d), at))
            }
            _ => Err(overflow("double")),
        };
    }
    match word.parse::<i64>() {
        Ok(i) => Ok((Tok::Int(i), at)),
        Err(_) if word == "9223372036854775808" => Ok((Tok::MaxIntPlusOne, at)),
        Err(_) => Err(overflow("bigint")),
    }
}

/// Whether a double literal that read as zero is written with a small enough exponent to be
/// a true zero rather than an underflow (`0.0e5` is zero, `1e-400` underflows).
fn exponent_small(word: &str) -> bool {
    let mantissa = word.split(['e', 'E']).next().unwrap_or(word);
    !mantissa.bytes().any(|b| (b'1'..=b'9').contains(&b))
}
