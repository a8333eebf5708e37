//! sysbench's `fileio` test: the disk under the database's kind of IO, before the database.
//! prepare makes `--file-num` files of `--file-total-size` in all in the current directory;
//! each event of a run is one request of the plan every thread shares (`requests.rs`) — a
//! read or write of `--file-block-size` bytes, or a sync of one file — done with pread, pwrite,
//! fsync or fdatasync on files opened with `--file-extra-flags`; cleanup removes the files.
//! Reads, writes and syncs are counted as the event's reads, writes and others, from which
//! sysbench's report (operations and MiB per second) is printed.

mod aio;
mod choices;
mod files;
pub mod requests;
mod validate;

use crate::events::{EventGen, Exec};

use dbpress_core::error::{environment, Result};
use dbpress_core::options::OptionValues;
use dbpress_core::personality::{is_sysbench, refused};
use dbpress_core::rand::Rng;
use dbpress_driver::{DbError, DbErrorKind, DbResult};
use dbpress_result::machine::MachineTest;
use files::{Buffer, Flags, Map, Opened};
use requests::{Mode, Op, Plan, Shape};
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::sync::{Arc, OnceLock};
use std::time::Instant;

pub const NAME: &str = "fileio";
pub const DESCRIPTION: &str =
    "file reads, writes and syncs in files of the current directory: the disk (sysbench fileio; no database)";

pub struct FileIo {
    shape: Shape,
    /// None when `--file-test-mode` was not given (prepare and cleanup need none).
    mode: Option<Mode>,
    flags: Flags,
    fsync_all: bool,
    fsync_end: bool,
    fdatasync: bool,
    /// `--events`, which sysbench's header calls the number of IO requests.
    requests: u64,
    plan: Arc<Plan>,
    /// `--file-io-mode=mmap`: the files mapped, copied in and out of.
    mmap: bool,
    /// `--file-io-mode=async`: each worker's requests in flight, at most this many.
    async_backlog: Option<usize>,
    /// The files, opened once before the threads start, shared by all.
    open: OnceLock<std::result::Result<Arc<Opened>, String>>,
    /// `--validate`: blocks written sealed (a CRC-32 and their offset), blocks read checked.
    validate: bool,
}

impl FileIo {
    pub fn new(opts: &OptionValues) -> Result<FileIo> {
        use super::keys::*;
        let files = opts.int(FILE_NUM)? as usize;
        let block = opts.int(FILE_BLOCK_SIZE)?;
        let total = choices::total_size(opts)?;
        // sysbench refuses a total of 0 only; dbpress any that leaves the files empty.
        if total == 0 || (total / files as u64 == 0 && !is_sysbench()) {
            return Err(refused(
                format!("Invalid value for file-total-size: {total}"),
                || {
                    format!("--file-total-size={}: the {files} files would be empty; give at least {files} bytes", opts.text(FILE_TOTAL_SIZE))
                },
            ));
        }
        let mode = choices::test_mode(opts)?;
        let (mmap, async_io) = choices::io_mode(opts)?;
        let flags = choices::extra_flags(opts)?;
        let fdatasync = choices::fdatasync(opts)?;
        let fsync_all = opts.flag(FILE_FSYNC_ALL)?;
        let shape = Shape {
            mode: mode.unwrap_or(Mode::SeqRd),
            files,
            file_size: total / files as u64,
            block,
            merged: opts.int(FILE_MERGED_REQUESTS)?,
            // After each write instead, with --file-fsync-all.
            fsync_freq: if fsync_all {
                0
            } else {
                opts.int(FILE_FSYNC_FREQ)?
            },
            rw_ratio: opts.float(FILE_RW_RATIO)?,
        };
        let validate = opts.flag(dbpress_config::keys::VALIDATE)?;
        if validate && async_io {
            return Err(dbpress_core::error::usage(
                "--validate with --file-io-mode=async: dbpress checks the blocks in the sync and mmap modes; use one of them",
            ));
        }
        if validate && block as usize <= validate::TRAILER {
            return Err(dbpress_core::error::usage(format!(
                "--validate needs blocks of more than {} bytes (each ends in its checksum and offset): raise --file-block-size",
                validate::TRAILER
            )));
        }
        Ok(FileIo {
            validate,
            shape,
            mode,
            flags,
            fsync_all,
            fsync_end: opts.flag(FILE_FSYNC_END)?,
            fdatasync,
            requests: opts.int(dbpress_config::keys::EVENTS)?,
            plan: Arc::new(Plan::new(shape)),
            mmap,
            async_backlog: async_io
                .then(|| opts.int(FILE_ASYNC_BACKLOG))
                .transpose()?
                .map(|n| n as usize),
            open: OnceLock::new(),
        })
    }

