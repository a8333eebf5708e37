//! Values of pgbench's expressions and variables, and how variables' text reads as one.

use super::text;

/// A variable's or an expression's value. `Text` is what -D, `\gset` and `\setshell` store:
/// read as a value only when an expression uses it, as pgbench does.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Int(i64),
    Double(f64),
    Text(String),
}

impl Value {
    /// The name pgbench's messages give the type.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Int(_) => "int",
            Value::Double(_) => "double",
            Value::Text(_) => "string",
        }
    }

    /// `to_sql_text`, written onto `out` (no allocation for numbers).
    pub fn write_sql_text(&self, out: &mut String) {
        use std::fmt::Write;
        match self {
            Value::Int(i) => {
                let _ = write!(out, "{i}");
            }
            Value::Text(t) => out.push_str(t),
            other => out.push_str(&other.to_sql_text()),
        }
    }

    /// The text SQL gets where `:name` is written (simple query mode), or a parameter's text.
    pub fn to_sql_text(&self) -> String {
        match self {
            Value::Null => "NULL".into(),
            Value::Bool(b) => if *b { "true" } else { "false" }.into(),
            Value::Int(i) => i.to_string(),
            Value::Double(d) => text::format_double(*d),
            Value::Text(t) => t.clone(),
        }
    }

    /// Variable `name`'s text read as pgbench reads it: NULL, a boolean word (or a prefix of
    /// true/yes/false/no), an integer, a double. An empty text fails without a message of its
    /// own, as in pgbench (a NULL column a `\gset` kept).
    pub fn from_text(name: &str, text: &str) -> Result<Value, String> {
        let lower = text.to_ascii_lowercase();
        if text.is_empty() {
            return Err(String::new());
        }
        if lower == "null" {
            return Ok(Value::Null);
        }
        if let Some(b) = bool_word(&lower) {
            return Ok(Value::Bool(b));
        }
        if text::looks_like_int(text) {
            return text::parse_int(text).map(Value::Int).ok_or_else(|| {
                if text.bytes().any(|b| b.is_ascii_digit()) {
                    format!("value \"{text}\" is out of range for type bigint")
                } else {
                    format!("invalid input syntax for type bigint: \"{text}\"")
                }
            });
        }
        text::parse_double(text)
            .map(Value::Double)
            .ok_or_else(|| format!("malformed variable \"{name}\" value: \"{text}\""))
    }
}

/// PostgreSQL's boolean words: a prefix of true, yes, false or no; on, off or of.
fn bool_word(lower: &str) -> Option<bool> {
    let prefix_of = |w: &str| w.starts_with(lower);
    if prefix_of("true") || prefix_of("yes") || lower == "on" {
        return Some(true);
    }
    if prefix_of("false") || prefix_of("no") || lower == "off" || lower == "of" {
        return Some(false);
    }
    None
}
