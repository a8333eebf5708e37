//! pgbench script files: SQL commands (one or a `\;` compound), `\gset`/`\aset` after them, and
//! the meta-commands `\set`, `\setshell`, `\shell`, `\sleep`, `\if`/`\elif`/`\else`/`\endif`
//! and `\startpipeline`/`\syncpipeline`/`\endpipeline`. Errors are found before anything
//! connects, and say where as pgbench does (`FILE:LINE: message …`).

use super::expr::{self, Expr};
use super::scan::{self, Piece};
use super::sql::Sql;

#[derive(Clone, Debug, PartialEq)]
pub enum Sleep {
    Micros(u64),
    /// `\sleep :var unit`: the variable's value in `unit` microseconds.
    Var(String, u64),
}

/// A word of `\shell` or `\setshell`: text, or `:name` (the variable's value).
#[derive(Clone, Debug, PartialEq)]
pub enum Word {
    Text(String),
    Var(String),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    Set(String, Expr),
    SetShell(String, Vec<Word>),
    Shell(Vec<Word>),
    Sleep(Sleep),
    /// `\if`: on false, go to `next` (the next `\elif`, `\else` or `\endif`).
    If {
        cond: Expr,
        next: usize,
    },
    /// Reached in order (a branch before it ran): go to `end`. Reached from a false
    /// condition: test `cond`, on false go to `next`.
    Elif {
        cond: Expr,
        next: usize,
        end: usize,
    },
    Else {
        end: usize,
    },
    EndIf,
    Sql(Sql),
    StartPipeline,
    SyncPipeline,
    EndPipeline,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Script {
    pub name: String,
    pub weight: u32,
    pub commands: Vec<Command>,
    /// Each command's first line as pgbench's per-command report shows it.
    pub shown: Vec<String>,
}

impl Script {
    pub fn sql(&self) -> impl Iterator<Item = &Sql> {
        self.commands.iter().filter_map(|c| match c {
            Command::Sql(s) => Some(s),
            _ => None,
        })
    }
}

/// A script error as pgbench prints one: `FILE:LINE: message (more) in command "NAME"`, then
/// the command's line and a caret under the column when they are known.
#[derive(Default)]
struct ParseError {
    message: String,
    more: Option<String>,
    /// Show the line (and the caret, when a column is known).
    show_line: bool,
    /// 0-based, from the backslash.
    column: Option<usize>,
    /// Leave out ` in command "…"` (the \gset placement error).
    bare: bool,
}

fn error(message: impl Into<String>) -> ParseError {
    ParseError {
        message: message.into(),
        show_line: true,
        ..ParseError::default()
    }
}

impl ParseError {
    fn more(mut self, more: &str) -> Self {
        self.more = Some(more.to_string());
        self
    }

    fn at(mut self, column: usize) -> Self {
        self.column = Some(column);
        self
    }

