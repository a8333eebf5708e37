//! A pgbench run: its setup connection and banner, the scale read from pgbench_branches when a
//! built-in script runs, the vacuum before the run, the clients on dbpress's runner sending
//! what pgbench sends, then pgbench's report and exit code.

use super::options::{Line, Protocol};
use super::progress::PgbenchProgress;
use super::report::{report, Facts};
use super::txn_log::TxnLog;
use crate::script::args::{parse_args, Args};
use dbpress_config::{Command as RunCommand, ConnectionFlags, RunConfig};
use dbpress_core::error::{failed, Error, Result};
use dbpress_core::personality::pgbench_version;
use dbpress_driver::Connection;
use dbpress_workload::script::client::QueryMode;
use dbpress_workload::script::expr::Value;
use dbpress_workload::script::pgbench_rules::{
    AbortNote, PgbenchRules, SayAbort, SayTry, Tally, TryNote, TxnNote,
};
use dbpress_workload::script::workload::ScriptWorkload;
use dbpress_workload::Context;

/// An error pgbench reports and then ends with `code`: its lines are already printed.
fn ended(code: u8) -> Error {
    Error::Interrupted(String::new(), code)
}

/// The seed pgbench runs with: given (`time`, `rand` or a number, negative ones wrapping),
/// or the time.
fn seed(line: &Line) -> u64 {
    let now = || {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_micros() as u64)
    };
    match line.random_seed.as_deref() {
        None | Some("time") => now(),
        Some("rand") => dbpress_core::rand::Rng::new(now(), 7).next_u64(),
        Some(n) => n
            .trim()
            .parse::<u64>()
            .or_else(|_| n.trim().parse::<i64>().map(|v| v as u64))
            .unwrap_or(0),
    }
}

/// The line read as `dbpress script` reads it, always for PostgreSQL: with no `-h`, `-p`,
/// `-U`, database or libpq environment, `script` would run on embedded SQLite, but pgbench
/// connects where libpq's defaults point.
fn script_args(line: &Line, seed: u64) -> Result<Args> {
    let mut a = parse_args(&as_script_args(line, seed))?;
    if a.opts.get("db-driver") != "pgsql" {
        a.opts.set("db-driver", "pgsql");
        crate::script::target::fill_libpq_defaults(&mut a.opts)?;
        a.pgbench_connection = true;
    }
    Ok(a)
}

/// The line in `dbpress script`'s words, which already reads pgbench's target and run flags.
fn as_script_args(line: &Line, seed: u64) -> Vec<String> {
    let mut a: Vec<String> = vec!["run".into()];
    let mut pair = |k: &str, v: String| {
        a.push(k.into());
        a.push(v);
    };
    pair("-c", line.clients.unwrap_or(1).to_string());
    match line.time_s {
        Some(t) => pair("-T", t.to_string()),
        None => pair("-t", line.transactions.unwrap_or(10).to_string()),
    }
    if let Some(p) = line.progress_s {
        pair("-P", p.to_string());
    }
    if let Some(r) = line.rate {
        pair("-R", r.to_string());
    }
    if let Some(l) = line.latency_limit_ms {
        pair("-L", l.to_string());
    }
    for (k, v) in &line.defines {
        pair("-D", format!("{k}={v}"));
    }
    // Attached, so a value that starts with `-` stays a value.
    for (flag, v) in [("-h", &line.host), ("-p", &line.port), ("-U", &line.user)] {
        if let Some(v) = v {
            a.push(format!("{flag}{v}"));
        }
    }
    a.push(format!("--rand-seed={seed}"));
    // pgbench reads nothing of the server while it runs: neither does dbpress as pgbench (its
    // samplers would add their own sessions' queries to the server's counts).
    a.push("--server-status=off".into());
    a.push("--server-waits=off".into());
    match &line.dbname {
        // pgbench 17's `-d --version` names a database `--version`: not a word to read again.
        Some(db) if db.starts_with('-') => a.push(format!("--pgsql-db={db}")),
        Some(db) => a.push(db.clone()),
        None => {}
    }
    a
}

