//! A blocking byte stream to a server, over TCP (plain or TLS) or a Unix socket, for dbpress's
//! own protocol clients.

use crate::zlib::{PacketSource, Zlib};
use rustls::pki_types::ServerName;
use rustls::{ClientConfig, ClientConnection, StreamOwned};
use std::io::{self, Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::num::NonZeroU64;
use std::os::fd::{AsRawFd, RawFd};
use std::os::unix::net::UnixStream;
use std::sync::Arc;
use std::time::Duration;

pub enum Stream {
    Tcp(Tcp),
    Unix(Unix),
    /// TLS over TCP through rustls: records are read and written on the same `Tcp`.
    Tls(Box<StreamOwned<ClientConnection, Tcp>>),
    /// MySQL's compressed protocol over one of the others.
    Zlib(Box<Zlib<Buffered>>),
}

impl Stream {
    /// Bound each read and write on the socket underneath (under TLS and compression too) by
    /// `limit`; None removes the bound. A read or write that waits longer fails, and
    /// `timed_out` says so. A session's handshake runs under its connect timeout this way.
    pub fn set_io_timeout(&self, limit: Option<Duration>) -> io::Result<()> {
        let tv = match limit {
            // A zero timeval would mean "no limit" to the kernel: the smallest real one instead.
            Some(d) => libc::timeval {
                tv_sec: d.as_secs() as libc::time_t,
                tv_usec: d.subsec_micros().max(u32::from(d.is_zero())) as libc::suseconds_t,
            },
            None => libc::timeval {
                tv_sec: 0,
                tv_usec: 0,
            },
        };
        if let Stream::Unix(u) = self {
            // Its reads wait in ppoll, which SO_RCVTIMEO does not bound: the wait takes it.
            u.wait_limit.set(
                limit.map(|d| NonZeroU64::new(d.as_nanos() as u64).unwrap_or(NonZeroU64::MIN)),
            );
        }
        for opt in [libc::SO_RCVTIMEO, libc::SO_SNDTIMEO] {
            // SAFETY: setsockopt on our own socket with a timeval of the size given.
            let r = unsafe {
                libc::setsockopt(
                    self.raw_fd(),
                    libc::SOL_SOCKET,
                    opt,
                    (&tv as *const libc::timeval).cast(),
                    std::mem::size_of::<libc::timeval>() as libc::socklen_t,
                )
            };
            if r != 0 {
                return Err(io::Error::last_os_error());
            }
        }
        Ok(())
    }

    /// The socket underneath (under TLS too).
    pub fn raw_fd(&self) -> RawFd {
        match self {
            Stream::Tcp(t) => t.0.as_raw_fd(),
            Stream::Unix(s) => s.sock.as_raw_fd(),
            Stream::Tls(t) => t.sock.0.as_raw_fd(),
            Stream::Zlib(z) => z.inner().stream.raw_fd(),
        }
    }
}

/// A TCP connection read and written with the plain system calls below.
pub struct Tcp(pub TcpStream);

/// A Unix socket connection read and written with the plain system calls below.
pub struct Unix {
    pub sock: UnixStream,
    /// `set_io_timeout`'s bound on each wait for data, in ns; None: no bound. Eight bytes
    /// read per `read` (a timespec here cost a point select ~1% more client instructions).
    wait_limit: std::cell::Cell<Option<NonZeroU64>>,
}

impl From<UnixStream> for Stream {
    fn from(sock: UnixStream) -> Stream {
        Stream::Unix(Unix {
            sock,
            wait_limit: std::cell::Cell::new(None),
        })
    }
}

/// Connect over TCP to the first address of `host:port` that answers within `limit` (a
/// silently dropped SYN would otherwise hang for minutes; None leaves it to the system), with
/// Nagle off: a protocol client sends whole requests and waits for the answer. The error is
/// the reason, for the caller to say where it was going.
pub fn tcp_connect(host: &str, port: u16, limit: Option<Duration>) -> Result<Tcp, String> {
    let addrs = (host, port)
        .to_socket_addrs()
        .map_err(|e| format!("cannot resolve '{host}': {e}"))?;
    let mut last = String::from("no address");
    for a in addrs {
        let tried = match limit {
            Some(limit) => TcpStream::connect_timeout(&a, limit),
            None => TcpStream::connect(a),
        };
        match tried {
            Ok(s) => {
                let _ = s.set_nodelay(true);
                return Ok(Tcp(s));
            }
            Err(e) if timed_out(&e) => {
                last = format!(
                    "no answer within {} (the connect timeout)",
                    seconds(limit.unwrap_or_default())
                )
            }
            Err(e) => last = e.to_string(),
        }
    }
    Err(last)
}

/// Whether an I/O error is a time limit running out (a connect timeout, or a read or write
/// past `Stream::set_io_timeout`'s limit).
pub fn timed_out(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
    )
}

/// A duration as the messages say it: "10 s", "2.5 s".
pub fn seconds(d: Duration) -> String {
    format!("{} s", d.as_secs_f64())
}

