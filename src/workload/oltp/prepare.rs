//! Creating, checking and dropping the sbtestN tables.
//!
//! prepare: tables are spread over threads (thread i takes tables i+1, i+1+threads, …), rows go
//! in large multi-row INSERTs, and the secondary index is built after the load, as sysbench does.
//! cleanup drops only sbtest1..sbtestN for the given --tables: never anything it did not create.

use super::sql::{create_index, create_table, drop_table, C_TEMPLATE, PAD_TEMPLATE};
use super::Oltp;
use crate::driver::{Connection, DbError, DbErrorKind};
use crate::error::{environment, failed, Error, Result};
use crate::rand::{Distribution, Rng, Template};
use crate::workload::Context;
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Turn a setup-time database error into a one-line user error.
pub fn setup_error(e: DbError, what: &str) -> Error {
    match e.kind {
        DbErrorKind::Unreachable | DbErrorKind::Auth | DbErrorKind::UnknownDatabase => {
            crate::runner::connect_error_message(&e)
        }
        _ => failed(format!(
            "{what} failed: server error {}: {}",
            e.code, e.message
        )),
    }
}

fn existing_tables(conn: &mut dyn Connection) -> Result<Vec<String>> {
    let rows = conn
        // SHOW, not SELECT: dbpress's own metadata queries must not count in Com_select.
        .query_rows("SHOW TABLES LIKE 'sbtest%'")
        .map_err(|e| setup_error(e, "listing tables"))?;
    Ok(rows
        .into_iter()
        .filter_map(|r| r.into_iter().next().flatten())
        .collect())
}

pub fn check_ready(w: &Oltp, conn: &mut dyn Connection, ctx: &Context<'_>) -> Result<()> {
    if ctx.driver.server_info(conn).product == "dry-run" {
        return Ok(());
    }
    let existing = existing_tables(conn)?;
    for t in 1..=w.schema.tables {
        let name = format!("sbtest{t}");
        if !existing.iter().any(|e| e == &name) {
            return Err(environment(format!(
                "table '{name}' does not exist: run `{} prepare` with the same --tables/--table-size first",
                ctx.invocation
            )));
        }
    }
    Ok(())
}

