//! `dbpress slap`'s tables through one round: before it, the `--create` statements (or `-a`'s
//! t1) make them, each CREATE TABLE checked to have the `--engine` asked for, then
//! `--pre-query`; after it, `--post-query`, then the tables this round created are dropped.
//!
//! Unlike mysqlslap, slap never drops a schema, nor a table that was there before the round.

use crate::workload::Context;
use dbpress_core::error::{environment, failed, Error, Result};
use dbpress_driver::Connection;
use std::io::Write;

/// One item of `--engine`: a storage engine and the table options mysqlslap appends after it.
#[derive(Debug, Clone, PartialEq)]
pub struct StorageEngine {
    pub name: String,
    pub option: Option<String>,
}

impl StorageEngine {
    /// What a CREATE TABLE gets appended, as mysqlslap does: ` ENGINE = name [option]`.
    pub fn clause(&self) -> String {
        match &self.option {
            Some(o) => format!(" ENGINE = {} {o}", self.name),
            None => format!(" ENGINE = {}", self.name),
        }
    }

    /// The run header's line: which engine the tables were created with (and checked to have).
    pub fn header_line(&self) -> String {
        format!(
            "Storage engine: {} (--engine: `{}` appended to each CREATE TABLE)",
            self.name,
            self.clause().trim_start()
        )
    }
}

/// Why a round could not start.
#[derive(Debug)]
pub enum SetUpFailed {
    /// Nothing further can run (a statement failed, a table is in the way).
    Run(Error),
    /// The `--engine` this round asked for could not make its tables (the server lacks it or
    /// substituted another): that engine's levels are skipped, the next engine runs.
    Engine(Error),
}

/// The statements that make and unmake a round's tables, and what the run made so far.
#[derive(Debug, Clone, Default)]
pub struct SlapTables {
    /// `--create`, or `-a`'s CREATE TABLE t1 and its rows.
    pub create: Vec<String>,
    pub pre: Vec<String>,
    pub post: Vec<String>,
    /// `-a`: t1 is generated, and a t1 this run did not make is never filled or dropped.
    generated: bool,
    /// `--no-drop`: the tables stay between rounds and after the run.
    no_drop: bool,
    /// `-a`'s t1 is there because this run made it (kept between rounds by --no-drop).
    made_t1: bool,
    /// The tables there before this round began.
    before: Vec<String>,
}

impl SlapTables {
    pub fn new(create: Vec<String>, pre: Vec<String>, post: Vec<String>) -> SlapTables {
        SlapTables {
            create,
            pre,
            post,
            ..SlapTables::default()
        }
    }

    /// `-a`: the tables are its generated t1.
    pub fn generated(mut self) -> SlapTables {
        self.generated = true;
        self
    }

    /// `--no-drop`: nothing is dropped, between rounds or after them.
    pub fn no_drop(mut self, no_drop: bool) -> SlapTables {
        self.no_drop = no_drop;
        self
    }

    /// The --create statements for one `--engine`: as mysqlslap, each CREATE TABLE gets
    /// ` ENGINE = name [option]` appended.
    pub fn create_for(&self, engine: Option<&StorageEngine>) -> Vec<String> {
        let Some(e) = engine else {
            return self.create.clone();
        };
        self.create
            .iter()
            .map(|st| match creates_table(st) {
                true => format!("{}{}", st.trim_end(), e.clause()),
                false => st.clone(),
            })
            .collect()
    }

    /// The tables the --create statements name.
    pub fn created(&self) -> Vec<String> {
        created_tables(&self.create)
    }

    /// Before a round: make the tables (unless all are there already, which `out` is told),
    /// check their engine, run --pre-query. What it made is dropped again when it fails.
    pub fn set_up(
        &mut self,
        conn: &mut dyn Connection,
        ctx: &Context<'_>,
        engine: Option<&StorageEngine>,
        out: &mut dyn Write,
    ) -> std::result::Result<(), SetUpFailed> {
        self.before = table_names(conn, ctx).map_err(SetUpFailed::Run)?;
        let created = self.created();
        let all_there = !created.is_empty() && created.iter().all(|t| self.before.contains(t));
        if self.generated && all_there && !self.made_t1 {
            // Never fill or drop a table this run did not make.
            return Err(SetUpFailed::Run(environment(format!(
                "a table named {0} already exists: --auto-generate-sql creates and drops its own {0}; drop or rename yours, or use another --create-schema",
                super::autogen::TABLE
            ))));
        }
        self.made_t1 = self.generated;
        if all_there && self.generated {
            let _ = writeln!(
                out,
                "Table t1 kept by --no-drop from the last round: using it as it is."
            );
        } else if all_there {
            let _ = writeln!(
                out,
                "Tables of --create already exist ({}): using them as they are.",
                created.join(", ")
            );
        }
        let made = match all_there {
            true => Ok(()),
            false => run_all(conn, &self.create_for(engine), "--create"),
        };
        let made = made.and_then(|()| match engine {
            Some(e) => check_engines(conn, &created, e, all_there),
            None => Ok(()),
        });
        if let Err(e) = made {
            // A later --create statement failed: the earlier ones' tables go.
            self.drop_created(conn);
            self.made_t1 = false;
            return Err(match engine {
                Some(_) => SetUpFailed::Engine(e),
                None => SetUpFailed::Run(e),
            });
        }
        if let Err(e) = run_all(conn, &self.pre, "--pre-query") {
            if !self.no_drop {
                self.drop_created(conn);
            }
            return Err(SetUpFailed::Run(e));
        }
        Ok(())
    }

