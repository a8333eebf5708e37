//! One client running pgbench scripts: its variables, its random sequence, and a script's
//! commands run in order with `\if` branches taken, `\gset`/`\aset` storing what queries
//! returned, `\shell`/`\setshell` run through `sh -c`, and `\sleep`. SQL goes wherever a
//! [`SqlTarget`] sends it: the measured executor in a run, a bare session for prepare.

mod debug;
mod shell;

pub use debug::Debug;

use super::expr::{self, eval::truth, prng::PgPrng, Value};
use super::parse::{Command, Script, Sleep};
use super::sql::{Sql, Store};
use dbpress_driver::{DbError, DbErrorKind, DbResult, ResultRows, StmtHandle, Value as Param};
use rustc_hash::FxHashMap;
use std::collections::HashMap;

/// How SQL reaches the server (pgbench's `-M`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueryMode {
    /// The text with values pasted in, by the simple protocol.
    Simple,
    /// `:name`s bound as parameters of a statement prepared once per session.
    Prepared,
}

/// Where a client's SQL goes.
pub trait SqlTarget {
    /// Prepare a statement (`?` for each parameter) on the session.
    fn prepare(&mut self, sql: &str) -> DbResult<StmtHandle>;
    /// Text SQL (simple mode): statement kind `kind`, rows kept when `rows` is given.
    fn text(&mut self, kind: u8, sql: &str, rows: Option<&mut ResultRows>) -> DbResult<()>;
    /// A prepared statement with its parameters.
    fn bound(
        &mut self,
        kind: u8,
        stmt: StmtHandle,
        params: &[Param<'_>],
        rows: Option<&mut ResultRows>,
    ) -> DbResult<()>;
    /// `\startpipeline`: statements from here are sent without waiting for their results.
    fn pipeline_start(&mut self) -> DbResult<()>;
    /// `\syncpipeline`: a sync point inside the pipeline (the statements before it end their
    /// implicit transaction there), the pipeline going on.
    fn pipeline_sync(&mut self) -> DbResult<()>;
    /// `\endpipeline`: every pipelined statement's result read; the first error.
    fn pipeline_end(&mut self) -> DbResult<()>;
}

/// How one SQL command is sent on a session.
#[derive(Clone, Copy, Debug)]
pub enum Slot {
    /// As text, values pasted (simple mode).
    Text,
    /// Prepared on first use (pgbench's prepared mode prepares lazily).
    Unprepared,
    Prepared(StmtHandle),
}

/// A script's SQL made ready for one session: a statement kind for each SQL command, and how
/// it is sent.
pub struct Ready {
    pub script: Script,
    /// Per command: (statement kind, slot) for SQL commands.
    pub sql: Vec<Option<(u8, Slot)>>,
}

pub struct Client {
    /// The script's SQL goes as text (pgbench's simple query mode: no pipelines).
    pub simple: bool,
    /// Between `\startpipeline` and `\endpipeline`.
    in_pipeline: bool,
    pub vars: FxHashMap<String, Value>,
    /// pgbench's -d, when given.
    pub debug: Option<Debug>,
    pub rng: PgPrng,
    /// When asked (pgbench's -r): per script, per command, the time it took and how often
    /// it ran (ns, count).
    pub timings: Option<Vec<Vec<(u64, u64)>>>,
    rows: ResultRows,
    text: String,
    param_text: Vec<String>,
}

/// Why a client stopped: the command (1-based) and its kind, and the message.
#[derive(Debug)]
pub struct Abort {
    pub command: usize,
    pub what: &'static str,
    pub message: String,
    /// What the command is, for a one-line message (`\\set z`, `\\sleep`).
    pub subject: String,
    /// The server's error, when SQL failed.
    pub db: Option<DbError>,
    /// The statement as the server got it (what its error's position counts in), and
    /// whether a `;` ended it in the script; boxed, as errors are, to keep `Result`s small.
    pub sent: Option<Box<(String, bool)>>,
    /// The server refused to prepare the statement (a prepared one, on its first use).
    pub unprepared: bool,
    /// pgbench's reason at the end of its `client N aborted in command K (…)` line, where it
    /// is not the command's kind's (an assignment that failed, a pipeline misused).
    pub why: Option<&'static str>,
}

/// What `Abort::what` says for a script that ended inside a transaction block.
pub const END_OF_SCRIPT: &str = "end of script";

impl Abort {
    fn meta(command: usize, what: &'static str, message: String) -> Abort {
        Abort {
            command,
            what,
            message,
            subject: format!("\\{what}"),
            db: None,
            sent: None,
            unprepared: false,
            why: None,
        }
    }

