//! A server's error as libpq words it for pgbench (its default verbosity): `ERROR:  message`,
//! the statement's line with a caret under the error's position (`LINE 1: …`), then `DETAIL:`,
//! `HINT:` and `CONTEXT:`.

use dbpress_driver::DbError;

/// Screen columns libpq shows of a long line, and how far it keeps the caret from its end.
const DISPLAY: usize = 60;
const RIGHT_MARGIN: usize = 10;

/// `e`, sent as `statement` (with `ended`: a `;` after it in the script, which pgbench sends).
pub fn message(e: &DbError, statement: Option<(&str, bool)>) -> String {
    let (primary, detail) = match e.primary_len {
        Some(n) if n + 2 <= e.message.len() => (&e.message[..n], Some(&e.message[n + 2..])),
        _ => (e.message.as_str(), None),
    };
    let mut s = format!("ERROR:  {primary}");
    if let (Some(pos), Some((text, ended))) = (e.position, statement) {
        let shown = if ended {
            format!("{text};")
        } else {
            text.to_string()
        };
        if let Some(lines) = position_lines(&shown, pos as usize) {
            s.push('\n');
            s.push_str(&lines);
        }
    }
    if let Some(d) = detail {
        s.push_str(&format!("\nDETAIL:  {d}"));
    }
    if let Some(h) = &e.hint {
        s.push_str(&format!("\nHINT:  {h}"));
    }
    if let Some(c) = &e.context {
        s.push_str(&format!("\nCONTEXT:  {c}"));
    }
    s
}

/// `LINE n: text` and the caret line, for the 1-based character position `pos` of `query`;
/// a line too long for the screen is cut around the caret with `...`.
pub fn position_lines(query: &str, pos: usize) -> Option<String> {
    let loc = pos.checked_sub(1)?;
    let chars: Vec<char> = query
        .chars()
        .map(|c| if c == '\t' { ' ' } else { c })
        .collect();
    if loc > chars.len() {
        return None;
    }
    // The line holding `loc`: its number, and where it begins and ends.
    let (mut line, mut begin) = (1, 0);
    let mut end = chars.len();
    for (i, &c) in chars.iter().enumerate() {
        if c != '\r' && c != '\n' {
            continue;
        }
        if i < loc {
            if c == '\r' || i == 0 || chars[i - 1] != '\r' {
                line += 1;
            }
            begin = i + 1;
        } else {
            end = i;
            break;
        }
    }
    let (mut cut_left, mut cut_right) = (false, false);
    if end - begin > DISPLAY {
        if begin + DISPLAY >= loc + RIGHT_MARGIN {
            end = begin + DISPLAY;
            cut_right = true;
        } else {
            if loc + RIGHT_MARGIN < end {
                end = loc + RIGHT_MARGIN;
                cut_right = true;
            }
            if end - begin > DISPLAY {
                begin = end - DISPLAY;
                cut_left = true;
            }
        }
    }
    let prefix = format!("LINE {line}: {}", if cut_left { "..." } else { "" });
    let text: String = chars[begin..end].iter().collect();
    let caret = prefix.chars().count() + loc - begin;
    Some(format!(
        "{prefix}{text}{}\n{}^",
        if cut_right { "..." } else { "" },
        " ".repeat(caret)
    ))
}

/// libpq's refusal of the port (`-p`, else PGPORT) before it connects: a value that is no
/// integer, or one outside 1..65535; None for a port it takes (or none given).
pub fn bad_port(opts: &dbpress_core::options::OptionValues) -> Option<String> {
    let text = match opts.is_set("pgsql-port") {
        true => opts.get("pgsql-port").to_string(),
        false => std::env::var("PGPORT").ok()?,
    };
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return None;
    }
    let Ok(port) = trimmed.parse::<i64>() else {
        return Some(format!(
            "invalid integer value \"{text}\" for connection option \"port\""
        ));
    };
    (!(1..=65535).contains(&port)).then(|| format!("invalid port number: \"{text}\""))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_caret_sits_under_the_position_as_libpq_puts_it() {
        assert_eq!(
            position_lines("SELECT * FROM nosuch;", 15).unwrap(),
            "LINE 1: SELECT * FROM nosuch;\n                      ^"
        );
        assert_eq!(
            position_lines("SELECT 1\nFROM\tnosuch", 15).unwrap(),
            "LINE 2: FROM nosuch\n             ^"
        );
        let long = format!("SELECT {} FROM nosuch", "x, ".repeat(40));
        let at = long.find("nosuch").unwrap() + 1;
        let lines = position_lines(&long, at).unwrap();
        assert!(lines.starts_with("LINE 1: ..."), "{lines}");
        assert!(!lines.ends_with("..."));
        assert!(position_lines("SELECT 1", 20).is_none());
    }
}
