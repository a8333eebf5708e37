//! pgbench's four tables as `pgbench -i` makes them: created, filled by the fastest load path,
//! given their primary keys after the load, then analyzed (unless --no-vacuum); dropped in the
//! reverse order; and the scale read back from the rows of pgbench_branches.

use super::builtin;
use crate::workload::{setup_error, Context};
use dbpress_core::error::{environment, failed, Result};
use dbpress_driver::{Connection, RowBatch};
use dbpress_measure::host::HostUsage;

/// The built-in scripts' tables, at a scale.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PgbenchTables {
    /// pgbench's -s: branches; ten tellers and 100 000 accounts each.
    pub scale: u64,
    /// pgbench's -n: no statistics after the load.
    pub no_vacuum: bool,
}

impl PgbenchTables {
    /// pgbench -i; what the machine did meanwhile, for the caller to report.
    pub fn prepare(&self, ctx: &Context<'_>) -> Result<Option<HostUsage>> {
        let mut conn = ctx.connect(0)?;
        let d = ctx.driver.dialect();
        refuse_existing(conn.as_mut(), ctx)?;
        for (t, ddl) in builtin::TABLES {
            dbpress_core::outln!("Creating table '{t}'...");
            conn.query(ddl)
                .map_err(|e| setup_error(e, &format!("creating {t}")))?;
        }
        let started = std::time::Instant::now();
        let host = dbpress_measure::host::Sampler::started_for(ctx.driver, conn.as_mut());
        self.load(conn.as_mut())?;
        for (t, c) in builtin::KEYS {
            conn.query(&(d.add_primary_key)(t, c))
                .map_err(|e| setup_error(e, &format!("indexing {t}")))?;
        }
        if let Some(after) = d.after_load.filter(|_| !self.no_vacuum) {
            for (t, _) in builtin::TABLES {
                conn.query(&after(t))
                    .map_err(|e| setup_error(e, &format!("analyzing {t}")))?;
            }
        }
        dbpress_core::outln!(
            "Loaded {} rows in {:.2}s",
            (builtin::ACCOUNTS + builtin::TELLERS + builtin::BRANCHES) * self.scale,
            started.elapsed().as_secs_f64()
        );
        Ok(host.finish_now())
    }

    /// The rows of every table: branches, tellers (ten a branch), accounts (100 000 a branch).
    fn load(&self, conn: &mut dyn Connection) -> Result<()> {
        let scale = self.scale;
        dbpress_core::outln!(
            "Loading {} accounts, {} tellers, {} branches (scale {scale})...",
            builtin::ACCOUNTS * scale,
            builtin::TELLERS * scale,
            builtin::BRANCHES * scale
        );
        load_rows(
            conn,
            "pgbench_branches",
            "bid, bbalance",
            builtin::BRANCHES * scale,
            &|i, b| {
                b.int(i as i64);
                b.int(0);
            },
        )?;
        load_rows(
            conn,
            "pgbench_tellers",
            "tid, bid, tbalance",
            builtin::TELLERS * scale,
            &|i, b| {
                b.int(i as i64);
                b.int(((i - 1) / builtin::TELLERS + 1) as i64);
                b.int(0);
            },
        )?;
        load_rows(
            conn,
            "pgbench_accounts",
            "aid, bid, abalance, filler",
            builtin::ACCOUNTS * scale,
            &|i, b| {
                b.int(i as i64);
                b.int(((i - 1) / builtin::ACCOUNTS + 1) as i64);
                b.int(0);
                b.str(b"");
            },
        )
    }
}

/// pgbench -i over tables already there would mix two loads: each is named, with the fix.
fn refuse_existing(conn: &mut dyn Connection, ctx: &Context<'_>) -> Result<()> {
    let d = ctx.driver.dialect();
    let existing: Vec<String> = conn
        .query_rows(&(d.table_comments)("pgbench_"))
        .map_err(|e| failed(format!("listing tables failed: {}", e.message)))?
        .into_iter()
        .filter_map(|r| r.get(d.table_comments_columns.0).cloned().flatten())
        .collect();
    match builtin::TABLES
        .iter()
        .find(|(t, _)| existing.iter().any(|e| e == t))
    {
        Some((t, _)) => Err(environment(format!(
            "table '{t}' already exists: run `dbpress script cleanup` with the same options first"
        ))),
        None => Ok(()),
    }
}

/// `rows` rows numbered from 1 into `table`, each made by `row`.
fn load_rows(
    conn: &mut dyn Connection,
    table: &str,
    columns: &str,
    rows: u64,
    row: &dyn Fn(u64, &mut RowBatch),
) -> Result<()> {
    let mut next = 1u64;
    let mut fill = |batch: &mut RowBatch| -> bool {
        while !batch.is_full() && next <= rows {
            row(next, batch);
            next += 1;
        }
        next <= rows
    };
    conn.bulk_load(table, columns, &mut fill)
        .map(|_| ())
        .map_err(|e| setup_error(e, &format!("loading {table}")))
}

/// Drop the four tables, the reverse of the order they were created in.
pub fn cleanup(ctx: &Context<'_>) -> Result<()> {
    let mut conn = ctx.connect(0)?;
    for (t, _) in builtin::TABLES.iter().rev() {
        dbpress_core::outln!("Dropping table '{t}'...");
        conn.query(&format!("DROP TABLE IF EXISTS {t}"))
            .map_err(|e| failed(format!("dropping {t} failed: {}", e.message)))?;
    }
    Ok(())
}

/// The scale prepare used, as pgbench reads it: the number of branches.
pub fn scale(ctx: &Context<'_>) -> Result<u64> {
    let mut conn = ctx.connect(0)?;
    let rows = conn.query_rows("SELECT COUNT(*) FROM pgbench_branches").map_err(|e| {
        environment(format!(
            "cannot read the scale from pgbench_branches ({}): run `dbpress script prepare` with the same connection options first",
            e.message
        ))
    })?;
    Ok(rows
        .first()
        .and_then(|r| r.first().cloned().flatten())
        .and_then(|v| v.parse().ok())
        .unwrap_or(1))
}

#[cfg(test)]
mod tests;
