//! mysqlslap's command line as people paste it: short flags with attached or separate values
//! (`-uroot -p -h host -P 3306 -S sock -c 8,16 -i 3 -q '…' -F ';'`), long options, and
//! dbpress's own long options passed through. Connection flags land on the options of the
//! engine in use (mysql by default for these flags, pgsql or sqlite when `--db`/`--db-driver`
//! or their options say so).

use super::target;
use crate::cli;
use dbpress_config::Engine;
use dbpress_core::error::{usage, Result};
use dbpress_core::options::OptionValues;
use dbpress_workload::slap::autogen::{AutoGenArgs, LoadType};
use dbpress_workload::slap::tables::StorageEngine;

/// What `dbpress slap` was asked to do.
#[derive(Debug)]
pub struct SlapArgs {
    pub concurrency: Vec<u32>,
    pub iterations: u32,
    /// Statements in total across clients (mysqlslap's meaning); 0 = each client runs the list
    /// once.
    pub number_of_queries: u64,
    pub query: Option<String>,
    /// `-a`: mysqlslap's generated table and queries instead of --query.
    pub auto: Option<AutoGenArgs>,
    pub create: Option<String>,
    pub pre_query: Option<String>,
    pub post_query: Option<String>,
    /// mysqlslap's `--pre-system`/`--post-system`: shell commands run before and after each
    /// round (after --pre-query, before --post-query's tables are dropped).
    pub pre_system: Option<String>,
    pub post_system: Option<String>,
    /// mysqlslap's -F; None = its default, a newline: each line of --query is one query (and
    /// dbpress still times the `;`-separated statements inside a line one by one).
    pub delimiter: Option<String>,
    pub schema: Option<String>,
    pub no_drop: bool,
    pub only_print: bool,
    pub silent: bool,
    /// mysqlslap's `--csv[=FILE]`: its one-line-per-level CSV, appended to FILE, or printed
    /// on stdout in place of the report when empty.
    pub csv: Option<String>,
    /// mysqlslap's `--commit=N`: autocommit off and COMMIT after every N queries (0: off).
    pub commit: u64,
    /// mysqlslap's `-e/--engine=innodb,memory:OPTION`: each round set is run once per engine,
    /// the CREATE TABLEs given `ENGINE = name [OPTION]`; empty without it.
    pub engines: Vec<StorageEngine>,
    /// dbpress's options: connection flags translated for the engine, plus everything passed
    /// through (`--db`, `--output`, `--mysql-ignore-errors`, `--percentile`, …).
    pub opts: OptionValues,
    pub driver: Engine,
}

/// `--engine=innodb,memory:ROW_FORMAT=DYNAMIC`; names are identifiers (they reach the SQL).
fn engines(list: &str) -> Result<Vec<StorageEngine>> {
    let mut out = Vec::new();
    for item in list.split(',').map(str::trim).filter(|i| !i.is_empty()) {
        let (name, option) = match item.split_once(':') {
            Some((n, o)) => (
                n.trim(),
                Some(o.trim().to_string()).filter(|o| !o.is_empty()),
            ),
            None => (item, None),
        };
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(usage(format!(
                "invalid storage engine '{name}' in --engine={list}: use engine names such as innodb,myisam (SHOW ENGINES lists the server's)"
            )));
        }
        out.push(StorageEngine {
            name: name.to_string(),
            option,
        });
    }
    if out.is_empty() {
        return Err(usage(
            "--engine lists no storage engine: use e.g. --engine=innodb,myisam",
        ));
    }
    Ok(out)
}

/// mysqlslap flags dbpress does not offer, with what to use instead.
const UNSUPPORTED: &[(&str, &str)] = &[
    ("detach", "use a workload with --reconnect"),
    (
        "login-path",
        "give -u/-p/-h/-P/-S, or a --defaults-file holding them",
    ),
    (
        "defaults-group-suffix",
        "put the options in [client] or [mysqlslap] of a --defaults-file",
    ),
    (
        "print-defaults",
        "dbpress slap --only-print shows what would run; the option file is read as it is",
    ),
    (
        "ssl-capath",
        "give the CA file itself with --ssl-ca=FILE",
    ),
    (
        "ssl-crl",
        "dbpress checks no revocation lists; drop it, or test without TLS",
    ),
    (
        "tls-version",
        "dbpress's TLS (rustls) speaks TLS 1.2 and 1.3 and picks the newest the server has; drop it",
    ),
];

