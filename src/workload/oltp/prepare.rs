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

pub fn existing_tables(conn: &mut dyn Connection) -> Result<Vec<String>> {
    let rows = conn
        // SHOW, not SELECT: dbpress's own metadata queries must not count in Com_select.
        .query_rows("SHOW TABLES LIKE 'sbtest%'")
        .map_err(|e| setup_error(e, "listing tables"))?;
    Ok(rows
        .into_iter()
        .filter_map(|r| r.into_iter().next().flatten())
        .collect())
}

/// The comment prepare puts on a table until its rows and index are in place.
const LOADING: &str = "dbpress: loading";

/// (table name, comment) of the sbtest tables.
fn table_comments(conn: &mut dyn Connection, ctx: &Context<'_>) -> Result<Vec<(String, String)>> {
    let d = ctx.driver.dialect();
    let (name_col, comment_col) = d.table_comments_columns;
    let rows = conn
        .query_rows(&(d.table_comments)("sbtest"))
        .map_err(|e| setup_error(e, "listing tables"))?;
    Ok(rows
        .into_iter()
        .filter_map(|r| {
            let name = r.get(name_col).cloned().flatten()?;
            let comment = r.get(comment_col).cloned().flatten().unwrap_or_default();
            Some((name, comment))
        })
        .collect())
}

pub fn check_ready(w: &Oltp, conn: &mut dyn Connection, ctx: &Context<'_>) -> Result<()> {
    if ctx.driver.server_info(conn).product == "dry-run" {
        return Ok(());
    }
    let tables = table_comments(conn, ctx)?;
    for t in 1..=w.schema.tables {
        let name = format!("sbtest{t}");
        match tables.iter().find(|(n, _)| *n == name) {
            None => {
                return Err(environment(format!(
                    "table '{name}' does not exist: run `{} prepare` with the same --tables/--table-size first",
                    ctx.invocation
                )))
            }
            Some((_, c)) if c == LOADING => {
                return Err(environment(format!(
                    "table '{name}' was left half-loaded by an interrupted prepare: run `{inv} cleanup --tables={n}` and `{inv} prepare` again",
                    inv = ctx.invocation,
                    n = w.schema.tables
                )))
            }
            Some(_) => {}
        }
    }
    Ok(())
}

/// `check`: every table present, fully loaded (rows and id range), with its secondary index.
pub fn check(w: &Oltp, ctx: &Context<'_>) -> Result<()> {
    let mut conn = ctx
        .driver
        .connect(0)
        .map_err(|e| setup_error(e, "connecting"))?;
    let tables = table_comments(conn.as_mut(), ctx)?;
    let s = &w.schema;
    let mut problems = 0;
    for t in 1..=s.tables {
        let name = format!("sbtest{t}");
        let Some((_, comment)) = tables.iter().find(|(n, _)| *n == name) else {
            println!("{name}: missing");
            problems += 1;
            continue;
        };
        let first = |rows: Vec<Vec<Option<String>>>| -> Vec<Option<String>> {
            rows.into_iter().next().unwrap_or_default()
        };
        let stats = first(
            conn.query_rows(&format!("SELECT COUNT(*), MIN(id), MAX(id) FROM {name}"))
                .map_err(|e| setup_error(e, &format!("checking {name}")))?,
        );
        let num = |i: usize| {
            stats
                .get(i)
                .cloned()
                .flatten()
                .and_then(|v| v.parse::<u64>().ok())
        };
        let (rows, min, max) = (num(0).unwrap_or(0), num(1), num(2));
        let mut issues = Vec::new();
        if comment == LOADING {
            issues.push("left half-loaded by an interrupted prepare".to_string());
        }
        if rows != u64::from(s.load_rows) {
            issues.push(format!("{rows} rows, expected {}", s.load_rows));
        }
        if s.load_rows > 0 && (min != Some(1) || max != Some(u64::from(s.load_rows))) {
            issues.push(format!(
                "ids {}..{}, expected 1..{}",
                min.map_or("none".into(), |v| v.to_string()),
                max.map_or("none".into(), |v| v.to_string()),
                s.load_rows
            ));
        }
        if s.create_secondary {
            let idx = conn
                .query_rows(&format!("SHOW INDEX FROM {name} WHERE Key_name = 'k_{t}'"))
                .map_err(|e| setup_error(e, &format!("checking {name}")))?;
            if idx.is_empty() {
                issues.push(format!("secondary index k_{t} missing"));
            }
        }
        if issues.is_empty() {
            println!(
                "{name}: ok ({rows} rows, ids 1..{rows}{})",
                if s.create_secondary {
                    format!(", index k_{t}")
                } else {
                    String::new()
                }
            );
        } else {
            println!("{name}: {}", issues.join("; "));
            problems += 1;
        }
    }
    if problems > 0 {
        return Err(environment(format!(
            "{problems} of {} tables are not as prepare leaves them: run `{inv} cleanup --tables={n}` and `{inv} prepare` again",
            s.tables,
            inv = ctx.invocation,
            n = s.tables
        )));
    }
    println!("All {} tables are ready.", s.tables);
    Ok(())
}

