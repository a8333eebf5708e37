//! `dbpress slap`: mysqlslap's one-liners on every engine. The `--query` list runs as one event
//! per client iteration (each statement timed on its own, the list as the event), for every
//! `--concurrency` level and `--iterations` times, through the same runner as every workload.
//! Each level prints mysqlslap's own "Benchmark" block, so old notes compare, after dbpress's
//! summary with TPS, QPS, per-statement percentiles and errors by code.
//!
//! Unlike mysqlslap, slap never drops a schema: the schema (`--create-schema`) must exist, and
//! after each round it drops only the tables its `--create` statements created.

pub mod args;
mod mysqlslap_block;
pub mod peer;
pub mod plan;
mod rounds;
pub mod system_command;
mod target;

use crate::sweep::{self, Ending, Sweep};
use args::SlapArgs;
use dbpress_config::ConnectionFlags;
use dbpress_core::error::Result;
use dbpress_core::signals::Signals;
use dbpress_report::OutputFormat;
use dbpress_result::VERSION;
use dbpress_workload::slap::tables::StorageEngine;
use mysqlslap_block::append_csv;
use plan::Plan;
use rounds::Rounds;
use std::io::Write;

// A raw string: a `\` line continuation would strip the usage lines' indentation.
pub const HELP: &str = r#"dbpress slap: your own SQL, mysqlslap's command line, on every engine

Usage:
  dbpress slap [-u USER] [-pPASSWORD] [-h HOST] [-P PORT] [-S SOCKET] [--create-schema=DB]
               [--create=SQL|FILE] -q SQL|FILE [-c 8,32,64] [-i N] [--number-of-queries=N]
               [-F DELIM] [--pre-query=SQL] [--post-query=SQL] [--no-drop] [--only-print] [-s]
               [--csv[=FILE]] [-e innodb,myisam[:TABLE OPTIONS]] [--pre-system=CMD]
               [--post-system=CMD] [--ssl | --ssl-mode=MODE] [--ssl-ca|--ssl-cert|--ssl-key=FILE]
               [--defaults-file=FILE | --defaults-extra-file=FILE | --no-defaults] [--commit=N]
  dbpress slap ... -a [--auto-generate-sql-load-type=mixed|read|write|key|update] [-x N] [-y N]
               [--auto-generate-sql-add-autoincrement | --auto-generate-sql-guid-primary]
               [--auto-generate-sql-secondary-indexes=N] [--auto-generate-sql-write-number=N]
               [--auto-generate-sql-unique-query-number=N] [--auto-generate-sql-execute-number=N]
               [any dbpress option: --db, --db-driver, --output, --mysql-ignore-errors, ...]

