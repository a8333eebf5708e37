//! `pgbench -i`: pgbench's initialization steps in the order `-I` gives them (`dtgvp` by
//! default; `-n` drops the vacuum, `--foreign-keys` adds `f`), each announced as pgbench
//! announces it, with the tables pgbench makes (fill factor, unlogged, tablespaces,
//! partitions), its load's progress lines and its closing `done in …` line.

use super::options::Line;
use dbpress_core::error::Result;
use dbpress_driver::{Connection, DbError};
use std::time::Instant;

/// Accounts, tellers and branches per unit of scale.
const ACCOUNTS: i64 = 100_000;
const TELLERS: i64 = 10;

/// The tables in the order pgbench creates them, with their columns (`aid`'s type is filled
/// in: bigint past scale 20 000) and whether they take the fill factor.
const TABLES: [(&str, &str, bool); 4] = [
    (
        "pgbench_history",
        "tid int,bid int,aid    {aid},delta int,mtime timestamp,filler char(22)",
        false,
    ),
    (
        "pgbench_tellers",
        "tid int not null,bid int,tbalance int,filler char(84)",
        true,
    ),
    (
        "pgbench_accounts",
        "aid    {aid} not null,bid int,abalance int,filler char(84)",
        true,
    ),
    (
        "pgbench_branches",
        "bid int not null,bbalance int,filler char(88)",
        true,
    ),
];

/// The steps `-I` names, `-n` and `--foreign-keys` applied.
fn steps(line: &Line) -> String {
    let mut steps = line.init_steps.clone().unwrap_or_else(|| "dtgvp".into());
    if line.no_vacuum {
        steps.retain(|c| c != 'v');
    }
    if line.foreign_keys && !steps.contains('f') {
        steps.push('f');
    }
    steps
}

/// A failed statement as pgbench reports it; its lines are printed, and pgbench ends with 1.
fn query_failed(e: &DbError, sql: &str) -> dbpress_core::error::Error {
    eprintln!(
        "pgbench: error: query failed: ERROR:  {}\npgbench: detail: Query was: {sql}",
        e.message
    );
    dbpress_core::error::Error::Interrupted(String::new(), 1)
}

/// Run `sql`, printing the server's notices as libpq does.
fn exec(conn: &mut dyn Connection, sql: &str) -> Result<()> {
    let done = conn.query(sql);
    for notice in conn.take_notices() {
        eprintln!("{notice}");
    }
    done.map(|_| ()).map_err(|e| query_failed(&e, sql))
}

/// Run the steps on `conn`; pgbench's lines on stderr.
pub fn run(line: &Line, conn: &mut dyn Connection) -> Result<u8> {
    conn.collect_notices(true);
    let scale = line.scale.unwrap_or(1);
    let mut timings: Vec<(&str, f64)> = Vec::new();
    for step in steps(line).chars() {
        let started = Instant::now();
        let name = match step {
            'd' => {
                eprintln!("dropping old tables...");
                drop_tables(conn)?;
                "drop tables"
            }
            't' => {
                eprintln!("creating tables...");
                create_tables(line, conn, scale)?;
                "create tables"
            }
            'g' => {
                eprintln!("generating data (client-side)...");
                generate_client_side(line, conn, scale)?;
                "client-side generate"
            }
            'G' => {
                eprintln!("generating data (server-side)...");
                generate_server_side(conn, scale)?;
                "server-side generate"
            }
            'v' => {
                eprintln!("vacuuming...");
                for t in [
                    "pgbench_branches",
                    "pgbench_tellers",
                    "pgbench_accounts",
                    "pgbench_history",
                ] {
                    exec(conn, &format!("vacuum analyze {t}"))?;
                }
                "vacuum"
            }
            'p' => {
                eprintln!("creating primary keys...");
                primary_keys(line, conn)?;
                "primary keys"
            }
            _ => {
                eprintln!("creating foreign keys...");
                foreign_keys(conn)?;
                "foreign keys"
            }
        };
        timings.push((name, started.elapsed().as_secs_f64()));
    }
    let total: f64 = timings.iter().map(|(_, s)| s).sum();
    let each: Vec<String> = timings
        .iter()
        .map(|(n, s)| format!("{n} {s:.2} s"))
        .collect();
    eprintln!("done in {total:.2} s ({}).", each.join(", "));
    Ok(0)
}

/// pgbench's one DROP (the server's notices for tables that were not there are printed as
/// libpq prints them).
fn drop_tables(conn: &mut dyn Connection) -> Result<()> {
    exec(
        conn,
        "drop table if exists pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers",
    )
}