    /// A command pgbench refuses where it stands, its reason in the abort line.
    fn refused(command: usize, what: &'static str, why: &'static str) -> Abort {
        Abort {
            why: Some(why),
            ..Abort::meta(command, what, String::new())
        }
    }

    /// A server error reported at command `command` (a pipeline's end reports its statements').
    fn sql(command: usize, e: DbError) -> Abort {
        Abort {
            what: "SQL",
            message: e.message.clone(),
            db: Some(e),
            ..Abort::meta(command, "SQL", String::new())
        }
    }

    /// A script that ended inside a transaction block (`commands` long).
    pub fn end_of_script(commands: usize) -> Abort {
        Abort::meta(
            commands,
            END_OF_SCRIPT,
            "end of script reached without completing the last transaction".into(),
        )
        .about(END_OF_SCRIPT.into())
    }

    fn about(mut self, subject: String) -> Abort {
        self.subject = subject;
        self
    }

    /// As a session error, in one line (the run counts and reports it); SQL errors stay the
    /// server's.
    pub fn into_db_error(self) -> DbError {
        match self.db {
            Some(e) => e,
            None => DbError::new(
                DbErrorKind::Input,
                "script",
                format!("{}: {}", self.subject, self.message),
            ),
        }
    }
}

impl Client {
    pub fn new(vars: HashMap<String, Value>, rng: PgPrng) -> Client {
        Client {
            vars: vars.into_iter().collect(),
            rng,
            simple: false,
            in_pipeline: false,
            timings: None,
            debug: None,
            rows: ResultRows::new(),
            text: String::new(),
            param_text: Vec::new(),
        }
    }

    fn eval(&mut self, e: &expr::Expr, at: (usize, usize)) -> Result<Value, String> {
        let mut env = expr::Env {
            vars: &self.vars,
            rng: &mut self.rng,
            at,
        };
        expr::eval(e, &mut env)
    }

    /// Set variable `name`; a new one must have a name pgbench takes (`context` names the
    /// command, for its message).
    fn set(&mut self, context: &str, name: &str, v: Value) -> Result<(), String> {
        match self.vars.get_mut(name) {
            Some(slot) => *slot = v,
            None if !valid_variable_name(name) => {
                return Err(format!("{context}: invalid variable name: \"{name}\""));
            }
            None => {
                self.vars.insert(name.to_string(), v);
            }
        }
        Ok(())
    }

