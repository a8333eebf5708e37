//! The server's first packet (Protocol::HandshakeV10), read field by field: what the server is,
//! what it offers, and the scramble the login answers.

use crate::caps::{CLIENT_LONG_PASSWORD, CLIENT_PLUGIN_AUTH, CLIENT_SECURE_CONNECTION};

/// Why a first packet is no greeting this client takes.
#[derive(Debug, PartialEq, Eq)]
pub enum BadGreeting {
    /// An ERR packet in its place (1040 too many connections, 1130 host not allowed).
    Refused,
    /// Another handshake protocol than 10: one this client does not speak.
    Protocol(Option<u8>),
    /// A field runs past the packet's end.
    Malformed,
}

/// A server's greeting, decoded.
#[derive(Debug, PartialEq, Eq)]
pub struct Greeting {
    /// "8.0.36", or MariaDB's "5.5.5-10.11.19-MariaDB-…" (the prefix kept old clients working).
    pub server_version: Vec<u8>,
    pub connection_id: u32,
    /// The two parts of the auth plugin's data joined, without the trailing NUL.
    pub scramble: Vec<u8>,
    /// The capability flags, both halves.
    pub server_caps: u32,
    /// MariaDB's third capability word; 0 from MySQL.
    pub server_ext_caps: u32,
    /// The auth plugin the server starts with.
    pub plugin: Vec<u8>,
}

/// The reading position in a packet; a field that runs past its end is a malformed handshake.
struct Fields<'a> {
    p: &'a [u8],
    at: usize,
}

impl<'a> Fields<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], BadGreeting> {
        let b = self
            .p
            .get(self.at..self.at + n)
            .ok_or(BadGreeting::Malformed)?;
        self.at += n;
        Ok(b)
    }
    fn u8(&mut self) -> Result<u8, BadGreeting> {
        Ok(self.take(1)?[0])
    }
    fn u16(&mut self) -> Result<u16, BadGreeting> {
        let b = self.take(2)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }
    fn u32(&mut self) -> Result<u32, BadGreeting> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn cstr(&mut self) -> Option<Vec<u8>> {
        crate::packet::cstr(self.p, &mut self.at)
    }
    fn more(&self) -> bool {
        self.p.len() > self.at
    }
}

impl Greeting {
    /// Decode `p`.
    pub fn parse(p: &[u8]) -> Result<Greeting, BadGreeting> {
        match p.first() {
            Some(0xFF) => return Err(BadGreeting::Refused),
            Some(10) => {}
            other => return Err(BadGreeting::Protocol(other.copied())),
        }
        let mut f = Fields { p, at: 1 };
        let server_version = f.cstr().ok_or(BadGreeting::Malformed)?; // string<NUL>
        let connection_id = f.u32().unwrap_or(0); // int<4>
        let mut scramble = f.take(8)?.to_vec(); // string[8] auth-plugin-data-part-1
        f.take(1)?; // int<1> filler
        let mut server_caps = u32::from(f.u16()?); // int<2> capability flags, lower
        let mut g = Greeting {
            server_version,
            connection_id,
            scramble: Vec::new(),
            server_caps: 0,
            server_ext_caps: 0,
            plugin: b"mysql_native_password".to_vec(),
        };
        if f.more() {
            f.take(1 + 2)?; // int<1> character set, int<2> status flags
            server_caps |= u32::from(f.u16()?) << 16; // int<2> capability flags, upper
            let auth_len = usize::from(f.u8()?); // int<1> auth-plugin-data length
            let reserved = f.take(10)?; // string[10]: 6 reserved, then MariaDB's int<4>
                                        // MariaDB announces itself by clearing CLIENT_MYSQL (= CLIENT_LONG_PASSWORD) and
                                        // puts a third capability word in the last 4 of the 10 reserved bytes.
            if server_caps & CLIENT_LONG_PASSWORD == 0 {
                g.server_ext_caps = u32::from_le_bytes(reserved[6..10].try_into().unwrap());
            }
            if server_caps & CLIENT_SECURE_CONNECTION != 0 {
                // string[max(13, len - 8)] auth-plugin-data-part-2, NUL-terminated.
                let n = auth_len.saturating_sub(8).max(13);
                scramble.extend_from_slice(&f.take(n)?[..n - 1]);
            }
            if server_caps & CLIENT_PLUGIN_AUTH != 0 {
                if let Some(name) = f.cstr() {
                    g.plugin = name; // string<NUL> auth plugin name
                }
            }
        }
        g.scramble = scramble;
        g.server_caps = server_caps;
        Ok(g)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The greeting MariaDB 10.11.19 (Debian 12's) sent on its socket here, recorded byte for
    /// byte (the packet's payload, after its 4-byte header `64 00 00 00`).
    const MARIADB_10_11: &str = "0a352e352e352d31302e31312e31392d4d6172696144422d302b6465623132\
        753100fd0500003c47315b5a2f7c4600feff2d0200ff81150000000000001d0000002833672f512a7d5b2e71\
        705f006d7973716c5f6e61746976655f70617373776f726400";

    fn bytes(hex: &str) -> Vec<u8> {
        (0..hex.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
            .collect()
    }

    #[test]
    fn a_recorded_mariadb_greeting_decodes_field_by_field() {
        let g = Greeting::parse(&bytes(MARIADB_10_11)).unwrap();
        assert_eq!(
            g,
            Greeting {
                server_version: b"5.5.5-10.11.19-MariaDB-0+deb12u1".to_vec(),
                connection_id: 0x05fd,
                scramble: b"<G1[Z/|F(3g/Q*}[.qp_".to_vec(),
                server_caps: 0x81ff_fffe,
                server_ext_caps: 0x1d,
                plugin: b"mysql_native_password".to_vec(),
            }
        );
    }

    #[test]
    fn a_cut_greeting_is_malformed_and_an_err_packet_is_a_refusal() {
        let whole = bytes(MARIADB_10_11);
        for cut in [5, 40, 60] {
            assert_eq!(
                Greeting::parse(&whole[..cut]),
                Err(BadGreeting::Malformed),
                "cut at {cut}"
            );
        }
        let too_many = b"\xff\x10\x04#08004Too many connections";
        assert_eq!(Greeting::parse(too_many), Err(BadGreeting::Refused));
        assert_eq!(
            Greeting::parse(b"\x09old"),
            Err(BadGreeting::Protocol(Some(9)))
        );
    }
}