    /// After a round, on a session of its own: --post-query, then `between` (mysqlslap's
    /// --post-system), then the tables this round created are dropped (unless --no-drop).
    /// The error is --post-query's, or the session's if none could be opened.
    pub fn tear_down(&mut self, ctx: &Context<'_>, between: impl FnOnce()) -> Result<()> {
        let done = ctx.connect(0).and_then(|mut conn| {
            let post = run_all(conn.as_mut(), &self.post, "--post-query");
            between();
            if !self.no_drop {
                self.drop_created(conn.as_mut());
            }
            post
        });
        if !self.no_drop {
            self.made_t1 = false;
        }
        done
    }

    /// For a failed clean-up's message: the tables this round created, which may still be
    /// there ("" when none, or when --no-drop keeps them anyway).
    pub fn left_behind_note(&self) -> String {
        let left: Vec<String> = self
            .created()
            .into_iter()
            .filter(|t| !self.before.contains(t))
            .collect();
        match self.no_drop || left.is_empty() {
            true => String::new(),
            false => format!(
                "; drop the tables it created ({}) if they are still there",
                left.join(", ")
            ),
        }
    }

    /// Drop the tables this round's --create statements made (never one that was there
    /// before); any that a failed statement never made are skipped.
    fn drop_created(&self, conn: &mut dyn Connection) {
        for t in self.created().iter().filter(|t| !self.before.contains(t)) {
            let _ = conn.query(&format!("DROP TABLE IF EXISTS {t}"));
        }
    }
}

/// A statement that begins CREATE [TEMPORARY] TABLE.
fn creates_table(statement: &str) -> bool {
    let words: Vec<String> = statement
        .split_whitespace()
        .take(3)
        .map(str::to_ascii_lowercase)
        .collect();
    matches!(
        words.iter().map(String::as_str).collect::<Vec<_>>()[..],
        ["create", "table", ..] | ["create", "temporary", "table"]
    )
}

/// Table names a list of CREATE TABLE statements creates (what slap may drop afterwards).
pub fn created_tables(statements: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for s in statements {
        let words: Vec<&str> = s.split_whitespace().collect();
        let lower: Vec<String> = words.iter().map(|w| w.to_ascii_lowercase()).collect();
        let Some(at) = lower
            .windows(2)
            .position(|w| w[0] == "create" && w[1] == "table")
        else {
            continue;
        };
        let mut name_at = at + 2;
        if lower.get(name_at..name_at + 3) == Some(&["if".into(), "not".into(), "exists".into()]) {
            name_at += 3;
        }
        if let Some(name) = words.get(name_at) {
            let name = name.split('(').next().unwrap_or(name);
            let name = name.rsplit('.').next().unwrap_or(name);
            let name = name.trim_matches(|c| c == '`' || c == '"');
            if !name.is_empty() {
                out.push(name.to_string());
            }
        }
    }
    out
}

/// `--engine`: the server may substitute its default engine for one it lacks (without
/// NO_ENGINE_SUBSTITUTION in sql_mode), and a table kept from before has whatever engine it
/// had; either would measure another engine than the one printed, so each table is checked.
fn check_engines(
    conn: &mut dyn Connection,
    tables: &[String],
    engine: &StorageEngine,
    kept: bool,
) -> Result<()> {
    for t in tables {
        let rows = conn
            .query_rows(&format!(
                "SELECT ENGINE FROM information_schema.TABLES WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = '{}'",
                t.replace('\'', "''")
            ))
            .map_err(|e| failed(format!("reading the engine of {t} failed: {}", e.message)))?;
        let got = rows
            .into_iter()
            .next()
            .and_then(|r| r.into_iter().next().flatten())
            .unwrap_or_default();
        // Not in the session's database (a --create that names another one): nothing the
        // session can read back.
        if got.is_empty() || got.eq_ignore_ascii_case(&engine.name) {
            continue;
        }
        let why = match kept {
            true => format!("{t} was there before this round: drop it, or run without --engine"),
            false => format!(
                "the server has no {0} engine or has it disabled, and substituted its default (SHOW ENGINES lists what it has; sql_mode NO_ENGINE_SUBSTITUTION makes this an error)",
                engine.name
            ),
        };
        return Err(environment(format!(
            "table {t} uses the {got} engine, not {}: {why}",
            engine.name
        )));
    }
    Ok(())
}

fn run_all(conn: &mut dyn Connection, list: &[String], phase: &str) -> Result<()> {
    for s in list {
        conn.query(s).map_err(|e| {
            failed(format!(
                "{phase} statement failed: server error {}: {} (statement: {s})",
                e.code, e.message
            ))
        })?;
    }
    Ok(())
}

fn table_names(conn: &mut dyn Connection, ctx: &Context<'_>) -> Result<Vec<String>> {
    let d = ctx.driver.dialect();
    let rows = conn
        .query_rows(&(d.table_comments)(""))
        .map_err(|e| failed(format!("listing tables failed: {}", e.message)))?;
    Ok(rows
        .into_iter()
        .filter_map(|r| r.get(d.table_comments_columns.0).cloned().flatten())
        .collect())
}

#[cfg(test)]
mod tests;