/// Run a TLS handshake on `tcp` as a client of `host` (the name certificates are checked
/// against, when the configuration checks them). The error is rustls's reason.
pub fn tls_handshake(tcp: Tcp, config: Arc<ClientConfig>, host: &str) -> io::Result<Stream> {
    let name = ServerName::try_from(host.to_string()).map_err(|_| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("'{host}' is neither a host name nor an address TLS can check"),
        )
    })?;
    let conn = ClientConnection::new(config, name).map_err(io::Error::other)?;
    let mut tls = StreamOwned::new(conn, tcp);
    while tls.conn.is_handshaking() {
        tls.conn.complete_io(&mut tls.sock)?;
    }
    Ok(Stream::Tls(Box::new(tls)))
}

impl Read for Tcp {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            match sys_recv(self.0.as_raw_fd(), buf, 0) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                r => return r,
            }
        }
    }
}

impl Write for Tcp {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        sys_send(self.0.as_raw_fd(), buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Read for Stream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Stream::Tcp(s) => s.read(buf),
            Stream::Unix(s) => read_unix(s.sock.as_raw_fd(), buf, s.wait_limit.get()),
            Stream::Tls(s) => s.read(buf),
            Stream::Zlib(z) => z.read(buf),
        }
    }
}

// The system calls themselves rather than glibc's `recv`/`send`/`poll`: those are pthread
// cancellation points, and their wrappers switch asynchronous cancellation on and off around
// every call (~90 instructions per query under callgrind, a tenth of a point select's client
// cost). dbpress never cancels a thread, so it has nothing to gain from them.

fn sys_result(r: libc::c_long) -> io::Result<usize> {
    if r < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(r as usize)
    }
}

fn sys_recv(fd: RawFd, buf: &mut [u8], flags: libc::c_int) -> io::Result<usize> {
    let null = std::ptr::null_mut::<libc::c_void>();
    // SAFETY: `buf` is a valid writable region of `buf.len()` bytes; no source address asked.
    sys_result(unsafe {
        libc::syscall(
            libc::SYS_recvfrom,
            fd,
            buf.as_mut_ptr(),
            buf.len(),
            flags,
            null,
            null,
        )
    })
}

fn sys_send(fd: RawFd, buf: &[u8]) -> io::Result<usize> {
    let null = std::ptr::null::<libc::c_void>();
    // SAFETY: `buf` is a valid readable region of `buf.len()` bytes; no destination address.
    // MSG_NOSIGNAL: a closed peer is an EPIPE error, never a SIGPIPE.
    sys_result(unsafe {
        libc::syscall(
            libc::SYS_sendto,
            fd,
            buf.as_ptr(),
            buf.len(),
            libc::MSG_NOSIGNAL,
            null,
            0usize,
        )
    })
}

/// Wait until `fd` is readable (or hung up, or in error), at most `limit` (None: no limit).
/// Ok(false): the limit ran out first.
fn sys_wait_readable(fd: RawFd, limit: Option<&libc::timespec>) -> io::Result<bool> {
    let mut pfd = libc::pollfd {
        fd,
        events: libc::POLLIN,
        revents: 0,
    };
    let null = std::ptr::null::<libc::c_void>();
    let limit = limit.map_or(std::ptr::null(), |t| t as *const libc::timespec);
    // SAFETY: one valid pollfd; a valid timespec or none (ppoll's form of poll's -1), and no
    // signal mask.
    sys_result(unsafe {
        libc::syscall(
            libc::SYS_ppoll,
            &mut pfd as *mut libc::pollfd,
            1 as libc::c_ulong,
            limit,
            null,
            0usize,
        )
    })
    .map(|ready| ready > 0)
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
///
/// `limit` bounds each wait (the handshake's connect timeout): past it the read fails as a
/// timed-out `recv` would (`timed_out`).
fn read_unix(fd: RawFd, buf: &mut [u8], limit_ns: Option<NonZeroU64>) -> io::Result<usize> {
    let limit = limit_ns.map(|ns| libc::timespec {
        tv_sec: (ns.get() / 1_000_000_000) as libc::time_t,
        tv_nsec: (ns.get() % 1_000_000_000) as libc::c_long,
    });
    loop {
        match sys_wait_readable(fd, limit.as_ref()) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
            Ok(false) => return Err(io::ErrorKind::WouldBlock.into()),
            Ok(true) => {}
        }
        // Readable, hung up or in error: this recv returns the data, 0 or the error.
        match sys_recv(fd, buf, libc::MSG_DONTWAIT) {
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted
                ) => {}
            r => return r,
        }
    }
}

impl Write for Stream {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Stream::Tcp(s) => s.write(buf),
            Stream::Unix(s) => sys_send(s.sock.as_raw_fd(), buf),
            Stream::Tls(s) => s.write(buf),
            Stream::Zlib(z) => z.write(buf),
        }
    }
    /// Plain streams send in `write`; TLS may still hold encrypted records to send.
    fn flush(&mut self) -> io::Result<()> {
        match self {
            Stream::Tls(s) => s.flush(),
            Stream::Zlib(z) => z.flush(),
            _ => Ok(()),
        }
    }
}

