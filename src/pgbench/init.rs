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

fn exec(conn: &mut dyn Connection, sql: &str) -> Result<()> {
    conn.query(sql)
        .map(|_| ())
        .map_err(|e| query_failed(&e, sql))
}

/// Run the steps on `conn`; pgbench's lines on stderr.
pub fn run(line: &Line, conn: &mut dyn Connection) -> Result<u8> {
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

/// pgbench's one DROP; the server's notices for tables that were not there, as libpq prints
/// them.
fn drop_tables(conn: &mut dyn Connection) -> Result<()> {
    let names = [
        "pgbench_accounts",
        "pgbench_branches",
        "pgbench_history",
        "pgbench_tellers",
    ];
    let existing = conn
        .query_rows("select relname from pg_catalog.pg_class where relname like 'pgbench\\_%' and pg_catalog.pg_table_is_visible(oid)")
        .unwrap_or_default();
    for n in names {
        if !existing
            .iter()
            .any(|r| r.first().cloned().flatten().as_deref() == Some(n))
        {
            eprintln!("NOTICE:  table \"{n}\" does not exist, skipping");
        }
    }
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

/// Branches and tellers row by row, accounts by COPY, in one transaction; a progress line
/// every 100 000 accounts (with `-q`, every 5 s).
fn generate_client_side(line: &Line, conn: &mut dyn Connection, scale: i64) -> Result<()> {
    exec(conn, "begin")?;
    exec(
        conn,
        "truncate table pgbench_accounts, pgbench_branches, pgbench_history, pgbench_tellers",
    )?;
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
    let total = ACCOUNTS * scale;
    let started = Instant::now();
    let mut next = 1i64;
    let mut shown_at = 0u64;
    let mut fill = |batch: &mut dbpress_driver::RowBatch| -> bool {
        while !batch.is_full() && next <= total {
            batch.int(next);
            batch.int((next - 1) / ACCOUNTS + 1);
            batch.int(0);
            batch.str(b"");
            progress_line(line.quiet, next, total, &started, &mut shown_at);
            next += 1;
        }
        next <= total
    };
    conn.bulk_load("pgbench_accounts", "aid, bid, abalance, filler", &mut fill)
        .map_err(|e| query_failed(&e, "copy pgbench_accounts from stdin"))?;
    exec(conn, "commit")
}

/// pgbench's load progress: each 100 000th row, or under `-q` the first row past each 5 s.
fn progress_line(quiet: bool, j: i64, total: i64, started: &Instant, shown_at: &mut u64) {
    let elapsed = started.elapsed().as_secs_f64();
    let due = if quiet {
        let slot = (elapsed / 5.0) as u64;
        let due = slot > *shown_at || j == total;
        if due {
            *shown_at = slot;
        }
        due
    } else {
        j % 100_000 == 0
    };
    if due {
        let remaining = elapsed * (total - j) as f64 / j as f64;
        eprintln!(
            "{j} of {total} tuples ({}%) done (elapsed {elapsed:.2} s, remaining {remaining:.2} s)",
            j * 100 / total
        );
    }
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