    /// Run script number `no` once: its commands in order, branches taken.
    pub fn run(
        &mut self,
        no: usize,
        ready: &mut Ready,
        target: &mut dyn SqlTarget,
    ) -> Result<(), Abort> {
        let cmds = &ready.script.commands;
        if let Some(d) = &self.debug {
            d.say(&format!("executing script \"{}\"", ready.script.name));
        }
        let mut pc = 0;
        while pc < cmds.len() {
            let at = (no, pc + 1);
            if let Some(d) = &self.debug {
                d.meta(&cmds[pc], ready.script.shown.get(pc));
            }
            let (this, t0) = (
                pc,
                self.timings.is_some().then(dbpress_measure::stats::now_ns),
            );
            pc = match &cmds[pc] {
                Command::Set(name, e) => {
                    let v = self.eval(e, at).map_err(|m| {
                        Abort::meta(pc + 1, "set", m).about(format!("\\set {name}"))
                    })?;
                    self.set("set", name, v).map_err(|m| Abort {
                        why: Some("assignment of meta-command failed"),
                        ..Abort::meta(pc + 1, "set", m).about(format!("\\set {name}"))
                    })?;
                    pc + 1
                }
                Command::If { .. } => self.branch(no, cmds, pc)?,
                Command::Elif { end, .. } | Command::Else { end } => *end,
                Command::EndIf => pc + 1,
                Command::Sleep(s) => {
                    let micros = self
                        .sleep_micros(s)
                        .map_err(|m| Abort::meta(pc + 1, "sleep", m))?;
                    std::thread::sleep(std::time::Duration::from_micros(micros));
                    pc + 1
                }
                Command::Shell(words) => {
                    shell::run(
                        &words_text(words, &self.vars)
                            .map_err(|m| Abort::meta(pc + 1, "shell", m))?,
                    )
                    .map_err(|m| Abort::meta(pc + 1, "shell", m))?;
                    pc + 1
                }
                Command::SetShell(name, words) => {
                    let line = words_text(words, &self.vars)
                        .map_err(|m| Abort::meta(pc + 1, "setshell", m))?;
                    let v =
                        shell::output_int(&line).map_err(|m| Abort::meta(pc + 1, "setshell", m))?;
                    self.set("setshell", name, Value::Int(v))
                        .map_err(|m| Abort::meta(pc + 1, "setshell", m))?;
                    pc + 1
                }
                Command::Sql(sql) if self.in_pipeline && sql.store.is_some() => {
                    let (what, why) = match sql.store {
                        Some(Store::Every(_)) => ("aset", "\\aset is not allowed in pipeline mode"),
                        _ => ("gset", "\\gset is not allowed in pipeline mode"),
                    };
                    return Err(Abort::refused(pc + 1, what, why));
                }
                Command::Sql(sql) => {
                    let slot = ready.sql[pc].as_mut();
                    let simple = matches!(slot, Some((_, Slot::Text)));
                    if let Some(d) = &self.debug {
                        let n = d.first_statement.get(no).copied().unwrap_or(0)
                            + cmds[..pc]
                                .iter()
                                .filter(|c| matches!(c, Command::Sql(_)))
                                .count();
                        if matches!(slot, Some((_, Slot::Unprepared))) {
                            d.say(&format!("preparing P_{n}"));
                        }
                        if !simple {
                            d.say(&format!("sending P_{n}"));
                        }
                    }
                    let sent = self.sql(sql, slot, target);
                    if let Some(d) = &self.debug {
                        d.say("receiving");
                    }
                    if let Err((e, unprepared)) = sent {
                        let sent = if simple {
                            self.text.clone()
                        } else {
                            sql.numbered()
                        };
                        return Err(Abort {
                            command: pc + 1,
                            what: "SQL",
                            message: e.message.clone(),
                            subject: format!("line {}", sql.line),
                            db: Some(e),
                            sent: Some(Box::new((sent, sql.ended))),
                            unprepared,
                            why: None,
                        });
                    }
                    pc + 1
                }
                Command::StartPipeline => {
                    let refused = if self.simple {
                        Some("cannot use pipeline mode with the simple query protocol")
                    } else if self.in_pipeline {
                        Some("already in pipeline mode")
                    } else {
                        None
                    };
                    if let Some(why) = refused {
                        return Err(Abort::refused(pc + 1, "startpipeline", why));
                    }
                    // As pgbench: the pipeline's statements are prepared before it starts.
                    for (i, c) in cmds.iter().enumerate().skip(pc + 1) {
                        match (c, ready.sql[i].as_mut()) {
                            (Command::EndPipeline, _) => break,
                            (Command::Sql(sql), Some((_, slot @ Slot::Unprepared))) => {
                                let h = target.prepare(&sql.bound().0).map_err(|e| Abort {
                                    unprepared: true,
                                    ..Abort::sql(i + 1, e)
                                })?;
                                *slot = Slot::Prepared(h);
                            }
                            _ => {}
                        }
                    }
                    target.pipeline_start().map_err(|e| Abort::sql(pc + 1, e))?;
                    self.in_pipeline = true;
                    pc + 1
                }
                Command::EndPipeline => {
                    if !self.in_pipeline {
                        return Err(Abort::refused(
                            pc + 1,
                            "endpipeline",
                            "not in pipeline mode",
                        ));
                    }
                    self.in_pipeline = false;
                    target.pipeline_end().map_err(|e| Abort::sql(pc + 1, e))?;
                    pc + 1
                }
                Command::SyncPipeline => {
                    if !self.in_pipeline {
                        return Err(Abort::refused(
                            pc + 1,
                            "syncpipeline",
                            "not in pipeline mode",
                        ));
                    }
                    target.pipeline_sync().map_err(|e| Abort::sql(pc + 1, e))?;
                    pc + 1
                }
            };
            if let Some(t0) = t0 {
                self.timed(no, this, cmds.len(), t0);
            }
        }
        if std::mem::take(&mut self.in_pipeline) {
            // Its results are read and dropped, so the session can go on after the abort.
            let _ = target.pipeline_end();
            return Err(Abort::meta(
                cmds.len(),
                END_OF_SCRIPT,
                "end of script reached with pipeline open".into(),
            ));
        }
        Ok(())
    }

