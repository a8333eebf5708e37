//! Password scrambles of the MySQL authentication plugins dbpress speaks itself.

use sha1::{Digest as _, Sha1};
use sha2::Sha256;

/// mysql_native_password: SHA1(pw) XOR SHA1(scramble + SHA1(SHA1(pw))).
pub fn native_password(password: &[u8], scramble: &[u8]) -> Vec<u8> {
    if password.is_empty() {
        return Vec::new();
    }
    let stage1 = Sha1::digest(password);
    let stage2 = Sha1::digest(stage1);
    let mut h = Sha1::new();
    h.update(scramble);
    h.update(stage2);
    let mix = h.finalize();
    stage1.iter().zip(mix.iter()).map(|(a, b)| a ^ b).collect()
}

/// caching_sha2_password fast path: SHA256(pw) XOR SHA256(SHA256(SHA256(pw)) + scramble).
pub fn caching_sha2(password: &[u8], scramble: &[u8]) -> Vec<u8> {
    if password.is_empty() {
        return Vec::new();
    }
    let p1 = Sha256::digest(password);
    let p2 = Sha256::digest(p1);
    let mut h = Sha256::new();
    h.update(p2);
    h.update(scramble);
    let mix = h.finalize();
    p1.iter().zip(mix.iter()).map(|(a, b)| a ^ b).collect()
}

/// MariaDB's client_ed25519: an Ed25519 signature of the scramble, with the key expanded from
/// SHA-512 of the password itself (where standard Ed25519 hashes a 32-byte seed), as MariaDB's
/// ref10-based plugin does. 64 bytes: R then S.
pub fn ed25519(password: &[u8], scramble: &[u8]) -> Vec<u8> {
    use curve25519_dalek::constants::ED25519_BASEPOINT_TABLE;
    use curve25519_dalek::scalar::Scalar;
    use sha2::Sha512;
    let az = Sha512::digest(password);
    let mut secret = [0u8; 32];
    secret.copy_from_slice(&az[..32]);
    secret[0] &= 248;
    secret[31] &= 63;
    secret[31] |= 64;
    // Reducing the clamped scalar mod the group order changes neither A nor S.
    let a = Scalar::from_bytes_mod_order(secret);
    let public = (&a * ED25519_BASEPOINT_TABLE).compress();
    let wide = |parts: &[&[u8]]| {
        let mut h = Sha512::new();
        for p in parts {
            h.update(p);
        }
        Scalar::from_bytes_mod_order_wide(&h.finalize().into())
    };
    let r = wide(&[&az[32..], scramble]);
    let big_r = (&r * ED25519_BASEPOINT_TABLE).compress();
    let k = wide(&[big_r.as_bytes(), public.as_bytes(), scramble]);
    let s = k * a + r;
    let mut sig = Vec::with_capacity(64);
    sig.extend_from_slice(big_r.as_bytes());
    sig.extend_from_slice(s.as_bytes());
    sig
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ed25519_signs_as_the_mysql_crate_does() {
        // Two independent implementations of MariaDB's scheme must agree byte for byte.
        for (pw, scramble) in [
            (&b"edpw"[..], &b"0123456789abcdefghijklmnopqrstuv"[..]),
            (b"", b"ABCDEFGHIJKLMNOPQRSTUVWXYZ012345"),
            (
                b"a much longer password than thirty-two bytes, with spaces",
                b"\x00\x01\x02 short",
            ),
        ] {
            let ours = ed25519(pw, scramble);
            let theirs = mysql_common::scramble::create_response_for_ed25519(pw, scramble);
            assert_eq!(ours, theirs.to_vec(), "{pw:?}");
        }
    }

    #[test]
    fn native_password_matches_the_servers_stored_hash_relation() {
        // The server stores SHA1(SHA1(pw)) and checks SHA1(scramble + stored) XOR reply == SHA1(pw).
        let (pw, scramble) = (b"sbtest".as_slice(), b"0123456789abcdefghij".as_slice());
        let reply = native_password(pw, scramble);
        let stored = Sha1::digest(Sha1::digest(pw));
        let mut h = Sha1::new();
        h.update(scramble);
        h.update(stored);
        let mix = h.finalize();
        let stage1: Vec<u8> = reply.iter().zip(mix.iter()).map(|(a, b)| a ^ b).collect();
        assert_eq!(Sha1::digest(&stage1).as_slice(), stored.as_slice());
        assert!(native_password(b"", scramble).is_empty());
    }

    #[test]
    fn caching_sha2_reply_unmasks_to_sha256_of_password() {
        let (pw, scramble) = (b"secret".as_slice(), b"abcdefghij0123456789".as_slice());
        let reply = caching_sha2(pw, scramble);
        let p1 = Sha256::digest(pw);
        let mut h = Sha256::new();
        h.update(Sha256::digest(p1));
        h.update(scramble);
        let mix = h.finalize();
        let back: Vec<u8> = reply.iter().zip(mix.iter()).map(|(a, b)| a ^ b).collect();
        assert_eq!(back.as_slice(), p1.as_slice());
    }
}
