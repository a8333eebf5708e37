//! mysqlslap's command line as people paste it: short flags with attached or separate values
//! (`-uroot -p -h host -P 3306 -S sock -c 8,16 -i 3 -q '…' -F ';'`), long options, and
//! dbpress's own long options passed through. Connection flags land on the options of the
//! engine in use (mysql by default for these flags, pgsql or sqlite when `--db`/`--db-driver`
//! or their options say so).

use crate::cli;
use dbpress_config::{resolve_driver, Driver};
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
    pub driver: Driver,
}

/// The connection options of mysqlslap's option files: `--defaults-file=F` (F alone),
/// `--defaults-extra-file=F` (F besides ~/.my.cnf, which dbpress reads for a password only),
/// `--no-defaults` (none).
struct OptionFiles {
    pairs: Vec<(String, String)>,
    /// ~/.my.cnf is not to be read.
    exclusive: bool,
    /// One of the three options was given.
    named: bool,
}

impl OptionFiles {
    fn get(&self, key: &str) -> Option<String> {
        dbpress_config::option_file::last(&self.pairs, key).map(str::to_string)
    }
}

fn option_files(get: &dyn Fn(&str) -> Option<String>) -> Result<OptionFiles> {
    use dbpress_config::option_file;
    let groups = [option_file::CLIENT_GROUPS, &["mysqlslap"]].concat();
    let read = |option: &str, path: &str| {
        option_file::read(std::path::Path::new(path), &groups).ok_or_else(|| {
            usage(format!(
                "cannot read --{option} {path}: give a readable MySQL option file"
            ))
        })
    };
    let no_defaults =
        get("no-defaults").is_some_and(|v| dbpress_core::options::parse_bool(&v) != Some(false));
    Ok(match (get("defaults-file"), get("defaults-extra-file")) {
        (Some(f), _) => OptionFiles {
            pairs: read("defaults-file", &f)?,
            exclusive: true,
            named: true,
        },
        (None, Some(f)) => OptionFiles {
            pairs: read("defaults-extra-file", &f)?,
            exclusive: no_defaults,
            named: true,
        },
        (None, None) => OptionFiles {
            pairs: Vec::new(),
            exclusive: no_defaults,
            named: no_defaults,
        },
    })
}

/// mysqlslap's TLS flags (MySQL's client options).
const SSL_FLAGS: &[&str] = &[
    "ssl",
    "skip-ssl",
    "ssl-mode",
    "ssl-ca",
    "ssl-cert",
    "ssl-key",
    "ssl-cipher",
    "ssl-verify-server-cert",
];