    fn render(&self, file: &str, line: usize, command: &str, source: &str) -> String {
        let mut s = format!("{file}:{line}: {}", self.message);
        if let Some(m) = &self.more {
            s.push_str(&format!(" ({m})"));
        }
        if !self.bare {
            s.push_str(&format!(" in command \"{command}\""));
        }
        if self.show_line {
            s.push('\n');
            s.push_str(source);
            if let Some(c) = self.column {
                s.push_str(&format!("\n{}^ error found here", " ".repeat(c)));
            }
        }
        s
    }
}

/// The `\if` blocks open while reading (where each one's last branch test is, and whether
/// its `\else` was seen), and the first misplaced branch (reported after the whole script
/// parsed, as pgbench checks it).
#[derive(Default)]
struct Conditionals {
    open: Vec<(usize, bool)>,
    first_error: Option<(usize, &'static str)>,
}

impl Conditionals {
    fn misplaced(&mut self, command: usize, message: &'static str) {
        self.first_error.get_or_insert((command, message));
    }
}

/// Parse script `text` named `file` (for messages: a path, or `<builtin: …>`).
pub fn parse(file: &str, text: &str, weight: u32) -> Result<Script, String> {
    let pieces = scan::pieces(text).map_err(|(line, m)| format!("{file}:{line}: {m}"))?;
    let mut commands: Vec<Command> = Vec::new();
    let mut ifs = Conditionals::default();
    let mut last_meta_source = None;
    let mut shown = Vec::new();
    for piece in pieces {
        match piece {
            Piece::Sql {
                text,
                line,
                shown: first,
                ended,
            } => {
                refuse_copy_stdio(&text).map_err(|m| format!("{file}:{line}: {m}"))?;
                let mut sql = Sql::new(&text, line);
                sql.ended = ended;
                commands.push(Command::Sql(sql));
                shown.push(first);
                last_meta_source = None;
            }
            Piece::Meta {
                name,
                args,
                line,
                source,
                ends_file,
            } => {
                let m = Meta {
                    name: &name,
                    args: &args,
                    ends_file,
                    previous_meta: last_meta_source.as_deref(),
                };
                m.read(&mut commands, &mut ifs)
                    .map_err(|e| e.render(file, line, &name, &source))?;
                if shown.len() < commands.len() {
                    shown.push(source.lines().next().unwrap_or_default().to_string());
                }
                // \gset and \aset belong to the SQL before them: not commands of their own.
                if !["gset", "aset"].contains(&name.to_ascii_lowercase().as_str()) {
                    last_meta_source = Some(source.lines().next().unwrap_or("").to_string());
                }
            }
        }
    }
    if !ifs.open.is_empty() {
        ifs.misplaced(commands.len() + 1, "\\if without matching \\endif");
    }
    if let Some((k, message)) = ifs.first_error {
        return Err(format!(
            "condition error in script \"{file}\" command {k}: {message}"
        ));
    }
    if commands.is_empty() {
        return Err(format!("empty command list for script \"{file}\""));
    }
    Ok(Script {
        name: file.to_string(),
        weight,
        commands,
        shown,
    })
}

/// `COPY … FROM STDIN` (or `TO STDOUT`) waits for rows the script cannot send (or sends rows
/// nobody reads): the session would hang, and the run with it. Refused when the script is read
/// (#34).
fn refuse_copy_stdio(sql: &str) -> Result<(), &'static str> {
    let words: Vec<String> = sql
        .split_whitespace()
        .map(|w| w.trim_end_matches(';').to_ascii_uppercase())
        .collect();
    let is_copy = words.first().is_some_and(|w| w == "COPY");
    let stdio = words
        .windows(2)
        .any(|p| (p[0] == "FROM" && p[1] == "STDIN") || (p[0] == "TO" && p[1] == "STDOUT"));
    if is_copy && stdio {
        return Err("COPY … FROM STDIN / TO STDOUT needs data sent or read outside SQL, which a script cannot do, so the session would wait forever: use INSERT, or COPY with a server-side file");
    }
    Ok(())
}

/// A parse error as one line (dbpress's own commands print one): pgbench's first line, and
/// the column its caret line points at.
pub fn one_line(error: &str) -> String {
    let mut lines = error.lines();
    let first = lines.next().unwrap_or_default().to_string();
    match lines.nth(1).and_then(|caret| caret.find('^')) {
        Some(col) => format!("{first}, at column {}", col + 1),
        None => first,
    }
}

/// A meta-command being read.
struct Meta<'a> {
    name: &'a str,
    args: &'a str,
    ends_file: bool,
    /// The first line of the meta-command just before, when the command before is one.
    previous_meta: Option<&'a str>,
}

/// A backslash that continues the line, at `i`.
fn continuation(b: &[u8], i: usize) -> bool {
    b[i] == b'\\' && matches!(b.get(i + 1), Some(b'\n' | b'\r'))
}