/// `pgbench -i`: the steps on one session to the target the line names.
pub fn initialize(line: &Line) -> Result<u8> {
    let a = script_args(line, 0)?;
    if let Some(why) = super::libpq_error::bad_port(&a.opts) {
        eprintln!("pgbench: error: {why}");
        eprintln!("pgbench: error: could not create connection for initialization");
        return Ok(1);
    }
    let mut cfg = RunConfig::from_options("script", RunCommand::Run, &a.opts)?;
    if a.pgbench_connection {
        cfg.connection.flags = ConnectionFlags::Pgbench;
    }
    let driver = dbpress_config::to_driver::make_driver(&cfg)?;
    let mut conn = match driver.connect(0) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("pgbench: error: {}", connect_error(&cfg, &e));
            eprintln!("pgbench: error: could not create connection for initialization");
            return Ok(1);
        }
    };
    super::init::run(line, conn.as_mut())
}

pub fn benchmark(line: &Line) -> Result<u8> {
    let seed = seed(line);
    if line.random_seed.is_some() {
        eprintln!("pgbench: setting random seed to {seed}");
    }
    let a = script_args(line, seed)?;
    if let Some(why) = super::libpq_error::bad_port(&a.opts) {
        eprintln!("pgbench: error: {why}");
        eprintln!("pgbench: error: could not create connection for setup");
        return Ok(1);
    }
    let mut cfg = RunConfig::from_options("script", RunCommand::Run, &a.opts)?;
    crate::script::per_client(&a, &mut cfg);
    if a.pgbench_connection {
        cfg.connection.flags = ConnectionFlags::Pgbench;
    }
    let driver = dbpress_config::to_driver::make_driver(&cfg)?;
    let ctx = Context {
        driver: driver.as_ref(),
        threads: cfg.shape.threads,
        dist: &cfg.keys.dist,
        invocation: cfg.invocation("script"),
    };
    let started = std::time::Instant::now();
    let mut setup = match ctx.driver.connect(0) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("pgbench: error: {}", connect_error(&cfg, &e));
            eprintln!("pgbench: error: could not create connection for setup");
            return Ok(1);
        }
    };
    let connect_ms = started.elapsed().as_secs_f64() * 1e3;
    if line.debug {
        eprintln!("pgbench: {}", debug_target(line, &a));
    }
    dbpress_core::outln!("{}", banner(setup.as_ref()));
    let scale = scale(line, &a, setup.as_mut())?;
    let partitions = partitioning(line, setup.as_mut());
    if !line.no_vacuum {
        vacuum(setup.as_mut(), line.vacuum_all);
    }
    drop(setup);
    let mut globals = crate::script::globals(&a, seed, cfg.shape.threads);
    // A -D of one of pgbench's own variables wins, as in pgbench.
    globals.entry("scale".into()).or_insert(Value::Int(scale));
    let protocol = line.protocol.unwrap_or(Protocol::Simple);
    let mode = match protocol {
        Protocol::Simple => QueryMode::Simple,
        _ => QueryMode::Prepared,
    };
    let tally = std::sync::Arc::new(Tally::default());
    let (rules, log) = rules(line, seed, &tally)?;
    let w = ScriptWorkload::new(line.scripts.clone(), globals)
        .in_mode(mode, cfg.shape.threads)
        .with_rules(rules);
    // Per-script counts and times only where the report has per-script blocks: timing each
    // transaction once more costs ~5% of a select-only transaction's client work.
    let w = if line.scripts.len() > 1 {
        w.labelled()
    } else {
        w
    };
    let mut progress = PgbenchProgress {
        timestamp: line.progress_timestamp,
        rate: line.rate.is_some(),
        latency_limit: line.latency_limit_ms.is_some(),
        retries: (line.max_tries.unwrap_or(1) != 1).then(|| tally.clone()),
        retries_before: (0, 0),
        started_unix_s: unix_now(),
    };
    let signals = dbpress_core::signals::Signals::install();
    let mut sink = std::io::sink();
    let argv: Vec<String> = std::iter::once("pgbench".to_string()).collect();
    let m = crate::run::measure_with(
        &cfg,
        &w,
        &ctx,
        &argv,
        &mut sink,
        Some(&mut progress),
        &signals,
        &|m| crate::run::exit_forced(&cfg, &m, driver.hints(), &w),
    )?;
    let facts = Facts {
        line,
        scripts: &line.scripts,
        script_kinds: (0..line.scripts.len())
            .filter_map(|i| w.script_kind(i))
            .collect(),
        scale,
        partitions,
        protocol: protocol.name(),
        connect_ms,
        tally: &tally,
    };
    if let Some(log) = &log {
        log.finish();
    }
    dbpress_core::out!("{}", report(&m.result, &facts));
    if tally.aborted.load(std::sync::atomic::Ordering::Relaxed) {
        let _ = std::io::Write::flush(&mut dbpress_core::out::Stdout);
        eprintln!("pgbench: error: Run was aborted; the above results are incomplete.");
        return Ok(2);
    }
    Ok(0)
}

