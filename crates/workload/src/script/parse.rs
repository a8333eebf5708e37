//! pgbench script files: SQL statements ending with `;` (over one or more lines), `--`
//! comments, and the meta-commands `\set name expression` and `\sleep n [us|ms|s]`. `:name`
//! in SQL becomes a bound parameter, never text pasted into the statement. Errors are
//! `FILE:LINE: message`, found before anything connects.

use super::expr::{self, Expr};

#[derive(Clone, Debug, PartialEq)]
pub enum Sleep {
    Micros(u64),
    /// `\sleep :var unit`: the variable's value in `unit` microseconds.
    Var(String, u64),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    Set(String, Expr),
    Sleep(Sleep),
    /// SQL with `?` where `:name`s were, and those names in order.
    Sql {
        text: String,
        params: Vec<String>,
        line: usize,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Script {
    pub name: String,
    pub weight: u32,
    pub commands: Vec<Command>,
}

/// `FILE:LINE: message`.
fn err(file: &str, line: usize, msg: impl std::fmt::Display) -> String {
    format!("{file}:{line}: {msg}")
}

/// Replace `:name` outside quotes with `?`, collecting the names. `::` (a PostgreSQL cast) and a
/// colon not followed by a name are left as they are.
fn bind_variables(sql: &str) -> (String, Vec<String>) {
    let b = sql.as_bytes();
    let mut out = String::with_capacity(sql.len());
    let mut names = Vec::new();
    let mut quote: Option<u8> = None;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == b'\'' || c == b'"' => quote = Some(c),
            None if c == b':' && b.get(i + 1) == Some(&b':') => {
                out.push_str("::");
                i += 2;
                continue;
            }
            None if c == b':'
                && b.get(i + 1)
                    .is_some_and(|n| n.is_ascii_alphabetic() || *n == b'_') =>
            {
                let start = i + 1;
                let mut end = start;
                while end < b.len() && (b[end].is_ascii_alphanumeric() || b[end] == b'_') {
                    end += 1;
                }
                names.push(sql[start..end].to_string());
                out.push('?');
                i = end;
                continue;
            }
            None => {}
        }
        out.push(c as char);
        i += 1;
    }
    (out, names)
}

fn sleep(file: &str, line: usize, args: &str) -> Result<Sleep, String> {
    let mut words = args.split_whitespace();
    let amount = words
        .next()
        .ok_or_else(|| err(file, line, "\\sleep needs a duration, e.g. \\sleep 10 ms"))?;
    let unit = match words.next().unwrap_or("s") {
        "us" => 1,
        "ms" => 1_000,
        "s" => 1_000_000,
        other => {
            return Err(err(
                file,
                line,
                format!("unknown \\sleep unit '{other}': use us, ms or s"),
            ))
        }
    };
    if let Some(name) = amount.strip_prefix(':') {
        return Ok(Sleep::Var(name.to_string(), unit));
    }
    amount
        .parse::<u64>()
        .map(|n| Sleep::Micros(n * unit))
        .map_err(|_| err(file, line, format!("bad \\sleep duration '{amount}'")))
}

/// `COPY … FROM STDIN` (or `TO STDOUT`) waits for rows the script cannot send (or sends rows
/// nobody reads): the session would hang, and the run with it. Refused when the script is read.
fn refuse_copy_stdio(file: &str, line: usize, sql: &str) -> Result<(), String> {
    let words: Vec<String> = sql
        .split_whitespace()
        .map(|w| w.trim_end_matches(';').to_ascii_uppercase())
        .collect();
    let is_copy = words.first().is_some_and(|w| w == "COPY");
    let stdio = words
        .windows(2)
        .any(|p| (p[0] == "FROM" && p[1] == "STDIN") || (p[0] == "TO" && p[1] == "STDOUT"));
    if is_copy && stdio {
        return Err(err(
            file,
            line,
            "COPY … FROM STDIN / TO STDOUT needs data sent or read outside SQL, which a script cannot do, so the session would wait forever: use INSERT, or COPY with a server-side file",
        ));
    }
    Ok(())
}

/// Parse script `text` named `file` (for messages).
pub fn parse(file: &str, text: &str, weight: u32) -> Result<Script, String> {
    let mut commands = Vec::new();
    let mut sql = String::new();
    let mut sql_line = 0;
    for (n, raw) in text.lines().enumerate() {
        let line = n + 1;
        let trimmed = raw.trim();
        if sql.is_empty() && (trimmed.is_empty() || trimmed.starts_with("--")) {
            continue;
        }
        if sql.is_empty() && trimmed.starts_with('\\') {
            let (cmd, rest) = trimmed[1..]
                .split_once(char::is_whitespace)
                .unwrap_or((&trimmed[1..], ""));
            match cmd {
                "set" => {
                    let (name, e) = rest.trim().split_once(char::is_whitespace).ok_or_else(|| {
                        err(file, line, "\\set needs a name and an expression, e.g. \\set aid random(1, 100000)")
                    })?;
                    let e = expr::parse(e.trim()).map_err(|m| err(file, line, m))?;
                    commands.push(Command::Set(name.to_string(), e));
                }
                "sleep" => commands.push(Command::Sleep(sleep(file, line, rest)?)),
                other => {
                    return Err(err(
                        file,
                        line,
                        format!("unsupported meta-command \\{other}: dbpress scripts take \\set and \\sleep"),
                    ))
                }
            }
            continue;
        }
        if sql.is_empty() {
            sql_line = line;
        } else {
            sql.push('\n');
        }
        sql.push_str(raw);
        if trimmed.ends_with(';') {
            let text = sql.trim().trim_end_matches(';').trim().to_string();
            refuse_copy_stdio(file, sql_line, &text)?;
            let (text, params) = bind_variables(&text);
            commands.push(Command::Sql {
                text,
                params,
                line: sql_line,
            });
            sql.clear();
        }
    }
    if !sql.trim().is_empty() {
        // pgbench also accepts a last statement without its semicolon.
        refuse_copy_stdio(file, sql_line, sql.trim())?;
        let (text, params) = bind_variables(sql.trim());
        commands.push(Command::Sql {
            text,
            params,
            line: sql_line,
        });
    }
    if !commands.iter().any(|c| matches!(c, Command::Sql { .. })) {
        return Err(err(file, 1, "the script has no SQL statement"));
    }
    // Every variable used must be set earlier in the script or given from outside; the check
    // for outside ones happens when the run starts (they may come from -D).
    Ok(Script {
        name: file.to_string(),
        weight,
        commands,
    })
}

