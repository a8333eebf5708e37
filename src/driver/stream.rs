//! A blocking byte stream to a server, over TCP or a Unix socket, for dbpress's own protocol
//! clients.

use std::io::{self, Read, Write};
use std::net::TcpStream;
use std::os::unix::net::UnixStream;

pub enum Stream {
    Tcp(TcpStream),
    Unix(UnixStream),
}

impl Read for Stream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Stream::Tcp(s) => s.read(buf),
            Stream::Unix(s) => read_unix(s, buf),
        }
    }
}

/// Read from a Unix socket without sleeping inside `recv`.
///
/// Why: a thread blocked in `recv` on a Unix stream socket sleeps on the socket's one wait queue,
/// and the kernel wakes that queue with "writable" when the server *reads our request* (the sent
/// buffer is freed). The reader wakes, finds no data and sleeps again: two sleeps and wake-ups per
/// query instead of one (measured: 2.0 voluntary context switches per oltp_point_select query vs
/// sysbench's 1.0), which on a 2-core machine shared with the server costs throughput. `poll`
/// waits only for "readable", as libmariadb and libpq do. It comes first because a response is
/// almost never there yet when the client starts reading (libmariadb's non-blocking `recv` first
/// costs a third call per query, measured ~150 client instructions).
fn read_unix(s: &UnixStream, buf: &mut [u8]) -> io::Result<usize> {
    use std::os::fd::AsRawFd;
    let fd = s.as_raw_fd();
    loop {
        let mut pfd = libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one valid pollfd; -1 waits as long as a blocking read would.
        if unsafe { libc::poll(&mut pfd, 1, -1) } < 0 {
            let e = io::Error::last_os_error();
            if e.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return Err(e);
        }
        // Readable, hung up or in error: this recv returns the data, 0 or the error.
        // SAFETY: `buf` is a valid writable region of `buf.len()` bytes owned by the caller.
        let n = unsafe { libc::recv(fd, buf.as_mut_ptr().cast(), buf.len(), libc::MSG_DONTWAIT) };
        if n >= 0 {
            return Ok(n as usize);
        }
        let e = io::Error::last_os_error();
        match e.kind() {
            io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted => {}
            _ => return Err(e),
        }
    }
}

impl Write for Stream {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Stream::Tcp(s) => s.write(buf),
            Stream::Unix(s) => s.write(buf),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The stream with one reusable read buffer, so messages are read in place: a response costs a
/// header parse per message and no allocation. Both protocol clients frame on top of it.
pub struct Buffered {
    pub stream: Stream,
    buf: Vec<u8>,
    start: usize,
    end: usize,
}

impl Buffered {
    pub fn new(stream: Stream) -> Buffered {
        Buffered {
            stream,
            // Grows when a message needs more; most responses of an OLTP event fit in 16 KiB.
            buf: vec![0; 16 * 1024],
            start: 0,
            end: 0,
        }
    }

    /// Make at least `n` unread bytes available; `unread()` then starts with them.
    pub fn fill(&mut self, n: usize) -> io::Result<()> {
        if self.start == self.end {
            // Everything read was consumed: reuse the front of the buffer, so a connection
            // keeps touching the same few pages instead of walking through the whole buffer.
            self.start = 0;
            self.end = 0;
        }
        while self.end - self.start < n {
            if self.start + n > self.buf.len() {
                self.buf.copy_within(self.start..self.end, 0);
                self.end -= self.start;
                self.start = 0;
                if n > self.buf.len() {
                    self.buf.resize(n.next_power_of_two(), 0);
                }
            }
            let read = self.stream.read(&mut self.buf[self.end..])?;
            if read == 0 {
                return Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "server closed the connection",
                ));
            }
            self.end += read;
        }
        Ok(())
    }

    /// The bytes read but not yet consumed.
    pub fn unread(&self) -> &[u8] {
        &self.buf[self.start..self.end]
    }

    /// Consume a header of `skip` bytes and the `len` bytes after it (both filled already),
    /// returning the latter.
    pub fn take(&mut self, skip: usize, len: usize) -> &[u8] {
        let at = self.start + skip;
        self.start = at + len;
        &self.buf[at..at + len]
    }
}
