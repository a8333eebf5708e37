//! Scripts as a workload: each event picks a script by weight and runs its commands; `\set`
//! updates the client's variables, SQL runs as a server-side prepared statement with `:names`
//! bound as parameters, `\sleep` sleeps inside the event.

use super::expr::{self, Env, Num};
use super::parse::{Command, Script, Sleep};
use super::pgbench_tables::{self, PgbenchTables};
use super::run_once::run_once;
use crate::events::{EventGen, Exec};
use crate::workload::{Context, Workload};
use dbpress_core::error::Result;
use dbpress_core::rand::{Distribution, Rng};
use dbpress_driver::{Connection, DbError, DbErrorKind, DbResult, Dialect, StmtHandle, Value};
use std::collections::HashMap;

pub struct ScriptWorkload {
    pub scripts: Vec<Script>,
    /// Variables every client starts with: -D values, scale, random_seed, default_seed.
    pub globals: HashMap<String, Num>,
    kinds: &'static [&'static str],
    transactional: bool,
    /// What prepare and cleanup do (nothing for a run's workload).
    tables: Option<Tables>,
}

/// Whose tables the scripts use, which prepare and cleanup then make and drop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tables {
    /// pgbench's own (the built-in scripts'), made as pgbench -i makes them.
    Pgbench(PgbenchTables),
    /// The user's: prepare and cleanup run each of their scripts once, drawing random values
    /// from `seed`.
    Scripted { seed: u64 },
}

/// SQL sent as written, except pgbench's `END` (COMMIT's PostgreSQL alias, which MySQL lacks)
/// and, in scripts that write, `BEGIN` as the dialect begins a write transaction (SQLite's
/// BEGIN IMMEDIATE).
fn adapt(sql: &str, writes: bool, dialect: &Dialect) -> String {
    let word = sql.trim().to_ascii_lowercase();
    match word.as_str() {
        "end" | "end transaction" => "COMMIT".into(),
        "begin" | "begin transaction" | "start transaction" if writes => {
            dialect.begin_write.to_string()
        }
        _ => sql.to_string(),
    }
}

fn writes(s: &Script) -> bool {
    s.commands.iter().any(|c| match c {
        Command::Sql { text, .. } => {
            let w = text.trim_start().to_ascii_lowercase();
            ["insert", "update", "delete", "replace", "merge"]
                .iter()
                .any(|k| w.starts_with(k))
        }
        _ => false,
    })
}

impl ScriptWorkload {
    pub fn new(scripts: Vec<Script>, globals: HashMap<String, Num>) -> ScriptWorkload {
        let mut kinds = Vec::new();
        for s in &scripts {
            for c in &s.commands {
                if let Command::Sql { text, line, .. } = c {
                    let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
                    let short: String = one_line.chars().take(30).collect();
                    let more = if short.chars().count() < one_line.chars().count() {
                        "…"
                    } else {
                        ""
                    };
                    let file = s.name.rsplit('/').next().unwrap_or(&s.name);
                    let name = format!("{file}:{line} {short}{more}");
                    kinds.push(&*Box::leak(name.into_boxed_str()));
                }
            }
        }
        let transactional = scripts.iter().any(|s| {
            s.commands.iter().any(|c| {
                matches!(c, Command::Sql { text, .. }
                    if text.trim().to_ascii_lowercase().starts_with("begin")
                        || text.trim().to_ascii_lowercase().starts_with("start transaction"))
            })
        });
        ScriptWorkload {
            scripts,
            globals,
            kinds: Box::leak(kinds.into_boxed_slice()),
            transactional,
            tables: None,
        }
    }

    /// What prepare and cleanup make and drop.
    pub fn on_tables(mut self, tables: Tables) -> ScriptWorkload {
        self.tables = Some(tables);
        self
    }

    /// Each script once, in order, on one session.
    fn run_each_once(&self, ctx: &Context<'_>, seed: u64) -> Result<()> {
        let mut conn = ctx.connect(0)?;
        for s in &self.scripts {
            run_once(conn.as_mut(), s, &self.globals, seed)?;
        }
        Ok(())
    }

    pub fn statements(&self) -> usize {
        self.kinds.len()
    }
}

