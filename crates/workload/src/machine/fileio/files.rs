//! fileio's files in the current directory, named as sysbench names them (`test_file.N`):
//! made by prepare, opened with `--file-extra-flags` for a run, removed by cleanup; and the
//! aligned buffer requests read into and write from.

use dbpress_core::error::{environment, Result};
use std::fs::{File, OpenOptions};
use std::os::unix::fs::{FileExt, OpenOptionsExt};

/// The name of file `i`.
pub fn name(i: usize) -> String {
    format!("test_file.{i}")
}

/// `--file-extra-flags`.
#[derive(Clone, Copy, Default)]
pub struct Flags {
    pub sync: bool,
    pub dsync: bool,
    pub direct: bool,
}

impl Flags {
    /// `--file-extra-flags=sync,dsync,direct` (any of them, in any order); the unknown name.
    pub fn parse(list: &str) -> std::result::Result<Flags, String> {
        let mut f = Flags::default();
        for word in list.split(',').map(str::trim).filter(|w| !w.is_empty()) {
            match word {
                "sync" => f.sync = true,
                "dsync" => f.dsync = true,
                "direct" => f.direct = true,
                other => return Err(other.to_string()),
            }
        }
        Ok(f)
    }

    /// sysbench's words: `(none)`, or each flag followed by a space (`directio` for direct).
    pub fn describe(self) -> String {
        let mut s = String::new();
        for (on, word) in [
            (self.sync, "sync"),
            (self.dsync, "dsync"),
            (self.direct, "directio"),
        ] {
            if on {
                s.push_str(word);
                s.push(' ');
            }
        }
        if s.is_empty() {
            "(none)".to_string()
        } else {
            s
        }
    }

    /// The open flags, with O_NOFOLLOW always: a `test_file.N` that is a link to another file
    /// is refused, never emptied or written through.
    fn open_flags(self) -> i32 {
        let mut f = libc::O_NOFOLLOW;
        if self.sync {
            f |= libc::O_SYNC;
        }
        if self.dsync {
            f |= libc::O_DSYNC;
        }
        if self.direct {
            f |= libc::O_DIRECT;
        }
        f
    }
}

/// Open the `n` files for a run, each for reading and writing with `flags`, emptied first
/// when `empty` (sequential write is sysbench's creation test); the first that would not open
/// and why.
pub fn open_all(
    n: usize,
    flags: Flags,
    empty: bool,
) -> std::result::Result<Vec<File>, (usize, std::io::Error)> {
    (0..n)
        .map(|i| {
            OpenOptions::new()
                .read(true)
                .write(true)
                .create(empty)
                .truncate(empty)
                .custom_flags(flags.open_flags())
                .open(name(i))
                .map_err(|e| (i, e))
        })
        .collect()
}

/// Make each of the `n` files `size` bytes, written `block` bytes at a time and synced; a file
/// already at least that size is kept (`Reusing existing file`). Says each as sysbench does; the bytes
/// written.
pub fn create_all(n: usize, size: u64, block: u64, flags: Flags, validate: bool) -> Result<u64> {
    let mut written = 0;
    let mut buf = Buffer::new(block as usize).map_err(|e| environment(e.to_string()))?;
    let mut rng = dbpress_core::rand::Rng::new(size, block);
    for i in 0..n {
        let path = name(i);
        // At least that long, as sysbench reuses a file (a longer one is read and written
        // only in its first `size` bytes).
        if std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_file() && m.len() >= size) {
            dbpress_core::notice!("Reusing existing file {path}");
            continue;
        }
        dbpress_core::notice!("Creating file {path}");
        let f = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .custom_flags(flags.open_flags())
            .open(&path)
            .map_err(|e| environment(format!("Cannot create file '{path}': {e}")))?;
        let mut at = 0;
        while at < size {
            let len = block.min(size - at) as usize;
            if validate && len == block as usize {
                super::validate::seal(buf.bytes_mut(), len, at, &mut rng);
            }
            f.write_all_at(&buf.bytes()[..len], at)
                .map_err(|e| environment(format!("Cannot write file '{path}': {e}")))?;
            at += len as u64;
        }
        f.sync_all()
            .map_err(|e| environment(format!("Cannot fsync file '{path}': {e}")))?;
        written += size;
    }
    Ok(written)
}

/// Remove the files of a test of `n` files (those there).
pub fn remove_all(n: usize) -> Result<()> {
    for i in 0..n {
        let path = name(i);
        match std::fs::remove_file(&path) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(environment(format!("Cannot remove file '{path}': {e}"))),
        }
    }
    Ok(())
}

/// A buffer aligned to 4 KiB, as O_DIRECT needs, filled with a pattern.
pub struct Buffer {
    ptr: *mut u8,
    len: usize,
}

// SAFETY: the buffer is owned memory, used by one thread at a time (`&mut` to write into it).
unsafe impl Send for Buffer {}

