//! Where the embedded SQLite database is and how it is opened: `--sqlite-*` options and the
//! `sqlite:` URL, checked once.

use crate::keys;
use dbpress_core::error::{usage, Result};
use dbpress_core::options::OptionValues;
use dbpress_driver::sqlite::{SqliteTarget, JOURNAL_MODES, SYNCHRONOUS};
use std::path::PathBuf;

/// The target the options describe; `url_path` is a `sqlite:` URL's file, `implicit` that no
/// target was given at all.
pub fn from_options(
    opts: &OptionValues,
    url_path: Option<&str>,
    implicit: bool,
) -> Result<SqliteTarget> {
    let path = match url_path {
        Some(p) if !opts.given(keys::SQLITE_PATH) => p.to_string(),
        _ => opts.text(keys::SQLITE_PATH).to_string(),
    };
    if path.is_empty() {
        return Err(usage(
            "--sqlite-path is empty: give a file name such as dbpress.sqlite",
        ));
    }
    // SQLite gives every connection to ':memory:' a database of its own: prepare's tables
    // would be gone before run, and each thread would see an empty database.
    if path == ":memory:" || path.starts_with("file::memory:") {
        return Err(usage(format!(
                "an in-memory SQLite database ('{path}') belongs to one connection, so prepare, run and the threads cannot share it: give a file, on tmpfs for memory speed (--db sqlite:/dev/shm/dbpress.sqlite)"
            )));
    }
    let journal_mode = opts.choice(keys::SQLITE_JOURNAL_MODE, JOURNAL_MODES, |s| {
        JOURNAL_MODES
            .split(", ")
            .any(|m| m == s)
            .then(|| s.to_string())
    })?;
    let synchronous = opts.choice(keys::SQLITE_SYNCHRONOUS, SYNCHRONOUS, |s| {
        SYNCHRONOUS
            .split(", ")
            .any(|m| m == s)
            .then(|| s.to_string())
    })?;
    Ok(SqliteTarget {
        path: PathBuf::from(path),
        journal_mode,
        synchronous,
        busy_timeout_ms: opts.int(keys::SQLITE_BUSY_TIMEOUT)?,
        write_queue: opts.flag(keys::SQLITE_WRITE_QUEUE)?,
        implicit,
    })
}
