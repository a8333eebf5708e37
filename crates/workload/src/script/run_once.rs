//! The user's own prepare and cleanup: each script run once, on one session, in order; `\set`
//! evaluated, SQL sent with its values bound, `\sleep` skipped.

use super::expr::{self, Num};
use super::parse::{Command, Script};
use dbpress_core::error::{failed, usage, Result};
use dbpress_driver::Connection;
use std::collections::HashMap;

/// Run a prepare/cleanup script once on one connection: \set evaluated, SQL with bound values.
pub fn run_once(
    conn: &mut dyn Connection,
    s: &Script,
    globals: &HashMap<String, Num>,
    seed: u64,
) -> Result<()> {
    let mut vars = globals.clone();
    vars.insert("scale".into(), Num::Int(1));
    vars.insert("client_id".into(), Num::Int(0));
    let mut rng = dbpress_core::rand::Rng::new(seed, 0);
    for c in &s.commands {
        match c {
            Command::Set(name, e) => {
                let lookup = |n: &str| vars.get(n).cloned();
                let mut env = expr::Env {
                    vars: &lookup,
                    rng: &mut rng,
                    default_seed: 0,
                };
                let v = expr::eval(e, &mut env)
                    .map_err(|m| usage(format!("{}: \\set {name}: {m}", s.name)))?;
                vars.insert(name.clone(), v);
            }
            Command::Sleep(_) => {}
            Command::Sql { text, params, line } => {
                let texts: Vec<String> = params
                    .iter()
                    .map(|p| match vars.get(p) {
                        Some(Num::Float(f)) => f.to_string(),
                        Some(Num::Str(t)) => t.clone(),
                        _ => String::new(),
                    })
                    .collect();
                let values: Vec<dbpress_driver::Value<'_>> = params
                    .iter()
                    .zip(&texts)
                    .map(|(p, t)| match vars.get(p) {
                        Some(Num::Int(i)) => dbpress_driver::Value::Int(*i),
                        _ => dbpress_driver::Value::Str(t.as_bytes()),
                    })
                    .collect();
                let stmt = conn.prepare(text).map_err(|e| {
                    failed(format!(
                        "{}:{line}: server error {}: {}",
                        s.name, e.code, e.message
                    ))
                })?;
                conn.execute(stmt, &values).map_err(|e| {
                    failed(format!(
                        "{}:{line}: server error {}: {}",
                        s.name, e.code, e.message
                    ))
                })?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
