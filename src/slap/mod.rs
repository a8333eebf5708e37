//! `dbpress slap`: mysqlslap's one-liners on every engine. The `--query` list runs as one event
//! per client iteration (each statement timed on its own, the list as the event), for every
//! `--concurrency` level and `--iterations` times, through the same runner as every workload.
//! Each level prints mysqlslap's own "Benchmark" block, so old notes compare, after dbpress's
//! summary with TPS, QPS, per-statement percentiles and errors by code.
//!
//! Unlike mysqlslap, slap never drops a schema: the schema (`--create-schema`) must exist, and
//! after each round it drops only the tables its `--create` statements created.

pub mod args;

use crate::cli::Command;
use crate::run;
use crate::sweep::stopped_by;
use args::{slap_queries, statements_of, SlapArgs};
use dbpress_config::redact::redact_args;
use dbpress_config::to_driver::make_driver;
use dbpress_config::ConnectionFlags;
use dbpress_config::{OutputFormat, RunConfig};
use dbpress_core::error::{failed, Result};
use dbpress_core::signals::{self, Signals};
use dbpress_measure::result::sweep::{Step, SweepResult};
use dbpress_measure::result::VERSION;
use dbpress_measure::result::{Tool, SCHEMA_VERSION};
use dbpress_workload::slap::tables::{SetUpFailed, SlapTables, StorageEngine};
use dbpress_workload::slap::{autogen, workload};
use dbpress_workload::Context;
use std::io::Write;

/// Statements of every phase, split on the delimiter.
struct Plan {
    /// --create (or -a's table), --pre-query and --post-query.
    tables: SlapTables,
    queries: Vec<String>,
    /// mysqlslap's count of queries in one event: one pass over --query (its delimiter's
    /// split), or one generated query with -a.
    slap_queries: u64,
    /// -a: the generated table, rows and queries.
    auto: Option<autogen::AutoSql>,
}

impl Plan {
    fn new(a: &SlapArgs) -> Result<Plan> {
        let split = |v: &Option<String>| -> Result<Vec<String>> {
            v.as_deref()
                .map_or(Ok(Vec::new()), |v| statements_of(v, a.delimiter.as_deref()))
        };
        if let Some(g) = &a.auto {
            // A fixed seed, as mysqlslap's: every run generates the same rows and queries.
            let mut sql = autogen::AutoSql::new(g, a.driver, 1)?;
            // The preload rows move into the plan: one copy, however many rows.
            let preload = std::mem::take(&mut sql.preload);
            return Ok(Plan {
                tables: SlapTables::new(
                    std::iter::once(sql.create.clone()).chain(preload).collect(),
                    split(&a.pre_query)?,
                    split(&a.post_query)?,
                )
                .generated()
                .no_drop(a.no_drop),
                queries: sql.queries.iter().map(|q| q.sql.clone()).collect(),
                slap_queries: 1,
                auto: Some(sql),
            });
        }
        let plan = Plan {
            tables: SlapTables::new(
                split(&a.create)?,
                split(&a.pre_query)?,
                split(&a.post_query)?,
            )
            .no_drop(a.no_drop),
            queries: split(&a.query)?,
            slap_queries: a
                .query
                .as_deref()
                .map_or(Ok(0), |q| slap_queries(q, a.delimiter.as_deref()))?
                as u64,
            auto: None,
        };
        if plan.queries.is_empty() {
            return Err(dbpress_core::error::usage("--query holds no statement"));
        }
        if plan.queries.len() > 250 {
            return Err(dbpress_core::error::usage(format!(
                "--query holds {} statements; dbpress slap takes at most 250 per list",
                plan.queries.len()
            )));
        }
        Ok(plan)
    }
}

/// Events in one round, in all and for each client: as in mysqlslap, every client runs its own
/// share of --number-of-queries (its queries: lines by default, or pieces between -F
/// delimiters; 31 on 3 clients run 30), here as whole passes over --query, or one -a query per
/// event; without it each client makes one pass (or -a's own count).
fn events(a: &SlapArgs, plan: &Plan, clients: u32) -> (u64, u64) {
    let per_client = match (&plan.auto, &a.auto) {
        (Some(sql), Some(g)) => match a.number_of_queries {
            0 => sql.per_client(g),
            n => n / u64::from(clients),
        },
        _ if a.number_of_queries == 0 => 1,
        _ => (a.number_of_queries / u64::from(clients)).div_ceil(plan.slap_queries.max(1)),
    };
    // At least one each: 0 events would mean no limit.
    let per_client = per_client.max(1);
    (per_client * u64::from(clients), per_client)
}