    /// Command `command` of script `no` (of `len` commands) took the time since `t0`.
    fn timed(&mut self, no: usize, command: usize, len: usize, t0: u64) {
        let ns = dbpress_measure::stats::now_ns().saturating_sub(t0);
        if let Some(t) = &mut self.timings {
            if t.len() <= no {
                t.resize(no + 1, Vec::new());
            }
            if t[no].len() < len {
                t[no].resize(len, (0, 0));
            }
            t[no][command].0 += ns;
            t[no][command].1 += 1;
        }
    }

    /// From the `\if` at `pc`: each test in turn until one holds (its branch runs), or an
    /// `\else` or the `\endif`; where to go on.
    fn branch(&mut self, no: usize, cmds: &[Command], mut pc: usize) -> Result<usize, Abort> {
        loop {
            let (cond, next, what) = match &cmds[pc] {
                Command::If { cond, next } => (cond, *next, "if"),
                Command::Elif { cond, next, .. } => (cond, *next, "elif"),
                _ => return Ok(pc + 1),
            };
            let v = self
                .eval(cond, (no, pc + 1))
                .map_err(|m| Abort::meta(pc + 1, what, m))?;
            if truth(&v) {
                return Ok(pc + 1);
            }
            pc = next;
        }
    }

    fn sleep_micros(&self, s: &Sleep) -> Result<u64, String> {
        match s {
            Sleep::Micros(m) => Ok(*m),
            Sleep::Var(name, unit) => {
                let v = self
                    .vars
                    .get(name)
                    .ok_or_else(|| format!("sleep: undefined variable \"{name}\""))?;
                // pgbench reads the value's leading integer, as atoi does.
                let text = v.to_sql_text();
                let t = text.trim_start();
                let end = t
                    .char_indices()
                    .find(|(i, c)| !(c.is_ascii_digit() || (*i == 0 && (*c == '-' || *c == '+'))))
                    .map_or(t.len(), |(i, _)| i);
                let n: i64 = t[..end].parse().unwrap_or(0);
                Ok(n.max(0) as u64 * unit)
            }
        }
    }

    /// Send one SQL command; an error says whether it came from preparing the statement.
    fn sql(
        &mut self,
        sql: &Sql,
        slot: Option<&mut (u8, Slot)>,
        target: &mut dyn SqlTarget,
    ) -> Result<(), (DbError, bool)> {
        let (kind, stmt) = match slot {
            None => (0, None),
            Some((kind, Slot::Text)) => (*kind, None),
            Some((kind, Slot::Prepared(h))) => (*kind, Some(*h)),
            Some((kind, slot @ Slot::Unprepared)) => {
                let h = target.prepare(&sql.bound().0).map_err(|e| (e, true))?;
                *slot = Slot::Prepared(h);
                (*kind, Some(h))
            }
        };
        self.send(sql, kind, stmt, target).map_err(|e| (e, false))
    }

