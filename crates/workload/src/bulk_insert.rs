//! sysbench's bulk_insert: each thread appends rows `(n, n)` to its own table `sbtest<thread+1>`,
//! sent as multi-row INSERTs of up to 512 KiB. One event is one row, so most events send
//! nothing and the event that fills the buffer carries the INSERT.

use crate::events::{EventGen, Exec};
use crate::oltp::prepare::setup_error;
use crate::workload::{Context, Workload};
use dbpress_core::error::{environment, Result};
use dbpress_core::rand::{Distribution, Rng};
use dbpress_driver::{Connection, DbResult, Dialect};
use dbpress_measure::host::HostUsage;

pub const NAME: &str = "bulk_insert";
pub const DESCRIPTION: &str = "multi-row INSERTs of (n, n) into one table per thread; an event is a row (sysbench bulk_insert)";

/// sysbench's bulk packet size.
const BULK_BYTES: usize = 512 * 1024;

pub struct BulkInsert {
    threads: u32,
}

impl BulkInsert {
    pub fn new(threads: u32) -> BulkInsert {
        BulkInsert { threads }
    }
}

fn create_table(t: u32) -> String {
    format!(
        "        CREATE TABLE IF NOT EXISTS sbtest{t} (\n          id INTEGER NOT NULL,\n          k INTEGER DEFAULT '0' NOT NULL,\n          PRIMARY KEY (id))"
    )
}

impl Workload for BulkInsert {
    fn name(&self) -> &'static str {
        NAME
    }

    fn statement_kinds(&self) -> &'static [&'static str] {
        &["bulk_insert"]
    }

    fn transactional(&self) -> bool {
        false
    }

    fn draws_keys_from_rand_type(&self) -> bool {
        false
    }

    fn describe(&self) -> Vec<String> {
        vec![format!(
            "Tables: sbtest1..sbtest{} (one per thread), rows sent in INSERTs of up to 512 KiB",
            self.threads
        )]
    }

    fn sends_text_as(&self) -> Option<&'static str> {
        Some("sysbench's bulk_insert")
    }

    fn prepare(&self, ctx: &Context<'_>) -> Result<Option<HostUsage>> {
        let mut conn = ctx.connect(0)?;
        let existing = super::oltp::prepare::existing_tables(conn.as_mut(), ctx)?;
        for t in 1..=self.threads {
            let name = format!("sbtest{t}");
            if existing.contains(&name) {
                // As sysbench (CREATE TABLE IF NOT EXISTS), a bulk_insert table is kept; runs
                // append after its largest id. Another workload's table is not written into.
                ensure_bulk_shape(conn.as_mut(), ctx, &name)?;
                dbpress_core::notice!(
                    "Table '{name}' exists: kept, runs append after its largest id"
                );
                continue;
            }
            dbpress_core::notice!("Creating table '{name}'...");
            conn.query(&create_table(t))
                .map_err(|e| setup_error(e, &format!("creating {name}")))?;
        }
        Ok(None)
    }

    fn cleanup(&self, ctx: &Context<'_>) -> Result<()> {
        super::oltp::prepare::drop_tables(ctx, self.threads)
    }

    fn check_ready(&self, conn: &mut dyn Connection, ctx: &Context<'_>) -> Result<Vec<String>> {
        let existing = super::oltp::prepare::existing_tables(conn, ctx)?;
        if ctx.driver.dialect().executes_nothing {
            return Ok(Vec::new());
        }
        for t in 1..=self.threads {
            let name = format!("sbtest{t}");
            if !existing.contains(&name) {
                return Err(environment(format!(
                    "table '{name}' does not exist: run `{} prepare --threads={}` first",
                    ctx.invocation, self.threads
                )));
            }
            ensure_bulk_shape(conn, ctx, &name)?;
        }
        Ok(Vec::new())
    }

    fn worker(
        &self,
        conn: &mut dyn Connection,
        _dialect: &'static Dialect,
        thread: u32,
        _rng: Rng,
        _dist: Distribution,
    ) -> DbResult<Box<dyn EventGen>> {
        let table = format!("sbtest{}", thread + 1);
        // sysbench numbers rows from 1 in every run, so its second run on the same table (or
        // the second level of a thread sweep) stops on a duplicate key. Appending after the
        // table's largest id lets runs follow each other; the one SELECT is setup, before the
        // measured run.
        let largest = super::oltp::prepare::max_id(conn, &table)?;
        Ok(Box::new(BulkEvents {
            prefix: format!("INSERT INTO {table} VALUES"),
            buf: String::with_capacity(BULK_BYTES + 64),
            rows: largest,
        }))
    }
}

/// Refuse a table of another shape than bulk_insert's `(id, k)`: an OLTP table, say, which the
/// run's column-less INSERT could not fill and which bulk_insert did not create.
fn ensure_bulk_shape(conn: &mut dyn Connection, ctx: &Context<'_>, table: &str) -> Result<()> {
    let columns: Vec<String> = conn
        .query_rows(&(ctx.driver.dialect().table_columns)(table))
        .map_err(|e| setup_error(e, &format!("listing the columns of {table}")))?
        .into_iter()
        .filter_map(|r| r.into_iter().next().flatten())
        .collect();
    if columns
        .iter()
        .map(|c| c.to_ascii_lowercase())
        .eq(["id", "k"])
    {
        return Ok(());
    }
    Err(environment(format!(
        "table '{table}' exists with columns ({}), not bulk_insert's (id, k): it belongs to another \
         workload; run that workload's cleanup first or choose another database with {}",
        columns.join(", "),
        ctx.driver.hints().database
    )))
}

struct BulkEvents {
    prefix: String,
    buf: String,
    rows: u64,
}

impl BulkEvents {
    fn flush(&mut self, exec: &mut Exec<'_>) -> DbResult<()> {
        if self.buf.is_empty() {
            return Ok(());
        }
        let r = exec.run_query(0, &self.buf);
        self.buf.clear();
        r
    }
}

impl EventGen for BulkEvents {
    fn event(&mut self, exec: &mut Exec<'_>) -> DbResult<()> {
        use std::fmt::Write;
        self.rows += 1;
        let n = self.rows;
        if self.buf.is_empty() {
            self.buf.push_str(&self.prefix);
        } else {
            self.buf.push(',');
        }
        let _ = write!(self.buf, "({n},{n})");
        if self.buf.len() >= BULK_BYTES {
            self.flush(exec)?;
        }
        Ok(())
    }

    fn finish(&mut self, exec: &mut Exec<'_>) -> DbResult<()> {
        self.flush(exec)
    }
}