/// Short flags and the long option each stands for.
fn short(flag: char) -> Option<&'static str> {
    Some(match flag {
        'u' => "user",
        'p' => "password",
        'h' => "host",
        'P' => "port",
        'S' => "socket",
        'c' => "concurrency",
        'i' => "iterations",
        'q' => "query",
        'F' => "delimiter",
        's' => "silent",
        'a' => "auto-generate-sql",
        'x' => "number-char-cols",
        'y' => "number-int-cols",
        'e' => "engine",
        'C' => "compress",
        'v' => "verbose",
        _ => return None,
    })
}

fn is_flag(name: &str) -> bool {
    matches!(
        name,
        "no-drop"
            | "ssl"
            | "skip-ssl"
            | "ssl-verify-server-cert"
            | "get-server-public-key"
            | "no-defaults"
            | "verbose"
            | "compress"
            | "only-print"
            | "silent"
            | "auto-generate-sql"
            | "auto-generate-sql-add-autoincrement"
            | "auto-generate-sql-guid-primary"
    )
}

/// The options mysqlslap takes (besides `--auto-generate-sql*`); any other is dbpress's own.
const SLAP_OPTIONS: &[&str] = &[
    "user",
    "password",
    "host",
    "port",
    "socket",
    "protocol",
    "concurrency",
    "iterations",
    "number-of-queries",
    "query",
    "create",
    "create-schema",
    "delimiter",
    "pre-query",
    "post-query",
    "no-drop",
    "only-print",
    "silent",
    "csv",
    "engine",
    "commit",
    "pre-system",
    "post-system",
    "ssl",
    "skip-ssl",
    "ssl-mode",
    "ssl-ca",
    "ssl-cert",
    "ssl-key",
    "ssl-cipher",
    "ssl-verify-server-cert",
    "server-public-key-path",
    "get-server-public-key",
    "defaults-file",
    "defaults-extra-file",
    "no-defaults",
    "verbose",
    "compress",
    "compression-algorithms",
    "number-char-cols",
    "number-int-cols",
];

fn is_slap_option(name: &str) -> bool {
    SLAP_OPTIONS.contains(&name) || name.starts_with("auto-generate-sql")
}

/// An argument's option name (long, `_` read as `-`) and its attached value: `--name=value`,
/// `--name`, `-xVALUE`, `-x`.
fn name_and_value(arg: &str) -> Result<(String, Option<String>)> {
    if let Some(body) = arg.strip_prefix("--") {
        return Ok(match body.split_once('=') {
            Some((n, v)) => (n.replace('_', "-"), Some(v.to_string())),
            None => (body.replace('_', "-"), None),
        });
    }
    let Some(body) = arg.strip_prefix('-').filter(|b| !b.is_empty()) else {
        return Err(usage(format!(
            "unexpected argument '{arg}': dbpress slap takes options only, e.g. --query='SELECT 1'"
        )));
    };
    let mut chars = body.chars();
    let flag = chars.next().unwrap_or_default();
    let long = short(flag).ok_or_else(|| {
        usage(format!(
            "unknown option '-{flag}' for dbpress slap (see docs/GUIDE.md, slap)"
        ))
    })?;
    let rest: String = chars.collect();
    Ok((long.to_string(), (!rest.is_empty()).then_some(rest)))
}

pub fn parse(args: &[String]) -> Result<SlapArgs> {
    let mut slap: Vec<(String, String)> = Vec::new();
    let mut pass: Vec<String> = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let arg = &args[i];
        i += 1;
        let (name, inline) = name_and_value(arg)?;
        if let Some((_, instead)) = UNSUPPORTED.iter().find(|(n, _)| name.starts_with(n)) {
            return Err(usage(format!(
                "mysqlslap's --{name} is not supported by dbpress slap: {instead}"
            )));
        }
        if !is_slap_option(&name) {
            // dbpress's own option: hand it over as typed, with its value.
            pass.push(arg.clone());
            if inline.is_none()
                && dbpress_core::options::table::find(&name)
                    .is_some_and(|s| s.kind != dbpress_core::options::table::Kind::Bool)
                && i < args.len()
            {
                pass.push(args[i].clone());
                i += 1;
            }
            continue;
        }
        let value = if is_flag(&name) {
            inline.unwrap_or_else(|| "on".into())
        } else if name == "csv" {
            // mysqlslap's optional argument: only `--csv=FILE` names a file.
            inline.unwrap_or_default()
        } else if name == "password" {
            // `-p` or `--password` alone would prompt in mysqlslap; here it means "from the
            // environment or option file", which the driver reads anyway.
            inline.unwrap_or_default()
        } else {
            match inline {
                Some(v) => v,
                None if i < args.len() => {
                    i += 1;
                    args[i - 1].clone()
                }
                None => return Err(usage(format!("--{name} needs a value"))),
            }
        };
        slap.push((name, value));
    }
    build(slap, &pass)
}

