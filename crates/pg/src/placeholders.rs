//! The workload's `?` placeholders in PostgreSQL's numbered form.

/// `?` placeholders (outside quoted text) numbered `$1..$n`.
pub fn numbered_placeholders(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len() + 16);
    let mut n = 0;
    let mut quote: Option<char> = None;
    for c in sql.chars() {
        match (quote, c) {
            (None, '?') => {
                n += 1;
                out.push('$');
                out.push_str(&n.to_string());
                continue;
            }
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            _ => {}
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_numbered_outside_quotes() {
        assert_eq!(
            numbered_placeholders("SELECT c FROM t WHERE id BETWEEN ? AND ? AND x = '?'"),
            "SELECT c FROM t WHERE id BETWEEN $1 AND $2 AND x = '?'"
        );
    }
}
