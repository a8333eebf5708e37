//! Where and how to reach a MySQL-protocol server: transport, credentials, TLS.
//!
//! The transport is exactly what the user asked for: host+port is TCP, a socket is a socket, and
//! `localhost` without an explicit port means the default Unix socket, as libmysqlclient does.
//! The password comes from --mysql-password, the URL, `MYSQL_PWD`, or `[client]` in ~/.my.cnf,
//! in that order, and is kept in a `Secret` whose Debug/Display never show it.

use crate::keys;
use dbpress_core::error::{environment, usage, Result};
use dbpress_core::options::OptionValues;
use dbpress_driver::mysql::target::{MysqlTarget, SslMode, Transport};
use dbpress_net::tls::ClientCert;
use dbpress_session::Secret;
use std::path::{Path, PathBuf};

/// Places libmysqlclient/libmariadb look for the server socket when none is given.
const DEFAULT_SOCKETS: &[&str] = &[
    "/run/mysqld/mysqld.sock",
    "/var/run/mysqld/mysqld.sock",
    "/var/lib/mysql/mysql.sock",
    "/tmp/mysql.sock",
];

fn default_socket() -> Option<PathBuf> {
    if let Ok(p) = std::env::var("MYSQL_UNIX_PORT") {
        if !p.is_empty() {
            return Some(PathBuf::from(p));
        }
    }
    DEFAULT_SOCKETS
        .iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
}

/// Percent-decoding for URL parts (user names and passwords may hold reserved characters).
fn percent_decode(s: &str) -> Result<String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = s
                .get(i + 1..i + 3)
                .and_then(|h| u8::from_str_radix(h, 16).ok());
            match hex {
                Some(b) => {
                    out.push(b);
                    i += 3;
                    continue;
                }
                None => {
                    return Err(usage(
                        "invalid percent-escape in --db URL: use %XX with two hex digits",
                    ))
                }
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8(out).map_err(|_| usage("--db URL decodes to invalid UTF-8"))
}

/// The parts of `mysql://user[:password]@host[:port]/db[?socket=/path&ssl-mode=..]`.
#[derive(Debug, Default, PartialEq)]
pub struct UrlParts {
    pub user: Option<String>,
    pub password: Option<String>,
    pub host: Option<String>,
    pub port: Option<u16>,
    pub db: Option<String>,
    pub socket: Option<String>,
    pub ssl_mode: Option<String>,
    pub connect_timeout: Option<String>,
}

/// Parse a server URL (`mysql://`, `mariadb://`, `postgres://`, `postgresql://`); which driver
/// it selects was decided from the scheme already.
pub fn parse_url(url: &str) -> Result<UrlParts> {
    let rest = match url.split_once("://") {
        Some((scheme, rest))
            if matches!(
                scheme.to_ascii_lowercase().as_str(),
                "mysql" | "mariadb" | "postgres" | "postgresql"
            ) =>
        {
            rest
        }
        _ => {
            return Err(usage(format!(
                "unsupported --db URL '{}': use mysql://user@host:port/db or postgres://user@host:port/db",
                redact_url(url)
            )))
        }
    };
    let mut parts = UrlParts::default();
    let (rest, query) = match rest.split_once('?') {
        Some((r, q)) => (r, Some(q)),
        None => (rest, None),
    };
    let (authority, path) = match rest.split_once('/') {
        Some((a, p)) => (a, p),
        None => (rest, ""),
    };
    let hostport = match authority.rsplit_once('@') {
        Some((userinfo, hp)) => {
            match userinfo.split_once(':') {
                Some((u, p)) => {
                    parts.user = Some(percent_decode(u)?);
                    parts.password = Some(percent_decode(p)?);
                }
                None => parts.user = Some(percent_decode(userinfo)?),
            }
            hp
        }
        None => authority,
    };
    if !hostport.is_empty() {
        let (host, port) = if let Some(h) = hostport.strip_prefix('[') {
            // [ipv6]:port
            let (h, after) = h
                .split_once(']')
                .ok_or_else(|| usage("unclosed '[' in --db URL host"))?;
            (h.to_string(), after.strip_prefix(':'))
        } else {
            match hostport.rsplit_once(':') {
                Some((h, p)) => (h.to_string(), Some(p)),
                None => (hostport.to_string(), None),
            }
        };
        if !host.is_empty() {
            parts.host = Some(host);
        }
        if let Some(p) = port {
            parts.port =
                Some(p.parse().map_err(|_| {
                    usage(format!("invalid port '{p}' in --db URL: expected 1-65535"))
                })?);
        }
    }
    if !path.is_empty() {
        parts.db = Some(percent_decode(path)?);
    }
    for pair in query.unwrap_or("").split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        match k {
            // libpq's URLs name a socket directory as host=/path.
            "socket" | "host" => parts.socket = Some(percent_decode(v)?),
            "ssl-mode" | "ssl_mode" | "sslmode" => parts.ssl_mode = Some(v.to_string()),
            "connect_timeout" | "connect-timeout" => parts.connect_timeout = Some(v.to_string()),
            other => {
                return Err(usage(format!(
                    "unknown --db URL parameter '{other}': known are socket (or host), sslmode and connect_timeout"
                )))
            }
        }
    }
    Ok(parts)
}