const ALIGN: usize = 4096;

impl Buffer {
    /// A buffer of `len` bytes; an error, not an abort, when the memory is not there (a
    /// block size of gigabytes times the async backlog).
    pub fn new(len: usize) -> std::io::Result<Buffer> {
        let too_big = || {
            std::io::Error::new(
                std::io::ErrorKind::OutOfMemory,
                format!("cannot allocate a buffer of {len} bytes: use a smaller --file-block-size (or --file-async-backlog, --file-merged-requests)"),
            )
        };
        let layout =
            std::alloc::Layout::from_size_align(len.max(1), ALIGN).map_err(|_| too_big())?;
        // SAFETY: a non-zero size with a valid alignment; zeroed, so initialised.
        let ptr = unsafe { std::alloc::alloc_zeroed(layout) };
        if ptr.is_null() {
            return Err(too_big());
        }
        let mut b = Buffer { ptr, len };
        for (i, byte) in b.bytes_mut().iter_mut().enumerate() {
            *byte = (i % 251) as u8;
        }
        Ok(b)
    }

    pub fn bytes(&self) -> &[u8] {
        // SAFETY: `len` bytes allocated in `new`, initialised there.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }

    pub fn bytes_mut(&mut self) -> &mut [u8] {
        // SAFETY: as `bytes`, borrowed mutably through `&mut self`.
        unsafe { std::slice::from_raw_parts_mut(self.ptr, self.len) }
    }
}

impl Drop for Buffer {
    fn drop(&mut self) {
        let layout = std::alloc::Layout::from_size_align(self.len.max(1), ALIGN).expect("block");
        // SAFETY: allocated in `new` with this layout.
        unsafe { std::alloc::dealloc(self.ptr, layout) }
    }
}

/// The files of a run, opened once and shared by every worker (pread, pwrite and fsync need
/// no lock), and under `--file-io-mode=mmap` each mapped whole.
pub struct Opened {
    pub files: Vec<File>,
    pub maps: Option<Vec<Map>>,
}

/// A file mapped shared, read and written, whole.
pub struct Map {
    ptr: *mut u8,
    len: usize,
}

// SAFETY: the mapping lives as long as the `Map`; threads copy plain bytes in and out of it,
// as sysbench's threads do (two writes to one block store the same pattern).
unsafe impl Send for Map {}
unsafe impl Sync for Map {}

impl Map {
    pub fn of(f: &File, len: u64) -> std::io::Result<Map> {
        use std::os::fd::AsRawFd;
        let len = len as usize;
        // SAFETY: a new shared mapping of an open file's first `len` bytes (the run checked
        // the file is that long); nothing else aliases it.
        let ptr = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len.max(1),
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED,
                f.as_raw_fd(),
                0,
            )
        };
        if ptr == libc::MAP_FAILED {
            return Err(std::io::Error::last_os_error());
        }
        Ok(Map {
            ptr: ptr.cast(),
            len,
        })
    }

    /// Copy `buf.len()` bytes at `offset` into `buf` (a read).
    pub fn read(&self, offset: u64, buf: &mut [u8]) -> std::io::Result<()> {
        let at = self.range(offset, buf.len())?;
        // SAFETY: `range` keeps the copy inside the mapping; `buf` is a distinct allocation.
        unsafe { std::ptr::copy_nonoverlapping(self.ptr.add(at), buf.as_mut_ptr(), buf.len()) };
        Ok(())
    }

    /// Copy `buf` into the file at `offset` (a write).
    pub fn write(&self, offset: u64, buf: &[u8]) -> std::io::Result<()> {
        let at = self.range(offset, buf.len())?;
        // SAFETY: as `read`, the other way.
        unsafe { std::ptr::copy_nonoverlapping(buf.as_ptr(), self.ptr.add(at), buf.len()) };
        Ok(())
    }

    /// Write the mapping's dirty pages to the file and wait (what fsync is for a mapping).
    pub fn sync(&self) -> std::io::Result<()> {
        // SAFETY: the whole mapping, which is live.
        match unsafe { libc::msync(self.ptr.cast(), self.len.max(1), libc::MS_SYNC) } {
            0 => Ok(()),
            _ => Err(std::io::Error::last_os_error()),
        }
    }

    fn range(&self, offset: u64, len: usize) -> std::io::Result<usize> {
        let at = offset as usize;
        if at.checked_add(len).is_none_or(|end| end > self.len) {
            return Err(std::io::Error::new(
                std::io::ErrorKind::UnexpectedEof,
                "a request past the mapping's end",
            ));
        }
        Ok(at)
    }
}

impl Drop for Map {
    fn drop(&mut self) {
        // SAFETY: mapped in `of` with this length.
        unsafe { libc::munmap(self.ptr.cast(), self.len.max(1)) };
    }
}