impl Workload for ScriptWorkload {
    fn name(&self) -> &'static str {
        "script"
    }

    fn statement_kinds(&self) -> &'static [&'static str] {
        self.kinds
    }

    fn transactional(&self) -> bool {
        self.transactional
    }

    fn draws_keys_from_rand_type(&self) -> bool {
        false
    }

    fn describe(&self) -> Vec<String> {
        let list: Vec<String> = self
            .scripts
            .iter()
            .map(|s| format!("{}@{}", s.name, s.weight))
            .collect();
        vec![format!(
            "Scripts: {} (one chosen by weight per event; variables bound as parameters)",
            list.join(", ")
        )]
    }

    /// pgbench -i when the scripts use its tables, else the user's prepare scripts.
    fn prepare(&self, ctx: &Context<'_>) -> Result<Option<dbpress_measure::host::HostUsage>> {
        match self.tables {
            Some(Tables::Pgbench(tables)) => tables.prepare(ctx),
            Some(Tables::Scripted { seed }) => self.run_each_once(ctx, seed).map(|()| None),
            None => Ok(None),
        }
    }

    fn cleanup(&self, ctx: &Context<'_>) -> Result<()> {
        match self.tables {
            Some(Tables::Pgbench(_)) => pgbench_tables::cleanup(ctx),
            Some(Tables::Scripted { seed }) => self.run_each_once(ctx, seed),
            None => Ok(()),
        }
    }

    fn missing_table_fix(&self) -> String {
        "create it in a prepare section or file (`dbpress script prepare`), or connect to the database that holds it".into()
    }

    fn worker(
        &self,
        conn: &mut dyn Connection,
        dialect: &'static Dialect,
        thread: u32,
        rng: Rng,
        _dist: Distribution,
    ) -> DbResult<Box<dyn EventGen>> {
        let mut plans = Vec::new();
        let mut kind = 0u8;
        for s in &self.scripts {
            let w = writes(s);
            let mut steps = Vec::new();
            for c in &s.commands {
                steps.push(match c {
                    Command::Set(name, e) => PreparedCommand::Set(name.clone(), e.clone()),
                    Command::Sleep(sl) => PreparedCommand::Sleep(sl.clone()),
                    Command::Sql { text, params, line } => {
                        // The server's complaint names the statement by where it is written.
                        let stmt = conn
                            .prepare(&adapt(text, w, dialect))
                            .map_err(|e| e.at(format!("{}:{line}", s.name)))?;
                        let k = kind;
                        kind += 1;
                        PreparedCommand::Sql(k, stmt, params.clone())
                    }
                });
            }
            plans.push((s.weight, steps));
        }
        let mut vars = self.globals.clone();
        vars.insert("client_id".into(), Num::Int(i64::from(thread)));
        let default_seed = match vars.get("default_seed") {
            Some(Num::Int(s)) => *s as u64,
            _ => 0,
        };
        Ok(Box::new(ScriptEvents {
            total_weight: plans.iter().map(|(w, _)| *w).sum(),
            plans,
            vars,
            rng,
            default_seed,
            text: Vec::new(),
        }))
    }
}

/// A script command made ready to run: its statement prepared on the session, its
/// expression parsed once.
enum PreparedCommand {
    Set(String, expr::Expr),
    Sleep(Sleep),
    Sql(u8, StmtHandle, Vec<String>),
}

struct ScriptEvents {
    plans: Vec<(u32, Vec<PreparedCommand>)>,
    total_weight: u32,
    vars: HashMap<String, Num>,
    rng: Rng,
    default_seed: u64,
    /// Text of float and string parameters, rebuilt per statement.
    text: Vec<String>,
}

fn script_error(msg: String) -> DbError {
    DbError::new(DbErrorKind::Input, "script", msg)
}

impl EventGen for ScriptEvents {
    fn event(&mut self, exec: &mut Exec<'_>) -> DbResult<()> {
        let mut pick = self.rng.uniform(1, self.total_weight.max(1));
        let mut chosen = 0;
        for (i, (w, _)) in self.plans.iter().enumerate() {
            if pick <= *w {
                chosen = i;
                break;
            }
            pick -= w;
        }
        let steps = &self.plans[chosen].1;
        for step in steps {
            match step {
                PreparedCommand::Set(name, e) => {
                    let vars = &self.vars;
                    let lookup = |n: &str| vars.get(n).cloned();
                    let mut env = Env {
                        vars: &lookup,
                        rng: &mut self.rng,
                        default_seed: self.default_seed,
                    };
                    let v = expr::eval(e, &mut env)
                        .map_err(|m| script_error(format!("\\set {name}: {m}")))?;
                    // Set in place: a variable set on every event allocates its name once.
                    match self.vars.get_mut(name) {
                        Some(slot) => *slot = v,
                        None => {
                            self.vars.insert(name.clone(), v);
                        }
                    }
                }
                PreparedCommand::Sleep(s) => {
                    let micros = match s {
                        Sleep::Micros(m) => *m,
                        Sleep::Var(n, unit) => match self.vars.get(n) {
                            Some(Num::Int(v)) => (*v).max(0) as u64 * unit,
                            Some(Num::Float(f)) => (f.max(0.0) * *unit as f64) as u64,
                            _ => return Err(script_error(format!("\\sleep :{n}: not a number"))),
                        },
                    };
                    std::thread::sleep(std::time::Duration::from_micros(micros));
                }
                PreparedCommand::Sql(kind, stmt, names) => {
                    self.text.clear();
                    for n in names {
                        match self.vars.get(n) {
                            Some(Num::Float(f)) => self.text.push(f.to_string()),
                            Some(Num::Str(s)) => self.text.push(s.clone()),
                            Some(Num::Int(_)) => {}
                            None => return Err(script_error(format!("variable :{n} is not set"))),
                        }
                    }
                    let mut texts = self.text.iter();
                    let params: Vec<Value<'_>> = names
                        .iter()
                        .map(|n| match self.vars.get(n) {
                            Some(Num::Int(i)) => Value::Int(*i),
                            _ => Value::Str(texts.next().map_or(&[][..], |s| s.as_bytes())),
                        })
                        .collect();
                    exec.run(*kind, *stmt, &params)?;
                }
            }
        }
        Ok(())
    }
}