/// The URL with any password replaced by `***`, for messages and result files.
pub fn redact_url(url: &str) -> String {
    let Some(scheme_end) = url.find("://") else {
        return url.to_string();
    };
    let after = &url[scheme_end + 3..];
    let authority_end = after.find('/').unwrap_or(after.len());
    let authority = &after[..authority_end];
    match authority.rsplit_once('@') {
        Some((userinfo, _)) if userinfo.contains(':') => {
            let user = userinfo.split(':').next().unwrap_or("");
            let at = authority.rfind('@').unwrap_or(0);
            format!(
                "{}{}:***{}{}",
                &url[..scheme_end + 3],
                user,
                &authority[at..],
                &after[authority_end..]
            )
        }
        _ => url.to_string(),
    }
}

/// `password=` from the `[client]` (or `[client-server]`/`[client-mariadb]`) group of an
/// option file.
pub fn password_from_my_cnf(path: &Path) -> Option<String> {
    let pairs = super::option_file::read(path, super::option_file::CLIENT_GROUPS)?;
    super::option_file::last(&pairs, "password").map(str::to_string)
}

fn parse_ssl(raw: &str) -> Result<SslMode> {
    Ok(match raw.to_ascii_lowercase().as_str() {
        "off" | "false" | "0" | "disabled" | "disable" => SslMode::Disabled,
        "preferred" | "prefer" => SslMode::Preferred,
        "on" | "true" | "1" | "required" | "require" => SslMode::Required,
        "verify_ca" | "verify-ca" => SslMode::VerifyCa,
        "verify_identity" | "verify-identity" | "verify-full" => SslMode::VerifyIdentity,
        // sysbench 1.0.20's --mysql-ssl is a flag: its refusal of a word that is no boolean.
        _ if dbpress_core::personality::is_sysbench() => {
            return Err(dbpress_core::error::failed(format!(
                "invalid option: --mysql-ssl={raw}"
            )))
        }
        _ => {
            return Err(usage(format!(
                "invalid value '{raw}' for --mysql-ssl: use off, on, preferred, required, verify_ca or verify_identity"
            )))
        }
    })
}

/// --mysql-compression, checked against --mysql-compression-algorithms: zlib is the algorithm
/// every MySQL-protocol server speaks (MySQL 8.0.18's zstd is not spoken by dbpress's client).
fn compression(opts: &OptionValues) -> Result<bool> {
    let on = opts.flag(keys::MYSQL_COMPRESSION)?;
    let algorithms: Vec<String> = opts
        .get("mysql-compression-algorithms")
        .split(',')
        .map(|a| a.trim().to_ascii_lowercase())
        .filter(|a| !a.is_empty())
        .collect();
    if let Some(a) = algorithms
        .iter()
        .find(|a| !matches!(a.as_str(), "zlib" | "zstd" | "uncompressed"))
    {
        return Err(usage(format!(
            "unknown compression algorithm '{a}' in --mysql-compression-algorithms: use zlib"
        )));
    }
    if on && !algorithms.iter().any(|a| a == "zlib") {
        return Err(usage(format!(
            "--mysql-compression-algorithms={} leaves no algorithm dbpress speaks: use zlib (MySQL's zstd is not supported)",
            opts.text(keys::MYSQL_COMPRESSION_ALGORITHMS)
        )));
    }
    Ok(on)
}

