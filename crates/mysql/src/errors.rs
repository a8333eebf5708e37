//! MySQL and MariaDB error numbers as dbpress's normalised kinds; the number itself is kept in
//! the error, for ignore lists written with the server's codes.

use dbpress_session::DbErrorKind;

/// The normalised kind of a MySQL/MariaDB server error number.
pub fn kind_of_code(code: u16) -> DbErrorKind {
    match code {
        1213 => DbErrorKind::Deadlock,
        1205 => DbErrorKind::LockTimeout,
        1062 => DbErrorKind::DuplicateKey,
        1040 => DbErrorKind::TooManyConnections,
        1044 | 1045 | 1698 => DbErrorKind::Auth,
        1049 => DbErrorKind::UnknownDatabase,
        1146 => DbErrorKind::NoSuchTable,
        // Parse error, syntax error, unknown column, no such function, wrong operand or
        // column counts.
        1064 | 1149 | 1054 | 1305 | 1630 | 1241 | 1222 | 1136 => DbErrorKind::BadStatement,
        // Table, column or global privilege missing.
        1142 | 1143 | 1227 => DbErrorKind::PermissionDenied,
        1050 => DbErrorKind::TableExists,
        1461 => DbErrorKind::TooManyPreparedStatements,
        1295 => DbErrorKind::UnsupportedPrepare,
        // LOAD DATA LOCAL INFILE refused: dbpress's client does not offer to send local files.
        1148 | 3948 | 4166 => DbErrorKind::Unsupported,
        // Server shutdown, connection killed, aborted, or idle-timeout disconnects.
        1053 | 1077 | 1152 | 1184 | 1927 | 4031 => DbErrorKind::ConnectionLost,
        _ => DbErrorKind::Other,
    }
}
