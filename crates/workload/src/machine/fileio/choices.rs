//! fileio's options that name a choice or a size, read with sysbench's words for a value it
//! does not know under its personality, dbpress's with the fix otherwise.

use super::files::Flags;
use super::requests::Mode;
use crate::machine::keys::*;
use dbpress_core::error::{usage, Result};
use dbpress_core::options::{size_bytes, OptionValues};
use dbpress_core::personality::{is_sysbench, refused};

/// `--file-total-size` in bytes (sysbench reads what is not a size as 0).
pub fn total_size(opts: &OptionValues) -> Result<u64> {
    let text = opts.text(FILE_TOTAL_SIZE);
    match size_bytes(text) {
        Some(n) => Ok(n),
        None if is_sysbench() => Ok(0),
        None => Err(usage(format!(
            "invalid value '{text}' for --file-total-size: give a size such as 2G, 512M or 16K"
        ))),
    }
}

/// `--file-test-mode`; None when not given (prepare and cleanup need none).
pub fn test_mode(opts: &OptionValues) -> Result<Option<Mode>> {
    match opts.text(FILE_TEST_MODE) {
        "" => Ok(None),
        m => Mode::named(m).map(Some).ok_or_else(|| {
            refused(format!("Invalid IO operations mode: {m}."), || {
                format!("invalid value '{m}' for --file-test-mode: use one of seqwr, seqrewr, seqrd, rndrd, rndwr, rndrw")
            })
        }),
    }
}

/// `--file-io-mode`: (mmap, async); both false for sync.
pub fn io_mode(opts: &OptionValues) -> Result<(bool, bool)> {
    match opts.text(FILE_IO_MODE) {
        "sync" => Ok((false, false)),
        "mmap" => Ok((true, false)),
        "async" => Ok((false, true)),
        m => Err(refused(format!("unknown I/O mode: {m}"), || {
            format!("invalid value '{m}' for --file-io-mode: use sync, async or mmap")
        })),
    }
}

/// `--file-extra-flags`.
pub fn extra_flags(opts: &OptionValues) -> Result<Flags> {
    Flags::parse(opts.text(FILE_EXTRA_FLAGS)).map_err(|w| {
        refused(format!("Invalid value for file-extra-flags: {w}"), || {
            format!("invalid flag '{w}' in --file-extra-flags: use sync, dsync or direct")
        })
    })
}

/// `--file-fsync-mode`: whether a sync is fdatasync (else fsync).
pub fn fdatasync(opts: &OptionValues) -> Result<bool> {
    match opts.text(FILE_FSYNC_MODE) {
        "fsync" => Ok(false),
        "fdatasync" => Ok(true),
        m => Err(refused(format!("Invalid fsync mode: {m}."), || {
            format!("invalid value '{m}' for --file-fsync-mode: use fsync or fdatasync")
        })),
    }
}
