//! A session PostgreSQL never opened, in libpq's words, for the peers built on it (pgbench,
//! sysbench's pgsql driver): `connection to server on socket "/x/.s.PGSQL.5432" failed: No
//! such file or directory` with libpq's hint, or the server's `FATAL:` line. dbpress's own
//! words (place, cause and fix) stay for dbpress itself.

use crate::DbError;

/// A failed connection as libpq says it: where it tried (`on socket "…/.s.PGSQL.5432"`, `at
/// "host" (address), port N`), then the server's `FATAL:` or the system's error with libpq's
/// hint; one such line per address a host name gave.
pub fn connection(host: &str, port: &str, e: &DbError) -> String {
    let why = connection_reason(e);
    if host.starts_with('/') || host.is_empty() {
        let dir = if host.is_empty() {
            "/var/run/postgresql"
        } else {
            host
        };
        let hint = if why.starts_with("No such file") || why.starts_with("Connection refused") {
            "\n\tIs the server running locally and accepting connections on that socket?"
        } else {
            ""
        };
        return format!(
            "connection to server on socket \"{dir}/.s.PGSQL.{port}\" failed: {why}{hint}"
        );
    }
    let hint = if why.starts_with("Connection refused") {
        "\n\tIs the server running on that host and accepting TCP/IP connections?"
    } else {
        ""
    };
    if host.parse::<std::net::IpAddr>().is_ok() {
        return format!("connection to server at \"{host}\", port {port} failed: {why}{hint}");
    }
    let addrs: Vec<String> =
        std::net::ToSocketAddrs::to_socket_addrs(&(host, port.parse::<u16>().unwrap_or(5432)))
            .map(|a| a.map(|a| a.ip().to_string()).collect())
            .unwrap_or_default();
    if addrs.is_empty() {
        return format!(
            "could not translate host name \"{host}\" to address: Name or service not known"
        );
    }
    // libpq tries each address; the server that answered ends the list.
    let tried = if why.starts_with("Connection refused") {
        addrs.len()
    } else {
        1
    };
    addrs[..tried]
        .iter()
        .map(|ip| {
            format!("connection to server at \"{host}\" ({ip}), port {port} failed: {why}{hint}")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The server's `FATAL:` line, or the system's words without dbpress's.
fn connection_reason(e: &DbError) -> String {
    if e.message.contains("asked for a password") {
        return "fe_sendauth: no password supplied".into();
    }
    // dbpress's "cannot connect … over …: <system words> (os error N)".
    if e.message.starts_with("cannot connect to the server") {
        let m = e.message.split(" (os error").next().unwrap_or(&e.message);
        return m.rsplit(": ").next().unwrap_or(m).to_string();
    }
    format!("FATAL:  {}", e.message)
}