/// mysqlslap's options as given (the last value of each), read by name.
struct Given(Vec<(String, String)>);

impl Given {
    fn get(&self, n: &str) -> Option<String> {
        self.0
            .iter()
            .rev()
            .find(|(k, _)| k == n)
            .map(|(_, v)| v.clone())
    }

    /// A flag given and on (`--no-drop`, `--silent=1`).
    fn on(&self, n: &str) -> bool {
        self.get(n)
            .is_some_and(|v| dbpress_core::options::parse_bool(&v) == Some(true))
    }

    /// A whole number up to `max`, if given.
    fn number(&self, n: &str, max: u64) -> Result<Option<u64>> {
        self.get(n)
            .map(|v| {
                v.trim()
                    .parse::<u64>()
                    .ok()
                    .filter(|x| *x <= max)
                    .ok_or_else(|| {
                        usage(format!(
                            "invalid value '{v}' for --{n}: expected a whole number"
                        ))
                    })
            })
            .transpose()
    }
}

pub fn build(slap: Vec<(String, String)>, pass: &[String]) -> Result<SlapArgs> {
    let mut opts = cli::parse_options_of(pass, "slap")?;
    let given = Given(slap);
    let driver = target::mysqlslap_target(&|n| given.get(n), &mut opts)?;
    let (concurrency, iterations) = levels_and_rounds(&given)?;
    let auto = autogen_args(&given)?;
    validate(&given, auto.is_some())?;
    if given.get("verbose").is_some() {
        opts.notices.push(
            "mysqlslap's -v/--verbose changes nothing: dbpress's report already shows every statement's latency and the server's counters (--verbosity=5 adds the end of the run)".into(),
        );
    }
    Ok(SlapArgs {
        concurrency,
        iterations,
        engines: engine_list(&given)?,
        number_of_queries: given.number("number-of-queries", u64::MAX)?.unwrap_or(0),
        query: given.get("query"),
        auto,
        create: given.get("create"),
        pre_query: given.get("pre-query"),
        post_query: given.get("post-query"),
        pre_system: given.get("pre-system").filter(|c| !c.trim().is_empty()),
        post_system: given.get("post-system").filter(|c| !c.trim().is_empty()),
        delimiter: given.get("delimiter"),
        schema: given.get("create-schema"),
        no_drop: given.on("no-drop"),
        only_print: given.on("only-print"),
        silent: given.on("silent"),
        csv: given.get("csv"),
        commit: given.number("commit", u64::MAX)?.unwrap_or(0),
        opts,
        driver,
    })
}

/// `--concurrency` (client counts, 1 without it) and `--iterations` (rounds of each).
fn levels_and_rounds(given: &Given) -> Result<(Vec<u32>, u32)> {
    let concurrency = match given.get("concurrency") {
        None => vec![1],
        Some(list) => list
            .split(',')
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .map(|p| {
                p.parse::<u32>().ok().filter(|n| *n > 0).ok_or_else(|| {
                    usage(format!(
                        "invalid value '{p}' in --concurrency={list}: use client counts like 8,32,64"
                    ))
                })
            })
            .collect::<Result<Vec<u32>>>()?,
    };
    if concurrency.is_empty() {
        return Err(usage(
            "--concurrency lists no client count: use e.g. -c 8,32,64",
        ));
    }
    let iterations = given.number("iterations", 1_000_000)?.unwrap_or(1) as u32;
    if iterations == 0 {
        // mysqlslap would run nothing and print averages of nothing.
        return Err(usage(
            "invalid value '0' for --iterations: run at least 1 round (-i 1)",
        ));
    }
    Ok((concurrency, iterations))
}

