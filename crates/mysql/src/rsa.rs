//! RSA public-key encryption of a password, as caching_sha2_password's and sha256_password's
//! full authentication send it over a transport that is neither TLS nor a Unix socket.
//!
//! Why by hand: the exchange needs only the public half of RSA — parse the server's key,
//! pad, one modular exponentiation — and the crates it takes (num-bigint for the arithmetic,
//! pem for the armour, sha1 for OAEP, getrandom for the padding's randomness) are already
//! linked; the `rsa` crate would bring a second big-integer library for these ~100 lines.
//! Nothing secret is computed here: the message is the password the server is about to
//! learn anyway, so constant-time arithmetic is not needed.

use num_bigint::BigUint;
use sha1::{Digest as _, Sha1};

/// A server's RSA public key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PublicKey {
    n: BigUint,
    e: BigUint,
}

/// How the message is padded before encryption: OAEP (SHA-1, MGF1-SHA-1, empty label) by MySQL
/// 8.0.5 and later, PKCS #1 v1.5 by the servers before, as libmysqlclient chooses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Padding {
    Oaep,
    Pkcs1v15,
}

impl Padding {
    /// The padding a server of this version (its handshake's version string) decrypts.
    pub fn for_server(version: &str) -> Padding {
        let mut parts = version
            .split(|c: char| !c.is_ascii_digit())
            .map(|p| p.parse::<u32>().unwrap_or(0));
        let v = (
            parts.next().unwrap_or(0),
            parts.next().unwrap_or(0),
            parts.next().unwrap_or(0),
        );
        if v >= (8, 0, 5) {
            Padding::Oaep
        } else {
            Padding::Pkcs1v15
        }
    }
}

const SHA1_LEN: usize = 20;

impl PublicKey {
    /// A key in PEM: `BEGIN PUBLIC KEY` (X.509 SubjectPublicKeyInfo, what MySQL writes to
    /// public_key.pem and sends) or `BEGIN RSA PUBLIC KEY` (PKCS #1).
    pub fn from_pem(text: &[u8]) -> Result<PublicKey, String> {
        let block = pem::parse(text).map_err(|e| format!("not a PEM public key: {e}"))?;
        match block.tag() {
            "PUBLIC KEY" => Self::from_spki(block.contents()),
            "RSA PUBLIC KEY" => Self::from_pkcs1(block.contents()),
            other => Err(format!(
                "a PEM block of type '{other}', where an RSA public key (BEGIN PUBLIC KEY) was expected"
            )),
        }
    }

    fn from_spki(der: &[u8]) -> Result<PublicKey, String> {
        // SEQUENCE { SEQUENCE { OID rsaEncryption, NULL }, BIT STRING { RSAPublicKey } }
        const RSA_ENCRYPTION: &[u8] = &[0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x01, 0x01];
        let (info, _) = der_item(der, 0x30)?;
        let (algorithm, rest) = der_item(info, 0x30)?;
        let (oid, _) = der_item(algorithm, 0x06)?;
        if oid != RSA_ENCRYPTION {
            return Err("the public key is not an RSA key".into());
        }
        let (bits, _) = der_item(rest, 0x03)?;
        match bits.split_first() {
            Some((0, key)) => Self::from_pkcs1(key),
            _ => Err("malformed public key (bit string)".into()),
        }
    }

    fn from_pkcs1(der: &[u8]) -> Result<PublicKey, String> {
        let (key, _) = der_item(der, 0x30)?;
        let (n, rest) = der_item(key, 0x02)?;
        let (e, _) = der_item(rest, 0x02)?;
        let key = PublicKey {
            n: BigUint::from_bytes_be(n),
            e: BigUint::from_bytes_be(e),
        };
        if key.size() < 64 || key.e < BigUint::from(3u8) {
            return Err("the RSA public key is too small to be a server's".into());
        }
        Ok(key)
    }

    /// The modulus's length in bytes: the length of every ciphertext.
    pub fn size(&self) -> usize {
        (self.n.bits() as usize).div_ceil(8)
    }

    /// Encrypt `message` under this key with `padding`.
    pub fn encrypt(&self, message: &[u8], padding: Padding) -> Result<Vec<u8>, String> {
        let k = self.size();
        let encoded = match padding {
            Padding::Oaep => oaep_encode(message, k)?,
            Padding::Pkcs1v15 => pkcs1_encode(message, k)?,
        };
        let c = BigUint::from_bytes_be(&encoded).modpow(&self.e, &self.n);
        let bytes = c.to_bytes_be();
        let mut out = vec![0u8; k - bytes.len()];
        out.extend_from_slice(&bytes);
        Ok(out)
    }
}

/// One DER item of the expected tag: its contents and what follows it.
fn der_item(der: &[u8], tag: u8) -> Result<(&[u8], &[u8]), String> {
    let bad = || "malformed public key (DER)".to_string();
    let (&t, rest) = der.split_first().ok_or_else(bad)?;
    if t != tag {
        return Err(bad());
    }
    let (&first, rest) = rest.split_first().ok_or_else(bad)?;
    let (len, rest) = if first < 0x80 {
        (usize::from(first), rest)
    } else {
        let n = usize::from(first & 0x7F);
        if n == 0 || n > 4 || rest.len() < n {
            return Err(bad());
        }
        let len = rest[..n]
            .iter()
            .fold(0usize, |acc, &b| (acc << 8) | usize::from(b));
        (len, &rest[n..])
    };
    if rest.len() < len {
        return Err(bad());
    }
    Ok(rest.split_at(len))
}

fn random_bytes(buf: &mut [u8]) -> Result<(), String> {
    getrandom::fill(buf).map_err(|e| format!("no random numbers from the system: {e}"))
}

