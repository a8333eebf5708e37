//! `dbpress install-links DIR`: a link to this binary under each peer's name in DIR
//! (`sysbench`, `pgbench`, `mysqlslap`, `tpcc_load`, `tpcc_start`), so a wrapper that calls
//! the peer runs dbpress as that peer (#42). What `ln -s "$(command -v dbpress)" DIR/sysbench`
//! does, for every name, refusing to replace a file that is not already such a link.

use super::personality::link_names;
use dbpress_core::error::{usage, Error, Result};
use std::path::{Path, PathBuf};

pub fn main(args: &[String]) -> Result<u8> {
    let [dir] = args else {
        return Err(usage(
            "install-links takes one directory: `dbpress install-links ~/bin` (put it before the peers' own on PATH)",
        ));
    };
    let exe = std::env::current_exe()
        .and_then(|p| p.canonicalize())
        .map_err(|e| {
            Error::Environment(format!(
                "cannot tell where this dbpress binary is ({e}): make the links by hand, `ln -s /path/to/dbpress {dir}/sysbench`"
            ))
        })?;
    let dir = Path::new(dir);
    if !dir.is_dir() {
        return Err(usage(format!(
            "{}: not a directory: create it first (`mkdir -p {}`)",
            dir.display(),
            dir.display()
        )));
    }
    for name in link_names() {
        let link = dir.join(name);
        install(&link, &exe)?;
        dbpress_core::outln!("{} -> {}", link.display(), exe.display());
    }
    Ok(0)
}

/// One link, or nothing when it is already there.
fn install(link: &Path, exe: &PathBuf) -> Result<()> {
    if let Ok(target) = std::fs::read_link(link) {
        let resolved = link
            .parent()
            .map(|d| d.join(&target))
            .and_then(|t| t.canonicalize().ok());
        if resolved.as_ref() == Some(exe) {
            return Ok(());
        }
    }
    if link.symlink_metadata().is_ok() {
        return Err(Error::Environment(format!(
            "{} already exists and is not a link to this dbpress: remove it, or give another directory",
            link.display()
        )));
    }
    std::os::unix::fs::symlink(exe, link).map_err(|e| {
        Error::Environment(format!(
            "cannot make the link {} ({e}): give a directory you can write to",
            link.display()
        ))
    })
}