/// mysqlslap's `--pre-system`/`--post-system`: `sh -c CMD`, its output on stderr (stdout keeps
/// the report, or `--csv` alone); a failure is a warning and the rounds go on, as in mysqlslap.
fn shell(option: &str, cmd: &str) {
    use std::os::fd::AsFd;
    let mut c = std::process::Command::new("sh");
    c.arg("-c").arg(cmd);
    if let Ok(fd) = std::io::stderr().as_fd().try_clone_to_owned() {
        c.stdout(fd);
    }
    let _ = std::io::stdout().flush();
    match c.status() {
        Ok(s) if s.success() => {}
        // The command itself is not repeated: it may hold a password (`mysql -pSECRET`).
        Ok(s) => dbpress_core::verbosity::warn(&format!(
            "the {option} command exited with {}; the rounds go on",
            s.code()
                .map_or("a signal".to_string(), |c| format!("status {c}"))
        )),
        Err(e) => dbpress_core::verbosity::warn(&format!(
            "the {option} command could not start: {e}; the rounds go on"
        )),
    }
}

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
    let mut plan = Plan::new(&a)?;
    // mysqlslap runs every concurrency level once per --engine.
    let engines: Vec<Option<&StorageEngine>> = match a.engines.is_empty() {
        true => vec![None],
        false => a.engines.iter().map(Some).collect(),
    };
    if a.only_print {
        // mysqlslap --only-print: what would run, nothing connects.
        for &e in &engines {
            if let Some(e) = e {
                dbpress_core::outln!("-- engine {}", e.name);
            }
            for s in plan.tables.create_for(e).iter().chain(&plan.tables.pre) {
                dbpress_core::outln!("{s};");
            }
        }
        for &c in &a.concurrency {
            dbpress_core::outln!(
                "-- {c} clients, {} list iteration(s) in all, {} round(s):",
                events(&a, &plan, c).0,
                a.iterations
            );
            for s in &plan.queries {
                dbpress_core::outln!("{s};");
            }
        }
        for s in &plan.tables.post {
            dbpress_core::outln!("{s};");
        }
        for t in plan.tables.created() {
            dbpress_core::outln!("DROP TABLE {t}; -- only if this run created it");
        }
        return Ok(0);
    }

    let signals = Signals::install();
    let first = {
        let mut o = a.opts.clone();
        o.set("threads", a.concurrency[0].to_string());
        let mut cfg = RunConfig::from_options("slap", Command::Run, &o)?;
        cfg.connection_flags = ConnectionFlags::Mysqlslap;
        cfg
    };
    let mut stdout = dbpress_core::out::Stdout;
    let mut sink = std::io::sink();
    let mut stderr = std::io::stderr();
    // `--csv` without a file: stdout carries mysqlslap's CSV alone, as with mysqlslap. A file
    // is opened now, as mysqlslap does, so a wrong path fails before the run, not after it;
    // one this check creates is removed again, so a run that fails leaves no empty file.
    let csv_on_stdout = a.csv.as_deref() == Some("");
    if let Some(path) = a.csv.as_deref().filter(|p| !p.is_empty()) {
        let existed = std::path::Path::new(path).exists();
        append_csv(path, "")?;
        if !existed {
            let _ = std::fs::remove_file(path);
        }
    }
    let out: &mut dyn Write = match (a.silent, first.output_format) {
        (true, _) => &mut sink,
        (false, OutputFormat::Text) if !csv_on_stdout => &mut stdout,
        (false, _) => &mut stderr,
    };
    let _ = writeln!(out, "dbpress {VERSION} slap (mysqlslap-compatible)\n");
    let mut listed = plan.auto.is_none().then(|| match a.commit {
        0 => workload::SlapWorkload::new(&plan.queries),
        every => workload::SlapWorkload::new(&plan.queries).with_commit(every, plan.slap_queries),
    });
    // The plan's tables go through the rounds; the plan itself stays as it is.
    let mut tables = std::mem::take(&mut plan.tables);
    let mut steps = Vec::new();
    // mysqlslap's --csv lines, one per concurrency level.
    let mut csv = String::new();
    let mut failed_run = false;
    let mut interrupted = None;
    // A round's clean-up could not reach the server: no further round is tried.
    let mut server_gone = false;
    'engines: for &engine in &engines {
        // The header says which engine the tables were created with (and checked to have).
        let engine_line = engine.map(StorageEngine::header_line);
        if let Some(l) = &mut listed {
            l.engine_line = engine_line.clone();
        }
        'levels: for &clients in &a.concurrency {
            let mut seconds = Vec::new();
            let mut slap_queries_run = 0u64;
            for round in 1..=a.iterations {
                let mut o = a.opts.clone();
                o.set("threads", clients.to_string());
                o.set("time", "0");
                let (total, per_client) = events(&a, &plan, clients);
                o.set("events", total.to_string());
                // mysqlslap sends text; the header then says so.
                o.set("db-ps-mode", "disable");
                let mut cfg = RunConfig::from_options("slap", Command::Run, &o)?;
                cfg.connection_flags = ConnectionFlags::Mysqlslap;
                // One seed for every round and level (the options keep what the user gave).
                cfg.seed = first.seed;
                cfg.output_file = None;
                cfg.events_per_thread = per_client;
                let driver = make_driver(&cfg)?;
                let ctx = Context {
                    driver: driver.as_ref(),
                    threads: clients,
                    dist: &cfg.dist,
                    invocation: cfg.invocation("slap"),
                };
                let mut setup = ctx.connect(0)?;
                match tables.set_up(setup.as_mut(), &ctx, engine, out) {
                    Ok(()) => {}
                    Err(SetUpFailed::Run(e)) => return Err(e),
                    // An engine the server lacks (or substituted) cannot run any level: its
                    // levels go in the table with the reason, and the next engine runs.
                    Err(SetUpFailed::Engine(err)) => {
                        let name = engine.map_or("", |e| e.name.as_str());
                        eprintln!("dbpress: engine {name} did not run: {}", err.message());
                        for &c in a.concurrency.iter().skip_while(|&&c| c != clients) {
                            steps.push(Step {
                                threads: c,
                                engine: Some(name.to_string()),
                                result: None,
                                error: Some(err.message().to_string()),
                            });
                        }
                        continue 'engines;
                    }
                }
                let generated;
                let w: &dyn dbpress_workload::Workload = match (&plan.auto, &listed) {
                    (Some(sql), _) => {
                        let keys = if sql.needs_keys() {
                            autogen::fetch_keys(setup.as_mut()).map_err(|e| {
                                failed(format!("reading the keys of t1 failed: {}", e.message))
                            })?
                        } else {
                            Vec::new()
                        };
                        let mut g = autogen::AutoWorkload::new(sql, keys, clients);
                        g.engine_line = engine_line.clone();
                        g.commit_every = a.commit;
                        generated = g;
                        &generated
                    }
                    (None, Some(listed)) => listed,
                    (None, None) => unreachable!("a plan has --query or -a"),
                };
                let on = engine.map_or(String::new(), |e| format!(", engine {}", e.name));
                let _ = writeln!(
                    out,
                    "=== {clients} clients{on}, round {round} of {} ===\n",
                    a.iterations
                );
                // The setup session would sit idle through the run: one more session in the
                // server's view of the run's sessions (its wait events) and of its connection limit.
                // Closed for the run, opened again after it.
                drop(setup);
                if let Some(cmd) = &a.pre_system {
                    shell("--pre-system", cmd);
                }
                // mysqlslap has no --forced-shutdown, so a slap run is never forced to end.
                let measured = run::measure(&cfg, w, &ctx, &argv, out, &signals, &|m| {
                    run::exit_forced(&cfg, &m, driver.hints(), w)
                });
                // The round is measured: nothing after it may lose it. The clean-up runs on its
                // own session; if it fails (the server went away), that is one more line, the
                // round is reported and saved, and no further round is tried.
                let cleanup = tables.tear_down(&ctx, || {
                    if let Some(cmd) = &a.post_system {
                        shell("--post-system", cmd);
                    }
                });
                let cleanup_failed = cleanup.err().map(|e| {
                    eprintln!(
                        "dbpress: the clean-up after {clients} clients, round {round} failed: {}{}",
                        e.message(),
                        tables.left_behind_note()
                    );
                    failed_run = true;
                });
                let m = match measured {
                    Ok(m) => m,
                    Err(e) => {
                        let _ = writeln!(
                            out,
                            "dbpress: {clients} clients did not run: {}\n",
                            e.message()
                        );
                        steps.push(Step {
                            threads: clients,
                            engine: engine.map(|e| e.name.clone()),
                            result: None,
                            error: Some(e.message().to_string()),
                        });
                        continue 'levels;
                    }
                };
                if first.output_format == OutputFormat::Text {
                    let _ = write!(
                        out,
                        "{}",
                        dbpress_report::text::summary(&m.result, cfg.histogram)
                    );
                }
                let s = &m.result.summary;
                seconds.push(s.total_time_s);
                slap_queries_run += s.events * plan.slap_queries;
                let error = m.fatal.as_ref().map(|e| {
                    failed_run = true;
                    let message = dbpress_run::fatal_message(e, driver.hints(), w)
                        .message()
                        .to_string();
                    // The cause and its fix on stderr, where a script looks for them.
                    eprintln!("dbpress: {clients} clients: {message}");
                    message
                });
                steps.push(Step {
                    threads: clients,
                    engine: engine.map(|e| e.name.clone()),
                    result: Some(m.result),
                    error,
                });
                if m.interrupted_by.is_some() || signals.caught().is_some() {
                    interrupted = m.interrupted_by.or(signals.caught());
                    break 'engines;
                }
                if cleanup_failed.is_some() {
                    // The level's block still covers its rounds; then the run ends.
                    server_gone = true;
                    break;
                }
            }
            if !seconds.is_empty() {
                if !csv_on_stdout {
                    let _ = write!(
                        out,
                        "{}",
                        benchmark_block(engine, &seconds, clients, slap_queries_run)
                    );
                }
                let mode = a.auto.as_ref().map_or("mixed", |g| g.load.name());
                csv.push_str(&csv_line(engine, mode, &seconds, clients, slap_queries_run));
            }
            if server_gone {
                break 'engines;
            }
        }
    }
    // Levels without a single round: the run was interrupted (or forced to stop) before them.
    let not_reached: Vec<(Option<String>, u32)> = engines
        .iter()
        .flat_map(|e| {
            let name = e.map(|e| e.name.clone());
            a.concurrency.iter().map(move |&c| (name.clone(), c))
        })
        .filter(|(e, c)| !steps.iter().any(|s| s.threads == *c && s.engine == *e))
        .collect();
    let table = dbpress_report::sweep_row::table(&steps, &not_reached, &stopped_by(interrupted));
    let doc = SweepResult {
        schema_version: SCHEMA_VERSION,
        kind: "sweep".into(),
        tool: Tool {
            name: "dbpress".into(),
            version: VERSION.into(),
        },
        command_line: redact_args(&argv),
        workload: "slap".into(),
        levels: a.concurrency.clone(),
        steps,
        table,
    };
    if let Some(path) = &first.output_file {
        dbpress_report::write_sweep(path, &doc)?;
    }
    match a.csv.as_deref() {
        Some("") => dbpress_core::out!("{csv}"),
        Some(path) => append_csv(path, &csv)?,
        None => {}
    }
    if !a.silent && !csv_on_stdout {
        match first.output_format {
            OutputFormat::Text if a.concurrency.len() > 1 => {
                dbpress_core::out!("{}", dbpress_report::text::sweep::render_table(&doc))
            }
            OutputFormat::Text => {}
            other => dbpress_core::out!("{}", dbpress_report::sweep_as(other, &doc)),
        }
    }
    let _ = std::io::stdout().flush();
    if let Some(store) = &first.store {
        let runs: Vec<&dbpress_measure::result::RunResult> =
            doc.steps.iter().filter_map(|s| s.result.as_ref()).collect();
        crate::keep::save(
            store,
            &first.tags,
            &runs,
            Some(&crate::keep::batch_name("slap")),
        )?;
    }
    if let Some(sig) = interrupted {
        eprintln!("dbpress: interrupted by {sig}; the results cover what ran");
        return Ok(signals::exit_code(sig));
    }
    if doc.steps.iter().all(|s| s.result.is_none()) {
        return Err(dbpress_core::error::environment(format!(
            "no round could run: {}",
            doc.steps[0].error.clone().unwrap_or_default()
        )));
    }
    Ok(u8::from(failed_run))
}

