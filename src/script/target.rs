//! pgbench's rules for which server a `dbpress script` line means, as libpq applies them:
//! `-h/-p/-U` and a DBNAME word, else libpq's environment (PGHOST, PGHOSTADDR, PGPORT,
//! PGDATABASE, PGUSER, PGSERVICE) — any of them means PostgreSQL. Then libpq's defaults for
//! what nothing gave: the service file's entries (PGSERVICE), the environment, the default
//! socket directory, the OS user, and a database named after the user. Where nothing names a
//! server at all, the embedded SQLite default stays and a notice says how to name one.

use dbpress_config::{keys, resolve_driver, Engine};
use dbpress_core::options::OptionValues;
use std::path::PathBuf;

const LIBPQ_ENV: [&str; 6] = [
    "PGHOST",
    "PGHOSTADDR",
    "PGPORT",
    "PGDATABASE",
    "PGUSER",
    "PGSERVICE",
];

/// libpq's default socket directory on Debian (its compiled-in DEFAULT_PGSOCKET_DIR).
const SOCKET_DIR: &str = "/var/run/postgresql";

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

/// The first libpq environment variable set, if any.
pub fn libpq_env() -> Option<&'static str> {
    LIBPQ_ENV.into_iter().find(|v| env(v).is_some())
}

/// The OS user, as libpq takes it for the default user name.
pub(crate) fn os_user() -> String {
    if let Some(u) = env("USER").or_else(|| env("LOGNAME")) {
        return u;
    }
    // SAFETY: getpwuid returns a pointer into static storage or null; read at once.
    unsafe {
        let pw = libc::getpwuid(libc::getuid());
        if !pw.is_null() && !(*pw).pw_name.is_null() {
            return std::ffi::CStr::from_ptr((*pw).pw_name)
                .to_string_lossy()
                .into_owned();
        }
    }
    "postgres".into()
}

/// The entries of service `name` in the connection service file (PGSERVICEFILE, else
/// ~/.pg_service.conf, else PGSYSCONFDIR/pg_service.conf), as `key=value` lines under
/// `[name]`; None when no file has that service.
fn service(name: &str) -> Option<Vec<(String, String)>> {
    let mut files: Vec<PathBuf> = Vec::new();
    if let Some(f) = env("PGSERVICEFILE") {
        files.push(f.into());
    } else if let Some(h) = env("HOME") {
        files.push(PathBuf::from(h).join(".pg_service.conf"));
    }
    files.push(
        PathBuf::from(env("PGSYSCONFDIR").unwrap_or_else(|| "/etc/postgresql-common".into()))
            .join("pg_service.conf"),
    );
    for f in files {
        let Ok(text) = std::fs::read_to_string(&f) else {
            continue;
        };
        let mut inside = false;
        let mut found = None;
        for line in text.lines().map(str::trim) {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if let Some(section) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
                inside = section == name;
                if inside {
                    found = Some(Vec::new());
                }
                continue;
            }
            if let (true, Some((k, v)), Some(entries)) = (inside, line.split_once('='), &mut found)
            {
                entries.push((k.trim().to_string(), v.trim().to_string()));
            }
        }
        if found.is_some() {
            return found;
        }
    }
    None
}

/// Fill what nothing gave for a PostgreSQL target meant by pgbench's rules: the service's
/// entries first (libpq reads them before the environment), then the environment (read later by
/// the target itself), then libpq's defaults.
pub fn fill_libpq_defaults(opts: &mut OptionValues) -> dbpress_core::error::Result<()> {
    if let Some(name) = env("PGSERVICE") {
        let entries = service(&name).ok_or_else(|| {
            dbpress_core::error::usage(format!(
                "PGSERVICE={name}: no service of that name in PGSERVICEFILE, ~/.pg_service.conf or pg_service.conf: fix the name or the file"
            ))
        })?;
        for (k, v) in entries {
            let option = match k.as_str() {
                "host" | "hostaddr" => "pgsql-host",
                "port" => "pgsql-port",
                "dbname" => "pgsql-db",
                "user" => "pgsql-user",
                "sslmode" => "pgsql-sslmode",
                _ => continue,
            };
            if !opts.is_set(option) {
                opts.set(option, v);
            }
        }
    }
    let unset =
        |opts: &OptionValues, option: &str, var: &str| !opts.is_set(option) && env(var).is_none();
    if unset(opts, "pgsql-host", "PGHOST") && env("PGHOSTADDR").is_none() {
        let dir = std::path::Path::new(SOCKET_DIR);
        opts.set(
            "pgsql-host",
            if dir.is_dir() {
                SOCKET_DIR
            } else {
                "localhost"
            },
        );
    }
    if let Some(addr) = env("PGHOSTADDR").filter(|_| unset(opts, "pgsql-host", "PGHOST")) {
        opts.set(keys::PGSQL_HOST.name, addr);
    }
    if unset(opts, "pgsql-user", "PGUSER") {
        opts.set(keys::PGSQL_USER.name, os_user());
    }
    if unset(opts, "pgsql-db", "PGDATABASE") {
        let user = if opts.is_set("pgsql-user") {
            opts.get("pgsql-user").to_string()
        } else {
            env("PGUSER").unwrap_or_else(os_user)
        };
        opts.set(keys::PGSQL_DB.name, user);
    }
    Ok(())
}

/// pgbench's target rules on `opts`: its flags (`conn`: -h, -p, -U, DBNAME), or libpq's
/// environment, mean PostgreSQL unless --db or a driver's options say otherwise; the flags
/// then land on that engine's options, and libpq's defaults fill what nothing gave.
pub fn pgbench_target(
    opts: &mut OptionValues,
    conn: Vec<(&'static str, String)>,
) -> dbpress_core::error::Result<()> {
    let pgbench_connection = !conn.is_empty();
    let from_env = libpq_env();
    let (driver, defaulted) = resolve_driver(opts)?;
    let postgres_meant = defaulted && (pgbench_connection || from_env.is_some());
    let driver = if postgres_meant {
        opts.set(keys::DB_DRIVER.name, "pgsql");
        Engine::Pgsql
    } else {
        driver
    };
    for (k, v) in conn {
        opts.set(connection_option(driver, k)?, v);
    }
    if postgres_meant {
        fill_libpq_defaults(opts)?;
        if !pgbench_connection {
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
    Ok(())
}

/// The option pgbench's `-h`, `-p`, `-U` or DBNAME (`db`) sets on `driver`.
fn connection_option(driver: Engine, flag: &str) -> dbpress_core::error::Result<&'static str> {
    Ok(match (driver, flag) {
        (Engine::Pgsql, "host") => "pgsql-host",
        (Engine::Pgsql, "port") => "pgsql-port",
        (Engine::Pgsql, "user") => "pgsql-user",
        (Engine::Pgsql, _) => "pgsql-db",
        (Engine::Mysql, "host") => "mysql-host",
        (Engine::Mysql, "port") => "mysql-port",
        (Engine::Mysql, "user") => "mysql-user",
        (Engine::Mysql, _) => "mysql-db",
        (Engine::Sqlite, _) => {
            return Err(dbpress_core::error::usage(
                "-h/-p/-U/DBNAME connect to a server, but the target is SQLite: drop them or choose a server with --db",
            ))
        }
    })
}
