//! `dbpress script prepare|run|cleanup`: pgbench-style scripts on every engine.
//!
//! `-f FILE[@WEIGHT]` and `-b tpcb-like|simple-update|select-only[@WEIGHT]` (pgbench's built-in
//! scripts, `-S` and `-N` as in pgbench), `-D name=value`, `-s/--scale`; pgbench's run flags
//! `-c -T -t -M -P -R -n` map onto dbpress's options, and every dbpress option passes through.
//! Scripts are parsed, and every variable checked, before anything connects.

mod pgbench_block;
mod pgbench_flags;
mod target;

use crate::cli;
use crate::run;
use dbpress_config::to_driver::make_driver;
use dbpress_config::Command as RunCommand;
use dbpress_config::ConnectionFlags;
use dbpress_config::{resolve_driver, Driver, OutputFormat, RunConfig};
use dbpress_core::error::{failed, usage, Result};
use dbpress_core::options::OptionValues;
use dbpress_core::signals::Signals;
use dbpress_driver::Connection;
use dbpress_measure::result::VERSION;
use dbpress_workload::script::pgbench_tables::{self, PgbenchTables};
use dbpress_workload::script::{builtin, expr, parse, workload};
use dbpress_workload::Context;
use dbpress_workload::Workload;
use expr::Num;
use parse::{Command, Script};
use std::collections::HashMap;
use std::io::Write;

pub const HELP: &str = "dbpress script: pgbench-style scripts on every engine\n\n\
Usage:\n  dbpress script prepare [-b tpcb-like] [-s SCALE] | [-f init.sql]   (pgbench -i, or your own setup)\n  \
dbpress script run [-f FILE[@W]]... [-b NAME[@W]]... [-D name=value]... [-c CLIENTS] [-T SECONDS | -t PER_CLIENT]\n  \
dbpress script cleanup [-b tpcb-like] | [-f drop.sql]\n\n\
Built-in scripts: tpcb-like (default), simple-update (-N), select-only (-S), as pgbench defines them.\n\
Script lines: SQL ending with ';', `\\set name expression`, `\\sleep n [us|ms|s]`; :name in SQL is a bound\n\
parameter. Connection: --db, --pgsql-*/--mysql-*/--sqlite-* or -h HOST -p PORT -U USER [DBNAME]\n\
(PostgreSQL unless --db/--db-driver says otherwise). A pgbench command line also works as pasted\n\
after `dbpress script`: with -i it prepares, otherwise it runs. See docs/GUIDE.md, scripts.\n";

#[derive(Debug)]
struct Args {
    command: RunCommand,
    files: Vec<(String, u32)>,
    builtins: Vec<(String, u32)>,
    defines: Vec<(String, String)>,
    scale: Option<u64>,
    per_client: Option<u64>,
    /// The target came from pgbench's `-h -p -U DBNAME`.
    pgbench_connection: bool,
    opts: OptionValues,
}

impl Args {
    /// pgbench's -n (or dbpress's --no-vacuum): no statistics after prepare's load.
    fn no_vacuum(&self) -> bool {
        dbpress_core::options::parse_bool(self.opts.get("no-vacuum")) == Some(true)
    }
}

fn weighted(v: &str) -> Result<(String, u32)> {
    match v.rsplit_once('@') {
        Some((name, w)) => {
            let w = w.parse::<u32>().ok().filter(|w| *w > 0).ok_or_else(|| {
                usage(format!(
                    "invalid weight in '{v}': use NAME@N with N a whole number above 0"
                ))
            })?;
            Ok((name.to_string(), w))
        }
        None => Ok((v.to_string(), 1)),
    }
}

/// Whether `word` is one edit (a letter added, dropped or changed, or two swapped) away from a
/// command word: `runn`, `prepar`, `claenup`.
fn near_command(word: &str) -> bool {
    fn one_edit(a: &[u8], b: &[u8]) -> bool {
        if a == b {
            return false;
        }
        let (la, lb) = (a.len(), b.len());
        if la.abs_diff(lb) > 1 {
            return false;
        }
        let start = a.iter().zip(b).take_while(|(x, y)| x == y).count();
        let (ra, rb) = (&a[start..], &b[start..]);
        match la.cmp(&lb) {
            std::cmp::Ordering::Equal => {
                ra[1..] == rb[1..]
                    || (ra.len() >= 2 && ra[0] == rb[1] && ra[1] == rb[0] && ra[2..] == rb[2..])
            }
            std::cmp::Ordering::Greater => ra[1..] == *rb,
            std::cmp::Ordering::Less => *ra == rb[1..],
        }
    }
    let w = word.to_ascii_lowercase();
    ["prepare", "run", "cleanup"]
        .iter()
        .any(|c| one_edit(w.as_bytes(), c.as_bytes()))
}

