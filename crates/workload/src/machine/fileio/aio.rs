//! `--file-io-mode=async`: Linux AIO, as sysbench's manual describes its async mode — each
//! worker keeps up to `--file-async-backlog` requests in flight, submitting one per event and
//! waiting for at least one to complete only when the backlog is full; a run's end waits for
//! them all. Through the kernel's io_setup/io_submit/io_getevents calls directly (the ABI's
//! structures below), as sysbench goes through libaio.

use super::files::Buffer;
use std::io;

/// The kernel's `struct iocb` (x86-64 and every little-endian 64-bit ABI).
#[repr(C)]
#[derive(Default, Clone, Copy)]
struct Iocb {
    data: u64,
    key: u32,
    rw_flags: u32,
    opcode: u16,
    reqprio: i16,
    fildes: u32,
    buf: u64,
    nbytes: u64,
    offset: i64,
    reserved2: u64,
    flags: u32,
    resfd: u32,
}

/// The kernel's `struct io_event`.
#[repr(C)]
#[derive(Default, Clone, Copy)]
struct IoEvent {
    data: u64,
    obj: u64,
    res: i64,
    res2: i64,
}

const IOCB_CMD_PREAD: u16 = 0;
const IOCB_CMD_PWRITE: u16 = 1;

/// One worker's AIO context: its slots (an iocb and a buffer each), which are free, and how
/// many are in flight.
pub struct Aio {
    ctx: libc::c_ulong,
    iocbs: Vec<Iocb>,
    bufs: Vec<Buffer>,
    free: Vec<usize>,
    in_flight: usize,
}

// SAFETY: the context and the slots are the worker's own; the kernel reads the iocbs and
// buffers only while their requests are in flight, which `Drop` waits out.
unsafe impl Send for Aio {}

impl Aio {
    pub fn new(backlog: usize, len: usize) -> io::Result<Aio> {
        let mut ctx: libc::c_ulong = 0;
        // SAFETY: io_setup writes the new context's id into `ctx`.
        if unsafe { libc::syscall(libc::SYS_io_setup, backlog as libc::c_long, &mut ctx) } != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(Aio {
            ctx,
            iocbs: vec![Iocb::default(); backlog],
            bufs: (0..backlog)
                .map(|_| Buffer::new(len))
                .collect::<io::Result<_>>()?,
            free: (0..backlog).rev().collect(),
            in_flight: 0,
        })
    }

    /// Submit a read (`write` false) or a write of `len` bytes at `offset` of `fd`, first
    /// waiting for a completion when every slot is in flight.
    pub fn submit(&mut self, fd: i32, write: bool, offset: u64, len: usize) -> io::Result<()> {
        // A wait a signal interrupted takes back no slot: wait again.
        while self.free.is_empty() {
            self.reap(1)?;
        }
        let slot = self.free.pop().expect("a slot after reaping");
        let buf = self.bufs[slot].bytes_mut()[..len].as_mut_ptr();
        self.iocbs[slot] = Iocb {
            data: slot as u64,
            opcode: if write {
                IOCB_CMD_PWRITE
            } else {
                IOCB_CMD_PREAD
            },
            fildes: fd as u32,
            buf: buf as u64,
            nbytes: len as u64,
            offset: offset as i64,
            ..Iocb::default()
        };
        let mut one = [&mut self.iocbs[slot] as *mut Iocb];
        loop {
            // SAFETY: one valid iocb, whose buffer and itself live in `self` until reaped.
            let n = unsafe { libc::syscall(libc::SYS_io_submit, self.ctx, 1, one.as_mut_ptr()) };
            match n {
                1 => break,
                _ => {
                    let e = io::Error::last_os_error();
                    if e.raw_os_error() == Some(libc::EAGAIN) && self.in_flight > 0 {
                        self.reap(1)?;
                        continue;
                    }
                    self.free.push(slot);
                    return Err(e);
                }
            }
        }
        self.in_flight += 1;
        Ok(())
    }

    /// Wait for every request in flight (before a sync, and at the run's end).
    pub fn drain(&mut self) -> io::Result<()> {
        while self.in_flight > 0 {
            self.reap(self.in_flight)?;
        }
        Ok(())
    }

    /// Wait for at least `min` completions, taking back their slots; the first failed one's
    /// error.
    fn reap(&mut self, min: usize) -> io::Result<()> {
        let mut events = vec![IoEvent::default(); self.in_flight.max(1)];
        // SAFETY: `events` has room for as many completions as are asked for.
        let n = unsafe {
            libc::syscall(
                libc::SYS_io_getevents,
                self.ctx,
                min as libc::c_long,
                events.len() as libc::c_long,
                events.as_mut_ptr(),
                std::ptr::null_mut::<libc::timespec>(),
            )
        };
        if n < 0 {
            let e = io::Error::last_os_error();
            if e.kind() == io::ErrorKind::Interrupted {
                return Ok(());
            }
            return Err(e);
        }
        let mut failed = None;
        for ev in &events[..n as usize] {
            let slot = ev.data as usize;
            self.free.push(slot);
            self.in_flight -= 1;
            if ev.res < 0 && failed.is_none() {
                failed = Some(io::Error::from_raw_os_error(-ev.res as i32));
            } else if (ev.res as u64) < self.iocbs[slot].nbytes && failed.is_none() {
                failed = Some(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "a short transfer",
                ));
            }
        }
        failed.map_or(Ok(()), Err)
    }
}

impl Drop for Aio {
    fn drop(&mut self) {
        let _ = self.drain();
        // SAFETY: the context made in `new`, nothing in flight any more.
        unsafe { libc::syscall(libc::SYS_io_destroy, self.ctx) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::fd::AsRawFd;
    use std::os::unix::fs::FileExt;

    #[test]
    fn requests_past_the_backlog_wait_for_a_slot_and_every_write_lands() {
        let dir = std::env::temp_dir().join(format!("dbpress-aio-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("f");
        let f = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(&path)
            .unwrap();
        f.set_len(64 * 4096).unwrap();
        let mut aio = Aio::new(4, 4096).unwrap();
        for i in 0..64 {
            aio.submit(f.as_raw_fd(), true, i * 4096, 4096).unwrap();
            assert!(aio.in_flight <= 4);
        }
        aio.drain().unwrap();
        assert_eq!(aio.in_flight, 0);
        // The buffers' pattern (byte i is i mod 251) is in every block.
        let mut block = vec![0u8; 4096];
        f.read_exact_at(&mut block, 63 * 4096).unwrap();
        assert_eq!(block[250], 250);
        assert_eq!(block[251], 0);
        // A read lands in its slot's buffer: the file's first block, 7s, over the pattern.
        f.write_all_at(&[7u8; 4096], 0).unwrap();
        aio.submit(f.as_raw_fd(), false, 0, 4096).unwrap();
        aio.drain().unwrap();
        assert!(aio.bufs.iter().any(|b| b.bytes().iter().all(|&x| x == 7)));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