fn create_tables(line: &Line, conn: &mut dyn Connection, scale: i64) -> Result<()> {
    let aid = if scale >= 20_000 { "bigint" } else { "int" };
    let partitions = line.partitions.unwrap_or(0);
    for (table, columns, fill) in TABLES {
        let mut sql = format!(
            "create{} table {table}({})",
            if line.unlogged_tables {
                " unlogged"
            } else {
                ""
            },
            columns.replace("{aid}", aid)
        );
        if table == "pgbench_accounts" && partitions > 0 {
            let method = line.partition_method.as_deref().unwrap_or("range");
            sql.push_str(&format!(" partition by {method} (aid)"));
            sql.push_str(&storage(line, false));
        } else {
            sql.push_str(&storage(line, fill));
        }
        exec(conn, &sql)?;
    }
    if partitions > 0 {
        create_partitions(line, conn, scale, partitions)?;
    }
    Ok(())
}

/// `creating N partitions...`: ranges of equal width (the last open-ended), or hash moduli.
fn create_partitions(line: &Line, conn: &mut dyn Connection, scale: i64, n: i64) -> Result<()> {
    eprintln!("creating {n} partitions...");
    let hash = line.partition_method.as_deref() == Some("hash");
    let part_size = (ACCOUNTS * scale + n - 1) / n;
    for p in 1..=n {
        let bounds = if hash {
            format!("for values with (modulus {n}, remainder {})", p - 1)
        } else {
            let from = if p == 1 {
                "minvalue".to_string()
            } else {
                ((p - 1) * part_size + 1).to_string()
            };
            let to = if p < n {
                (p * part_size + 1).to_string()
            } else {
                "maxvalue".to_string()
            };
            format!("for values from ({from}) to ({to})")
        };
        let mut sql = format!(
            "create{} table pgbench_accounts_{p}\n  partition of pgbench_accounts\n  {bounds}",
            if line.unlogged_tables {
                " unlogged"
            } else {
                ""
            }
        );
        sql.push_str(&storage(line, true));
        exec(conn, &sql)?;
    }
    Ok(())
}

/// A table's storage clauses as pgbench writes them: the fill factor (`fill`) and the
/// tablespace.
fn storage(line: &Line, fill: bool) -> String {
    let mut s = String::new();
    if fill {
        s.push_str(&format!(
            " with (fillfactor={})",
            line.fillfactor.unwrap_or(100)
        ));
    }
    if let Some(ts) = &line.tablespace {
        s.push_str(&format!(" tablespace \"{ts}\""));
    }
    s
}

/// pgbench's load progress for one table: each 100 000th row, or under `-q` each 100th row
/// past the next 5 s step (or the last row); padded to cover a longer line before it.
struct Progress<'a> {
    quiet: bool,
    /// Named in the line from pgbench 17 on.
    table: Option<&'a str>,
    total: i64,
    started: Instant,
    log_interval: f64,
    prev_chars: usize,
}

impl Progress<'_> {
    fn row(&mut self, j: i64) {
        let due = if self.quiet {
            j % 100 == 0 && (j == self.total || self.elapsed() >= self.log_interval * 5.0)
        } else {
            j % 100_000 == 0
        };
        if !due {
            return;
        }
        let elapsed = self.elapsed();
        let remaining = (self.total - j) as f64 * elapsed / j as f64;
        let of = self.table.map(|t| format!(" of {t}")).unwrap_or_default();
        let text = format!(
            "{j} of {} tuples ({}%){of} done (elapsed {elapsed:.2} s, remaining {remaining:.2} s)",
            self.total,
            j * 100 / self.total
        );
        let pad = self.prev_chars.saturating_sub(text.len());
        eprintln!("{text}{:pad$}", "");
        self.prev_chars = text.len();
        if self.quiet {
            self.log_interval = (elapsed / 5.0).ceil();
        }
    }

    fn elapsed(&self) -> f64 {
        self.started.elapsed().as_secs_f64()
    }
}

/// In one transaction, after emptying the tables: branches and tellers (pgbench 17 by COPY,
/// before it row by row), then accounts by COPY, as pgbench words each statement.
fn generate_client_side(line: &Line, conn: &mut dyn Connection, scale: i64) -> Result<()> {
    exec(conn, "begin")?;
    exec(
        conn,
        "truncate table pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers",
    )?;
    if dbpress_core::personality::pgbench_major() >= 17 {
        populate(line, conn, BRANCHES_TABLE, scale, &mut |b, k| {
            b.int(k + 1);
            b.int(0);
            b.null();
        })?;
        populate(line, conn, TELLERS_TABLE, scale * TELLERS, &mut |b, k| {
            b.int(k + 1);
            b.int(k / TELLERS + 1);
            b.int(0);
            b.null();
        })?;
    } else {
        for b in 1..=scale {
            exec(
                conn,
                &format!("insert into pgbench_branches(bid,bbalance) values({b},0)"),
            )?;
        }
        for t in 1..=scale * TELLERS {
            let b = (t - 1) / TELLERS + 1;
            exec(
                conn,
                &format!("insert into pgbench_tellers(tid,bid,tbalance) values ({t},{b},0)"),
            )?;
        }
    }
    populate(line, conn, ACCOUNTS_TABLE, scale * ACCOUNTS, &mut |b, k| {
        b.int(k + 1);
        b.int(k / ACCOUNTS + 1);
        b.int(0);
        b.str(b"");
    })?;
    exec(conn, "commit")
}