/// The `--mysql-ssl` mode mysqlslap's TLS flags ask for, as the MySQL and MariaDB clients read
/// them: `--ssl-mode` says it outright; `--ssl-verify-server-cert` checks the certificate and
/// the host name; `--ssl`, or a CA, certificate or key (each implies `--ssl`), requires TLS;
/// `--skip-ssl` or `--ssl=0` turns it off.
fn ssl_mode(get: &dyn Fn(&str) -> Option<String>) -> Result<Option<String>> {
    let on = |n: &str| get(n).map(|v| dbpress_core::options::parse_bool(&v) != Some(false));
    if let Some(mode) = get("ssl-mode") {
        let m = mode.to_ascii_lowercase();
        return match m.as_str() {
            "disabled" | "preferred" | "required" | "verify_ca" | "verify_identity" => Ok(Some(m)),
            _ => Err(usage(format!(
                "invalid value '{mode}' for --ssl-mode: use DISABLED, PREFERRED, REQUIRED, VERIFY_CA or VERIFY_IDENTITY"
            ))),
        };
    }
    if on("skip-ssl") == Some(true) || on("ssl") == Some(false) {
        return Ok(Some("disabled".into()));
    }
    if on("ssl-verify-server-cert") == Some(true) {
        return Ok(Some("verify_identity".into()));
    }
    let implied = ["ssl-ca", "ssl-cert", "ssl-key", "ssl-cipher"]
        .iter()
        .any(|n| get(n).is_some());
    Ok((on("ssl") == Some(true) || implied).then(|| "required".into()))
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

pub fn parse(args: &[String]) -> Result<SlapArgs> {
    let mut slap: Vec<(String, String)> = Vec::new();
    let mut pass: Vec<String> = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let arg = &args[i];
        i += 1;
        let (name, inline): (String, Option<String>) = if let Some(body) = arg.strip_prefix("--") {
            match body.split_once('=') {
                Some((n, v)) => (n.replace('_', "-"), Some(v.to_string())),
                None => (body.replace('_', "-"), None),
            }
        } else if let Some(body) = arg.strip_prefix('-').filter(|b| !b.is_empty()) {
            let mut chars = body.chars();
            let flag = chars.next().unwrap_or_default();
            let long = short(flag).ok_or_else(|| {
                usage(format!(
                    "unknown option '-{flag}' for dbpress slap (see docs/GUIDE.md, slap)"
                ))
            })?;
            let rest: String = chars.collect();
            (long.to_string(), (!rest.is_empty()).then_some(rest))
        } else {
            return Err(usage(format!(
                "unexpected argument '{arg}': dbpress slap takes options only, e.g. --query='SELECT 1'"
            )));
        };
        if let Some((_, instead)) = UNSUPPORTED.iter().find(|(n, _)| name.starts_with(n)) {
            return Err(usage(format!(
                "mysqlslap's --{name} is not supported by dbpress slap: {instead}"
            )));
        }
        let slap_option = matches!(
            name.as_str(),
            "user"
                | "password"
                | "host"
                | "port"
                | "socket"
                | "protocol"
                | "concurrency"
                | "iterations"
                | "number-of-queries"
                | "query"
                | "create"
                | "create-schema"
                | "delimiter"
                | "pre-query"
                | "post-query"
                | "no-drop"
                | "only-print"
                | "silent"
                | "csv"
                | "engine"
                | "commit"
                | "pre-system"
                | "post-system"
                | "ssl"
                | "skip-ssl"
                | "ssl-mode"
                | "ssl-ca"
                | "ssl-cert"
                | "ssl-key"
                | "ssl-cipher"
                | "ssl-verify-server-cert"
                | "server-public-key-path"
                | "get-server-public-key"
                | "defaults-file"
                | "defaults-extra-file"
                | "no-defaults"
                | "verbose"
                | "compress"
                | "compression-algorithms"
                | "number-char-cols"
                | "number-int-cols"
        ) || name.starts_with("auto-generate-sql");
        if !slap_option {
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

fn build(slap: Vec<(String, String)>, pass: &[String]) -> Result<SlapArgs> {
    let mut opts = cli::parse_options_of(pass, "slap")?;
    let get = |n: &str| {
        slap.iter()
            .rev()
            .find(|(k, _)| k == n)
            .map(|(_, v)| v.clone())
    };
    let files = option_files(&get)?;
    // mysqlslap's defaults besides its flags: ~/.my.cnf's [client] and [mysqlslap] groups
    // (unless --defaults-file or --no-defaults replace them), then MYSQL_HOST, MYSQL_TCP_PORT
    // and MYSQL_UNIX_PORT. Their host, port or socket names a MySQL server as the flags do.
    let home_cnf: Vec<(String, String)> = match files.exclusive {
        true => Vec::new(),
        false => std::env::var_os("HOME")
            .and_then(|h| {
                dbpress_config::option_file::read(
                    &std::path::Path::new(&h).join(".my.cnf"),
                    &[dbpress_config::option_file::CLIENT_GROUPS, &["mysqlslap"]].concat(),
                )
            })
            .unwrap_or_default(),
    };
    let from_env = |n: &str| {
        let var = match n {
            "host" => "MYSQL_HOST",
            "port" => "MYSQL_TCP_PORT",
            "socket" => "MYSQL_UNIX_PORT",
            _ => return None,
        };
        std::env::var(var).ok().filter(|v| !v.is_empty())
    };
    // The command line first, then the option files, then the environment, as in mysqlslap.
    let conn = |n: &str| {
        get(n)
            .or_else(|| files.get(n))
            .or_else(|| dbpress_config::option_file::last(&home_cnf, n).map(str::to_string))
            .or_else(|| from_env(n))
    };
    let flags_given = ["user", "password", "host", "port", "socket"]
        .iter()
        .any(|n| get(n).is_some() || files.get(n).is_some());
    let server_named = ["host", "port", "socket"].iter().any(|n| conn(n).is_some());
    let conn_given = flags_given || server_named;
    let (resolved, defaulted) = resolve_driver(&opts)?;
    let driver = match (resolved, defaulted) {
        // MySQL's client flags (a connection, an option file, TLS), or its defaults naming a
        // server, say the target is MySQL.
        (Driver::Sqlite, true)
            if conn_given || files.named || SSL_FLAGS.iter().any(|f| get(f).is_some()) =>
        {
            Driver::Mysql
        }
        (d, _) => d,
    };
    if driver == Driver::Sqlite && defaulted {
        opts.notices.push(format!(
            "no server named (no -h/-P/-S, no host, port or socket in ~/.my.cnf, no MYSQL_HOST/MYSQL_TCP_PORT/MYSQL_UNIX_PORT, no --db): running on the embedded SQLite database {}; name a MySQL server with -h HOST or -S SOCKET as mysqlslap does, or any server with --db=URL",
            opts.get("sqlite-path")
        ));
    }
    let set = |opts: &mut OptionValues, name: &'static str, v: Option<String>| {
        if let Some(v) = v.filter(|v| !v.is_empty()) {
            opts.set(name, v);
        }
    };
    match driver {
        Driver::Mysql => {
            set(&mut opts, "mysql-user", conn("user"));
            set(&mut opts, "mysql-password", conn("password"));
            set(&mut opts, "mysql-host", conn("host"));
            set(&mut opts, "mysql-port", conn("port"));
            set(&mut opts, "mysql-socket", conn("socket"));
            // --defaults-file and --no-defaults replace ~/.my.cnf, where dbpress would look
            // for a password none of the above gave (MYSQL_PWD still counts, as in mysqlslap).
            if files.exclusive
                && !opts.is_set("mysql-password")
                && std::env::var_os("MYSQL_PWD").is_none()
            {
                opts.set("mysql-password", "");
            }
            set(&mut opts, "mysql-db", get("create-schema"));
            set(&mut opts, "mysql-compression", get("compress"));
            set(&mut opts, "mysql-ssl", ssl_mode(&get)?);
            set(&mut opts, "mysql-ssl-ca", get("ssl-ca"));
            set(&mut opts, "mysql-ssl-cert", get("ssl-cert"));
            set(&mut opts, "mysql-ssl-key", get("ssl-key"));
            set(&mut opts, "mysql-ssl-cipher", get("ssl-cipher"));
            set(
                &mut opts,
                "mysql-server-public-key-path",
                get("server-public-key-path"),
            );
            set(
                &mut opts,
                "mysql-get-server-public-key",
                get("get-server-public-key"),
            );
            set(
                &mut opts,
                "mysql-compression-algorithms",
                get("compression-algorithms"),
            );
            if !opts.is_set("db-driver") && !opts.is_set("db") {
                opts.set("db-driver", "mysql");
            }
        }
        Driver::Pgsql | Driver::Sqlite if files.named => {
            return Err(usage(
                "--defaults-file, --defaults-extra-file and --no-defaults read MySQL option files: drop them (PostgreSQL takes -u/-p/-h/-P/-S, the PG* variables or ~/.pgpass)",
            ));
        }
        Driver::Pgsql | Driver::Sqlite if SSL_FLAGS.iter().any(|f| get(f).is_some()) => {
            return Err(usage(
                "--ssl, --ssl-mode, --ssl-ca, --ssl-cert, --ssl-key and --ssl-cipher are mysqlslap's MySQL TLS flags: on PostgreSQL use --pgsql-sslmode, --pgsql-sslrootcert, --pgsql-sslcert and --pgsql-sslkey",
            ));
        }
        Driver::Pgsql | Driver::Sqlite if get("engine").is_some() => {
            return Err(usage(
                "-e/--engine chooses a MySQL storage engine; PostgreSQL and SQLite have one each: drop it",
            ));
        }
        Driver::Pgsql | Driver::Sqlite
            if get("compress")
                .is_some_and(|v| dbpress_core::options::parse_bool(&v) == Some(true)) =>
        {
            return Err(usage(
                "-C/--compress compresses MySQL's protocol; PostgreSQL and SQLite have no such option: drop it",
            ));
        }
        Driver::Pgsql => {
            set(&mut opts, "pgsql-user", get("user"));
            set(&mut opts, "pgsql-password", get("password"));
            set(&mut opts, "pgsql-host", get("socket").or(get("host")));
            set(&mut opts, "pgsql-port", get("port"));
            set(&mut opts, "pgsql-schema", get("create-schema"));
        }
        Driver::Sqlite => {
            if flags_given {
                return Err(usage(
                    "-u/-p/-h/-P/-S connect to a server, but the target is SQLite: drop them or choose a server with --db",
                ));
            }
        }
    }
    let concurrency = match get("concurrency") {
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
    let number = |n: &str, max: u64| -> Result<Option<u64>> {
        get(n)
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
    };
    let iterations = number("iterations", 1_000_000)?.unwrap_or(1) as u32;
    if iterations == 0 {
        // mysqlslap would run nothing and print averages of nothing.
        return Err(usage(
            "invalid value '0' for --iterations: run at least 1 round (-i 1)",
        ));
    }
    let query = get("query");
    let only_print =
        get("only-print").is_some_and(|v| dbpress_core::options::parse_bool(&v) == Some(true));
    let flag =
        |n: &str| get(n).is_some_and(|v| dbpress_core::options::parse_bool(&v) == Some(true));
    let auto = if flag("auto-generate-sql") {
        if query.is_some() || get("create").is_some() {
            return Err(usage(
                "--auto-generate-sql makes its own table and queries: drop --query/--create, or drop -a",
            ));
        }
        let d = AutoGenArgs::default();
        let count = |n: &str, default: u64| -> Result<u64> {
            Ok(number(n, 1_000_000_000)?.unwrap_or(default))
        };
        let load = match get("auto-generate-sql-load-type") {
            None => d.load,
            Some(v) => LoadType::parse(&v).ok_or_else(|| {
                usage(format!(
                    "invalid value '{v}' for --auto-generate-sql-load-type: use mixed, read, write, key or update"
                ))
            })?,
        };
        Some(AutoGenArgs {
            load,
            int_cols: count("number-int-cols", 1)?.min(1000) as u32,
            char_cols: count("number-char-cols", 1)?.min(1000) as u32,
            autoinc: flag("auto-generate-sql-add-autoincrement"),
            guid: flag("auto-generate-sql-guid-primary"),
            secondary: count("auto-generate-sql-secondary-indexes", 0)?.min(60) as u32,
            write_number: count("auto-generate-sql-write-number", d.write_number)?,
            unique_queries: count("auto-generate-sql-unique-query-number", d.unique_queries)?,
            unique_writes: count("auto-generate-sql-unique-write-number", d.unique_writes)?,
            execute_number: number("auto-generate-sql-execute-number", u64::MAX)?,
        })
    } else {
        if let Some((n, _)) = slap
            .iter()
            .find(|(n, _)| n.starts_with("auto-generate-sql") || n.starts_with("number-"))
            .filter(|(n, _)| n != "number-of-queries")
        {
            return Err(usage(format!(
                "--{n} shapes auto-generated SQL: add --auto-generate-sql (-a), or drop it"
            )));
        }
        None
    };
    if query.is_none() && auto.is_none() {
        return Err(usage(
            "dbpress slap needs statements: --query='SQL;SQL' or --query=FILE (and --create for tables), or --auto-generate-sql",
        ));
    }
    if get("verbose").is_some() {
        opts.notices.push(
            "mysqlslap's -v/--verbose changes nothing: dbpress's report already shows every statement's latency and the server's counters (--verbosity=5 adds the end of the run)".into(),
        );
    }
    let engines = get("engine").map_or(Ok(Vec::new()), |l| engines(&l))?;
    let no_drop =
        get("no-drop").is_some_and(|v| dbpress_core::options::parse_bool(&v) == Some(true));
    if no_drop && engines.len() > 1 {
        return Err(usage(
            "--no-drop keeps the tables between rounds, but each --engine needs its own tables: drop --no-drop, or run once per engine",
        ));
    }
    Ok(SlapArgs {
        concurrency,
        iterations,
        number_of_queries: number("number-of-queries", u64::MAX)?.unwrap_or(0),
        query,
        auto,
        create: get("create"),
        pre_query: get("pre-query"),
        post_query: get("post-query"),
        pre_system: get("pre-system").filter(|c| !c.trim().is_empty()),
        post_system: get("post-system").filter(|c| !c.trim().is_empty()),
        delimiter: get("delimiter"),
        schema: get("create-schema"),
        no_drop,
        only_print,
        silent: get("silent").is_some_and(|v| dbpress_core::options::parse_bool(&v) == Some(true)),
        csv: get("csv"),
        engines,
        commit: number("commit", u64::MAX)?.unwrap_or(0),
        opts,
        driver,
    })
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
        assert_eq!(a.driver, Driver::Mysql);
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
        assert_eq!(p.driver, Driver::Mysql);
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
        assert_eq!(a.driver, Driver::Pgsql);
        assert_eq!(a.opts.get("pgsql-user"), "bob");
        assert_eq!(a.opts.get("pgsql-host"), "/run/pg");
        let a = parse(&args(&["-q", "SELECT 1"])).unwrap();
        assert_eq!(a.driver, Driver::Sqlite);
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