/// `-a`'s table and queries (None without -a, where its shaping options are refused).
fn autogen_args(given: &Given) -> Result<Option<AutoGenArgs>> {
    if !given.on("auto-generate-sql") {
        if let Some((n, _)) = given
            .0
            .iter()
            .find(|(n, _)| n.starts_with("auto-generate-sql") || n.starts_with("number-"))
            .filter(|(n, _)| n != "number-of-queries")
        {
            return Err(usage(format!(
                "--{n} shapes auto-generated SQL: add --auto-generate-sql (-a), or drop it"
            )));
        }
        return Ok(None);
    }
    if given.get("query").is_some() || given.get("create").is_some() {
        return Err(usage(
            "--auto-generate-sql makes its own table and queries: drop --query/--create, or drop -a",
        ));
    }
    let d = AutoGenArgs::default();
    let count = |n: &str, default: u64| -> Result<u64> {
        Ok(given.number(n, 1_000_000_000)?.unwrap_or(default))
    };
    let load = match given.get("auto-generate-sql-load-type") {
        None => d.load,
        Some(v) => LoadType::parse(&v).ok_or_else(|| {
            usage(format!(
                "invalid value '{v}' for --auto-generate-sql-load-type: use mixed, read, write, key or update"
            ))
        })?,
    };
    Ok(Some(AutoGenArgs {
        load,
        int_cols: count("number-int-cols", 1)?.min(1000) as u32,
        char_cols: count("number-char-cols", 1)?.min(1000) as u32,
        autoinc: given.on("auto-generate-sql-add-autoincrement"),
        guid: given.on("auto-generate-sql-guid-primary"),
        secondary: count("auto-generate-sql-secondary-indexes", 0)?.min(60) as u32,
        write_number: count("auto-generate-sql-write-number", d.write_number)?,
        unique_queries: count("auto-generate-sql-unique-query-number", d.unique_queries)?,
        unique_writes: count("auto-generate-sql-unique-write-number", d.unique_writes)?,
        execute_number: given.number("auto-generate-sql-execute-number", u64::MAX)?,
    }))
}

/// What slap cannot run without: statements, from --query or -a.
fn validate(given: &Given, auto: bool) -> Result<()> {
    if given.get("query").is_none() && !auto {
        return Err(usage(
            "dbpress slap needs statements: --query='SQL;SQL' or --query=FILE (and --create for tables), or --auto-generate-sql",
        ));
    }
    Ok(())
}

/// `--engine`'s storage engines; --no-drop keeps one engine's tables, so it takes one only.
fn engine_list(given: &Given) -> Result<Vec<StorageEngine>> {
    let engines = given
        .get("engine")
        .map_or(Ok(Vec::new()), |l| engines(&l))?;
    if given.on("no-drop") && engines.len() > 1 {
        return Err(usage(
            "--no-drop keeps the tables between rounds, but each --engine needs its own tables: drop --no-drop, or run once per engine",
        ));
    }
    Ok(engines)
}

/// The text of an option that is SQL or a file holding it.
fn sql_text(value: &str) -> Result<String> {
    Ok(match std::path::Path::new(value) {
        p if !value.contains(' ') && p.is_file() => {
            std::fs::read_to_string(p).map_err(|e| usage(format!("cannot read {value}: {e}")))?
        }
        _ => value.to_string(),
    })
}

/// mysqlslap's queries in `value`: split on `delimiter`, or one per line by default. This is
/// what --number-of-queries and "queries per client" count.
pub fn slap_queries(value: &str, delimiter: Option<&str>) -> Result<usize> {
    let text = sql_text(value)?;
    let d = delimiter.unwrap_or("\n");
    Ok(text.split(d).filter(|q| !q.trim().is_empty()).count())
}

/// The statements dbpress sends and times one by one: split on the delimiter, or by default
/// on `;` within each line (a line `begin;update …;commit` is three statements).
pub fn statements_of(value: &str, delimiter: Option<&str>) -> Result<Vec<String>> {
    match delimiter {
        Some(d) => statements(value, d),
        None => {
            let text = sql_text(value)?;
            let mut out = Vec::new();
            for line in text.lines() {
                out.extend(statements(line, ";")?);
            }
            Ok(out)
        }
    }
}

