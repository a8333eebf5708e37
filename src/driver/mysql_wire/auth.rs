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

#[cfg(test)]
mod tests {
    use super::*;

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