/// pgbench's rules for the clients of `line`'s run, with the lines they say, and the log
/// `-l` asks for.
fn rules(
    line: &Line,
    seed: u64,
    tally: &std::sync::Arc<Tally>,
) -> Result<(PgbenchRules, Option<std::sync::Arc<TxnLog>>)> {
    let log = match line.log {
        false => None,
        true => Some(std::sync::Arc::new(
            TxnLog::create(line, seed)
                .map_err(|e| failed(format!("could not open logfile: {e}")))?,
        )),
    };
    let mut rules = PgbenchRules {
        max_tries: line.max_tries.unwrap_or(1) as u32,
        time_commands: line.per_command,
        connect_each: line.connect,
        debug: line.debug,
        tally: tally.clone(),
        skips: line.rate.is_some() && line.latency_limit_ms.is_some(),
        on_abort: abort_hook(line, log.clone()),
        on_try: line.verbose_errors.then(|| {
            let max_tries = line.max_tries.unwrap_or(1) as u32;
            std::sync::Arc::new(move |note: &TryNote<'_>| super::aborts::say_try(note, max_tries))
                as SayTry
        }),
        on_txn: None,
        on_connect_abort: Some(std::sync::Arc::new(|c| {
            eprintln!("pgbench: error: client {c} aborted while establishing connection")
        })),
    };
    if let Some(log) = &log {
        let log = log.clone();
        rules.on_txn = Some(std::sync::Arc::new(move |t: &TxnNote| log.log(t)));
    }
    Ok((rules, log))
}

/// What a client's abort does: pgbench's lines; with pgbench 16's `--exit-on-abort`, then the
/// run's end at once — the log written, `Run was aborted due to an error in thread N` (the
/// client's thread as pgbench deals clients to threads), no report, exit code 2.
fn abort_hook(line: &Line, log: Option<std::sync::Arc<TxnLog>>) -> SayAbort {
    let say = super::aborts::sayer(line.protocol.unwrap_or(Protocol::Simple), &line.scripts);
    if !line.exit_on_abort {
        return std::sync::Arc::new(say);
    }
    let clients = line.clients.unwrap_or(1) as usize;
    let threads = (line.jobs.unwrap_or(1) as usize).min(clients).max(1);
    let thread_of = super::txn_log::deal(clients, threads);
    std::sync::Arc::new(move |note: &AbortNote<'_>| {
        say(note);
        if let Some(log) = &log {
            log.finish();
        }
        let _ = std::io::Write::flush(&mut dbpress_core::out::Stdout);
        let thread = thread_of.get(note.client as usize).copied().unwrap_or(0);
        eprintln!("pgbench: error: Run was aborted due to an error in thread {thread}");
        std::process::exit(2);
    })
}

/// pgbench's -d line about the run: where it connected, clients, transactions or duration.
fn debug_target(line: &Line, a: &Args) -> String {
    let length = match line.time_s {
        Some(t) => format!("duration: {t}"),
        None => format!("nxacts: {}", line.transactions.unwrap_or(10)),
    };
    format!(
        "pghost: {} pgport: {} nclients: {} {length} dbName: {}",
        a.opts.get("pgsql-host"),
        a.opts.get("pgsql-port"),
        line.clients.unwrap_or(1),
        a.opts.get("pgsql-db")
    )
}

