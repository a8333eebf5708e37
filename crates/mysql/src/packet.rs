//! MySQL packet framing over a blocking stream, with one reusable read buffer so that rows are
//! skipped in place: reading a result costs a header parse per row, no allocation.

pub use dbpress_net::Stream;
use dbpress_net::{tls_handshake, Buffered};
use rustls::ClientConfig;
use std::io::{self, Write};
/// A result column as the binary protocol encodes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ColumnType {
    pub code: u8,
    pub unsigned: bool,
}

const UNSIGNED_FLAG: u16 = 0x20;

/// The type of a column definition packet (Protocol::ColumnDefinition41): six length-encoded
/// strings, the fixed fields' length, then charset (2), length (4), type (1), flags (2).
pub fn column_type(p: &[u8]) -> Option<ColumnType> {
    let mut at = 0;
    for _ in 0..6 {
        let n = lenenc(p, &mut at)? as usize;
        at += n;
    }
    lenenc(p, &mut at)?;
    let code = *p.get(at + 6)?;
    let flags = u16::from_le_bytes([*p.get(at + 7)?, *p.get(at + 8)?]);
    Some(ColumnType {
        code,
        unsigned: flags & UNSIGNED_FLAG != 0,
    })
}

/// A NUL-terminated string at `at` (or the rest of `p`, where the NUL is missing), moving `at`
/// past it.
pub fn cstr(p: &[u8], at: &mut usize) -> Option<Vec<u8>> {
    let rest = p.get(*at..)?;
    let end = rest.iter().position(|&b| b == 0).unwrap_or(rest.len());
    *at += end + 1;
    Some(rest[..end].to_vec())
}

#[cfg(test)]
use std::os::unix::net::UnixStream;
use std::sync::Arc;

const MAX_CHUNK: usize = 0xFF_FFFF;

pub struct PacketIo {
    r: Buffered,
    /// A payload split over several packets (≥ 16 MiB) is joined here.
    joined: Vec<u8>,
    pub seq: u8,
    out: Vec<u8>,
}

impl PacketIo {
    pub fn raw_fd(&self) -> std::os::fd::RawFd {
        self.r.stream.raw_fd()
    }

    /// Bound each read and write by `limit` (None: no bound), as `Stream::set_io_timeout`.
    pub fn set_io_timeout(&self, limit: Option<std::time::Duration>) -> std::io::Result<()> {
        self.r.stream.set_io_timeout(limit)
    }

    pub fn new(stream: Stream) -> PacketIo {
        PacketIo {
            r: Buffered::new(stream),
            joined: Vec::new(),
            seq: 0,
            out: Vec::with_capacity(1024),
        }
    }

    /// The same exchange continued over TLS: the handshake runs on the TCP stream, and the
    /// sequence number carries on (the client's next packet follows its SSLRequest).
    pub fn start_tls(self, config: Arc<ClientConfig>, host: &str) -> io::Result<PacketIo> {
        let Stream::Tcp(tcp) = self.r.into_stream()? else {
            return Err(io::Error::other("TLS is negotiated over TCP only"));
        };
        Ok(PacketIo {
            r: Buffered::new(tls_handshake(tcp, config, host)?),
            joined: self.joined,
            seq: self.seq,
            out: self.out,
        })
    }

    /// The next packet's payload, valid until the next call.
    pub fn next(&mut self) -> io::Result<&[u8]> {
        self.r.fill(4)?;
        let h = &self.r.unread()[..4];
        let len = usize::from(h[0]) | usize::from(h[1]) << 8 | usize::from(h[2]) << 16;
        self.seq = h[3].wrapping_add(1);
        if len == MAX_CHUNK {
            return self.next_joined();
        }
        self.r.fill(4 + len)?;
        Ok(self.r.take(4, len))
    }

    fn next_joined(&mut self) -> io::Result<&[u8]> {
        let mut joined = std::mem::take(&mut self.joined);
        joined.clear();
        loop {
            self.r.fill(4)?;
            let h = &self.r.unread()[..4];
            let len = usize::from(h[0]) | usize::from(h[1]) << 8 | usize::from(h[2]) << 16;
            self.seq = h[3].wrapping_add(1);
            self.r.fill(4 + len)?;
            joined.extend_from_slice(self.r.take(4, len));
            if len < MAX_CHUNK {
                break;
            }
        }
        self.joined = joined;
        Ok(&self.joined)
    }

    /// From here on, every byte in both directions travels in compressed packets. Bytes already
    /// read stay where they are, under the new layer.
    pub fn start_compression(self) -> PacketIo {
        let zlib = dbpress_net::zlib::Zlib::new(self.r);
        PacketIo {
            r: Buffered::new(Stream::Zlib(Box::new(zlib))),
            joined: self.joined,
            seq: self.seq,
            out: self.out,
        }
    }