    /// The bytes of one request: the block, or a sequential test's merged blocks.
    pub fn request_bytes(&self) -> u64 {
        match self.mode {
            Some(m) if !m.random() => self.shape.block * self.shape.merged.max(1),
            _ => self.shape.block,
        }
    }

    /// Whether a run can start: it needs `--file-test-mode`.
    pub fn runnable(&self) -> Result<()> {
        self.mode().map(|_| ())
    }

    /// The test mode, which run needs (sysbench's words and its option list without one).
    fn mode(&self) -> Result<Mode> {
        self.mode.ok_or_else(|| {
            refused(
                format!(
                    "Missing required argument: --file-test-mode\n\n{}",
                    // Its rows and their blank line, less the line end the error's line adds.
                    super::options::help_rows(NAME).trim_end_matches('\n').to_string() + "\n"
                ),
                || "fileio run needs --file-test-mode: one of seqwr, seqrewr, seqrd, rndrd, rndwr, rndrw".to_string(),
            )
        })
    }

    /// The lines sysbench prints before its threads start.
    pub fn preamble(&self) -> Vec<String> {
        let s = &self.shape;
        let mut l = vec![
            format!("Extra file open flags: {}", self.flags.describe()),
            format!("{} files, {}", s.files, kib_or_mib(s.file_size, " each")),
            format!(
                "{} total file size",
                kib_or_mib(s.file_size * s.files as u64, "")
            ),
            format!("Block size {}", kib_or_mib(s.block, "")),
        ];
        if s.merged > 0 {
            l.push(format!(
                "Merging requests up to {} for sequential IO.",
                kib_or_mib(s.block * s.merged, "")
            ));
        }
        if s.mode.random() {
            l.push(format!("Number of IO requests: {}", self.requests));
            l.push(format!(
                "Read/Write ratio for combined random IO test: {:.2}",
                s.rw_ratio
            ));
        }
        if self.fsync_all {
            l.push("Calling fsync() after each write operation.".into());
        } else {
            if s.fsync_freq > 0 {
                l.push(format!(
                    "Periodic FSYNC enabled, calling fsync() each {} requests.",
                    s.fsync_freq
                ));
            }
            if self.fsync_end {
                l.push("Calling fsync() at the end of test, Enabled.".into());
            }
        }
        l.push(
            match (self.mmap, self.async_backlog) {
                (true, _) => "Using fast mmaped I/O mode",
                (_, Some(_)) => "Using asynchronous I/O mode",
                _ => "Using synchronous I/O mode",
            }
            .into(),
        );
        if self.validate {
            l.push("Using checksums validation.".into());
        }
        l.push(s.mode.doing().into());
        l
    }

    pub fn asked(&self) -> MachineTest {
        MachineTest {
            block_bytes: Some(self.shape.block),
            request_bytes: Some(self.request_bytes()),
            file_test_mode: self.mode.map(|m| m.name().to_string()),
            file_num: Some(self.shape.files as u64),
            file_total_bytes: Some(self.shape.file_size * self.shape.files as u64),
            ..MachineTest::of(NAME)
        }
    }

    /// prepare: the files, said as sysbench says them.
    pub fn prepare(&self) -> Result<()> {
        let s = &self.shape;
        // sysbench says these at its notice level: --verbosity=2 keeps them quiet.
        dbpress_core::notice!(
            "{} files, {}Kb each, {}Mb total",
            s.files,
            s.file_size / 1024,
            s.file_size * s.files as u64 / (1024 * 1024)
        );
        dbpress_core::notice!("Creating files for the test...");
        dbpress_core::notice!("Extra file open flags: {}", self.flags.describe());
        let start = Instant::now();
        let written = files::create_all(s.files, s.file_size, s.block, self.flags, self.validate)?;
        let secs = start.elapsed().as_secs_f64();
        if written == 0 {
            dbpress_core::notice!("No bytes written.");
        } else {
            dbpress_core::notice!(
                "{written} bytes written in {secs:.2} seconds ({:.2} MiB/sec).",
                written as f64 / (1024.0 * 1024.0) / secs.max(1e-9)
            );
        }
        Ok(())
    }

    pub fn cleanup(&self) -> Result<()> {
        dbpress_core::notice!("Removing test files...");
        files::remove_all(self.shape.files)
    }

    /// Open the files for the run, once: after the header, before the threads, where
    /// sysbench opens them and says which one it could not open.
    pub fn open_files(&self) -> Result<()> {
        self.opened()
            .map(|_| ())
            .map_err(|m| environment(m.to_string()))
    }

