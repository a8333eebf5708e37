//! The result file (`--output`): checked before a run that it can be written, so a long run
//! does not end in "cannot write", and written whole after it, atomically: the text goes to a
//! temporary file beside the target, is flushed to the disk, and is renamed over the target,
//! whose directory is then flushed too (what PostgreSQL does for its own files). A full disk,
//! a crash or a kill mid-write leaves the previous file as it was, never half of the new one.

use crate::error::{environment, Result};
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// Write a rendered result (a run or a sweep) to `path`, atomically.
pub fn write_text(path: &str, text: &str) -> Result<()> {
    replace(Path::new(path), text.as_bytes()).map_err(|e| cannot_write(path, &e))
}

/// Add `text` to the end of `path` (created if missing), atomically: the file holds either its
/// old content or the old content and `text`, whatever happens while writing (mysqlslap's
/// `--csv=FILE` accumulates runs this way).
pub fn append_text(path: &str, text: &str) -> std::io::Result<()> {
    let p = Path::new(path);
    let mut whole = match std::fs::read(p) {
        Ok(old) => old,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(e),
    };
    whole.extend_from_slice(text.as_bytes());
    replace(p, &whole)
}

/// The temporary file, the flushes and the rename. The temporary file is removed on failure.
fn replace(target: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "result".into());
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    // Left by a process of the same id that died mid-write: nothing of it is wanted.
    let _ = std::fs::remove_file(&tmp);
    let written = (|| {
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)?;
        // Keep an existing file's permissions (a result shared with a group stays shared).
        if let Ok(meta) = std::fs::metadata(target) {
            let _ = f.set_permissions(meta.permissions());
        }
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, target)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
        return written;
    }
    // The rename itself is durable once the directory is.
    if let Ok(d) = std::fs::File::open(&dir) {
        let _ = d.sync_all();
    }
    Ok(())
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_whole_and_appends_whole_leaving_no_temporary_file() {
        let dir = std::env::temp_dir().join(format!("dbpress-result-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("r.json");
        let path = f.to_str().unwrap();
        write_text(path, "{\"a\":1}").unwrap();
        write_text(path, "{\"b\":2}").unwrap();
        assert_eq!(std::fs::read_to_string(&f).unwrap(), "{\"b\":2}");
        let csv = dir.join("runs.csv");
        append_text(csv.to_str().unwrap(), "one\n").unwrap();
        append_text(csv.to_str().unwrap(), "two\n").unwrap();
        assert_eq!(std::fs::read_to_string(&csv).unwrap(), "one\ntwo\n");
        let left: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".tmp"))
            .collect();
        assert!(left.is_empty(), "{left:?}");
        // A directory that does not exist: an error naming the file, nothing written.
        let e = write_text(dir.join("no/such/r.json").to_str().unwrap(), "x").unwrap_err();
        assert!(
            e.to_string().contains("cannot write the result file"),
            "{e}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
