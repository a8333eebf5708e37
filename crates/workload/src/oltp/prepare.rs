//! Creating, checking and dropping the sbtestN tables.
//!
//! prepare: each thread loads whole tables while there are tables nobody loads, then helps with
//! blocks of the others (`blocks.rs`); rows go by the connection's bulk path
//! (`Connection::bulk_load`), and the secondary index is built after the load, as sysbench does.
//! cleanup drops only sbtest1..sbtestN for the given --tables: never anything it did not create.

use super::blocks::{Block, BlockQueue};
use super::sql::{create_index, create_table, drop_table, C_TEMPLATE, PAD_TEMPLATE};
use super::Oltp;
use crate::load_progress::LoadProgress;
use crate::workload::Context;
use dbpress_core::error::{environment, Error, Result};
use dbpress_core::rand::{Distribution, Rng, Template};
use dbpress_core::signals::{self, Signals};
use dbpress_driver::{Connection, DbResult, RowBatch};
use dbpress_measure::host::Sampler;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::OnceLock;

pub use crate::workload::setup_error;

pub fn existing_tables(conn: &mut dyn Connection, ctx: &Context<'_>) -> Result<Vec<String>> {
    Ok(listed_tables(conn, ctx)?
        .into_iter()
        .map(|t| t.name)
        .collect())
}

/// The comment prepare puts on a table until its rows and index are in place.
const LOADING: &str = "dbpress: loading";

/// An sbtest table as the dialect's table listing shows it.
struct ListedTable {
    name: String,
    comment: String,
    largest_id: LargestId,
}

/// What the listing says of a table's largest id (`Dialect::table_next_id_column`).
#[derive(Clone, Copy)]
enum LargestId {
    Listed(u64),
    /// The listing has the column, empty: a table without auto-increment.
    NotListed,
    /// The listing has no such column: ask the table.
    AskTable,
}

fn listed_tables(conn: &mut dyn Connection, ctx: &Context<'_>) -> Result<Vec<ListedTable>> {
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
            let largest_id = match d.table_next_id_column {
                None => LargestId::AskTable,
                Some(c) => match r
                    .get(c)
                    .cloned()
                    .flatten()
                    .and_then(|v| v.parse::<u64>().ok())
                {
                    Some(next) => LargestId::Listed(next.saturating_sub(1)),
                    None => LargestId::NotListed,
                },
            };
            Some(ListedTable {
                name,
                comment,
                largest_id,
            })
        })
        .collect())
}

pub fn check_ready(w: &Oltp, conn: &mut dyn Connection, ctx: &Context<'_>) -> Result<Vec<String>> {
    if ctx.driver.dialect().executes_nothing {
        return Ok(Vec::new());
    }
    let tables = listed_tables(conn, ctx)?;
    for t in 1..=w.schema.tables {
        let name = format!("sbtest{t}");
        match tables.iter().find(|l| l.name == name).map(|l| l.comment.as_str()) {
            None => return Err(missing_table(w, &tables, &name, ctx)),
            Some(LOADING) => {
                return Err(environment(format!(
                    "table '{name}' was left half-loaded by an interrupted prepare: run `{inv} cleanup --tables={n}` and `{inv} prepare` again",
                    inv = ctx.invocation,
                    n = w.schema.tables
                )))
            }
            Some(_) => {}
        }
    }
    Ok(short_tables_warning(w, conn, ctx, &tables)?
        .into_iter()
        .collect())
}

