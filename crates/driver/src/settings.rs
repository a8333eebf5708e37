//! A server's global settings, changed for an experiment and put back after it: read what the
//! server has, change it, read back what it took, restore. MySQL-protocol servers do it with
//! `SET GLOBAL`, PostgreSQL with `ALTER SYSTEM` and a configuration reload; an embedded
//! engine or a dry run has none (`Driver::global_settings` is None).

use dbpress_session::{Connection, DbError, DbErrorKind, DbResult};

/// What a setting was before a change, and how to put it back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Saved {
    pub name: String,
    /// The value the server had.
    pub original: String,
    /// "set": put `original` back with the same statement; "reset": remove the change
    /// (PostgreSQL's ALTER SYSTEM RESET, for a value that came from elsewhere than ALTER SYSTEM).
    pub how: String,
}

pub trait GlobalSettings: Sync {
    /// The statement a change is made with, for messages ("SET GLOBAL").
    fn verb(&self) -> &'static str;
    /// What `name` is now, and how to put it back.
    fn save(&self, conn: &mut dyn Connection, name: &str) -> DbResult<Saved>;
    /// Change `name` to `value` for every new and running session.
    fn apply(&self, conn: &mut dyn Connection, name: &str, value: &str) -> DbResult<()>;
    /// What the server reads for `name` now; an error when a change waits for a restart.
    fn read(&self, conn: &mut dyn Connection, name: &str) -> DbResult<String>;
    /// Put a saved setting back.
    fn restore(&self, conn: &mut dyn Connection, saved: &Saved) -> DbResult<()>;
}

/// A setting's name as a statement may carry it: letters, digits, `_` and `.` only.
pub fn check_name(name: &str) -> DbResult<()> {
    let ok = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.');
    if ok {
        Ok(())
    } else {
        Err(DbError::new(
            DbErrorKind::Setup,
            "client",
            format!("'{name}' is not a server variable's name (letters, digits, _ and . only)"),
        ))
    }
}

/// A value as an SQL literal: numbers and the words ON/OFF/TRUE/FALSE/DEFAULT bare, anything
/// else quoted.
pub fn literal(value: &str) -> String {
    let bare = value.parse::<f64>().is_ok()
        || ["on", "off", "true", "false", "default"]
            .iter()
            .any(|w| value.eq_ignore_ascii_case(w));
    if bare {
        value.to_string()
    } else {
        format!("'{}'", value.replace('\'', "''"))
    }
}

/// A value as a number when it is one: plain, or with a size suffix (K, M, G, T; kB, MB, GB,
/// TB as PostgreSQL writes them), or a boolean word as 1/0.
fn as_number(v: &str) -> Option<f64> {
    let v = v.trim();
    match v.to_ascii_lowercase().as_str() {
        "on" | "true" | "yes" => return Some(1.0),
        "off" | "false" | "no" => return Some(0.0),
        _ => {}
    }
    if let Ok(n) = v.parse::<f64>() {
        return Some(n);
    }
    let lower = v.to_ascii_lowercase();
    let (digits, unit) = lower.split_at(lower.find(|c: char| c.is_ascii_alphabetic())?);
    let n: f64 = digits.trim().parse().ok()?;
    let scale = match unit.trim() {
        "k" | "kb" => 1024.0,
        "m" | "mb" => 1024.0 * 1024.0,
        "g" | "gb" => 1024.0 * 1024.0 * 1024.0,
        "t" | "tb" => 1024.0 * 1024.0 * 1024.0 * 1024.0,
        _ => return None,
    };
    Some(n * scale)
}

/// Whether the server's reading of a setting is the value asked for: the same text (case
/// aside), or the same number (`1G` = `1073741824`, `ON` = `1`, `0.50` = `0.5`).
pub fn same_value(asked: &str, read: &str) -> bool {
    if asked.trim().eq_ignore_ascii_case(read.trim()) {
        return true;
    }
    match (as_number(asked), as_number(read)) {
        (Some(a), Some(b)) => (a - b).abs() <= f64::EPSILON * a.abs().max(1.0),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_compare_as_the_server_writes_them() {
        assert!(same_value("1", "1"));
        assert!(same_value("ON", "on"));
        assert!(same_value("ON", "1"));
        assert!(same_value("1G", "1073741824"));
        assert!(same_value("128MB", "128MB"));
        assert!(same_value("0.5", "0.500000"));
        assert!(!same_value("1", "2"));
        assert!(!same_value("fsync", "fdatasync"));
    }

    #[test]
    fn literals_quote_all_but_numbers_and_keywords() {
        assert_eq!(literal("1"), "1");
        assert_eq!(literal("ON"), "ON");
        assert_eq!(literal("O_DIRECT"), "'O_DIRECT'");
        assert_eq!(literal("it's"), "'it''s'");
        assert!(check_name("innodb_flush_log_at_trx_commit").is_ok());
        assert!(check_name("x; DROP TABLE t").is_err());
    }
}