    fn send(
        &mut self,
        sql: &Sql,
        kind: u8,
        stmt: Option<StmtHandle>,
        target: &mut dyn SqlTarget,
    ) -> DbResult<()> {
        let rows = match &sql.store {
            Some(store) => {
                self.rows.want_names(matches!(store, Store::Every(_)));
                Some(&mut self.rows)
            }
            None => None,
        };
        match stmt {
            None => {
                let vars = &self.vars;
                sql.substituted(&mut self.text, |name, out| match vars.get(name) {
                    Some(v) => {
                        v.write_sql_text(out);
                        true
                    }
                    None => false,
                });
                if let Some(d) = &self.debug {
                    // pgbench's text keeps the `;` that ended the command.
                    let end = if sql.ended { ";" } else { "" };
                    d.say(&format!("sending {}{end}", self.text));
                }
                target.text(kind, &self.text, rows)?;
            }
            Some(stmt) => {
                let names = &sql.params;
                // Each parameter's text, in buffers kept from one execution to the next
                // (integers are sent as integers and need none).
                if self.param_text.len() < names.len() {
                    self.param_text.resize(names.len(), String::new());
                }
                for (n, buf) in names.iter().zip(self.param_text.iter_mut()) {
                    buf.clear();
                    if let Some(v) = self.vars.get(n).filter(|v| !matches!(v, Value::Int(_))) {
                        v.write_sql_text(buf);
                    }
                }
                // An undefined variable is sent as NULL, as pgbench sends it.
                let params: smallvec::SmallVec<[Param<'_>; 8]> = names
                    .iter()
                    .zip(&self.param_text)
                    .map(|(n, t)| match self.vars.get(n) {
                        Some(Value::Int(i)) => Param::Int(*i),
                        None => Param::Null,
                        _ => Param::Str(t.as_bytes()),
                    })
                    .collect();
                target.bound(kind, stmt, &params, rows)?;
            }
        }
        match &sql.store {
            Some(Store::Last(prefix)) => self.store_last(prefix),
            Some(Store::Every(prefix)) => self.store_every(prefix),
            None => Ok(()),
        }
    }

    /// `\gset`: the last result must be exactly one row; each column becomes a variable.
    fn store_last(&mut self, prefix: &str) -> DbResult<()> {
        let n = self.rows.len();
        if n != 1 {
            return Err(DbError::new(
                DbErrorKind::Input,
                "script",
                format!("expected one row, got {n}"),
            ));
        }
        for c in 0..self.rows.names().len() {
            let name = format!("{prefix}{}", self.rows.names()[c]);
            let v = self.rows.text(0, c).map_or(Value::Null, Value::Text);
            self.set("gset", &name, v)
                .map_err(|m| not_stored(&m, &name))?;
        }
        Ok(())
    }

    /// `\aset`: every result's last row (none: nothing set).
    fn store_every(&mut self, prefix: &str) -> DbResult<()> {
        let mut found: Vec<(String, Value)> = Vec::new();
        for set in self.rows.earlier_sets() {
            for (col, text) in set {
                let v = text.clone().map_or(Value::Null, Value::Text);
                found.push((format!("{prefix}{col}"), v));
            }
        }
        let last = self.rows.len();
        if last > 0 {
            for c in 0..self.rows.names().len() {
                let v = self.rows.text(last - 1, c).map_or(Value::Null, Value::Text);
                found.push((format!("{prefix}{}", self.rows.names()[c]), v));
            }
        }
        for (name, v) in found {
            self.set("aset", &name, v)
                .map_err(|m| not_stored(&m, &name))?;
        }
        Ok(())
    }
}

/// `\shell` words with their variables' values, joined by blanks.
fn words_text(
    words: &[super::parse::Word],
    vars: &FxHashMap<String, Value>,
) -> Result<String, String> {
    let mut out: Vec<String> = Vec::with_capacity(words.len());
    for w in words {
        out.push(match w {
            super::parse::Word::Text(t) => t.clone(),
            super::parse::Word::Var(n) => match vars.get(n) {
                Some(v) => v.to_sql_text(),
                // pgbench names the command (its first word) and the argument as written.
                None => {
                    let command = out.first().map_or("", String::as_str);
                    return Err(format!("{command}: undefined variable \":{n}\""));
                }
            },
        });
    }
    Ok(out.join(" "))
}

/// pgbench's rule for a new variable's name: letters, digits and `_` (and any byte above
/// ASCII), not starting with a digit.
fn valid_variable_name(name: &str) -> bool {
    let ok = |b: u8, first: bool| {
        !b.is_ascii() || b.is_ascii_alphabetic() || b == b'_' || (!first && b.is_ascii_digit())
    };
    let b = name.as_bytes();
    !b.is_empty() && ok(b[0], true) && b[1..].iter().all(|&c| ok(c, false))
}

/// A `\gset`/`\aset` column that could not become a variable: pgbench's line about the name,
/// then its line about the store.
fn not_stored(why: &str, name: &str) -> DbError {
    DbError::new(
        DbErrorKind::Input,
        "script",
        format!("{why}\nerror storing into variable {name}"),
    )
}