/// Variables the script reads (in SQL, expressions or \sleep) that it does not \set before.
pub fn free_variables(s: &Script) -> Vec<(String, usize)> {
    fn walk(e: &Expr, out: &mut Vec<String>) {
        match e {
            Expr::Var(n) => out.push(n.clone()),
            Expr::Neg(x) => walk(x, out),
            Expr::Bin(_, a, b) => {
                walk(a, out);
                walk(b, out);
            }
            Expr::Call(_, args) => args.iter().for_each(|a| walk(a, out)),
            Expr::Lit(_) => {}
        }
    }
    let mut set: Vec<String> = Vec::new();
    let mut free = Vec::new();
    let mut line = 0;
    for c in &s.commands {
        let mut used = Vec::new();
        match c {
            Command::Set(name, e) => {
                walk(e, &mut used);
                for u in used.drain(..) {
                    if !set.contains(&u) {
                        free.push((u, line));
                    }
                }
                set.push(name.clone());
                continue;
            }
            Command::Sleep(Sleep::Var(n, _)) => used.push(n.clone()),
            Command::Sleep(_) => {}
            Command::Sql {
                params, line: l, ..
            } => {
                line = *l;
                used.extend(params.iter().cloned());
            }
        }
        for u in used {
            if !set.contains(&u) {
                free.push((u, line));
            }
        }
    }
    free
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sql_variables_become_parameters_and_casts_stay() {
        let s = parse(
            "t.sql",
            "\\set aid random(1, 100000 * :scale)\n\\set delta random(-5000, 5000)\nBEGIN;\n\
             UPDATE pgbench_accounts SET abalance = abalance + :delta\n  WHERE aid = :aid;\n\
             SELECT ':notavar', x::int FROM t WHERE a = :aid;\nEND;\n",
            1,
        )
        .unwrap();
        assert_eq!(s.commands.len(), 6);
        assert_eq!(
            s.commands[3],
            Command::Sql {
                text: "UPDATE pgbench_accounts SET abalance = abalance + ?\n  WHERE aid = ?".into(),
                params: vec!["delta".into(), "aid".into()],
                line: 4
            }
        );
        match &s.commands[4] {
            Command::Sql { text, params, .. } => {
                assert_eq!(text, "SELECT ':notavar', x::int FROM t WHERE a = ?");
                assert_eq!(params, &vec!["aid".to_string()]);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(free_variables(&s), vec![("scale".to_string(), 0)]);
    }

    #[test]
    fn errors_name_file_and_line() {
        let e = parse("bad.sql", "SELECT 1;\n\\set x random(1)\n", 1).unwrap_err();
        assert_eq!(e, "bad.sql:2: random takes 2 argument(s), got 1");
        let e = parse("bad.sql", "\\sleep 10 hours\nSELECT 1;", 1).unwrap_err();
        assert!(e.starts_with("bad.sql:1: unknown \\sleep unit 'hours'"));
        let e = parse("bad.sql", "\\gset\nSELECT 1;", 1).unwrap_err();
        assert!(e.starts_with("bad.sql:1: unsupported meta-command \\gset"));
        let e = parse("empty.sql", "-- nothing\n\\set a 1\n", 1).unwrap_err();
        assert_eq!(e, "empty.sql:1: the script has no SQL statement");
        assert_eq!(
            parse("s.sql", "\\sleep :d ms\nSELECT 1", 1)
                .unwrap()
                .commands[0],
            Command::Sleep(Sleep::Var("d".into(), 1000))
        );
    }

    #[test]
    fn issue_34_copy_from_stdin_is_refused_when_read() {
        let e = parse("load.sql", "\\set n 1\nCOPY t (a) FROM stdin;\n", 1)
            .err()
            .unwrap();
        assert!(
            e.contains("load.sql:2:") && e.contains("COPY … FROM STDIN"),
            "{e}"
        );
        let e = parse("dump.sql", "copy (select 1) to STDOUT", 1)
            .err()
            .unwrap();
        assert!(e.contains("TO STDOUT"), "{e}");
        assert!(parse("ok.sql", "COPY t FROM '/srv/rows.csv';", 1).is_ok());
    }
}