A query is one line of --query (mysqlslap's default delimiter), so 'begin;update ...;commit' is one
query and one event; dbpress times each of its statements. Tables made by --create are dropped after
each round unless --no-drop; a schema is never created or dropped. -a generates mysqlslap's table t1
(in the given schema, never over an existing t1), its rows and its queries, one query per event.
--csv=FILE appends mysqlslap's CSV line per concurrency level to FILE; --csv alone prints only those
lines. -e/--engine runs every level once per MySQL storage engine, appending ENGINE = NAME to each
CREATE TABLE and checking the server used it. See docs/GUIDE.md section 9.
"#;

pub fn main(raw: &[String]) -> Result<u8> {
    if raw.iter().any(|a| a == "--help" || a == "-?") {
        dbpress_core::out!("{HELP}");
        return Ok(0);
    }
    let a = args::parse(raw)?;
    crate::cli::print_notices(&a.opts);
    // The command as the result records it: `slap` and its arguments, as a run records its
    // workload and command.
    let argv: Vec<String> = std::iter::once("slap".to_string())
        .chain(raw.iter().cloned())
        .collect();
    let plan = Plan::new(&a)?;
    // mysqlslap runs every concurrency level once per --engine.
    let engines: Vec<Option<&StorageEngine>> = match a.engines.is_empty() {
        true => vec![None],
        false => a.engines.iter().map(Some).collect(),
    };
    if a.only_print {
        plan::print(&a, &plan, &engines);
        return Ok(0);
    }
    let signals = Signals::install();
    let mut first = sweep::first_config("slap", &a.opts, a.concurrency[0])?;
    first.connection.flags = ConnectionFlags::Mysqlslap;
    let csv_on_stdout = check_csv(&a)?;
    let (mut stdout, mut sink, mut stderr) = (
        dbpress_core::out::Stdout,
        std::io::sink(),
        std::io::stderr(),
    );
    let out: &mut dyn Write = match (a.silent, first.reporting.format) {
        (true, _) => &mut sink,
        (false, OutputFormat::Text) if !csv_on_stdout => &mut stdout,
        (false, _) => &mut stderr,
    };
    let _ = writeln!(out, "dbpress {VERSION} slap (mysqlslap-compatible)\n");
    let names = engines.iter().map(|e| e.map(|e| e.name.clone())).collect();
    let mut sweep = Sweep::new(&first, &argv, &a.concurrency)
        .per_engine(names)
        .ending(Ending::Rounds {
            shown: !a.silent && !csv_on_stdout,
        });
    let mut rounds = Rounds::new(&a, plan, &first, &argv, out, &signals);
    let interrupted = rounds.run(&mut sweep, &engines)?;
    let csv = rounds.csv;
    sweep.finish_with(interrupted, || match a.csv.as_deref() {
        Some("") => {
            dbpress_core::out!("{csv}");
            Ok(())
        }
        Some(path) => append_csv(path, &csv),
        None => Ok(()),
    })
}

/// The rounds as mysqlslap runs them, printing only its text (dbpress as mysqlslap, #42):
/// `argv` is the line as typed, `peer` the main session's side. Returns the exit code.
pub fn run_as_peer(a: &SlapArgs, argv: &[String], plan: Plan, peer: peer::Peer) -> Result<u8> {
    let engines: Vec<Option<&StorageEngine>> = match a.engines.is_empty() {
        true => vec![None],
        false => a.engines.iter().map(Some).collect(),
    };
    let signals = Signals::install();
    let mut first = sweep::first_config("slap", &a.opts, a.concurrency[0])?;
    first.connection.flags = ConnectionFlags::Mysqlslap;
    let csv_on_stdout = a.csv.as_deref() == Some("");
    let (mut stdout, mut sink) = (dbpress_core::out::Stdout, std::io::sink());
    let out: &mut dyn Write = match a.silent || csv_on_stdout {
        true => &mut sink,
        false => &mut stdout,
    };
    let names = engines.iter().map(|e| e.map(|e| e.name.clone())).collect();
    let mut sweep = Sweep::new(&first, argv, &a.concurrency)
        .per_engine(names)
        .ending(Ending::Rounds { shown: false });
    let mut rounds = Rounds::new(a, plan, &first, argv, out, &signals).with_peer(peer);
    let interrupted = rounds.run(&mut sweep, &engines)?;
    let csv = rounds.csv;
    let write_csv = || match a.csv.as_deref() {
        Some("") => {
            dbpress_core::out!("{csv}");
            Ok(())
        }
        Some(path) => append_csv(path, &csv),
        None => Ok(()),
    };
    // mysqlslap ends 0 when its clients could not connect, or when `-i 0` ran nothing: no
    // result to keep then, only its blocks (and CSV lines).
    if !sweep.ran_any() && interrupted.is_none() {
        write_csv()?;
        return Ok(0);
    }
    sweep.finish_with(interrupted, write_csv)
}

/// `--csv` without a file: stdout carries mysqlslap's CSV alone, as with mysqlslap (true). A
/// file is opened now, as mysqlslap does, so a wrong path fails before the run, not after it;
/// one this check creates is removed again, so a run that fails leaves no empty file.
fn check_csv(a: &SlapArgs) -> Result<bool> {
    if let Some(path) = a.csv.as_deref().filter(|p| !p.is_empty()) {
        let existed = std::path::Path::new(path).exists();
        append_csv(path, "")?;
        if !existed {
            let _ = std::fs::remove_file(path);
        }
    }
    Ok(a.csv.as_deref() == Some(""))
}