pub fn prepare(w: &Oltp, ctx: &Context<'_>) -> Result<()> {
    let mut probe = ctx
        .driver
        .connect(0)
        .map_err(|e| setup_error(e, "connecting"))?;
    let dry = ctx.driver.server_info(probe.as_mut()).product == "dry-run";
    if !dry {
        let existing = existing_tables(probe.as_mut())?;
        for t in 1..=w.schema.tables {
            let name = format!("sbtest{t}");
            if existing.iter().any(|e| e == &name) {
                return Err(environment(format!(
                    "table '{name}' already exists: run `{} cleanup --tables={}` first, or choose another --mysql-db",
                    ctx.invocation, w.schema.tables
                )));
            }
        }
    }
    let max_packet = probe
        .query_rows("SHOW VARIABLES LIKE 'max_allowed_packet'")
        .ok()
        .and_then(|r| r.first()?.get(1)?.clone())
        .and_then(|v| v.parse::<usize>().ok())
        .unwrap_or(4 << 20);
    drop(probe);
    // Bigger statements load faster; stay well inside the server's packet limit.
    let batch_bytes = (max_packet.saturating_sub(64 * 1024)).clamp(64 * 1024, 4 << 20);

    let threads = ctx.threads.min(w.schema.tables).max(1);
    let total_rows = u64::from(w.schema.tables) * u64::from(w.schema.load_rows);
    let progress = Progress::new(total_rows);
    let first_error: Mutex<Option<Error>> = Mutex::new(None);
    std::thread::scope(|s| {
        for tid in 0..threads {
            let progress = &progress;
            let first_error = &first_error;
            s.spawn(move || {
                let r = prepare_thread(w, ctx, tid, threads, batch_bytes, progress);
                if let Err(e) = r {
                    let mut slot = first_error.lock().unwrap_or_else(|p| p.into_inner());
                    slot.get_or_insert(e);
                }
            });
        }
    });
    progress.finish();
    match first_error.into_inner().unwrap_or_else(|p| p.into_inner()) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

fn prepare_thread(
    w: &Oltp,
    ctx: &Context<'_>,
    tid: u32,
    threads: u32,
    batch_bytes: usize,
    progress: &Progress,
) -> Result<()> {
    let mut conn = ctx
        .driver
        .connect(tid as usize)
        .map_err(|e| setup_error(e, "connecting"))?;
    let dialect = ctx.driver.dialect();
    let dist = Distribution::new(ctx.dist);
    let s = &w.schema;
    let mut t = tid + 1;
    while t <= s.tables {
        progress.say(&format!("Creating table 'sbtest{t}'..."));
        conn.query(&create_table(s, dialect, t))
            .map_err(|e| setup_error(e, &format!("creating sbtest{t}")))?;
        progress.say(&format!(
            "Inserting {} records into 'sbtest{t}'",
            s.table_size
        ));
        // Data is a function of the table number only, so every prepare makes the same rows.
        let mut rng = Rng::new(0x5eed_0001, u64::from(t));
        let prefix = if s.auto_inc {
            format!("INSERT INTO sbtest{t}(k, c, pad) VALUES")
        } else {
            format!("INSERT INTO sbtest{t}(id, k, c, pad) VALUES")
        };
        let mut sql = String::with_capacity(batch_bytes + 512);
        let mut rows_in_batch = 0u64;
        let (c_tpl, pad_tpl) = (Template::new(C_TEMPLATE), Template::new(PAD_TEMPLATE));
        let mut c = [0u8; 119];
        let mut pad = [0u8; 59];
        for id in 1..=s.load_rows {
            if rows_in_batch == 0 {
                sql.clear();
                sql.push_str(&prefix);
            } else {
                sql.push(',');
            }
            let k = dist.sample(&mut rng, 1, s.table_size);
            c_tpl.fill(&mut rng, &mut c);
            pad_tpl.fill(&mut rng, &mut pad);
            let c = std::str::from_utf8(&c).expect("template output is ASCII");
            let pad = std::str::from_utf8(&pad).expect("template output is ASCII");
            use std::fmt::Write as _;
            if s.auto_inc {
                let _ = write!(sql, "({k}, '{c}', '{pad}')");
            } else {
                let _ = write!(sql, "({id}, {k}, '{c}', '{pad}')");
            }
            rows_in_batch += 1;
            if sql.len() + 200 > batch_bytes || id == s.load_rows {
                conn.query(&sql)
                    .map_err(|e| setup_error(e, &format!("loading sbtest{t}")))?;
                progress.add(rows_in_batch);
                rows_in_batch = 0;
            }
        }
        if s.create_secondary {
            progress.say(&format!("Creating a secondary index on 'sbtest{t}'..."));
            conn.query(&create_index(t))
                .map_err(|e| setup_error(e, &format!("indexing sbtest{t}")))?;
        }
        t += threads;
    }
    Ok(())
}

pub fn cleanup(w: &Oltp, ctx: &Context<'_>) -> Result<()> {
    let mut conn = ctx
        .driver
        .connect(0)
        .map_err(|e| setup_error(e, "connecting"))?;
    for t in 1..=w.schema.tables {
        println!("Dropping table 'sbtest{t}'...");
        conn.query(&drop_table(t))
            .map_err(|e| setup_error(e, &format!("dropping sbtest{t}")))?;
    }
    Ok(())
}

/// sysbench's per-table messages on stdout, and on a terminal a progress line on stderr with
/// rows/s and ETA.
struct Progress {
    total: u64,
    done: AtomicU64,
    start: Instant,
    bar: Option<indicatif::ProgressBar>,
}

impl Progress {
    fn new(total: u64) -> Progress {
        let bar = std::io::stderr().is_terminal().then(|| {
            let b = indicatif::ProgressBar::new(total);
            b.set_style(
                indicatif::ProgressStyle::with_template(
                    "{bar:40} {pos}/{len} rows  {per_sec}  ETA {eta}",
                )
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
            );
            b.enable_steady_tick(Duration::from_millis(200));
            b
        });
        Progress {
            total,
            done: AtomicU64::new(0),
            start: Instant::now(),
            bar,
        }
    }

    fn say(&self, line: &str) {
        match &self.bar {
            Some(b) => b.println(line),
            None => {
                let mut out = std::io::stdout().lock();
                let _ = writeln!(out, "{line}");
            }
        }
    }

    fn add(&self, rows: u64) {
        self.done.fetch_add(rows, Ordering::Relaxed);
        if let Some(b) = &self.bar {
            b.inc(rows);
        }
    }

    fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
        let secs = self.start.elapsed().as_secs_f64();
        let done = self.done.load(Ordering::Relaxed);
        if done > 0 && done == self.total {
            println!(
                "Loaded {done} rows in {secs:.2}s ({:.0} rows/s)",
                done as f64 / secs.max(1e-9)
            );
        }
    }
}
