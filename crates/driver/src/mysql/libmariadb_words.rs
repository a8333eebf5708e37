//! A session the server never answered, in the words of MariaDB's client library, for the
//! peers built on it (mysqlslap, tpcc-mysql's programs): `2002 Can't connect to server on
//! '127.0.0.1' (115)`, `Can't connect to local server through socket '/x' (2)`, `2005 Unknown
//! server host 'x' (-2)`. dbpress's own words (place, cause and fix) stay for dbpress itself.

use crate::{DbError, DbErrorKind};

/// `e` as the client library says it, where dbpress's driver could not reach the server; any
/// other error as it is.
pub fn connect_failure(e: &DbError) -> DbError {
    match words(e) {
        Some((code, message)) => {
            let mut said = DbError::new(DbErrorKind::Unreachable, code.to_string(), message);
            said.sqlstate = Some(*b"HY000");
            said
        }
        None => e.clone(),
    }
}

/// The library's error number and message, from the driver's (which names the transport it
/// tried: `cannot connect to the server over TCP host:port: …` or `over Unix socket path: …`).
fn words(e: &DbError) -> Option<(u32, String)> {
    if e.kind != DbErrorKind::Unreachable {
        return None;
    }
    let m = e.message.as_str();
    if let Some(rest) = m.strip_prefix("cannot connect to the server over Unix socket ") {
        let (path, why) = rest.split_once(": ")?;
        let errno = os_error(why)?;
        return Some((
            2002,
            format!("Can't connect to local server through socket '{path}' ({errno})"),
        ));
    }
    let rest = m.strip_prefix("cannot connect to the server over TCP ")?;
    let (place, why) = rest.split_once(": ")?;
    let host = place.rsplit_once(':').map_or(place, |(h, _)| h);
    if why.starts_with("cannot resolve ") {
        return Some((2005, format!("Unknown server host '{host}' (-2)")));
    }
    // The library connects without blocking and reports the refusal with EINPROGRESS's
    // number (115), whatever the socket's own error was.
    os_error(why)?;
    Some((2002, format!("Can't connect to server on '{host}' (115)")))
}

/// The `(os error N)` at the end of an I/O error's text.
fn os_error(why: &str) -> Option<i32> {
    let (_, n) = why.rsplit_once("(os error ")?;
    n.trim_end_matches(')').parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unreachable(message: &str) -> DbError {
        DbError::new(DbErrorKind::Unreachable, "2003", message)
    }

    #[test]
    fn issue_42_unreachable_servers_in_the_client_librarys_words() {
        let tcp = unreachable(
            "cannot connect to the server over TCP 127.0.0.1:1: Connection refused (os error 111)",
        );
        let said = connect_failure(&tcp);
        assert_eq!(
            (said.code.as_str(), said.message.as_str()),
            ("2002", "Can't connect to server on '127.0.0.1' (115)")
        );
        assert_eq!(said.sqlstate, Some(*b"HY000"));
        let sock = unreachable("cannot connect to the server over Unix socket /x: No such file or directory (os error 2)");
        assert_eq!(
            connect_failure(&sock).message,
            "Can't connect to local server through socket '/x' (2)"
        );
        let name = unreachable("cannot connect to the server over TCP db.invalid:3306: cannot resolve 'db.invalid': failed to lookup address information: Name or service not known");
        let said = connect_failure(&name);
        assert_eq!(
            (said.code.as_str(), said.message.as_str()),
            ("2005", "Unknown server host 'db.invalid' (-2)")
        );
        // Anything else is left as it is.
        let denied = DbError::new(DbErrorKind::Auth, "1045", "Access denied");
        assert_eq!(connect_failure(&denied).message, "Access denied");
    }
}
