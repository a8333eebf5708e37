//! MySQL's compressed protocol (CLIENT_COMPRESS, zlib), as a byte stream under a packet layer.
//!
//! Once the server has accepted the login, every byte in either direction travels inside
//! compressed packets: a 7-byte header (payload length, a sequence number of its own, the length
//! before compression or 0 when the payload was sent as is) and a zlib stream. Their payloads,
//! joined, are the ordinary packets, which may straddle compressed packets or share one; so this
//! layer hands the packet layer a plain byte stream and the framing above stays as it is.

use flate2::{Compress, Compression, Decompress, FlushCompress, FlushDecompress, Status};
use std::io::{self, Read, Write};

const HEADER: usize = 7;
/// The most a compressed packet carries, before or after compression (a 3-byte length).
const MAX_PAYLOAD: usize = 0xFF_FFFF;
/// Below this many bytes a payload goes uncompressed, as the MySQL and MariaDB clients do: zlib's
/// own header and checksum would outweigh what it saves.
const MIN_COMPRESS_LENGTH: usize = 50;

/// What compressed packets are read from and written to: a buffered stream that hands out
/// what it read in place (`stream::Buffered`). A trait, so this layer names no stream type and
/// the stream can hold a `Zlib` of itself.
pub trait PacketSource {
    /// Make at least `n` unread bytes available.
    fn fill(&mut self, n: usize) -> io::Result<()>;
    fn unread(&self) -> &[u8];
    /// Consume a header of `skip` bytes and the `len` bytes after it, returning the latter.
    fn take(&mut self, skip: usize, len: usize) -> &[u8];
    fn write_all(&mut self, bytes: &[u8]) -> io::Result<()>;
    fn flush(&mut self) -> io::Result<()>;
}

pub struct Zlib<S> {
    inner: S,
    /// Decompressed bytes not yet handed up, from `pos`.
    inflated: Vec<u8>,
    pos: usize,
    /// The compressed packets' own sequence number: starts again at 0 with each command.
    pub seq: u8,
    deflater: Compress,
    inflater: Decompress,
    out: Vec<u8>,
}

impl<S: PacketSource> Zlib<S> {
    pub fn new(inner: S) -> Zlib<S> {
        Zlib {
            inner,
            inflated: Vec::with_capacity(16 * 1024),
            pos: 0,
            seq: 0,
            // zlib's default level, as the MySQL and MariaDB clients use.
            deflater: Compress::new(Compression::default(), true),
            inflater: Decompress::new(true),
            out: Vec::with_capacity(1024),
        }
    }

    /// The stream the compressed packets travel on.
    pub fn inner(&self) -> &S {
        &self.inner
    }

    /// Read the next compressed packet into `inflated`.
    fn read_packet(&mut self) -> io::Result<()> {
        self.inner.fill(HEADER)?;
        let h = &self.inner.unread()[..HEADER];
        let len = u24(&h[0..3]);
        let original = u24(&h[4..7]);
        self.seq = h[3].wrapping_add(1);
        self.inner.fill(HEADER + len)?;
        let payload = self.inner.take(HEADER, len);
        self.inflated.clear();
        self.pos = 0;
        if original == 0 {
            self.inflated.extend_from_slice(payload);
            return Ok(());
        }
        self.inflated.reserve(original);
        self.inflater.reset(true);
        let status = self
            .inflater
            .decompress_vec(payload, &mut self.inflated, FlushDecompress::Finish)
            .map_err(|e| bad_data(format!("a compressed packet does not inflate: {e}")))?;
        if status != Status::StreamEnd || self.inflated.len() != original {
            return Err(bad_data(format!(
                "a compressed packet inflated to {} bytes, its header says {original}",
                self.inflated.len()
            )));
        }
        Ok(())
    }
}

fn u24(b: &[u8]) -> usize {
    usize::from(b[0]) | usize::from(b[1]) << 8 | usize::from(b[2]) << 16
}