/// mysqlslap's `--csv` line for one concurrency level: engine (empty without --engine), mode,
/// average, minimum and maximum seconds of the rounds, clients, queries per client per round.
pub fn csv_line(
    engine: Option<&StorageEngine>,
    mode: &str,
    seconds: &[f64],
    clients: u32,
    queries: u64,
) -> String {
    let (avg, min, max, per_client) = rounds(seconds, clients, queries);
    let engine = engine.map_or("", |e| e.name.as_str());
    format!("{engine},{mode},{avg:.3},{min:.3},{max:.3},{clients},{per_client}\n")
}

/// mysqlslap's `--csv=FILE` appends, so that runs accumulate in one file.
fn append_csv(path: &str, lines: &str) -> Result<()> {
    dbpress_core::result_file::append_text(path, lines).map_err(|e| {
        dbpress_core::error::environment(format!(
            "cannot write the CSV file {path}: {e}: choose a writable path with --csv=FILE"
        ))
    })
}

/// (average, minimum, maximum) seconds of the rounds and the queries per client per round.
fn rounds(seconds: &[f64], clients: u32, queries: u64) -> (f64, f64, f64, u64) {
    let n = seconds.len().max(1) as f64;
    let avg = seconds.iter().sum::<f64>() / n;
    let min = seconds.iter().cloned().fold(f64::INFINITY, f64::min);
    let max = seconds.iter().cloned().fold(0.0, f64::max);
    let per_client = queries / (u64::from(clients) * seconds.len().max(1) as u64);
    (avg, min, max, per_client)
}