impl Meta<'_> {
    /// The words after the name (continuations are blanks) and their columns from the
    /// backslash.
    fn words(&self) -> Vec<(&str, usize)> {
        let base = 1 + self.name.len();
        let b = self.args.as_bytes();
        let mut out = Vec::new();
        let mut i = 0;
        while i < b.len() {
            if b[i].is_ascii_whitespace() || continuation(b, i) {
                i += 1;
                continue;
            }
            let start = i;
            while i < b.len() && !b[i].is_ascii_whitespace() && !continuation(b, i) {
                i += 1;
            }
            out.push((&self.args[start..i], base + start));
        }
        out
    }

    /// The expression after skipping `skip` words, parsed; errors point into the line.
    fn expr(&self, skip: usize) -> Result<Expr, ParseError> {
        let base = 1 + self.name.len();
        let at = self
            .words()
            .get(skip)
            .map_or(self.args.len(), |(_, col)| col - base);
        let text = &self.args[at..];
        expr::parse(text).map_err(|e| {
            // At the end of a file without a newline, the caret sits under the last character.
            let column = if self.ends_file && e.column >= text.len() && !text.is_empty() {
                text.len() - 1
            } else {
                e.column
            };
            let mut p = error(e.message).at(base + at + column);
            p.more = e.more;
            p
        })
    }

    fn no_args(&self) -> Result<(), ParseError> {
        if self.words().is_empty() {
            Ok(())
        } else {
            Err(error("unexpected argument"))
        }
    }

    /// Read it into `commands`.
    fn read(&self, commands: &mut Vec<Command>, ifs: &mut Conditionals) -> Result<(), ParseError> {
        let words = self.words();
        // pgbench keeps a meta-command's name and up to 255 words.
        if words.len() > 255 {
            return Err(ParseError {
                show_line: false,
                ..error("too many arguments")
            });
        }
        let plain: Vec<&str> = words.iter().map(|(w, _)| *w).collect();
        let here = commands.len();
        match self.name.to_ascii_lowercase().as_str() {
            "set" => {
                let Some(var) = plain.first() else {
                    return Err(ParseError {
                        show_line: false,
                        ..error("missing argument")
                    });
                };
                commands.push(Command::Set(var.to_string(), self.expr(1)?));
            }
            "setshell" if plain.len() < 2 => return Err(error("missing argument")),
            "setshell" => {
                commands.push(Command::SetShell(plain[0].into(), shell_words(&plain[1..])))
            }
            "shell" if plain.is_empty() => return Err(error("missing command")),
            "shell" => commands.push(Command::Shell(shell_words(&plain))),
            "sleep" => commands.push(Command::Sleep(sleep(&words)?)),
            "if" => {
                commands.push(Command::If {
                    cond: self.expr(0)?,
                    next: 0,
                });
                ifs.open.push((here, false));
            }
            "elif" => {
                let cond = self.expr(0)?;
                commands.push(Command::Elif {
                    cond,
                    next: 0,
                    end: 0,
                });
                branch(commands, ifs, here, false);
            }
            "else" => {
                self.no_args()?;
                commands.push(Command::Else { end: 0 });
                branch(commands, ifs, here, true);
            }
            "endif" => {
                self.no_args()?;
                commands.push(Command::EndIf);
                match ifs.open.pop() {
                    None => ifs.misplaced(here + 1, "\\endif without matching \\if"),
                    Some((last, _)) => {
                        link(commands, last, here);
                        close(commands, here);
                    }
                }
            }
            "gset" | "aset" => self.store(&plain, commands)?,
            "startpipeline" => {
                self.no_args()?;
                commands.push(Command::StartPipeline);
            }
            // pgbench 17's; pgbench 15 knows no such command.
            "syncpipeline"
                if dbpress_core::personality::is_pgbench()
                    && dbpress_core::personality::pgbench_major() < 17 =>
            {
                return Err(error("invalid command"))
            }
            "syncpipeline" => {
                self.no_args()?;
                commands.push(Command::SyncPipeline);
            }
            "endpipeline" => {
                self.no_args()?;
                commands.push(Command::EndPipeline);
            }
            _ => return Err(error("invalid command")),
        }
        Ok(())
    }

    /// `\gset [prefix]` / `\aset [prefix]`: onto the SQL command before it.
    fn store(&self, words: &[&str], commands: &mut [Command]) -> Result<(), ParseError> {
        if words.len() > 1 {
            return Err(error("too many arguments"));
        }
        let prefix = words.first().map_or(String::new(), |p| p.to_string());
        let misplaced = || ParseError {
            message: "\\gset must follow an SQL command".into(),
            more: self.previous_meta.map(str::to_string),
            bare: true,
            ..ParseError::default()
        };
        let Some(Command::Sql(sql)) = commands.last_mut() else {
            return Err(misplaced());
        };
        if sql.store.is_some() {
            return Err(misplaced());
        }
        sql.store = Some(if self.name.eq_ignore_ascii_case("gset") {
            super::sql::Store::Last(prefix)
        } else {
            super::sql::Store::Every(prefix)
        });
        Ok(())
    }
}

/// An `\elif` or (`is_else`) `\else` at `here`: linked to its block's last test, or noted
/// as misplaced.
fn branch(commands: &mut [Command], ifs: &mut Conditionals, here: usize, is_else: bool) {
    match ifs.open.last_mut() {
        None if is_else => ifs.misplaced(here + 1, "\\else without matching \\if"),
        None => ifs.misplaced(here + 1, "\\elif without matching \\if"),
        Some((_, true)) if is_else => ifs.misplaced(here + 1, "\\else after \\else"),
        Some((_, true)) => ifs.misplaced(here + 1, "\\elif after \\else"),
        Some(open) => {
            link(commands, open.0, here);
            *open = (here, is_else);
        }
    }
}