    /// Begin a command packet (sequence 0); write its payload into the returned buffer.
    pub fn begin_command(&mut self) -> &mut Vec<u8> {
        self.seq = 0;
        if let Stream::Zlib(z) = &mut self.r.stream {
            z.seq = 0;
        }
        self.begin()
    }

    /// Begin a packet that continues the current exchange (handshake and auth).
    pub fn begin(&mut self) -> &mut Vec<u8> {
        self.out.clear();
        self.out.extend_from_slice(&[0, 0, 0, 0]);
        &mut self.out
    }

    /// Frame and send what was written since `begin`.
    pub fn send(&mut self) -> io::Result<()> {
        let payload_len = self.out.len() - 4;
        if payload_len < MAX_CHUNK {
            let h = (payload_len as u32).to_le_bytes();
            self.out[..3].copy_from_slice(&h[..3]);
            self.out[3] = self.seq;
            self.seq = self.seq.wrapping_add(1);
            self.r.stream.write_all(&self.out)?;
            return self.r.stream.flush();
        }
        // Split into 16 MiB chunks, ending with a shorter (possibly empty) one.
        let payload = self.out.split_off(4);
        let mut chunks = payload.chunks(MAX_CHUNK).peekable();
        let mut last_len = 0;
        while let Some(c) = chunks.next() {
            self.write_chunk(c)?;
            last_len = c.len();
            if chunks.peek().is_none() && last_len == MAX_CHUNK {
                self.write_chunk(&[])?;
            }
        }
        let _ = last_len;
        self.r.stream.flush()
    }

    fn write_chunk(&mut self, c: &[u8]) -> io::Result<()> {
        let h = (c.len() as u32).to_le_bytes();
        self.r.stream.write_all(&[h[0], h[1], h[2], self.seq])?;
        self.seq = self.seq.wrapping_add(1);
        self.r.stream.write_all(c)
    }
}

/// Read a length-encoded integer from `p` at `*at`.
pub fn lenenc(p: &[u8], at: &mut usize) -> Option<u64> {
    let first = *p.get(*at)?;
    let (v, n) = match first {
        0..=0xFA => (u64::from(first), 1),
        0xFC => (
            u64::from(u16::from_le_bytes(
                p.get(*at + 1..*at + 3)?.try_into().ok()?,
            )),
            3,
        ),
        0xFD => {
            let b = p.get(*at + 1..*at + 4)?;
            (
                u64::from(b[0]) | u64::from(b[1]) << 8 | u64::from(b[2]) << 16,
                4,
            )
        }
        0xFE => (
            u64::from_le_bytes(p.get(*at + 1..*at + 9)?.try_into().ok()?),
            9,
        ),
        _ => return None,
    };
    *at += n;
    Some(v)
}

pub fn put_lenenc(out: &mut Vec<u8>, v: u64) {
    match v {
        0..=0xFA => out.push(v as u8),
        0xFB..=0xFFFF => {
            out.push(0xFC);
            out.extend_from_slice(&(v as u16).to_le_bytes());
        }
        0x1_0000..=0xFF_FFFF => {
            out.push(0xFD);
            out.extend_from_slice(&(v as u32).to_le_bytes()[..3]);
        }
        _ => {
            out.push(0xFE);
            out.extend_from_slice(&v.to_le_bytes());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lenenc_round_trips_at_every_width() {
        for v in [
            0u64,
            250,
            251,
            65535,
            65536,
            0xFF_FFFF,
            0x100_0000,
            u64::MAX,
        ] {
            let mut b = Vec::new();
            put_lenenc(&mut b, v);
            let mut at = 0;
            assert_eq!(lenenc(&b, &mut at), Some(v));
            assert_eq!(at, b.len());
        }
        assert_eq!(
            lenenc(&[0xFC, 1], &mut 0),
            None,
            "truncated input is refused"
        );
    }

    #[test]
    fn packets_split_and_join_across_16_mib() {
        let (a, b) = UnixStream::pair().unwrap();
        let mut w = PacketIo::new(Stream::from(a));
        let mut r = PacketIo::new(Stream::from(b));
        let big: Vec<u8> = (0..MAX_CHUNK + 10).map(|i| i as u8).collect();
        let writer = std::thread::spawn(move || {
            w.begin_command().extend_from_slice(&big);
            w.send().unwrap();
            w.begin_command().extend_from_slice(b"tail");
            w.send().unwrap();
        });
        let got = r.next().unwrap().to_vec();
        assert_eq!(got.len(), MAX_CHUNK + 10);
        assert!(got.iter().enumerate().all(|(i, &v)| v == i as u8));
        assert_eq!(r.next().unwrap(), b"tail");
        writer.join().unwrap();
    }
}