/// mysqlslap's result block, byte for byte: wall seconds of the rounds (average, minimum,
/// maximum, three decimals), clients, and its queries per client per round.
pub fn benchmark_block(
    engine: Option<&StorageEngine>,
    seconds: &[f64],
    clients: u32,
    queries: u64,
) -> String {
    let (avg, min, max, per_client) = rounds(seconds, clients, queries);
    let engine = engine.map_or(String::new(), |e| {
        format!("\tRunning for engine {}\n", e.name)
    });
    format!(
        "Benchmark\n{engine}\tAverage number of seconds to run all queries: {avg:.3} seconds\n\
         \tMinimum number of seconds to run all queries: {min:.3} seconds\n\
         \tMaximum number of seconds to run all queries: {max:.3} seconds\n\
         \tNumber of clients running queries: {clients}\n\
         \tAverage number of queries per client: {per_client}\n\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_line_is_mysqlslaps() {
        // mariadb-slap --csv: ",mixed,0.117,0.111,0.122,2,50" for 3 rounds of 100 queries
        // by 2 clients (no --engine, so the first column is empty).
        assert_eq!(
            csv_line(None, "mixed", &[0.1112, 0.1184, 0.1217], 2, 300),
            ",mixed,0.117,0.111,0.122,2,50\n"
        );
        assert_eq!(
            csv_line(None, "key", &[2.0], 4, 100),
            ",key,2.000,2.000,2.000,4,25\n"
        );
    }

    #[test]
    fn the_benchmark_block_and_csv_line_name_the_engine() {
        let e = StorageEngine {
            name: "memory".into(),
            option: None,
        };
        // mariadb-slap --engine=memory: "Running for engine memory" after "Benchmark".
        assert!(benchmark_block(Some(&e), &[1.0], 1, 1)
            .starts_with("Benchmark\n\tRunning for engine memory\n\tAverage number"));
        assert!(csv_line(Some(&e), "mixed", &[1.0], 1, 1).starts_with("memory,mixed,1.000,"));
    }

    #[test]
    fn benchmark_block_is_mysqlslaps() {
        assert_eq!(
            benchmark_block(None, &[1.3221, 1.3239], 2, 200),
            "Benchmark\n\tAverage number of seconds to run all queries: 1.323 seconds\n\
             \tMinimum number of seconds to run all queries: 1.322 seconds\n\
             \tMaximum number of seconds to run all queries: 1.324 seconds\n\
             \tNumber of clients running queries: 2\n\
             \tAverage number of queries per client: 50\n\n"
        );
    }
}
