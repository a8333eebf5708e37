//! `tpcc check`: the consistency conditions of clause 3.3.2 (`conditions`), asked over
//! `--threads` connections (`run`). After a load all twelve must hold; after a run every one
//! but 11, which each Delivery breaks by design (the spec asks for 1–4 after a run; 5–10 and 12
//! hold for correct transactions, so they are checked too).

mod conditions;
mod run;

pub use conditions::After;
pub use run::run_checks;

use super::names::Names;
use super::schema::{self, META};
use crate::workload::Context;
use dbpress_core::error::{environment, Result};
use dbpress_driver::{Connection, DbErrorKind};

use crate::workload::setup_error;

/// The bookkeeping row.
#[derive(Clone, Debug)]
pub struct Meta {
    pub warehouses: u32,
    pub c_last: u32,
    pub c_id: u32,
    pub ol_i_id: u32,
    /// "loading", "ready" (loaded), "ran" (a run has started since).
    pub state: String,
    /// sysbench-tpcc's `--tables=N` sets, 0 for the spec's names.
    pub sets: u32,
}

impl Meta {
    /// The table sets of this database.
    pub fn names(&self) -> Vec<Names> {
        Names::all((self.sets > 0).then_some(self.sets))
    }
}

/// The bookkeeping row, or None when there is no such table.
pub fn meta(conn: &mut dyn Connection) -> Result<Option<Meta>> {
    let read = |conn: &mut dyn Connection, sets: &str| {
        conn.query_rows(&format!(
            "SELECT warehouses, c_last, c_id, ol_i_id, state, {sets} FROM {META}"
        ))
    };
    // A bookkeeping table written before table sets existed has no `sets` column: 0 sets.
    let rows = match read(conn, "sets") {
        Err(e) if e.kind == DbErrorKind::BadStatement => read(conn, "0"),
        other => other,
    };
    match rows {
        Ok(rows) => {
            let Some(r) = rows.first() else {
                return Err(environment(format!(
                    "{META} is empty: the load was interrupted at its start; run cleanup, then prepare"
                )));
            };
            let num = |i: usize| {
                r.get(i)
                    .cloned()
                    .flatten()
                    .and_then(|v| v.parse::<u32>().ok())
                    .unwrap_or(0)
            };
            Ok(Some(Meta {
                warehouses: num(0),
                c_last: num(1),
                c_id: num(2),
                ol_i_id: num(3),
                state: r.get(4).cloned().flatten().unwrap_or_default(),
                sets: num(5),
            }))
        }
        Err(e) if e.kind == DbErrorKind::NoSuchTable => Ok(None),
        Err(e) => Err(setup_error(e, &format!("reading {META}"))),
    }
}

/// Whether any table of these sets (or the bookkeeping one) exists.
pub fn tables_present(conn: &mut dyn Connection, sets: &[Names]) -> Result<bool> {
    let mut all: Vec<String> = vec![META.to_string()];
    for names in sets {
        all.extend(schema::TABLES.iter().map(|t| names.sql(t)));
    }
    for t in &all {
        match conn.query_rows(&format!("SELECT 1 FROM {t} WHERE 1 = 0")) {
            Ok(_) => return Ok(true),
            Err(e) if e.kind == DbErrorKind::NoSuchTable => {}
            Err(e) => return Err(setup_error(e, &format!("looking for table {t}"))),
        }
    }
    Ok(false)
}

/// `tpcc check`: what the bookkeeping row says, the row counts, then the conditions.
pub fn check(ctx: &Context<'_>) -> Result<()> {
    let mut conn = ctx.connect(0)?;
    let m = ready_meta(conn.as_mut(), ctx)?;
    let after = if m.state == "ran" {
        After::Run
    } else {
        After::Load
    };
    dbpress_core::outln!(
        "TPC-C database: {} warehouse(s), {}",
        m.warehouses,
        match after {
            After::Load => "as loaded (all twelve conditions apply)",
            After::Run => "after a run (condition 11 no longer applies: each Delivery changes it)",
        }
    );
    drop(conn);
    run_checks(ctx, after, m.warehouses, &m.names())
}

/// The bookkeeping row of a finished load, or the error that says what is wrong.
pub fn ready_meta(conn: &mut dyn Connection, ctx: &Context<'_>) -> Result<Meta> {
    match meta(conn)? {
        None => Err(environment(format!(
            "no TPC-C tables here: run `{} prepare` first",
            ctx.invocation
        ))),
        Some(m) if m.state == "loading" => Err(environment(format!(
            "the TPC-C load of {} warehouse(s) here did not finish (interrupted or failed): run `{} cleanup`, then `{} prepare` again",
            m.warehouses, ctx.invocation, ctx.invocation
        ))),
        Some(m) => Ok(m),
    }
}