fn put_u24(out: &mut [u8], v: usize) {
    out.copy_from_slice(&(v as u32).to_le_bytes()[..3]);
}

fn bad_data(msg: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, msg)
}

impl<S: PacketSource> Read for Zlib<S> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.pos == self.inflated.len() {
            self.read_packet()?;
        }
        let n = buf.len().min(self.inflated.len() - self.pos);
        buf[..n].copy_from_slice(&self.inflated[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

impl<S: PacketSource> Write for Zlib<S> {
    /// One compressed packet per call, of at most 16 MiB of `buf`.
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = buf.len().min(MAX_PAYLOAD);
        let data = &buf[..n];
        self.out.clear();
        self.out.extend_from_slice(&[0; HEADER]);
        let mut original = 0;
        if n >= MIN_COMPRESS_LENGTH {
            // Deflate's worst case is a few bytes per 16 KiB block over the input.
            self.out.reserve(n + n / 1000 + 64);
            self.deflater.reset();
            let status = self
                .deflater
                .compress_vec(data, &mut self.out, FlushCompress::Finish)
                .map_err(io::Error::other)?;
            let compressed = self.out.len() - HEADER;
            if status == Status::StreamEnd && compressed < n {
                original = n;
            } else {
                // Incompressible: sent as is, as the MySQL client does.
                self.out.truncate(HEADER);
            }
        }
        if original == 0 {
            self.out.extend_from_slice(data);
        }
        let len = self.out.len() - HEADER;
        put_u24(&mut self.out[0..3], len);
        self.out[3] = self.seq;
        put_u24(&mut self.out[4..7], original);
        self.seq = self.seq.wrapping_add(1);
        self.inner.write_all(&self.out)?;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stream::{Buffered, Stream};
    use std::os::unix::net::UnixStream;

    fn pair() -> (Zlib<Buffered>, Zlib<Buffered>) {
        let (a, b) = UnixStream::pair().unwrap();
        (
            Zlib::new(Buffered::new(Stream::from(a))),
            Zlib::new(Buffered::new(Stream::from(b))),
        )
    }

    #[test]
    fn small_payloads_go_as_is_and_large_ones_compressed() {
        let (mut a, b) = pair();
        let Stream::Unix(raw) = b.inner.stream else {
            unreachable!()
        };
        let mut raw = raw.sock;
        a.write_all(b"\x03SELECT 1").unwrap();
        let mut h = [0u8; HEADER + 9];
        raw.read_exact(&mut h).unwrap();
        assert_eq!(&h[..HEADER], &[9, 0, 0, 0, 0, 0, 0]);
        assert_eq!(&h[HEADER..], b"\x03SELECT 1");

        let big = vec![b'7'; 1000];
        a.write_all(&big).unwrap();
        let mut h = [0u8; HEADER];
        raw.read_exact(&mut h).unwrap();
        let len = u24(&h[0..3]);
        assert!(len < 100, "1000 equal bytes compress to {len}");
        assert_eq!(h[3], 1, "the sequence number goes on");
        assert_eq!(u24(&h[4..7]), 1000);
    }

    #[test]
    fn bytes_come_back_whole_across_packets_and_reads() {
        let (mut a, mut b) = pair();
        let text: Vec<u8> = (0..200_000u32)
            .flat_map(|i| (i % 251).to_le_bytes())
            .collect();
        let writer = std::thread::spawn(move || {
            a.write_all(b"short").unwrap();
            a.write_all(&text).unwrap();
            text
        });
        let mut got = vec![0u8; 5 + 800_000];
        b.read_exact(&mut got).unwrap();
        let text = writer.join().unwrap();
        assert_eq!(&got[..5], b"short");
        assert!(got[5..] == text[..]);
        assert_eq!(
            b.seq, 2,
            "two packets read, the next one sent is numbered 2"
        );
    }
}