fn parse_args(raw: &[String]) -> Result<Args> {
    let is_init = |a: &String| a == "-i" || a == "--initialize";
    // A pgbench command line pasted after `dbpress script` has no command word: as pgbench,
    // `-i` builds the tables and anything else runs.
    let (command, first) =
        match raw.first().map(String::as_str) {
            Some("prepare") => (RunCommand::Prepare, 1),
            Some("run") => (RunCommand::Run, 1),
            Some("cleanup") => (RunCommand::Cleanup, 1),
            // A command word mistyped is not taken for a database name.
            Some(f) if !f.starts_with('-') && near_command(f) => {
                return Err(usage(format!(
                    "unknown command '{f}': use prepare, run or cleanup (a database name, pgbench's DBNAME, is taken after the options)"
                )))
            }
            // pgbench takes its DBNAME anywhere (`pgbench mydb -c 4`): a plain first word is
            // that, read with the rest below.
            Some(f) if f.starts_with('-') || !f.is_empty() => match raw.iter().any(is_init) {
                true => (RunCommand::Prepare, 0),
                false => (RunCommand::Run, 0),
            },
            _ => return Err(usage(
                "dbpress script needs a command: prepare, run or cleanup (dbpress script --help)",
            )),
        };
    let mut a = Args {
        command,
        files: Vec::new(),
        builtins: Vec::new(),
        defines: Vec::new(),
        scale: None,
        per_client: None,
        pgbench_connection: false,
        opts: OptionValues::default(),
    };
    let mut pass: Vec<String> = Vec::new();
    let mut notices: Vec<String> = Vec::new();
    let mut conn: Vec<(&'static str, String)> = Vec::new();
    let mut i = first;
    // pgbench's --progress-timestamp needs -P; both are remembered to check that.
    let (mut progress, mut progress_timestamp) = (false, false);
    while i < raw.len() {
        let arg = raw[i].clone();
        i += 1;
        // pgbench's -i is what prepare does.
        if command == RunCommand::Prepare && is_init(&arg) {
            continue;
        }
        // Short flags take their value attached (-c8) or as the next word (-c 8).
        let (flag, inline) = if arg.starts_with("--") {
            match arg.split_once('=') {
                Some((f, v)) => (f.to_string(), Some(v.to_string())),
                None => (arg.clone(), None),
            }
        } else if arg.starts_with('-') && arg.len() > 2 {
            (arg[..2].to_string(), Some(arg[2..].to_string()))
        } else {
            (arg.clone(), None)
        };
        if let Some(why) = pgbench_flags::refused(&flag) {
            return Err(usage(why));
        }
        if flag == "--progress-timestamp" {
            progress_timestamp = true;
        }
        if let Some(notice) = pgbench_flags::inert(&flag) {
            notices.push(format!("pgbench's {notice}"));
            continue;
        }
        let takes_value = matches!(
            flag.as_str(),
            "--random-seed"
                | "--max-tries"
                | "-f"
                | "--file"
                | "-b"
                | "--builtin"
                | "-D"
                | "--define"
                | "-s"
                | "--scale"
                | "-c"
                | "--client"
                | "-j"
                | "--jobs"
                | "-T"
                | "-t"
                | "--transactions"
                | "-M"
                | "--protocol"
                | "-P"
                | "--progress"
                | "-R"
                | "--rate"
                | "-L"
                | "--latency-limit"
                | "-h"
                | "--host"
                | "-p"
                | "--port"
                | "-U"
                | "--username"
        );
        let mut value = || -> Result<String> {
            if let Some(v) = inline.clone() {
                return Ok(v);
            }
            if i < raw.len() {
                i += 1;
                return Ok(raw[i - 1].clone());
            }
            Err(usage(format!("{flag} needs a value")))
        };
        let num = |v: &str, what: &str| -> Result<u64> {
            v.parse::<u64>().map_err(|_| {
                usage(format!(
                    "invalid value '{v}' for {what}: expected a whole number"
                ))
            })
        };
        if !takes_value {
            match flag.as_str() {
                "-S" | "--select-only" => a.builtins.push(("select-only".into(), 1)),
                "-N" | "--skip-some-updates" => a.builtins.push(("simple-update".into(), 1)),
                "-n" | "--no-vacuum" => pass.push("--no-vacuum".into()),
                // Always reported (--report-latencies is -r's name before PostgreSQL 13).
                "-r" | "--report-per-command" | "--report-latencies" => {}
                f if f.starts_with('-') => {
                    pass.push(arg.clone());
                    let name = f.trim_start_matches('-').replace('_', "-");
                    if inline.is_none()
                        && dbpress_core::options::table::find(&name)
                            .is_some_and(|s| s.kind != dbpress_core::options::table::Kind::Bool)
                        && i < raw.len()
                    {
                        pass.push(raw[i].clone());
                        i += 1;
                    }
                }
                // A trailing word is the database, as pgbench takes it.
                _ => conn.push(("db", arg.clone())),
            }
            continue;
        }
        let v = value()?;
        match flag.as_str() {
            "-f" | "--file" => a.files.push(weighted(&v)?),
            "-b" | "--builtin" => a.builtins.push(weighted(&v)?),
            "-D" | "--define" => {
                let (k, val) = v.split_once('=').ok_or_else(|| {
                    usage(format!("-D {v}: use -D name=value"))
                })?;
                a.defines.push((k.to_string(), val.to_string()));
            }
            "-s" | "--scale" => a.scale = Some(num(&v, "--scale")?.max(1)),
            "-c" | "--client" => pass.push(format!("--threads={v}")),
            // One OS thread per client already; the value is still checked, as pgbench does.
            "-j" | "--jobs" => pgbench_flags::positive_int(&v, "number of threads").map_err(usage)?,
            "-T" => pass.push(format!("--time={v}")),
            "-t" | "--transactions" => a.per_client = Some(num(&v, "-t")?),
            "-M" | "--protocol" => match v.as_str() {
                "prepared" | "extended" => {}
                "simple" => {
                    return Err(usage(
                        "-M simple pastes values into the SQL text; dbpress scripts always bind :variables as parameters (use -M prepared)",
                    ))
                }
                other => return Err(usage(format!("unknown -M '{other}': use prepared"))),
            },
            "--random-seed" => pass.push(format!(
                "--rand-seed={}",
                pgbench_flags::random_seed(&v).map_err(usage)?
            )),
            "--max-tries" => pgbench_flags::max_tries(&v).map_err(usage)?,
            "-P" | "--progress" => {
                pgbench_flags::positive_int(&v, "thread progress delay").map_err(usage)?;
                progress = true;
                pass.push(format!("--report-interval={v}"))
            }
            "-R" | "--rate" => {
                pgbench_flags::positive_number(&v, "rate limit").map_err(usage)?;
                pass.push(format!("--rate={v}"))
            }
            "-L" | "--latency-limit" => {
                pgbench_flags::positive_number(&v, "latency limit").map_err(usage)?;
                pass.push(format!("--latency-limit={v}"))
            }
            "-h" | "--host" => conn.push(("host", v)),
            "-p" | "--port" => conn.push(("port", v)),
            "-U" | "--username" => conn.push(("user", v)),
            _ => unreachable!("every value flag is matched"),
        }
    }
    if progress_timestamp && !progress {
        return Err(usage(
            "--progress-timestamp is allowed only under --progress (-P), as in pgbench",
        ));
    }
    if a.files.len() + a.builtins.len() > pgbench_flags::MAX_SCRIPTS {
        return Err(usage(format!(
            "at most {} SQL scripts are allowed (-f, -b, -S, -N together), as in pgbench",
            pgbench_flags::MAX_SCRIPTS
        )));
    }
    let mut opts = cli::parse_options_of(&pass, "script")?;
    opts.notices.extend(notices);
    a.pgbench_connection = !conn.is_empty();
    // pgbench's target rules: its flags, or libpq's environment, mean PostgreSQL unless --db
    // or a driver's options say otherwise.
    let from_env = target::libpq_env();
    let (driver, defaulted) = resolve_driver(&opts)?;
    let postgres_meant = defaulted && (!conn.is_empty() || from_env.is_some());
    let driver = if postgres_meant {
        opts.set("db-driver", "pgsql");
        Driver::Pgsql
    } else {
        driver
    };
    if !conn.is_empty() {
        for (k, v) in conn {
            let name = match (driver, k) {
                (Driver::Pgsql, "host") => "pgsql-host",
                (Driver::Pgsql, "port") => "pgsql-port",
                (Driver::Pgsql, "user") => "pgsql-user",
                (Driver::Pgsql, _) => "pgsql-db",
                (Driver::Mysql, "host") => "mysql-host",
                (Driver::Mysql, "port") => "mysql-port",
                (Driver::Mysql, "user") => "mysql-user",
                (Driver::Mysql, _) => "mysql-db",
                (Driver::Sqlite, _) => {
                    return Err(usage(
                        "-h/-p/-U/DBNAME connect to a server, but the target is SQLite: drop them or choose a server with --db",
                    ))
                }
            };
            opts.set(name, v);
        }
    }
    if postgres_meant {
        target::fill_libpq_defaults(&mut opts)?;
        if !a.pgbench_connection {
            opts.notices.push(format!(
                "{}: PostgreSQL, as pgbench would connect",
                from_env.unwrap_or("libpq's environment")
            ));
        }
    } else if defaulted {
        opts.notices.push(format!(
            "no server named (no -h/-p/-U or DBNAME, no PGHOST/PGPORT/PGUSER/PGDATABASE/PGSERVICE, no --db): running on the embedded SQLite database {}; name a PostgreSQL server with -h HOST (or PGHOST) as pgbench does, or any server with --db=URL",
            opts.get("sqlite-path")
        ));
    }
    a.opts = opts;
    Ok(a)
}

fn builtin_names() -> String {
    let names: Vec<&str> = builtin::SCRIPTS.iter().map(|(n, _)| *n).collect();
    names.join(", ")
}

/// Every script, parsed (built-ins by name, files by path); pgbench's default is tpcb-like.
fn load_scripts(a: &Args) -> Result<Vec<Script>> {
    let mut out = Vec::new();
    for (path, w) in &a.files {
        let text = std::fs::read_to_string(path)
            .map_err(|e| usage(format!("cannot read script {path}: {e}")))?;
        out.push(parse::parse(path, &text, *w).map_err(usage)?);
    }
    for (name, w) in &a.builtins {
        let text = builtin::script(name).ok_or_else(|| {
            usage(format!(
                "unknown built-in script '{name}': use one of {}",
                builtin_names()
            ))
        })?;
        out.push(parse::parse(name, text, *w).map_err(usage)?);
    }
    if out.is_empty() && a.command == RunCommand::Run {
        out.push(
            parse::parse(
                "tpcb-like",
                builtin::script("tpcb-like").unwrap_or_default(),
                1,
            )
            .map_err(usage)?,
        );
    }
    Ok(out)
}

fn uses_builtin_tables(a: &Args) -> bool {
    !a.builtins.is_empty() || a.files.is_empty()
}

/// Prepare or cleanup on pgbench's own tables, which the workload makes and drops.
fn pgbench_tables_command(
    w: &workload::ScriptWorkload,
    command: RunCommand,
    ctx: &Context<'_>,
) -> Result<u8> {
    match command {
        RunCommand::Prepare => {
            if let Some(usage) = w.prepare(ctx)? {
                dbpress_report::text::host::report_prepare(&usage);
            }
        }
        _ => w.cleanup(ctx)?,
    }
    Ok(0)
}

/// -D values: integers and floats as numbers, anything else as text.
fn define_value(v: &str) -> Num {
    v.parse::<i64>()
        .map(Num::Int)
        .or_else(|_| v.parse::<f64>().map(Num::Float))
        .unwrap_or_else(|_| Num::Str(v.to_string()))
}

pub fn main(raw: &[String]) -> Result<u8> {
    // `help` as the first word asks for help, as for every dbpress command (it is not taken as
    // pgbench's DBNAME).
    if raw.iter().any(|a| a == "--help" || a == "-?")
        || raw.is_empty()
        || raw.first().is_some_and(|a| a == "help")
    {
        dbpress_core::out!("{HELP}");
        return Ok(if raw.is_empty() { 2 } else { 0 });
    }
    // pgbench takes --show-script without anything else; so does dbpress, command or not.
    let show = raw
        .iter()
        .enumerate()
        .find_map(|(i, arg)| match arg.as_str() {
            "--show-script" => raw.get(i + 1).cloned(),
            _ => arg.strip_prefix("--show-script=").map(str::to_string),
        });
    if let Some(name) = show {
        let text = builtin::script(&name).ok_or_else(|| {
            usage(format!(
                "unknown built-in script '{name}': use one of {}",
                builtin_names()
            ))
        })?;
        dbpress_core::out!("-- {name}\n{}\n", text.trim_end());
        return Ok(0);
    }
    let a = parse_args(raw)?;
    crate::cli::print_notices(&a.opts);
    let scripts = load_scripts(&a)?;
    // `-c 1,2,4` is a sweep; everything before the run uses its first level.
    let levels = crate::sweep::levels(&a.opts)?;
    let mut base = a.opts.clone();
    if let Some(l) = &levels {
        base.set("threads", l[0].to_string());
    }
    let mut cfg = RunConfig::from_options("script", RunCommand::Run, &base)?;
    if a.pgbench_connection {
        cfg.connection_flags = ConnectionFlags::Pgbench;
    }
    let mut globals: HashMap<String, Num> = a
        .defines
        .iter()
        .map(|(k, v)| (k.clone(), define_value(v)))
        .collect();
    globals.insert("random_seed".into(), Num::Int(cfg.seed as i64));
    globals
        .entry("default_seed".into())
        .or_insert(Num::Int((cfg.seed.rotate_left(17) >> 1) as i64));
    // Unknown variables are found before connecting, with the script and line that use them.
    let known = |n: &str| globals.contains_key(n) || n == "scale" || n == "client_id";
    for s in &scripts {
        if let Some((name, line)) = parse::free_variables(s)
            .into_iter()
            .find(|(n, _)| !known(n))
        {
            return Err(usage(format!(
                "{}:{}: variable :{name} is used but never set: \\set it in the script or give -D {name}=VALUE",
                s.name,
                line.max(1)
            )));
        }
    }
    let driver = make_driver(&cfg)?;
    let ctx = Context {
        driver: driver.as_ref(),
        threads: cfg.threads,
        dist: &cfg.dist,
        invocation: cfg.invocation("script"),
    };
    match a.command {
        RunCommand::Prepare | RunCommand::Cleanup if uses_builtin_tables(&a) => {
            let w = workload::ScriptWorkload::new(Vec::new(), HashMap::new()).on_pgbench_tables(
                PgbenchTables {
                    scale: a.scale.unwrap_or(1),
                    no_vacuum: a.no_vacuum(),
                },
            );
            pgbench_tables_command(&w, a.command, &ctx)
        }
        RunCommand::Prepare | RunCommand::Cleanup => {
            let mut conn = ctx.connect(0)?;
            for s in &scripts {
                run_once(conn.as_mut(), s, &globals, &cfg)?;
            }
            Ok(0)
        }
        _ => {
            let scale = match a.scale {
                Some(s) => s,
                // As pgbench: the scale is the number of branches prepare made.
                None if uses_builtin_tables(&a) => pgbench_tables::scale(&ctx)?,
                None => 1,
            };
            globals.insert("scale".into(), Num::Int(scale as i64));
            run_scripts(&a, &cfg, levels.as_deref(), scripts, globals, raw)
        }
    }
}

fn run_scripts(
    a: &Args,
    cfg: &RunConfig,
    levels: Option<&[u32]>,
    scripts: Vec<Script>,
    globals: HashMap<String, Num>,
    raw: &[String],
) -> Result<u8> {
    let w = workload::ScriptWorkload::new(scripts, globals);
    if w.statements() > 250 {
        return Err(usage(
            "scripts hold more than 250 SQL statements in all; dbpress takes at most 250",
        ));
    }
    // pgbench's -t counts per client: each runs exactly its own t, however fast the others go.
    let per_client = |cfg: &mut RunConfig| {
        if a.pgbench_connection {
            cfg.connection_flags = ConnectionFlags::Pgbench;
        }
        if let Some(t) = a.per_client {
            cfg.events = t * u64::from(cfg.threads);
            cfg.events_per_thread = t;
            cfg.time = 0;
        }
    };
    let args: Vec<String> = std::iter::once("script".to_string())
        .chain(raw.iter().cloned())
        .collect();
    if let Some(levels) = levels {
        // `-c 1,2,4`: one step per client count, each with its own connections.
        let build =
            |_: &OptionValues, _: &RunConfig| -> Result<Box<dyn dbpress_workload::Workload>> {
                Ok(Box::new(workload::ScriptWorkload::new(
                    w.scripts.clone(),
                    w.globals.clone(),
                )))
            };
        return crate::sweep::run("script", &a.opts, levels, &args, &build, &per_client);
    }
    let mut cfg = cfg.clone();
    cfg.workload = "script".into();
    per_client(&mut cfg);
    let driver = make_driver(&cfg)?;
    let ctx = Context {
        driver: driver.as_ref(),
        threads: cfg.threads,
        dist: &cfg.dist,
        invocation: cfg.invocation("script"),
    };
    let signals = Signals::install();
    let mut stdout = dbpress_core::out::Stdout;
    let mut stderr = std::io::stderr();
    let out: &mut dyn Write = match cfg.output_format {
        OutputFormat::Text => &mut stdout,
        _ => &mut stderr,
    };
    let _ = writeln!(out, "dbpress {VERSION} script (pgbench-style)\n");
    let m = run::measure(&cfg, &w, &ctx, &args, out, &signals, &|m| {
        run::exit_forced(&cfg, &m, driver.hints(), &w)
    })?;
    let code = run::finish(&cfg, &m, driver.hints(), &w)?;
    if cfg.output_format == OutputFormat::Text {
        let names: Vec<String> = w.scripts.iter().map(|s| s.name.clone()).collect();
        let scale = match w.globals.get("scale") {
            Some(Num::Int(n)) => *n,
            _ => 1,
        };
        dbpress_core::out!(
            "{}",
            pgbench_block::block(
                &m.result,
                &pgbench_block::transaction_type(&names),
                scale,
                a.per_client
            )
        );
    }
    Ok(code)
}

/// Run a prepare/cleanup script once on one connection: \set evaluated, SQL with bound values.
fn run_once(
    conn: &mut dyn Connection,
    s: &Script,
    globals: &HashMap<String, Num>,
    cfg: &RunConfig,
) -> Result<()> {
    let mut vars = globals.clone();
    vars.insert("scale".into(), Num::Int(1));
    vars.insert("client_id".into(), Num::Int(0));
    let mut rng = dbpress_core::rand::Rng::new(cfg.seed, 0);
    for c in &s.commands {
        match c {
            Command::Set(name, e) => {
                let lookup = |n: &str| vars.get(n).cloned();
                let mut env = expr::Env {
                    vars: &lookup,
                    rng: &mut rng,
                    default_seed: 0,
                };
                let v = expr::eval(e, &mut env)
                    .map_err(|m| usage(format!("{}: \\set {name}: {m}", s.name)))?;
                vars.insert(name.clone(), v);
            }
            Command::Sleep(_) => {}
            Command::Sql { text, params, line } => {
                let texts: Vec<String> = params
                    .iter()
                    .map(|p| match vars.get(p) {
                        Some(Num::Float(f)) => f.to_string(),
                        Some(Num::Str(t)) => t.clone(),
                        _ => String::new(),
                    })
                    .collect();
                let values: Vec<dbpress_driver::Value<'_>> = params
                    .iter()
                    .zip(&texts)
                    .map(|(p, t)| match vars.get(p) {
                        Some(Num::Int(i)) => dbpress_driver::Value::Int(*i),
                        _ => dbpress_driver::Value::Str(t.as_bytes()),
                    })
                    .collect();
                let stmt = conn.prepare(text).map_err(|e| {
                    failed(format!(
                        "{}:{line}: server error {}: {}",
                        s.name, e.code, e.message
                    ))
                })?;
                conn.execute(stmt, &values).map_err(|e| {
                    failed(format!(
                        "{}:{line}: server error {}: {}",
                        s.name, e.code, e.message
                    ))
                })?;
            }
        }
    }
    Ok(())
}
