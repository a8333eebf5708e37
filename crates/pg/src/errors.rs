//! SQLSTATEs as dbpress's normalised kinds; the SQLSTATE itself is kept as the error's code. A
//! closed session is 08006 (connection_failure), so an ignore list naming 08006 reconnects as
//! sysbench's 2013 does.

use dbpress_session::DbErrorKind;

/// The normalised kind of a SQLSTATE.
pub fn kind_of_sqlstate(code: &str) -> DbErrorKind {
    match code {
        "40P01" | "40001" => DbErrorKind::Deadlock,
        "55P03" | "57014" => DbErrorKind::LockTimeout,
        "23505" => DbErrorKind::DuplicateKey,
        "42P01" => DbErrorKind::NoSuchTable,
        // Syntax error, undefined column or function, type mismatch, ambiguous column.
        "42601" | "42703" | "42883" | "42804" | "42702" | "42P18" => DbErrorKind::BadStatement,
        "42501" => DbErrorKind::PermissionDenied,
        "42P07" => DbErrorKind::TableExists,
        "3D000" => DbErrorKind::UnknownDatabase,
        "28P01" | "28000" => DbErrorKind::Auth,
        "53300" => DbErrorKind::TooManyConnections,
        "0A000" => DbErrorKind::Unsupported,
        c if c.starts_with("08") || c.starts_with("57P") => DbErrorKind::ConnectionLost,
        _ => DbErrorKind::Other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sqlstates_map_to_kinds() {
        assert_eq!(kind_of_sqlstate("40P01"), DbErrorKind::Deadlock);
        assert_eq!(kind_of_sqlstate("42P01"), DbErrorKind::NoSuchTable);
        assert_eq!(kind_of_sqlstate("57P01"), DbErrorKind::ConnectionLost);
        assert_eq!(kind_of_sqlstate("53300"), DbErrorKind::TooManyConnections);
    }
}