/// A table pgbench's load copies rows into: its name and its number of columns.
struct CopiedTable {
    name: &'static str,
    columns: usize,
}

const BRANCHES_TABLE: CopiedTable = CopiedTable {
    name: "pgbench_branches",
    columns: 3,
};
const TELLERS_TABLE: CopiedTable = CopiedTable {
    name: "pgbench_tellers",
    columns: 4,
};
const ACCOUNTS_TABLE: CopiedTable = CopiedTable {
    name: "pgbench_accounts",
    columns: 4,
};

/// `total` rows of `into` by pgbench's COPY (FREEZE on a server of 14 or later, unless the
/// table is partitioned), `row` giving the k-th (from 0), with the progress lines.
fn populate(
    line: &Line,
    conn: &mut dyn Connection,
    into: CopiedTable,
    total: i64,
    row: &mut dyn FnMut(&mut dbpress_driver::RowBatch, i64),
) -> Result<()> {
    let table = into.name;
    let server_major: u32 = conn
        .server_version()
        .and_then(|v| v.split(['.', ' ']).next()?.parse().ok())
        .unwrap_or(0);
    let partitioned = table == "pgbench_accounts" && line.partitions.unwrap_or(0) > 0;
    let sql = match server_major >= 14 && !partitioned {
        true => format!("copy {table} from stdin with (freeze on)"),
        false => format!("copy {table} from stdin"),
    };
    let mut progress = Progress {
        quiet: line.quiet,
        table: (dbpress_core::personality::pgbench_major() >= 17).then_some(table),
        total,
        started: Instant::now(),
        log_interval: 1.0,
        prev_chars: 0,
    };
    let mut k = 0i64;
    let mut fill = |batch: &mut dbpress_driver::RowBatch| -> bool {
        while !batch.is_full() && k < total {
            row(batch, k);
            k += 1;
            progress.row(k);
        }
        k < total
    };
    conn.copy_in(&sql, into.columns, &mut fill)
        .map_err(|e| query_failed(&e, &sql))
}

fn generate_server_side(conn: &mut dyn Connection, scale: i64) -> Result<()> {
    exec(conn, "begin")?;
    exec(
        conn,
        "truncate table pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers",
    )?;
    exec(conn, &format!("insert into pgbench_branches(bid,bbalance) select bid, 0 from generate_series(1, {scale}) as bid"))?;
    exec(conn, &format!("insert into pgbench_tellers(tid,bid,tbalance) select tid, (tid - 1) / {TELLERS} + 1, 0 from generate_series(1, {}) as tid", scale * TELLERS))?;
    exec(conn, &format!("insert into pgbench_accounts(aid,bid,abalance,filler) select aid, (aid - 1) / {ACCOUNTS} + 1, 0, '' from generate_series(1, {}) as aid", scale * ACCOUNTS))?;
    exec(conn, "commit")
}

fn primary_keys(line: &Line, conn: &mut dyn Connection) -> Result<()> {
    for (t, c) in [
        ("pgbench_branches", "bid"),
        ("pgbench_tellers", "tid"),
        ("pgbench_accounts", "aid"),
    ] {
        let mut sql = format!("alter table {t} add primary key ({c})");
        if let Some(ts) = &line.index_tablespace {
            sql.push_str(&format!(" using index tablespace \"{ts}\""));
        }
        exec(conn, &sql)?;
    }
    Ok(())
}

fn foreign_keys(conn: &mut dyn Connection) -> Result<()> {
    for (t, c, r) in [
        ("pgbench_tellers", "bid", "pgbench_branches"),
        ("pgbench_accounts", "bid", "pgbench_branches"),
        ("pgbench_history", "bid", "pgbench_branches"),
        ("pgbench_history", "tid", "pgbench_tellers"),
        ("pgbench_history", "aid", "pgbench_accounts"),
    ] {
        exec(
            conn,
            &format!(
                "alter table {t} add constraint {t}_{c}_fkey foreign key ({c}) references {r}"
            ),
        )?;
    }
    Ok(())
}
