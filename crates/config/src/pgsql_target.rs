//! Where a PostgreSQL session goes and as whom: sysbench's `--pgsql-*` options, the URL form,
//! then libpq's environment (PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE, PGSSLMODE) and
//! ~/.pgpass, in libpq's order of precedence (an option beats the environment beats a default).

use super::mysql_target::parse_url;
use crate::keys;
use dbpress_core::error::{usage, Result};
use dbpress_core::options::{OptionValues, TextOpt};
use dbpress_net::tls::ClientCert;
pub use dbpress_pg::{Fixes, PgSslMode, PgTarget};
use dbpress_session::Secret;
use std::path::{Path, PathBuf};

/// An option if given, else the URL's part, else the environment variable, else the default.
fn pick(opts: &OptionValues, k: TextOpt, url: Option<&String>, env: &str) -> String {
    if opts.given(k) {
        return opts.text(k).to_string();
    }
    if let Some(u) = url {
        return u.clone();
    }
    match std::env::var(env) {
        Ok(v) if !v.is_empty() => v,
        _ => opts.text(k).to_string(),
    }
}

/// --pgsql-sslcert/--pgsql-sslkey, else PGSSLCERT/PGSSLKEY, else libpq's default files
/// ~/.postgresql/postgresql.crt and .key when both exist (libpq presents them unasked too).
fn client_cert(opts: &OptionValues, ssl: PgSslMode) -> Result<Option<ClientCert>> {
    let cert = pick(opts, keys::PGSQL_SSLCERT, None, "PGSSLCERT");
    let key = pick(opts, keys::PGSQL_SSLKEY, None, "PGSSLKEY");
    let given =
        ClientCert::from_files(&cert, &key, "--pgsql-sslcert", "--pgsql-sslkey").map_err(usage)?;
    if given.is_some() && ssl == PgSslMode::Disable {
        return Err(usage(
            "--pgsql-sslcert is presented over TLS, which --pgsql-sslmode=disable turns off: use --pgsql-sslmode=require (or prefer, verify-ca, verify-full)",
        ));
    }
    if given.is_some() || !cert.is_empty() || !key.is_empty() {
        return Ok(given);
    }
    let Some(home) = std::env::var_os("HOME") else {
        return Ok(None);
    };
    let dir = Path::new(&home).join(".postgresql");
    let (cert, key) = (dir.join("postgresql.crt"), dir.join("postgresql.key"));
    Ok((cert.is_file() && key.is_file()).then_some(ClientCert {
        cert,
        key,
        cert_option: "~/.postgresql/postgresql.crt",
        key_option: "~/.postgresql/postgresql.key",
    }))
}

/// The options to change when TLS is refused, in sysbench's spelling.
static PGSQL_FIXES: Fixes = Fixes {
    tls_failed: "check --pgsql-sslmode and --pgsql-sslrootcert, or connect by the name the certificate was issued for",
    ssl_mode_option: "--pgsql-sslmode",
    connect_timeout: "--pgsql-connect-timeout or PGCONNECT_TIMEOUT",
};

/// The target the `--pgsql-*` options, a URL, libpq's environment and ~/.pgpass describe.
pub fn from_options(opts: &OptionValues) -> Result<PgTarget> {
    let url = match opts.text(keys::DB) {
        "" => Default::default(),
        u => parse_url(u)?,
    };
    let url_host = url.socket.clone().or(url.host.clone());
    let host = pick(opts, keys::PGSQL_HOST, url_host.as_ref(), "PGHOST");
    if host.is_empty() {
        return Err(usage(
                "--pgsql-host is empty: give a host name, or a socket directory such as /var/run/postgresql",
            ));
    }
    let port_text = pick(
        opts,
        keys::PGSQL_PORT,
        url.port.map(|p| p.to_string()).as_ref(),
        "PGPORT",
    );
    let port = port_text
        .trim()
        .parse::<u16>()
        .ok()
        .filter(|p| *p > 0)
        .ok_or_else(|| {
            usage(format!(
                "invalid value '{port_text}' for --pgsql-port (or PGPORT): expected 1-65535"
            ))
        })?;
    let user = pick(opts, keys::PGSQL_USER, url.user.as_ref(), "PGUSER");
    let db = pick(opts, keys::PGSQL_DB, url.db.as_ref(), "PGDATABASE");
    let ssl_text = pick(
        opts,
        keys::PGSQL_SSLMODE,
        url.ssl_mode.as_ref(),
        "PGSSLMODE",
    );
    let ssl = PgSslMode::parse(&ssl_text).ok_or_else(|| {
        usage(format!(
            "invalid value '{ssl_text}' for --pgsql-sslmode (or PGSSLMODE): use one of {}",
            PgSslMode::NAMES
        ))
    })?;
    let root = pick(opts, keys::PGSQL_SSLROOTCERT, None, "PGSSLROOTCERT");
    let ssl_root_cert = (!root.is_empty()).then(|| PathBuf::from(root));
    if matches!(ssl, PgSslMode::VerifyCa | PgSslMode::VerifyFull) && ssl_root_cert.is_none() {
        return Err(usage(format!(
                "--pgsql-sslmode={} checks the server's certificate: give its CA with --pgsql-sslrootcert=FILE",
                ssl.name()
            )));
    }
    let client_cert = client_cert(opts, ssl)?;
    let password = if opts.given(keys::PGSQL_PASSWORD) {
        opts.text(keys::PGSQL_PASSWORD).to_string()
    } else if let Some(p) = url.password.clone() {
        p
    } else if let Some(p) = std::env::var("PGPASSWORD").ok().filter(|p| !p.is_empty()) {
        p
    } else {
        pgpass_file()
            .and_then(|f| password_from_pgpass(&f, &host, port, &db, &user))
            .unwrap_or_default()
    };
    Ok(PgTarget {
        host,
        port,
        user,
        password: Secret::new(password),
        db,
        ssl,
        ssl_root_cert,
        client_cert,
        schema: Some(opts.text(keys::PGSQL_SCHEMA).to_string()).filter(|s| !s.is_empty()),
        // libpq's environment: every libpq client sends PGOPTIONS's settings at startup.
        options: std::env::var("PGOPTIONS")
            .ok()
            .filter(|o| !o.trim().is_empty()),
        connect_timeout: crate::connect_timeout::pick(
            opts,
            keys::PGSQL_CONNECT_TIMEOUT,
            url.connect_timeout.as_deref(),
            Some("PGCONNECT_TIMEOUT"),
        )?,
        application_name: dbpress_pg::RUN_APPLICATION,
        fixes: &PGSQL_FIXES,
    })
}