/// A connection that failed, in libpq's words for the target `a` names.
/// A refused connection as libpq words it, at the host and port the target resolved to (from
/// -h/-p, or PGHOST/PGPORT).
fn connect_error(cfg: &RunConfig, e: &dbpress_driver::DbError) -> String {
    match &cfg.connection.target {
        dbpress_config::Target::Pgsql(t) => {
            dbpress_driver::pgsql::libpq_words::connection(&t.host, &t.port.to_string(), e)
        }
        _ => e.to_string(),
    }
}

fn unix_now() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64())
}

/// `pgbench (VERSION)`, and the server's version when it is another one.
fn banner(conn: &dyn Connection) -> String {
    // As libpq keeps it from the session's start: pgbench sends no query for it.
    let server = conn.server_version().unwrap_or_default().to_string();
    let number = |v: &str| v.split_whitespace().next().unwrap_or("").to_string();
    let ours = pgbench_version();
    if server.is_empty() || number(&server) == number(ours) {
        format!("pgbench ({ours})")
    } else {
        format!("pgbench ({ours}, server {server})")
    }
}

/// pgbench's scale: with a built-in script the number of branches (a given -s is ignored, with
/// a warning), else -s or 1.
fn scale(line: &Line, a: &Args, conn: &mut dyn Connection) -> Result<i64> {
    let builtin = line
        .scripts
        .iter()
        .any(|s| s.name.starts_with("<builtin: "));
    if !builtin {
        return Ok(line.scale.unwrap_or(1));
    }
    let count = conn
        .query_rows("select count(*) from pgbench_branches")
        .map_err(|e| {
            let db = a.opts.get("pgsql-db").to_string();
            eprintln!(
                "pgbench: error: could not count number of branches: ERROR:  {}\npgbench: hint: Perhaps you need to do initialization (\"pgbench -i\") in database \"{db}\".",
                e.message
            );
            ended(1)
        })?;
    let n = count
        .first()
        .and_then(|r| r.first().cloned().flatten())
        .and_then(|v| v.parse::<i64>().ok())
        .unwrap_or(0);
    if line.scale.is_some() {
        eprintln!(
            "pgbench: warning: scale option ignored, using count from pgbench_branches table ({n})"
        );
    }
    Ok(n)
}

/// How pgbench_accounts is partitioned (its report says so for a built-in script): the
/// method and the number of partitions.
fn partitioning(line: &Line, conn: &mut dyn Connection) -> Option<(&'static str, i64)> {
    if !line
        .scripts
        .iter()
        .any(|s| s.name.starts_with("<builtin: "))
    {
        return None;
    }
    let rows = conn
        .query_rows(
            "select p.partstrat, count(i.inhrelid) from pg_catalog.pg_class c \
             left join pg_catalog.pg_partitioned_table p on p.partrelid = c.oid \
             left join pg_catalog.pg_inherits i on i.inhparent = c.oid \
             where c.relname = 'pgbench_accounts' and pg_catalog.pg_table_is_visible(c.oid) \
             group by 1",
        )
        .ok()?;
    let row = rows.first()?;
    let method = match row.first().cloned().flatten()?.as_str() {
        "r" => "range",
        "h" => "hash",
        _ => return None,
    };
    let n = row.get(1).cloned().flatten()?.parse().ok()?;
    Some((method, n))
}

/// Before the run, as pgbench: its tables vacuumed and the history emptied; a failure is
/// reported and the run goes on.
fn vacuum(conn: &mut dyn Connection, accounts: bool) {
    let run = |conn: &mut dyn Connection, sql: &str| {
        if let Err(e) = conn.query(sql) {
            eprintln!(
                "pgbench: error: ERROR:  {}\npgbench: detail: (ignoring this error and continuing anyway)",
                e.message
            );
        }
    };
    eprint!("starting vacuum...");
    for sql in [
        "vacuum pgbench_branches",
        "vacuum pgbench_tellers",
        "truncate pgbench_history",
    ] {
        run(conn, sql);
    }
    eprintln!("end.");
    if accounts {
        eprint!("starting vacuum pgbench_accounts...");
        run(conn, "vacuum analyze pgbench_accounts");
        eprintln!("end.");
    }
}