/// MGF1 with SHA-1: `len` bytes of SHA1(seed || counter) blocks.
fn mgf1(seed: &[u8], len: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(len + SHA1_LEN);
    let mut counter = 0u32;
    while out.len() < len {
        let mut h = Sha1::new();
        h.update(seed);
        h.update(counter.to_be_bytes());
        out.extend_from_slice(&h.finalize());
        counter += 1;
    }
    out.truncate(len);
    out
}

/// EME-OAEP encoding (RFC 8017 7.1.1) with SHA-1 and an empty label.
fn oaep_encode(message: &[u8], k: usize) -> Result<Vec<u8>, String> {
    if message.len() + 2 * SHA1_LEN + 2 > k {
        return Err(too_long(message.len(), k - 2 * SHA1_LEN - 2));
    }
    let mut db = Vec::with_capacity(k - SHA1_LEN - 1);
    db.extend_from_slice(&Sha1::digest(b""));
    db.resize(k - message.len() - SHA1_LEN - 2, 0);
    db.push(1);
    db.extend_from_slice(message);
    let mut seed = [0u8; SHA1_LEN];
    random_bytes(&mut seed)?;
    for (d, m) in db.iter_mut().zip(mgf1(&seed, k - SHA1_LEN - 1)) {
        *d ^= m;
    }
    for (s, m) in seed.iter_mut().zip(mgf1(&db, SHA1_LEN)) {
        *s ^= m;
    }
    let mut em = Vec::with_capacity(k);
    em.push(0);
    em.extend_from_slice(&seed);
    em.extend_from_slice(&db);
    Ok(em)
}

/// EME-PKCS1-v1_5 encoding (RFC 8017 7.2.1): 0x00 0x02, at least 8 non-zero random bytes, 0x00.
fn pkcs1_encode(message: &[u8], k: usize) -> Result<Vec<u8>, String> {
    if message.len() + 11 > k {
        return Err(too_long(message.len(), k - 11));
    }
    let mut ps = vec![0u8; k - message.len() - 3];
    random_bytes(&mut ps)?;
    for b in ps.iter_mut() {
        while *b == 0 {
            let mut one = [0u8; 1];
            random_bytes(&mut one)?;
            *b = one[0];
        }
    }
    let mut em = Vec::with_capacity(k);
    em.extend_from_slice(&[0, 2]);
    em.extend_from_slice(&ps);
    em.push(0);
    em.extend_from_slice(message);
    Ok(em)
}

fn too_long(len: usize, max: usize) -> String {
    format!(
        "the password is too long for the server's RSA key ({} bytes; at most {max} fit): use TLS or the Unix socket",
        len.saturating_sub(1)
    )
}

/// What full authentication encrypts: the password with its terminating NUL, each byte XORed
/// with the scramble's, the scramble repeated as needed.
pub fn obfuscate(password: &[u8], scramble: &[u8]) -> Vec<u8> {
    let mut m = password.to_vec();
    m.push(0);
    if !scramble.is_empty() {
        for (i, b) in m.iter_mut().enumerate() {
            *b ^= scramble[i % scramble.len()];
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 1024-bit test key's public half, made with `openssl genrsa 1024` for this test.
    const SPKI: &str = "-----BEGIN PUBLIC KEY-----
MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQCpi0v1AwwZuP2ztVE/2UgMIkiI
d4Q1IfYhAkdkDD222572pQA94T7Rd9PrlIXz3Gon2zGH8cvyaKnNX+mHu8nvis3Q
mf96cZgXnYKpa5RbVn//UX+UK4BlsVdVRy73aw4TazRVtzr1mRLlTTNyerTcv+t9
hisOo+q0DdlfckJQMwIDAQAB
-----END PUBLIC KEY-----";

    #[test]
    fn reads_an_spki_key_and_its_size() {
        let key = PublicKey::from_pem(SPKI.as_bytes()).unwrap();
        assert_eq!(key.size(), 128);
        assert_eq!(key.e, BigUint::from(65537u32));
    }

    #[test]
    fn refuses_what_is_not_an_rsa_public_key() {
        let e = PublicKey::from_pem(b"hello").unwrap_err();
        assert!(e.contains("not a PEM public key"), "{e}");
        let cert = "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n";
        let e = PublicKey::from_pem(cert.as_bytes()).unwrap_err();
        assert!(e.contains("CERTIFICATE"), "{e}");
    }

    #[test]
    fn ciphertexts_are_the_modulus_size_and_randomised() {
        let key = PublicKey::from_pem(SPKI.as_bytes()).unwrap();
        for padding in [Padding::Oaep, Padding::Pkcs1v15] {
            let a = key.encrypt(b"secret\0", padding).unwrap();
            let b = key.encrypt(b"secret\0", padding).unwrap();
            assert_eq!(a.len(), 128);
            assert_ne!(a, b, "padding must be random");
        }
        let e = key.encrypt(&[7u8; 100], Padding::Oaep).unwrap_err();
        assert!(e.contains("at most 86 fit"), "{e}");
    }

    #[test]
    fn padding_follows_the_server_version() {
        assert_eq!(Padding::for_server("8.0.36"), Padding::Oaep);
        assert_eq!(Padding::for_server("8.0.5-log"), Padding::Oaep);
        assert_eq!(Padding::for_server("8.0.4-rc"), Padding::Pkcs1v15);
        assert_eq!(Padding::for_server("5.7.44"), Padding::Pkcs1v15);
        assert_eq!(Padding::for_server("9.1.0"), Padding::Oaep);
    }

    #[test]
    fn obfuscation_repeats_the_scramble_and_keeps_the_nul() {
        let m = obfuscate(b"abc", b"\x01\x02");
        assert_eq!(m, vec![b'a' ^ 1, b'b' ^ 2, b'c' ^ 1, 2]);
    }
}