/// The target the `--mysql-*` options, a URL, `MYSQL_PWD` and ~/.my.cnf describe.
pub fn from_options(opts: &OptionValues) -> Result<MysqlTarget> {
    let url = match opts.text(keys::DB) {
        "" => UrlParts::default(),
        u => parse_url(u)?,
    };
    let list = |name: &str| -> Vec<String> {
        opts.get(name)
            .split(',')
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect()
    };

    let sockets: Vec<String> = match (&url.socket, opts.given(keys::MYSQL_SOCKET)) {
        (_, true) => list("mysql-socket"),
        (Some(s), false) => vec![s.clone()],
        (None, false) => vec![],
    };
    let hosts: Vec<String> = match (&url.host, opts.given(keys::MYSQL_HOST)) {
        (_, true) => list("mysql-host"),
        (Some(h), false) => vec![h.clone()],
        (None, false) => list("mysql-host"),
    };
    let port_given = opts.given(keys::MYSQL_PORT) || url.port.is_some();
    let ports: Vec<u16> = if opts.given(keys::MYSQL_PORT) {
        list("mysql-port")
            .iter()
            .map(|p| {
                p.parse::<u16>().ok().filter(|p| *p > 0).ok_or_else(|| {
                    usage(format!(
                        "invalid value '{p}' for --mysql-port: expected 1-65535"
                    ))
                })
            })
            .collect::<Result<_>>()?
    } else {
        vec![url.port.unwrap_or(3306)]
    };
    if hosts.is_empty() && sockets.is_empty() {
        return Err(usage(
            "--mysql-host is empty: give a host name, or --mysql-socket=PATH",
        ));
    }

    let mut transports = Vec::new();
    if !sockets.is_empty() {
        transports.extend(sockets.iter().map(|s| Transport::Socket(PathBuf::from(s))));
    } else {
        for host in &hosts {
            if host == "localhost" && !port_given {
                let sock = default_socket().ok_or_else(|| {
                        environment(format!(
                            "--mysql-host=localhost means the local Unix socket, but none was found (looked in {}): \
                             pass --mysql-socket=PATH, or --mysql-host=127.0.0.1 for TCP",
                            DEFAULT_SOCKETS.join(", ")
                        ))
                    })?;
                transports.push(Transport::Socket(sock));
            } else {
                for &port in &ports {
                    transports.push(Transport::Tcp {
                        host: host.clone(),
                        port,
                    });
                }
            }
        }
    }

    let user = if opts.given(keys::MYSQL_USER) {
        opts.text(keys::MYSQL_USER).to_string()
    } else {
        url.user
            .clone()
            .unwrap_or_else(|| opts.text(keys::MYSQL_USER).to_string())
    };
    let (password, password_source) = if opts.given(keys::MYSQL_PASSWORD) {
        (
            opts.text(keys::MYSQL_PASSWORD).to_string(),
            "--mysql-password",
        )
    } else if let Some(p) = url.password.clone() {
        (p, "the --db URL")
    } else if let Ok(p) = std::env::var("MYSQL_PWD") {
        (p, "MYSQL_PWD")
    } else if let Some(p) = std::env::var_os("HOME")
        .map(|h| Path::new(&h).join(".my.cnf"))
        .and_then(|f| password_from_my_cnf(&f))
    {
        (p, "~/.my.cnf")
    } else {
        (String::new(), "none")
    };
    let db = if opts.given(keys::MYSQL_DB) {
        opts.text(keys::MYSQL_DB).to_string()
    } else {
        url.db
            .clone()
            .unwrap_or_else(|| opts.text(keys::MYSQL_DB).to_string())
    };
    let ssl_raw = if opts.given(keys::MYSQL_SSL) {
        opts.text(keys::MYSQL_SSL).to_string()
    } else {
        url.ssl_mode
            .clone()
            .unwrap_or_else(|| opts.text(keys::MYSQL_SSL).to_string())
    };
    let ssl = parse_ssl(&ssl_raw)?;
    let ssl_ca = Some(opts.text(keys::MYSQL_SSL_CA))
        .filter(|s| !s.is_empty())
        .map(PathBuf::from);
    if ssl == SslMode::VerifyCa || ssl == SslMode::VerifyIdentity {
        match &ssl_ca {
                None => {
                    return Err(usage(
                        "--mysql-ssl=verify_ca/verify_identity needs the CA certificate: add --mysql-ssl-ca=FILE",
                    ))
                }
                Some(p) if !p.exists() => {
                    return Err(usage(format!(
                        "--mysql-ssl-ca file {} does not exist: give the path of the server's CA certificate",
                        p.display()
                    )))
                }
                _ => {}
            }
    }
    let client_cert = ClientCert::from_files(
        opts.text(keys::MYSQL_SSL_CERT),
        opts.text(keys::MYSQL_SSL_KEY),
        "--mysql-ssl-cert",
        "--mysql-ssl-key",
    )
    .map_err(usage)?;
    if client_cert.is_some() && ssl == SslMode::Disabled {
        return Err(usage(
                "--mysql-ssl-cert is presented over TLS, which is off: add --mysql-ssl=required (or verify_ca, verify_identity)",
            ));
    }
    let ssl_cipher = opts.text(keys::MYSQL_SSL_CIPHER).trim().to_string();
    dbpress_net::tls::cipher_suites(&ssl_cipher, "--mysql-ssl-cipher").map_err(usage)?;
    if !ssl_cipher.is_empty() && ssl == SslMode::Disabled {
        return Err(usage(
                "--mysql-ssl-cipher chooses TLS cipher suites, but TLS is off: add --mysql-ssl=required (or verify_ca, verify_identity)",
            ));
    }
    let compress = compression(opts)?;
    let connect_timeout = crate::connect_timeout::pick(
        opts,
        keys::MYSQL_CONNECT_TIMEOUT,
        url.connect_timeout.as_deref(),
        None,
    )?;
    let server_public_key_path = Some(opts.text(keys::MYSQL_SERVER_PUBLIC_KEY_PATH))
        .filter(|s| !s.is_empty())
        .map(PathBuf::from);
    Ok(MysqlTarget {
        server_public_key_path,
        get_server_public_key: opts.flag(keys::MYSQL_GET_SERVER_PUBLIC_KEY)?,
        connect_timeout,
        client_cert,
        ssl_cipher,
        compress,
        transports,
        user,
        password: Secret::new(password),
        password_source,
        db,
        ssl,
        ssl_ca,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_args::parse_workload;

    fn target(s: &str) -> Result<MysqlTarget> {
        let args: Vec<String> = s.split_whitespace().map(String::from).collect();
        from_options(&parse_workload(&args)?.2)
    }

    #[test]
    fn host_and_port_is_tcp_and_socket_wins() {
        let t = target("x run --mysql-host=127.0.0.1 --mysql-port=3307").unwrap();
        assert_eq!(
            t.transports,
            vec![Transport::Tcp {
                host: "127.0.0.1".into(),
                port: 3307
            }]
        );
        let t = target("x run --mysql-socket=/tmp/s.sock --mysql-host=db1").unwrap();
        assert_eq!(t.transports, vec![Transport::Socket("/tmp/s.sock".into())]);
        // localhost with an explicit port is TCP.
        let t = target("x run --mysql-host=localhost --mysql-port=3306").unwrap();
        assert_eq!(
            t.transports,
            vec![Transport::Tcp {
                host: "localhost".into(),
                port: 3306
            }]
        );
    }

    #[test]
    fn host_and_port_lists_combine_round_robin() {
        let t = target("x run --mysql-host=a,b --mysql-port=1,2").unwrap();
        let names: Vec<String> = t.transports.iter().map(|t| t.to_string()).collect();
        assert_eq!(names, ["TCP a:1", "TCP a:2", "TCP b:1", "TCP b:2"]);
    }

    #[test]
    fn url_form_with_socket_and_password() {
        let p = parse_url("mysql://bob:p%40ss@db.example:3310/shop?socket=/run/x.sock").unwrap();
        assert_eq!(p.user.as_deref(), Some("bob"));
        assert_eq!(p.password.as_deref(), Some("p@ss"));
        assert_eq!(p.host.as_deref(), Some("db.example"));
        assert_eq!(p.port, Some(3310));
        assert_eq!(p.db.as_deref(), Some("shop"));
        assert_eq!(p.socket.as_deref(), Some("/run/x.sock"));
        let t = target("x run --db mysql://bob@10.0.0.1:3310/shop").unwrap();
        assert_eq!(
            t.transports,
            vec![Transport::Tcp {
                host: "10.0.0.1".into(),
                port: 3310
            }]
        );
        assert_eq!((t.user.as_str(), t.db.as_str()), ("bob", "shop"));
        let e = parse_url("oracle://x@y/z").unwrap_err();
        assert!(e.message().contains("unsupported --db URL"));
        // libpq's socket-directory form.
        let p = parse_url("postgres://u@/db?host=/var/run/postgresql").unwrap();
        assert_eq!(p.socket.as_deref(), Some("/var/run/postgresql"));
    }

    #[test]
    fn redaction_hides_only_the_password() {
        assert_eq!(
            redact_url("mysql://bob:hunter2@h:1/db"),
            "mysql://bob:***@h:1/db"
        );
        assert_eq!(redact_url("mysql://bob@h/db"), "mysql://bob@h/db");
        let t = target("x run --db mysql://bob:hunter2@h:1/db").unwrap();
        assert!(!format!("{t:?}").contains("hunter2"));
        assert!(!t.describe().contains("hunter2"));
        assert_eq!(t.password.expose(), "hunter2");
    }

    #[test]
    fn my_cnf_client_password() {
        let dir = std::env::temp_dir().join(format!("dbpress-mycnf-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("my.cnf");
        std::fs::write(
            &f,
            "[mysqld]\npassword=no\n[client]\nuser=x\npassword = \"s3cret\"\n",
        )
        .unwrap();
        assert_eq!(password_from_my_cnf(&f).as_deref(), Some("s3cret"));
        std::fs::write(&f, "[mysqld]\npassword=no\n").unwrap();
        assert_eq!(password_from_my_cnf(&f), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn verify_modes_need_a_ca() {
        let e = target("x run --mysql-host=h --mysql-ssl=verify_ca").unwrap_err();
        assert!(e.message().contains("--mysql-ssl-ca"));
        let e = target("x run --mysql-host=h --mysql-ssl=sometimes").unwrap_err();
        assert!(e
            .message()
            .contains("invalid value 'sometimes' for --mysql-ssl"));
    }
}