/// A connection's first read buffer: what a point select's response needs. A read that fills
/// it doubles it, up to `READ_BUF_STEADY`, so connections that fetch rows read as many per call
/// as before; one that never does keeps 12 KiB less (12 MB at 1 000 connections).
const READ_BUF_START: usize = 4 * 1024;
/// Where a busy connection's buffer stops growing on full reads: most responses of an OLTP
/// event fit in 16 KiB (libmariadb's net buffer is as large). A message larger still grows it.
const READ_BUF_STEADY: usize = 16 * 1024;

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
            buf: vec![0; READ_BUF_START],
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
            if self.end == self.buf.len() && self.buf.len() < READ_BUF_STEADY {
                self.grow_on_full_read();
            }
        }
        Ok(())
    }

    /// A read filled the buffer: more is likely waiting, so the next reads take more at once.
    #[cold]
    fn grow_on_full_read(&mut self) {
        let len = (self.buf.len() * 2).min(READ_BUF_STEADY);
        self.buf.resize(len, 0);
    }

    /// The stream back, for a TLS handshake on it. Bytes already read would have come before
    /// the handshake in plain text, unauthenticated: refused, as libpq refuses them.
    pub fn into_stream(self) -> io::Result<Stream> {
        if self.start != self.end {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "the server sent unencrypted data after agreeing to TLS",
            ));
        }
        Ok(self.stream)
    }

    /// The bytes read but not yet consumed.
    // Inline (here and in `take`): the protocol clients in other crates call both once per
    // message, rows included; as calls they cost ~7% of an oltp_read_write event's instructions.
    #[inline]
    pub fn unread(&self) -> &[u8] {
        &self.buf[self.start..self.end]
    }

    /// Consume a header of `skip` bytes and the `len` bytes after it (both filled already),
    /// returning the latter.
    #[inline]
    pub fn take(&mut self, skip: usize, len: usize) -> &[u8] {
        let at = self.start + skip;
        self.start = at + len;
        &self.buf[at..at + len]
    }
}

impl PacketSource for Buffered {
    fn fill(&mut self, n: usize) -> io::Result<()> {
        Buffered::fill(self, n)
    }
    fn unread(&self) -> &[u8] {
        Buffered::unread(self)
    }
    fn take(&mut self, skip: usize, len: usize) -> &[u8] {
        Buffered::take(self, skip, len)
    }
    fn write_all(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.stream.write_all(bytes)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.stream.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 48: a server that says nothing over a Unix socket (stopped, hung) must not hold a
    /// handshake or a probe past its time limit, as over TCP.
    #[test]
    fn issue_48_a_unix_socket_read_gives_up_at_the_io_timeout() {
        let (a, mut silent) = UnixStream::pair().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        // On a thread of its own, so that a read that ignores the limit fails the test (after
        // a bound far past the limit) instead of hanging it.
        std::thread::spawn(move || {
            let mut s = Stream::from(a);
            s.set_io_timeout(Some(Duration::from_millis(50))).unwrap();
            let mut buf = [0u8; 4];
            let timed = s.read(&mut buf).map_err(|e| timed_out(&e));
            let _ = tx.send(timed);
            // No limit again: data that is there is read as before.
            s.set_io_timeout(None).unwrap();
            let _ = tx.send(s.read(&mut buf).map_err(|e| timed_out(&e)));
        });
        let first = rx.recv_timeout(Duration::from_secs(30));
        assert_eq!(
            first,
            Ok(Err(true)),
            "the read did not give up at its limit"
        );
        silent.write_all(b"ok").unwrap();
        assert_eq!(rx.recv_timeout(Duration::from_secs(30)), Ok(Ok(2)));
    }

    /// Issue 41 (memory at 1 000 threads): a connection that only ever reads small responses
    /// keeps its small buffer; one whose reads fill it gets the steady size, and a message
    /// larger than that still arrives whole.
    #[test]
    fn issue_41_the_read_buffer_grows_only_on_full_reads() {
        let (a, mut server) = UnixStream::pair().unwrap();
        let mut r = Buffered::new(Stream::from(a));
        server.write_all(&[7u8; 100]).unwrap();
        r.fill(100).unwrap();
        r.take(0, 100);
        assert_eq!(
            r.buf.len(),
            READ_BUF_START,
            "a small response grew the buffer"
        );

        let big = vec![9u8; 3 * READ_BUF_STEADY];
        let writer = std::thread::spawn(move || server.write_all(&big).map(|_| server));
        r.fill(READ_BUF_STEADY / 2).unwrap();
        assert!(
            r.buf.len() > READ_BUF_START,
            "a full read did not grow the buffer"
        );
        assert!(r.buf.len() <= READ_BUF_STEADY);
        r.fill(3 * READ_BUF_STEADY).unwrap();
        assert!(r.unread().iter().take(3 * READ_BUF_STEADY).all(|&b| b == 9));
        assert_eq!(r.unread().len(), 3 * READ_BUF_STEADY);
        writer.join().unwrap().unwrap();
    }
}
