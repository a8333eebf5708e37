//! The result file (`--output`): checked before a run that it can be written, so a long run
//! does not end in "cannot write", and written whole after it.

use crate::error::{environment, Result};

/// Write a rendered result (a run or a sweep) to `path`.
pub fn write_text(path: &str, text: &str) -> Result<()> {
    std::fs::write(path, text).map_err(|e| cannot_write(path, &e))
}

/// Fail before a run, not after it, when its result file cannot be written: the file is opened
/// for writing without truncating it, and removed again if this made it.
pub fn check_writable(path: &str) -> Result<()> {
    let p = std::path::Path::new(path);
    let existed = p.exists();
    std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(p)
        .map_err(|e| cannot_write(path, &e))?;
    if !existed {
        let _ = std::fs::remove_file(p);
    }
    Ok(())
}

fn cannot_write(path: &str, e: &std::io::Error) -> crate::error::Error {
    environment(format!(
        "cannot write the result file {path}: {e}: choose a writable path with --output"
    ))
}