/// Statements of an option that is SQL text or a file holding it, split on the delimiter.
pub fn statements(value: &str, delimiter: &str) -> Result<Vec<String>> {
    let text = sql_text(value)?;
    if delimiter.is_empty() {
        return Err(usage("--delimiter is empty: use e.g. -F ';'"));
    }
    Ok(text
        .split(delimiter)
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn mysqlslap_flags_as_pasted() {
        let a = parse(&args(&[
            "-uroot",
            "-psecret",
            "-h",
            "127.0.0.1",
            "-P3307",
            "--concurrency=72,96",
            "--create-schema=test",
            "--query=begin;update seckill set num=num-1 where id=1 and num>1;commit;",
            "--number-of-queries=500000",
        ]))
        .unwrap();
        assert_eq!(a.driver, Engine::Mysql);
        assert_eq!(a.concurrency, vec![72, 96]);
        assert_eq!(a.number_of_queries, 500_000);
        assert_eq!(a.opts.get("mysql-user"), "root");
        assert_eq!(a.opts.get("mysql-password"), "secret");
        assert_eq!(a.opts.get("mysql-host"), "127.0.0.1");
        assert_eq!(a.opts.get("mysql-port"), "3307");
        assert_eq!(a.opts.get("mysql-db"), "test");
        let q = statements_of(a.query.as_deref().unwrap(), a.delimiter.as_deref()).unwrap();
        assert_eq!(q.len(), 3);
        // mysqlslap's default delimiter is a newline: the line is one of its queries.
        assert_eq!(slap_queries(a.query.as_deref().unwrap(), None).unwrap(), 1);
        assert_eq!(slap_queries("a;b;c", Some(";")).unwrap(), 3);
        assert_eq!(q[1], "update seckill set num=num-1 where id=1 and num>1");
    }

    #[test]
    fn mysql_tls_flags_map_onto_the_ssl_modes() {
        let mode = |flags: &[&str]| {
            let mut a = vec!["-S", "/s", "-q", "SELECT 1"];
            a.extend_from_slice(flags);
            let p = parse(&args(&a)).unwrap();
            p.opts
                .is_set("mysql-ssl")
                .then(|| p.opts.get("mysql-ssl").to_string())
        };
        assert_eq!(mode(&[]), None);
        assert_eq!(mode(&["--ssl"]).as_deref(), Some("required"));
        assert_eq!(mode(&["--ssl-ca=/ca.pem"]).as_deref(), Some("required"));
        assert_eq!(mode(&["--ssl=0"]).as_deref(), Some("disabled"));
        assert_eq!(mode(&["--skip-ssl"]).as_deref(), Some("disabled"));
        assert_eq!(
            mode(&["--ssl", "--ssl-verify-server-cert"]).as_deref(),
            Some("verify_identity")
        );
        assert_eq!(
            mode(&["--ssl-mode=VERIFY_CA", "--skip-ssl"]).as_deref(),
            Some("verify_ca")
        );
        // TLS flags alone say the target is MySQL, not the SQLite default.
        let p = parse(&args(&["--ssl", "-q", "SELECT 1"])).unwrap();
        assert_eq!(p.driver, Engine::Mysql);
    }

    #[test]
    fn storage_engines_are_listed_with_their_table_options() {
        let a = parse(&args(&[
            "-S",
            "/run/mysqld/mysqld.sock",
            "-e",
            "innodb, memory:MAX_ROWS=10 ,myisam:",
            "-q",
            "SELECT 1",
        ]))
        .unwrap();
        let clauses: Vec<String> = a.engines.iter().map(StorageEngine::clause).collect();
        assert_eq!(
            clauses,
            [
                " ENGINE = innodb",
                " ENGINE = memory MAX_ROWS=10",
                " ENGINE = myisam"
            ]
        );
        for bad in ["inno;db", ",", "x`y"] {
            let e = parse(&args(&["-S", "/s", "--engine", bad, "-q", "SELECT 1"])).unwrap_err();
            assert!(e.message().contains("--engine"), "{bad}: {}", e.message());
        }
    }

    #[test]
    fn engine_options_route_connection_flags() {
        let a = parse(&args(&[
            "--db-driver=pgsql",
            "-u",
            "bob",
            "-S",
            "/run/pg",
            "-q",
            "SELECT 1",
        ]))
        .unwrap();
        assert_eq!(a.driver, Engine::Pgsql);
        assert_eq!(a.opts.get("pgsql-user"), "bob");
        assert_eq!(a.opts.get("pgsql-host"), "/run/pg");
        let a = parse(&args(&["-q", "SELECT 1"])).unwrap();
        assert_eq!(a.driver, Engine::Sqlite);
        let a = parse(&args(&[
            "-a",
            "-x2",
            "-y",
            "3",
            "--auto-generate-sql-load-type=key",
        ]))
        .unwrap();
        let g = a.auto.unwrap();
        assert_eq!((g.char_cols, g.int_cols, g.load), (2, 3, LoadType::Key));
        let e = parse(&args(&["-a", "-q", "SELECT 1"])).unwrap_err();
        assert!(e.message().contains("drop --query/--create"));
        let e = parse(&args(&["-a", "--auto-generate-sql-load-type=scan"])).unwrap_err();
        assert!(e
            .message()
            .contains("use mixed, read, write, key or update"));
        let e = parse(&args(&[
            "-q",
            "SELECT 1",
            "--auto-generate-sql-write-number=5",
        ]))
        .unwrap_err();
        assert!(
            e.message().contains("add --auto-generate-sql"),
            "{}",
            e.message()
        );
        let e = parse(&args(&["-c", "8,x", "-q", "SELECT 1"])).unwrap_err();
        assert!(e.message().contains("invalid value 'x' in --concurrency"));
        let e = parse(&args(&["-c", "8"])).unwrap_err();
        assert!(e.message().contains("needs statements"));
    }
}
