//! mysqlslap's rules for which server a `dbpress slap` line means, as the MySQL client reads
//! them: its flags first, then its option files (`--defaults-file`, `--defaults-extra-file`,
//! ~/.my.cnf's [client] and [mysqlslap] groups, unless `--no-defaults`), then MYSQL_HOST,
//! MYSQL_TCP_PORT and MYSQL_UNIX_PORT. Any of them, or a TLS flag, means MySQL unless `--db` or
//! a driver's options say otherwise; the connection flags then land on that engine's options.
//! Where nothing names a server, the embedded SQLite default stays and a notice says how to
//! name one.

use dbpress_config::{keys, resolve_driver, Engine};
use dbpress_core::error::{usage, Result};
use dbpress_core::options::OptionValues;

/// mysqlslap's options as given, by name.
pub type Given<'a> = &'a dyn Fn(&str) -> Option<String>;

/// The engine mysqlslap's flags and defaults mean, with them set on `opts` as that engine's
/// connection options.
pub fn mysqlslap_target(get: Given<'_>, opts: &mut OptionValues) -> Result<Engine> {
    let files = option_files(get)?;
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
    let (resolved, defaulted) = resolve_driver(opts)?;
    let driver = match (resolved, defaulted) {
        // MySQL's client flags (a connection, an option file, TLS), or its defaults naming a
        // server, say the target is MySQL.
        (Engine::Sqlite, true)
            if conn_given || files.named || SSL_FLAGS.iter().any(|f| get(f).is_some()) =>
        {
            Engine::Mysql
        }
        (d, _) => d,
    };
    if driver == Engine::Sqlite && defaulted {
        opts.notices.push(format!(
            "no server named (no -h/-P/-S, no host, port or socket in ~/.my.cnf, no MYSQL_HOST/MYSQL_TCP_PORT/MYSQL_UNIX_PORT, no --db): running on the embedded SQLite database {}; name a MySQL server with -h HOST or -S SOCKET as mysqlslap does, or any server with --db=URL",
            opts.get("sqlite-path")
        ));
    }
    match driver {
        Engine::Mysql => set_mysql(get, &conn, &files, opts)?,
        _ => set_other(get, driver, flags_given, &files, opts)?,
    }
    Ok(driver)
}

/// Set `name` to `v` unless it is missing or empty.
fn set(opts: &mut OptionValues, name: &'static str, v: Option<String>) {
    if let Some(v) = v.filter(|v| !v.is_empty()) {
        opts.set(name, v);
    }
}

/// MySQL's connection options from mysqlslap's flags (`conn`: flags, files, environment).
fn set_mysql(
    get: Given<'_>,
    conn: &dyn Fn(&str) -> Option<String>,
    files: &OptionFiles,
    opts: &mut OptionValues,
) -> Result<()> {
    // As mysqlslap's client library: no user named is the login's own name.
    let user = conn("user").or_else(|| {
        (dbpress_core::personality::current() == dbpress_core::personality::Personality::Mysqlslap)
            .then(crate::script::target::os_user)
    });
    set(opts, "mysql-user", user);
    set(opts, "mysql-password", conn("password"));
    let host = conn("host");
    // A host other than `localhost` is reached over TCP: a socket an option file names is
    // for `localhost` only, as in mysqlslap's client library.
    let tcp = host.as_deref().is_some_and(|h| h != "localhost");
    set(opts, "mysql-host", host);
    set(opts, "mysql-port", conn("port"));
    if !tcp {
        set(opts, "mysql-socket", conn("socket"));
    }
    // --defaults-file and --no-defaults replace ~/.my.cnf, where dbpress would look
    // for a password none of the above gave (MYSQL_PWD still counts, as in mysqlslap).
    if files.exclusive && !opts.is_set("mysql-password") && std::env::var_os("MYSQL_PWD").is_none()
    {
        opts.set(keys::MYSQL_PASSWORD.name, "");
    }
    set(opts, "mysql-db", get("create-schema"));
    set(opts, "mysql-compression", get("compress"));
    set(opts, "mysql-ssl", ssl_mode(get)?);
    set(opts, "mysql-ssl-ca", get("ssl-ca"));
    set(opts, "mysql-ssl-cert", get("ssl-cert"));
    set(opts, "mysql-ssl-key", get("ssl-key"));
    set(opts, "mysql-ssl-cipher", get("ssl-cipher"));
    set(
        opts,
        "mysql-server-public-key-path",
        get("server-public-key-path"),
    );
    set(
        opts,
        "mysql-get-server-public-key",
        get("get-server-public-key"),
    );
    set(
        opts,
        "mysql-compression-algorithms",
        get("compression-algorithms"),
    );
    if !opts.is_set("db-driver") && !opts.is_set("db") {
        opts.set(keys::DB_DRIVER.name, "mysql");
    }
    Ok(())
}

/// PostgreSQL's connection options from mysqlslap's flags, or SQLite's none; what only MySQL
/// reads is refused with what to use instead.
fn set_other(
    get: Given<'_>,
    driver: Engine,
    flags_given: bool,
    files: &OptionFiles,
    opts: &mut OptionValues,
) -> Result<()> {
    let compress =
        get("compress").is_some_and(|v| dbpress_core::options::parse_bool(&v) == Some(true));
    let refused = if files.named {
        Some("--defaults-file, --defaults-extra-file and --no-defaults read MySQL option files: drop them (PostgreSQL takes -u/-p/-h/-P/-S, the PG* variables or ~/.pgpass)")
    } else if SSL_FLAGS.iter().any(|f| get(f).is_some()) {
        Some("--ssl, --ssl-mode, --ssl-ca, --ssl-cert, --ssl-key and --ssl-cipher are mysqlslap's MySQL TLS flags: on PostgreSQL use --pgsql-sslmode, --pgsql-sslrootcert, --pgsql-sslcert and --pgsql-sslkey")
    } else if get("engine").is_some() {
        Some("-e/--engine chooses a MySQL storage engine; PostgreSQL and SQLite have one each: drop it")
    } else if compress {
        Some("-C/--compress compresses MySQL's protocol; PostgreSQL and SQLite have no such option: drop it")
    } else {
        None
    };
    if let Some(why) = refused {
        return Err(usage(why));
    }
    match driver {
        Engine::Pgsql => {
            set(opts, "pgsql-user", get("user"));
            set(opts, "pgsql-password", get("password"));
            set(opts, "pgsql-host", get("socket").or(get("host")));
            set(opts, "pgsql-port", get("port"));
            set(opts, "pgsql-schema", get("create-schema"));
        }
        Engine::Sqlite if flags_given => {
            return Err(usage(
                "-u/-p/-h/-P/-S connect to a server, but the target is SQLite: drop them or choose a server with --db",
            ));
        }
        _ => {}
    }
    Ok(())
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