/// ~/.pgpass, or the file PGPASSFILE names.
fn pgpass_file() -> Option<PathBuf> {
    if let Some(f) = std::env::var_os("PGPASSFILE") {
        return Some(PathBuf::from(f));
    }
    std::env::var_os("HOME").map(|h| Path::new(&h).join(".pgpass"))
}

/// The password of the first `host:port:database:user:password` line that matches, as libpq
/// reads it: `*` matches anything, `\:` and `\\` are escapes, a socket host matches `localhost`.
pub fn password_from_pgpass(
    file: &Path,
    host: &str,
    port: u16,
    db: &str,
    user: &str,
) -> Option<String> {
    // libpq ignores a password file others may read, with this warning.
    if let Ok(meta) = std::fs::metadata(file) {
        use std::os::unix::fs::PermissionsExt as _;
        if meta.is_file() && meta.permissions().mode() & 0o077 != 0 {
            dbpress_core::verbosity::warn(&format!(
                "password file \"{}\" has group or world access; permissions should be u=rw (0600) or less: it is ignored, as libpq ignores it",
                file.display()
            ));
            return None;
        }
    }
    let text = std::fs::read_to_string(file).ok()?;
    let host = if host.starts_with('/') {
        "localhost"
    } else {
        host
    };
    let port = port.to_string();
    for line in text.lines() {
        if line.trim_start().starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let fields = split_pgpass(line);
        if fields.len() < 5 {
            continue;
        }
        let matches = |f: &str, v: &str| f == "*" || f == v;
        if matches(&fields[0], host)
            && matches(&fields[1], &port)
            && matches(&fields[2], db)
            && matches(&fields[3], user)
        {
            return Some(fields[4..].join(":"));
        }
    }
    None
}

fn split_pgpass(line: &str) -> Vec<String> {
    let mut fields = vec![String::new()];
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        let c = match c {
            ':' => {
                fields.push(String::new());
                continue;
            }
            '\\' => match chars.next() {
                Some(n) => n,
                None => break,
            },
            c => c,
        };
        if let Some(f) = fields.last_mut() {
            f.push(c);
        }
    }
    fields
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pgpass_matches_wildcards_escapes_and_socket_hosts() {
        let dir = std::env::temp_dir().join(format!("dbpress-pgpass-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("pgpass");
        std::fs::write(
            &f,
            "# comment\nother:5432:*:sbtest:nope\nlocalhost:5432:sbtest:sbtest:s\\:e\\\\cret\n*:*:*:admin:star\n",
        )
        .unwrap();
        use std::os::unix::fs::PermissionsExt as _;
        // Readable by others: ignored, as libpq ignores it.
        std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o644)).unwrap();
        assert_eq!(password_from_pgpass(&f, "db1", 6000, "x", "admin"), None);
        std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o600)).unwrap();
        assert_eq!(
            password_from_pgpass(&f, "/var/run/postgresql", 5432, "sbtest", "sbtest").as_deref(),
            Some("s:e\\cret")
        );
        assert_eq!(
            password_from_pgpass(&f, "db1", 6000, "x", "admin").as_deref(),
            Some("star")
        );
        assert_eq!(password_from_pgpass(&f, "db1", 5432, "x", "sbtest"), None);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn ssl_modes_parse_like_libpq() {
        assert_eq!(PgSslMode::parse("verify_full"), Some(PgSslMode::VerifyFull));
        assert_eq!(PgSslMode::parse("allow"), Some(PgSslMode::Prefer));
        assert_eq!(PgSslMode::parse("sometimes"), None);
    }
}