    fn opened(&self) -> std::result::Result<&Arc<Opened>, &str> {
        let s = self.shape;
        let creating = s.mode == Mode::SeqWr;
        let opened = self.open.get_or_init(|| {
            let files = files::open_all(s.files, self.flags, creating)
                .map_err(|(i, e)| cannot_open(&files::name(i), &e))?;
            if !creating {
                for (i, f) in files.iter().enumerate() {
                    let len = f.metadata().map(|m| m.len()).unwrap_or(0);
                    if len < s.file_size {
                        return Err(too_short(&files::name(i), len, s.file_size));
                    }
                }
            }
            let maps = match self.mmap {
                false => None,
                true => Some(self.map_all(&files)?),
            };
            Ok(Arc::new(Opened { files, maps }))
        });
        opened.as_ref().map_err(|m| m.as_str())
    }

    /// Each file mapped whole (a sequential write's emptied files grown to their size first).
    fn map_all(&self, files: &[File]) -> std::result::Result<Vec<Map>, String> {
        let size = self.shape.file_size;
        files
            .iter()
            .enumerate()
            .map(|(i, f)| {
                let name = files::name(i);
                if f.metadata().map(|m| m.len()).unwrap_or(0) < size {
                    f.set_len(size)
                        .map_err(|e| format!("cannot grow {name}: {e}"))?;
                }
                Map::of(f, size).map_err(|e| format!("cannot map {name}: {e}"))
            })
            .collect()
    }

    pub fn worker(&self, rng: Rng) -> DbResult<FileIoEvents> {
        let setup = |m: String| DbError::new(DbErrorKind::Setup, "fileio", m);
        self.mode().map_err(|e| setup(e.to_string()))?;
        let files = self.opened().map_err(|m| setup(m.to_string()))?.clone();
        let merged = if self.shape.mode.random() {
            1
        } else {
            self.shape.merged.max(1)
        };
        let len = (self.shape.block * merged) as usize;
        let aio = self
            .async_backlog
            .map(|backlog| aio::Aio::new(backlog, len))
            .transpose()
            .map_err(|e| setup(format!("cannot set up Linux AIO (io_setup): {e}")))?;
        Ok(FileIoEvents {
            files,
            plan: self.plan.clone(),
            buf: Buffer::new(len).map_err(|e| setup(e.to_string()))?,
            aio,
            rng,
            fsync_all: self.fsync_all,
            // Every thread that writes syncs every file after its own work, as sysbench's do,
            // so no thread's last writes are left unsynced.
            fsync_end: self.fsync_end && !self.fsync_all && self.shape.mode.writes(),
            fdatasync: self.fdatasync,
            validate: self.validate.then_some(self.shape.block as usize),
        })
    }
}

/// A file that would not open, in sysbench's lines under its personality, else with the fix.
fn cannot_open(path: &str, e: &std::io::Error) -> String {
    let missing = e.kind() == std::io::ErrorKind::NotFound;
    if is_sysbench() {
        let errno = e.raw_os_error().unwrap_or(0);
        let mut m = format!(
            "Cannot open file '{path}' errno = {errno} ({})",
            strerror(e)
        );
        if missing {
            m.push_str("\nWARNING: Did you forget to run the prepare step?");
        }
        m
    } else if missing {
        format!("cannot open {path} (not there): run `dbpress fileio prepare` with the same --file-num and --file-total-size first, in this directory")
    } else {
        format!("cannot open {path}: {}", strerror(e))
    }
}

/// A file shorter than the test reads and writes (a sequential write run stopped early
/// leaves them so, as under sysbench).
fn too_short(path: &str, len: u64, want: u64) -> String {
    let (len, want) = (kib_or_mib(len, ""), kib_or_mib(want, ""));
    if is_sysbench() {
        format!("Size of file '{path}' is {len}, but at least {want} is expected.\nWARNING: Did you run 'prepare' with different --file-total-size or --file-num values?")
    } else {
        format!("{path} is {len}, shorter than the {want} each file of the test has: run `dbpress fileio prepare` with the same --file-num and --file-total-size again (a seqwr run rewrites the files from empty)")
    }
}

/// The OS's words for an IO error, without Rust's "(os error N)".
fn strerror(e: &std::io::Error) -> String {
    let s = e.to_string();
    match s.find(" (os error") {
        Some(i) => s[..i].to_string(),
        None => s,
    }
}

