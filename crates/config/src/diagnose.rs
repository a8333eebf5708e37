//! Server errors as the one line a user reads, with the fix in the option names of the grammar
//! the target came in (`Hints`): a session that could not be opened, a statement refused for
//! lack of privilege.

use dbpress_core::error::{environment, Error};
use dbpress_driver::{DbError, DbErrorKind, Hints};

/// A statement refused for lack of privilege: the environment's to fix (exit 2), with the
/// grants to ask for on each kind of server.
pub fn permission_denied(what: &str, e: &DbError, credentials: &str) -> Error {
    environment(format!(
        "{what} was refused for lack of privilege (server error {}: {}): ask for the privileges it needs — \
         MySQL: GRANT CREATE, DROP, INDEX, SELECT, INSERT, UPDATE, DELETE ON <database>.* TO <user>; \
         PostgreSQL: GRANT CREATE ON SCHEMA <schema> TO <user> and GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA <schema> TO <user> — \
         or connect as another user with {credentials}",
        e.code, e.message
    ))
}

/// The one-line message for a failure to open a session.
pub fn connect_failed(e: &DbError, h: &Hints) -> Error {
    match e.kind {
        // The driver's message already says what to fix (an embedded database's path).
        DbErrorKind::Setup => environment(e.message.clone()),
        // EMFILE: the client, not the server, is out of room.
        DbErrorKind::Unreachable if e.message.contains("(os error 24)") => environment(format!(
            "cannot open another session: this process has no file descriptors left ({}): use fewer --threads or raise ulimit -n",
            e.message
        )),
        // The message says which step did not answer and what sets the limit.
        DbErrorKind::NoAnswer => environment(format!("{} (error {})", e.message, e.code)),
        DbErrorKind::Unreachable => environment(format!(
            "{} (error {}): is the server running? Start it, or fix {}",
            e.message, e.code, h.address
        )),
        DbErrorKind::Auth if e.code == "1044" => environment(format!(
            "the server denied access to the database ({}; server error {}): it may not exist or the user lacks privileges; \
             create it and grant access (CREATE DATABASE ...; GRANT ALL ON db.* TO user) or choose another with {}",
            e.message, e.code, h.database
        )),
        DbErrorKind::Auth => environment(format!(
            "authentication failed (server error {}: {}): check {}{}",
            e.code,
            e.message,
            h.credentials,
            // MySQL says no more when an account's REQUIRE SSL/X509 is what failed.
            if e.code == "1045" {
                " (an account that REQUIREs SSL or X509 is refused this way too when the session has no TLS or no client certificate)"
            } else {
                ""
            }
        )),
        DbErrorKind::UnknownDatabase => environment(format!(
            "{} (server error {}): create it (CREATE DATABASE ...) or choose another with {}",
            e.message, e.code, h.database
        )),
        _ => environment(format!("cannot open a session: server error {}: {}", e.code, e.message)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn out_of_file_descriptors_is_not_blamed_on_the_server() {
        let e = DbError::new(
            DbErrorKind::Unreachable,
            "2002",
            "cannot connect to the server over Unix socket /run/mysqld/mysqld.sock: Too many open files (os error 24)",
        );
        let m = connect_failed(&e, &dbpress_driver::mysql::MYSQL_HINTS);
        let m = m.message();
        assert!(m.contains("no file descriptors left"), "{m}");
        assert!(m.contains("raise ulimit -n"), "{m}");
        assert!(!m.contains("is the server running"), "{m}");
        let refused = DbError::new(
            DbErrorKind::Unreachable,
            "2002",
            "Connection refused (os error 111)",
        );
        let m = connect_failed(&refused, &dbpress_driver::mysql::MYSQL_HINTS);
        assert!(m.message().contains("is the server running"));
    }
}