/// Point the branch test at `from` to the branch starting at `to`.
fn link(commands: &mut [Command], from: usize, to: usize) {
    match &mut commands[from] {
        Command::If { next, .. } | Command::Elif { next, .. } => *next = to,
        _ => {}
    }
}

/// At `\endif` (index `end`): every `\elif` and `\else` of this block, reached in order,
/// goes to it.
fn close(commands: &mut [Command], end: usize) {
    let mut depth = 0;
    for i in (0..end).rev() {
        match &mut commands[i] {
            Command::EndIf => depth += 1,
            Command::If { .. } if depth == 0 => return,
            Command::If { .. } => depth -= 1,
            Command::Elif { end: e, .. } | Command::Else { end: e } if depth == 0 => *e = end,
            _ => {}
        }
    }
}

fn shell_words(words: &[&str]) -> Vec<Word> {
    words
        .iter()
        .map(|w| match w.strip_prefix(':') {
            // `::word` is the text `:word`.
            Some(rest) if rest.starts_with(':') => Word::Text(rest.to_string()),
            Some(name) if !name.is_empty() => Word::Var(name.into()),
            _ => Word::Text(w.to_string()),
        })
        .collect()
}

/// `\sleep N[unit]`, `\sleep N unit` or `\sleep :var [unit]`; units us, ms, s (any case).
fn sleep(words: &[(&str, usize)]) -> Result<Sleep, ParseError> {
    let Some(&(amount, at)) = words.first() else {
        return Err(error("missing argument"));
    };
    if let Some(&(_, third)) = words.get(2) {
        return Err(error("too many arguments").at(third));
    }
    let unit_of = |u: &str, col: usize| match u.to_ascii_lowercase().as_str() {
        "us" => Ok(1),
        "ms" => Ok(1_000),
        "s" => Ok(1_000_000),
        _ => Err(error("unrecognized time unit, must be us, ms or s")
            .more(u)
            .at(col)),
    };
    let mut unit = match words.get(1) {
        Some(&(u, col)) => Some(unit_of(u, col)?),
        None => None,
    };
    if let Some(name) = amount.strip_prefix(':') {
        return Ok(Sleep::Var(name.to_string(), unit.unwrap_or(1_000_000)));
    }
    let body = amount.strip_prefix(['+', '-']).unwrap_or(amount);
    let digits = body.bytes().take_while(u8::is_ascii_digit).count();
    let invalid = || {
        error("invalid sleep time, must be an integer")
            .more(amount)
            .at(at)
    };
    if digits == 0 {
        return Err(invalid());
    }
    let number_end = amount.len() - body.len() + digits;
    if number_end < amount.len() {
        if unit.is_some() {
            return Err(invalid());
        }
        unit = Some(unit_of(&amount[number_end..], at)?);
    }
    let n: i64 = amount[..number_end]
        .trim_start_matches('+')
        .parse()
        .unwrap_or(i64::MAX);
    Ok(Sleep::Micros(
        (n.max(0) as u64).saturating_mul(unit.unwrap_or(1_000_000)),
    ))
}

/// Variables the script reads (in SQL, expressions, \sleep or \shell) that nothing in it sets
/// before (by \set, \setshell, \gset or \aset): (name, line). Those must come from outside
/// (-D, scale, client_id…) or the run would stop on them.
pub fn free_variables(s: &Script) -> Vec<(String, usize)> {
    let mut set: Vec<String> = Vec::new();
    let mut free = Vec::new();
    let mut line = 0;
    let mut gathered = false;
    for c in &s.commands {
        let mut used = Vec::new();
        match c {
            Command::Set(_, e) | Command::If { cond: e, .. } | Command::Elif { cond: e, .. } => {
                e.variables(&mut used)
            }
            Command::Sleep(Sleep::Var(n, _)) => used.push(n.clone()),
            Command::Shell(w) | Command::SetShell(_, w) => {
                used.extend(w.iter().filter_map(|w| match w {
                    Word::Var(n) => Some(n.clone()),
                    Word::Text(_) => None,
                }))
            }
            Command::Sql(sql) => {
                line = sql.line;
                used.extend(sql.variables().map(str::to_string));
            }
            _ => {}
        }
        // A \gset's columns are not known before the run: after one, anything may be set.
        if !gathered {
            free.extend(
                used.into_iter()
                    .filter(|u| !set.contains(u))
                    .map(|u| (u, line)),
            );
        }
        match c {
            Command::Set(n, _) | Command::SetShell(n, _) => set.push(n.clone()),
            Command::Sql(sql) if sql.store.is_some() => gathered = true,
            _ => {}
        }
    }
    free
}

#[cfg(test)]
mod tests;