/// sysbench's sizes in its run header: in the largest unit of KiB, MiB, GiB, TiB that divides
/// them (`2GiB`, `16MiB`, `16KiB`).
fn kib_or_mib(bytes: u64, tail: &str) -> String {
    let mut n = bytes / 1024;
    let mut units = ["KiB", "MiB", "GiB", "TiB"].iter();
    let mut unit = units.next().expect("four units");
    for next in units {
        if n < 1024 || n % 1024 != 0 {
            break;
        }
        n /= 1024;
        unit = next;
    }
    format!("{n}{unit}{tail}")
}

pub struct FileIoEvents {
    files: Arc<Opened>,
    /// `--file-io-mode=async`: this worker's requests in flight.
    aio: Option<aio::Aio>,
    plan: Arc<Plan>,
    buf: Buffer,
    rng: Rng,
    fsync_all: bool,
    /// This worker syncs every file when its work ends.
    fsync_end: bool,
    fdatasync: bool,
    /// `--validate`: the block size its blocks are sealed and checked in.
    validate: Option<usize>,
}

impl FileIoEvents {
    /// A read or write of `r`'s bytes, as the IO mode does it: submitted (async), copied
    /// (mmap), or pread/pwrite.
    fn transfer(&mut self, r: &requests::Request) -> std::io::Result<()> {
        let f = &self.files.files[r.file];
        let len = r.len as usize;
        let write = r.op == Op::Write;
        if let Some(aio) = self.aio.as_mut() {
            use std::os::fd::AsRawFd;
            return aio.submit(f.as_raw_fd(), write, r.offset, len);
        }
        if let (Some(block), true) = (self.validate, write) {
            validate::seal(
                &mut self.buf.bytes_mut()[..len],
                block,
                r.offset,
                &mut self.rng,
            );
        }
        let map = self.files.maps.as_ref().map(|m| &m[r.file]);
        match (map, write) {
            (Some(m), false) => m.read(r.offset, &mut self.buf.bytes_mut()[..len])?,
            (Some(m), true) => m.write(r.offset, &self.buf.bytes()[..len])?,
            (None, false) => f.read_exact_at(&mut self.buf.bytes_mut()[..len], r.offset)?,
            (None, true) => f.write_all_at(&self.buf.bytes()[..len], r.offset)?,
        }
        if let (Some(block), false) = (self.validate, write) {
            validate::check(
                &self.buf.bytes()[..len],
                block,
                r.offset,
                r.file,
                files::name,
            )
            .map_err(|m| std::io::Error::new(std::io::ErrorKind::InvalidData, m))?;
        }
        Ok(())
    }

    fn sync(&mut self, file: usize) -> std::io::Result<()> {
        // Asynchronous requests complete before the sync that is to make them durable.
        if let Some(aio) = self.aio.as_mut() {
            aio.drain()?;
        }
        match &self.files.maps {
            Some(maps) => maps[file].sync(),
            None if self.fdatasync => self.files.files[file].sync_data(),
            None => self.files.files[file].sync_all(),
        }
    }
}

/// The code of fileio's own failures (an IO error, a block that fails --validate): the run
/// ends with its message as it stands.
pub const ERROR_CODE: &str = "fileio";

fn io_error(what: &str, e: std::io::Error) -> DbError {
    // A block that failed --validate is said in its own words.
    if e.kind() == std::io::ErrorKind::InvalidData {
        return DbError::new(DbErrorKind::Other, ERROR_CODE, e.to_string());
    }
    DbError::new(DbErrorKind::Other, ERROR_CODE, format!("{what}: {e}"))
}

impl EventGen for FileIoEvents {
    fn event(&mut self, exec: &mut Exec<'_>) -> DbResult<()> {
        let r = self.plan.next(&mut self.rng);
        let name = || files::name(r.file);
        match r.op {
            Op::Read | Op::Write => {
                self.transfer(&r)
                    .map_err(|e| io_error(&format!("{:?} of {}", r.op, name()), e))?;
                if r.op == Op::Read {
                    exec.reads += 1;
                } else {
                    exec.writes += 1;
                }
            }
            Op::Sync => {}
        }
        if r.op == Op::Sync || (r.op == Op::Write && self.fsync_all) {
            self.sync(r.file)
                .map_err(|e| io_error(&format!("sync of {}", name()), e))?;
            exec.other += 1;
        }
        Ok(())
    }

    fn finish(&mut self, exec: &mut Exec<'_>) -> DbResult<()> {
        // Asynchronous requests still in flight complete before the run ends.
        if let Some(aio) = self.aio.as_mut() {
            aio.drain()
                .map_err(|e| io_error("an asynchronous request", e))?;
        }
        if self.fsync_end {
            for i in 0..self.files.files.len() {
                self.sync(i)
                    .map_err(|e| io_error(&format!("sync of {}", files::name(i)), e))?;
                exec.other += 1;
            }
        }
        Ok(())
    }
}