/// The missing-table message. With none of the tables there, prepare comes first; with some
/// there (prepare used a smaller --tables), prepare would refuse the existing ones, so the fix is
/// the --tables prepare used, or cleanup of the existing ones and a new prepare.
fn missing_table(w: &Oltp, listed: &[ListedTable], name: &str, ctx: &Context<'_>) -> Error {
    let inv = &ctx.invocation;
    let n = w.schema.tables;
    let present: Vec<u32> = (1..=n)
        .filter(|t| listed.iter().any(|l| l.name == format!("sbtest{t}")))
        .collect();
    if present.is_empty() {
        return environment(format!(
            "table '{name}' does not exist: run `{inv} prepare` with the same --tables/--table-size first"
        ));
    }
    let fix = format!("`{inv} cleanup --tables={n}` and `{inv} prepare --tables={n}`");
    let k = present.len() as u32;
    // Tables prepared by a smaller --tables are sbtest1..sbtestK with no gap.
    if present.iter().copied().eq(1..=k) {
        let only = if k == 1 {
            "only sbtest1 exists".to_string()
        } else {
            format!("only sbtest1..sbtest{k} exist")
        };
        return environment(format!(
            "table '{name}' does not exist, {only}: run with --tables={k} (as prepare did), or {fix}"
        ));
    }
    environment(format!(
        "table '{name}' does not exist, though {k} of the {n} tables do: {fix}"
    ))
}

fn largest_id(conn: &mut dyn Connection, ctx: &Context<'_>, table: &str) -> Result<u64> {
    max_id(conn, table).map_err(|e| table_error(e, ctx, table))
}

/// A statement on `table` failed. A column the sysbench tables have that this one lacks means
/// the table is someone else's, not a damaged one of dbpress's: say so, and never suggest
/// dropping it (dbpress drops only what its prepare made).
fn table_error(
    e: dbpress_driver::DbError,
    ctx: &Context<'_>,
    table: &str,
) -> dbpress_core::error::Error {
    if !e.names_unknown_column() {
        return setup_error(e, &format!("checking {table}"));
    }
    environment(format!(
        "table '{table}' is not a sysbench table ({}; server error {}): sysbench's tables have the columns id, k, c and pad, \
         and this one was not made by `{} prepare`; keep it, and choose another database with {}",
        e.message,
        e.code,
        ctx.invocation,
        ctx.driver.hints().database
    ))
}

/// `SELECT MAX(id)` of `table`; 0 for an empty table.
pub fn max_id(conn: &mut dyn Connection, table: &str) -> DbResult<u64> {
    Ok(conn
        .query_rows(&format!("SELECT MAX(id) FROM {table}"))?
        .into_iter()
        .next()
        .and_then(|r| r.into_iter().next().flatten())
        .and_then(|v| v.parse::<u64>().ok())
        .unwrap_or(0))
}

/// Tables whose ids stop well short of --table-size (prepared smaller than this run assumes): the
/// run still goes, as sysbench's would, but its keys past the end find no row, so reads return
/// nothing and writes change nothing, which flatters every figure. The largest id comes from the
/// table listing where it shows it (MySQL), else from a `MAX(id)`, an index lookup.
fn short_tables_warning(
    w: &Oltp,
    conn: &mut dyn Connection,
    ctx: &Context<'_>,
    listed: &[ListedTable],
) -> Result<Option<String>> {
    let s = &w.schema;
    // oltp_insert with --auto-inc=off starts from empty tables by design.
    if s.load_rows == 0 {
        return Ok(None);
    }
    // A table drained by oltp_delete (no re-insert) loses its top ids one at a time; only a
    // shortfall of more than 1% says it was prepared smaller.
    let size = u64::from(s.table_size);
    let enough = size - size / 100;
    let mut short = Vec::new();
    for t in 1..=s.tables {
        let name = format!("sbtest{t}");
        let listed = listed.iter().find(|l| l.name == name).map(|l| l.largest_id);
        let max = match listed.unwrap_or(LargestId::AskTable) {
            LargestId::Listed(max) if max >= enough => continue,
            // MySQL 8 may show table statistics cached up to a day old
            // (information_schema_stats_expiry): a short table is confirmed from the table
            // itself, so only a warning's tables cost a SELECT that Com_select counts.
            LargestId::Listed(_) | LargestId::AskTable => largest_id(conn, ctx, &name)?,
            // A MySQL table without AUTO_INCREMENT (--auto-inc=off): not worth a SELECT that
            // the server's Com_select would count.
            LargestId::NotListed => continue,
        };
        if max < enough {
            short.push((name, max));
        }
    }
    let Some((first, max)) = short.first() else {
        return Ok(None);
    };
    let which = match short.len() {
        1 => format!("'{first}' holds ids only up to {max}"),
        n => format!("{n} tables hold fewer ids ('{first}' only up to {max})"),
    };
    Ok(Some(format!(
        "--table-size={} but {which}: keys past the end find no row (reads return nothing, updates \
         and deletes change nothing); run with the --table-size that prepare used",
        s.table_size
    )))
}