/// `prewarm`: read every table and its primary key into the buffer pool, as sysbench does.
pub fn prewarm(w: &Oltp, ctx: &Context<'_>) -> Result<()> {
    let threads = ctx.threads.min(w.schema.tables).max(1);
    let first_error: Mutex<Option<Error>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for tid in 0..threads {
            let first_error = &first_error;
            scope.spawn(move || {
                let r = (|| -> Result<()> {
                    let mut conn = ctx.driver.connect(tid as usize).map_err(|e| setup_error(e, "connecting"))?;
                    for sql in [
                        "SET tmp_table_size=2*1024*1024*1024",
                        "SET max_heap_table_size=2*1024*1024*1024",
                    ] {
                        conn.query(sql).map_err(|e| setup_error(e, "prewarm"))?;
                    }
                    let mut t = tid + 1;
                    while t <= w.schema.tables {
                        println!("Prewarming table sbtest{t}");
                        let n = w.schema.table_size;
                        for sql in [
                            format!("ANALYZE TABLE sbtest{t}"),
                            format!("SELECT AVG(id) FROM (SELECT * FROM sbtest{t} FORCE KEY (PRIMARY) LIMIT {n}) t"),
                            format!("SELECT COUNT(*) FROM (SELECT * FROM sbtest{t} WHERE k LIKE '%0%' LIMIT {n}) t"),
                        ] {
                            conn.query(&sql).map_err(|e| setup_error(e, &format!("prewarming sbtest{t}")))?;
                        }
                        t += threads;
                    }
                    Ok(())
                })();
                if let Err(e) = r {
                    first_error.lock().unwrap_or_else(|p| p.into_inner()).get_or_insert(e);
                }
            });
        }
    });
    match first_error.into_inner().unwrap_or_else(|p| p.into_inner()) {
        Some(e) => Err(e),
        None => Ok(()),
    }
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
        // Marked until the rows and index are in: `run` and `check` then spot an interrupted load.
        let table = format!("sbtest{t}");
        conn.query(&(dialect.set_table_comment)(&table, LOADING))
            .map_err(|e| setup_error(e, &format!("marking {table}")))?;
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
        conn.query(&(dialect.set_table_comment)(&table, ""))
            .map_err(|e| setup_error(e, &format!("marking {table}")))?;
        t += threads;
    }
    Ok(())
}

pub fn cleanup(w: &Oltp, ctx: &Context<'_>) -> Result<()> {
    drop_tables(ctx, w.schema.tables)
}

/// Drop sbtest1..sbtest`tables`: only what a prepare of this size creates.
pub fn drop_tables(ctx: &Context<'_>, tables: u32) -> Result<()> {
    let mut conn = ctx
        .driver
        .connect(0)
        .map_err(|e| setup_error(e, "connecting"))?;
    for t in 1..=tables {
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