/// `check`: every table present, fully loaded (rows and id range), with its secondary index.
pub fn check(w: &Oltp, ctx: &Context<'_>) -> Result<()> {
    let mut conn = ctx.connect(0)?;
    let tables = listed_tables(conn.as_mut(), ctx)?;
    let s = &w.schema;
    let mut problems = 0;
    for t in 1..=s.tables {
        let name = format!("sbtest{t}");
        let Some(comment) = tables.iter().find(|l| l.name == name).map(|l| &l.comment) else {
            dbpress_core::notice!("{name}: missing");
            problems += 1;
            continue;
        };
        let first = |rows: Vec<Vec<Option<String>>>| -> Vec<Option<String>> {
            rows.into_iter().next().unwrap_or_default()
        };
        let stats = first(
            conn.query_rows(&format!("SELECT COUNT(*), MIN(id), MAX(id) FROM {name}"))
                .map_err(|e| table_error(e, ctx, &name))?,
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
        // An empty table has no id range to show; its row count already says it.
        if let (Some(lo), Some(hi)) = (min, max) {
            if lo != 1 || hi != u64::from(s.load_rows) {
                issues.push(format!("ids {lo}..{hi}, expected 1..{}", s.load_rows));
            }
        }
        if s.create_secondary {
            let idx = conn
                .query_rows(&(ctx.driver.dialect().index_exists)(
                    &name,
                    &format!("k_{t}"),
                ))
                .map_err(|e| setup_error(e, &format!("checking {name}")))?;
            if idx.is_empty() {
                issues.push(format!("secondary index k_{t} missing"));
            }
        }
        if issues.is_empty() {
            dbpress_core::notice!(
                "{name}: ok ({rows} rows, ids 1..{rows}{})",
                if s.create_secondary {
                    format!(", index k_{t}")
                } else {
                    String::new()
                }
            );
        } else {
            dbpress_core::notice!("{name}: {}", issues.join("; "));
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
    dbpress_core::notice!("All {} tables are ready.", s.tables);
    Ok(())
}

/// `prewarm`: read every table and its primary key into the buffer pool, as sysbench does.
pub fn prewarm(w: &Oltp, ctx: &Context<'_>) -> Result<()> {
    let threads = ctx.threads.min(w.schema.tables).max(1);
    let dialect = ctx.driver.dialect();
    crate::crew::crew(ctx, threads as usize, None, |tid, conn, stopped| {
        for sql in dialect.prewarm_session {
            conn.query(sql).map_err(|e| setup_error(e, "prewarm"))?;
        }
        // Worker i takes tables i+1, i+1+threads, …
        let mut t = tid as u32 + 1;
        while t <= w.schema.tables && !stopped() {
            dbpress_core::notice!("Prewarming table sbtest{t}");
            let n = w.schema.table_size;
            for sql in (dialect.prewarm)(t, n) {
                conn.query(&sql)
                    .map_err(|e| setup_error(e, &format!("prewarming sbtest{t}")))?;
            }
            t += threads;
        }
        Ok(())
    })
}

pub fn prepare(w: &Oltp, ctx: &Context<'_>) -> Result<Option<dbpress_measure::host::HostUsage>> {
    let s = &w.schema;
    let dialect = ctx.driver.dialect();
    let mut probe = ctx.connect(0)?;
    let dry = ctx.driver.dialect().executes_nothing;
    // Where a load's time goes: the server's CPU, dbpress's, the disk under the data.
    let host = Sampler::started_for(ctx.driver, probe.as_mut());
    if !dry {
        let existing = existing_tables(probe.as_mut(), ctx)?;
        for t in 1..=s.tables {
            let name = format!("sbtest{t}");
            if existing.iter().any(|e| e == &name) {
                return Err(environment(format!(
                    "table '{name}' already exists: run `{} cleanup --tables={}` first, or choose another database with {}",
                    ctx.invocation, s.tables, ctx.driver.hints().database
                )));
            }
        }
    }
    // Ctrl-C stops the loaders at their next block and says which tables are half-loaded (a
    // second one exits at once); the tables keep their loading mark for `check` and `run`.
    let signals = Signals::install();
    let progress = LoadProgress::new(u64::from(s.tables) * u64::from(s.load_rows));
    let as_sysbench = dbpress_core::personality::is_sysbench();
    let queue = BlockQueue::new(s.tables, s.load_rows);
    let mut remaining = Vec::new();
    for t in 1..=s.tables {
        // A signal while creating (hundreds of tables can take a while) stops here too.
        if signals.caught().is_some() {
            break;
        }
        // As sysbench (#42) the line comes just before the table's rows, in sysbench's order
        // (a table's three lines together); the tables are all created here all the same.
        if !as_sysbench {
            progress.say(&creating(t));
        }
        probe
            .query(&create_table(s, dialect, t))
            .map_err(|e| setup_error(e, &format!("creating sbtest{t}")))?;
        // Marked until the rows and index are in: `run` and `check` then spot an interrupted load.
        probe
            .query(&(dialect.set_table_comment)(&format!("sbtest{t}"), LOADING))
            .map_err(|e| setup_error(e, &format!("marking sbtest{t}")))?;
        remaining.push(AtomicU32::new(queue.blocks_in(t)));
    }
    drop(probe);
    if let Some(sig) = signals.caught() {
        // Nothing loaded yet: say which tables exist (empty, still marked as loading).
        progress.stopped();
        let msg = match remaining.len() {
            0 => format!("prepare interrupted by {sig} before any table was created"),
            n => format!(
                "prepare interrupted by {sig} while creating tables: {} created with no rows: run `{} cleanup --tables={}` before preparing again",
                table_span(n),
                ctx.invocation,
                s.tables
            ),
        };
        return Err(Error::Interrupted(msg, signals::exit_code(sig)));
    }
    for t in 1..=s.tables {
        if remaining[t as usize - 1].load(Ordering::Relaxed) == 0 {
            // Nothing to load (oltp_insert with --auto-inc=off): finish the table now.
            if as_sysbench {
                progress.say(&creating(t));
            }
            let mut conn = ctx.connect(0)?;
            finish_table(w, ctx, conn.as_mut(), t, &progress)?;
        }
    }

    let all_blocks: u32 = (1..=s.tables).map(|t| queue.blocks_in(t)).sum();
    let threads = (ctx.threads as usize).min(all_blocks as usize).max(1);
    // How the rows went, as the connections report it.
    let path: OnceLock<&'static str> = OnceLock::new();
    let announced: Vec<AtomicBool> = (0..s.tables).map(|_| AtomicBool::new(false)).collect();
    let loaded = crate::crew::crew(ctx, threads, Some(&signals), |tid, conn, stopped| {
        if w.schema.prepare_fast {
            fast_session(conn, ctx, tid == 0);
        }
        let dist = Distribution::new(ctx.dist);
        let mut current = None;
        while !stopped() {
            let Some(b) = queue.claim(current) else {
                break;
            };
            current = Some(b.t);
            if !announced[b.t as usize - 1].swap(true, Ordering::Relaxed) {
                if as_sysbench {
                    progress.say(&creating(b.t));
                }
                progress.say(&format!(
                    "Inserting {} records into 'sbtest{}'",
                    w.schema.load_rows, b.t
                ));
            }
            let how = load_block(w, conn, &dist, b, &progress)?;
            path.get_or_init(|| how);
            if remaining[b.t as usize - 1].fetch_sub(1, Ordering::AcqRel) == 1 {
                finish_table(w, ctx, conn, b.t, &progress)?;
            }
        }
        Ok(())
    });
    // After an error or a signal: every table the load left half-done, and the way out.
    let half_loaded = || {
        let unfinished: Vec<String> = (1..=s.tables)
            .filter(|&t| remaining[t as usize - 1].load(Ordering::Relaxed) > 0)
            .map(|t| format!("sbtest{t}"))
            .collect();
        (!unfinished.is_empty()).then(|| {
            format!(
                "{} left half-loaded ({} of {} rows in): run `{} cleanup --tables={}` before preparing again",
                unfinished.join(", "),
                progress.stopped(),
                u64::from(s.tables) * u64::from(s.load_rows),
                ctx.invocation,
                s.tables
            )
        })
    };
    if let Err(e) = loaded {
        let Some(left) = half_loaded() else {
            progress.stopped();
            return Err(e);
        };
        return Err(e.followed_by(&format!("; the load stopped with {left}")));
    }
    if let Some(sig) = signals.caught() {
        if let Some(left) = half_loaded() {
            return Err(Error::Interrupted(
                format!("prepare interrupted by {sig}: {left}"),
                signals::exit_code(sig),
            ));
        }
    }
    progress.finish(path.get().copied().unwrap_or("no rows"));
    Ok(host.finish_now())
}

/// The first `n` (≥ 1) tables as the subject of a sentence: "sbtest1 was" … "sbtest1 to
/// sbtest40 were".
fn table_span(n: usize) -> String {
    match n {
        0 | 1 => "sbtest1 was".to_string(),
        2 => "sbtest1 and sbtest2 were".to_string(),
        n => format!("sbtest1 to sbtest{n} were"),
    }
}

/// `--prepare-fast`: the dialect's faster, less safe session settings (MySQL: no unique or
/// foreign-key checks, no binary log; PostgreSQL: asynchronous commit; SQLite: no fsync).
/// The data is generated with unique ids, so the checks could not fail; binary logging off means
/// replicas do not get the rows (documented in GUIDE.md). Statements the user may not run
/// (sql_log_bin needs SUPER) are skipped with a notice.
fn fast_session(conn: &mut dyn Connection, ctx: &Context<'_>, say: bool) {
    for &sql in ctx.driver.dialect().fast_session {
        if let Err(e) = conn.query(sql) {
            if say {
                eprintln!(
                    "dbpress: notice: --prepare-fast: `{sql}` refused ({}), continuing without it",
                    e.message
                );
            }
        }
    }
}

/// Row `id` of a table: k from --rand-type, c and pad from the templates.
struct RowGen {
    rng: Rng,
    c_tpl: Template,
    pad_tpl: Template,
    c: [u8; 119],
    pad: [u8; 59],
}

impl RowGen {
    /// Data depends only on the table and block, so every prepare (any --threads) makes the
    /// same rows.
    fn new(b: Block) -> RowGen {
        RowGen {
            rng: Rng::new(0x5eed_0001, (u64::from(b.t) << 32) | u64::from(b.index)),
            c_tpl: Template::new(C_TEMPLATE),
            pad_tpl: Template::new(PAD_TEMPLATE),
            c: [0; 119],
            pad: [0; 59],
        }
    }

    fn next(&mut self, dist: &Distribution, table_size: u32) -> (u32, &[u8], &[u8]) {
        let k = dist.sample(&mut self.rng, 1, table_size);
        self.c_tpl.fill(&mut self.rng, &mut self.c);
        self.pad_tpl.fill(&mut self.rng, &mut self.pad);
        (k, &self.c, &self.pad)
    }
}

/// Load one block of rows by the connection's bulk path; returns the path's name.
fn load_block(
    w: &Oltp,
    conn: &mut dyn Connection,
    dist: &Distribution,
    b: Block,
    progress: &LoadProgress,
) -> Result<&'static str> {
    let size = w.schema.table_size;
    let mut rows = RowGen::new(b);
    let mut id = b.first;
    let mut fill = |batch: &mut RowBatch| -> bool {
        let before = batch.rows();
        while !batch.is_full() && id <= b.last {
            let (k, c, pad) = rows.next(dist, size);
            batch.int(i64::from(id));
            batch.int(i64::from(k));
            batch.str(c);
            batch.str(pad);
            id += 1;
        }
        progress.add((batch.rows() - before) as u64);
        id <= b.last
    };
    conn.bulk_load(&format!("sbtest{}", b.t), "id, k, c, pad", &mut fill)
        .map_err(|e| setup_error(e, &format!("loading sbtest{}", b.t)))
}

/// After a table's last block: the secondary index, then the loading mark comes off.
fn finish_table(
    w: &Oltp,
    ctx: &Context<'_>,
    conn: &mut dyn Connection,
    t: u32,
    progress: &LoadProgress,
) -> Result<()> {
    let dialect = ctx.driver.dialect();
    if w.schema.secondary && !dialect.inline_key {
        // --secondary without inline KEY syntax: the id index comes after the load.
        conn.query(&format!("CREATE INDEX xid_{t} ON sbtest{t}(id)"))
            .map_err(|e| setup_error(e, &format!("indexing sbtest{t}")))?;
    }
    if w.schema.create_secondary {
        progress.say(&format!("Creating a secondary index on 'sbtest{t}'..."));
        conn.query(&create_index(t))
            .map_err(|e| setup_error(e, &format!("indexing sbtest{t}")))?;
    }
    if let Some(sync) = dialect.sync_auto_id.filter(|_| w.schema.auto_inc) {
        conn.query(&sync(&format!("sbtest{t}")))
            .map_err(|e| setup_error(e, &format!("advancing the id sequence of sbtest{t}")))?;
    }
    if let Some(after) = dialect.after_load.filter(|_| w.schema.vacuum) {
        conn.query(&after(&format!("sbtest{t}")))
            .map_err(|e| setup_error(e, &format!("analyzing sbtest{t}")))?;
    }
    conn.query(&(ctx.driver.dialect().set_table_comment)(
        &format!("sbtest{t}"),
        "",
    ))
    .map_err(|e| setup_error(e, &format!("marking sbtest{t}")))?;
    Ok(())
}

/// sysbench's line for a table it creates.
fn creating(t: u32) -> String {
    format!("Creating table 'sbtest{t}'...")
}

pub fn cleanup(w: &Oltp, ctx: &Context<'_>) -> Result<()> {
    drop_tables(ctx, w.schema.tables)
}

/// Drop sbtest1..sbtest`tables`: only what a prepare of this size creates.
pub fn drop_tables(ctx: &Context<'_>, tables: u32) -> Result<()> {
    let mut conn = ctx.connect(0)?;
    // Only the tables that are there are said to be dropped (the statement stays IF EXISTS).
    let existing = existing_tables(conn.as_mut(), ctx)?;
    // As sysbench (#42): every table's line and its DROP TABLE IF EXISTS, there or not, so
    // the text and the server's counters are sysbench's.
    let as_sysbench = dbpress_core::personality::is_sysbench();
    let mut dropped = 0;
    for t in 1..=tables {
        let name = format!("sbtest{t}");
        if !as_sysbench && !existing.iter().any(|e| e == &name) {
            continue;
        }
        dbpress_core::notice!("Dropping table '{name}'...");
        conn.query(&drop_table(t))
            .map_err(|e| setup_error(e, &format!("dropping {name}")))?;
        dropped += 1;
    }
    if dropped == 0 {
        dbpress_core::notice!("No table sbtest1..sbtest{tables} here: nothing to drop.");
    }
    Ok(())
}
