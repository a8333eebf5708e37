//! pgbench's hash functions and `permute`, bit for bit (scripts use them to spread keys, and a
//! pasted script must reach the same rows).

use super::prng::PgPrng;

/// hash_murmur2: MurmurHash64A of one 8-byte value.
pub fn murmur2(v: i64, seed: u64) -> i64 {
    const M: u64 = 0xc6a4_a793_5bd1_e995;
    const R: u32 = 47;
    let mut h = seed ^ 8u64.wrapping_mul(M);
    let mut k = v as u64;
    k = k.wrapping_mul(M);
    k ^= k >> R;
    k = k.wrapping_mul(M);
    h ^= k;
    h = h.wrapping_mul(M);
    h ^= h >> R;
    h = h.wrapping_mul(M);
    h ^= h >> R;
    h as i64
}

/// hash_fnv1a over the value's 8 bytes, little end first.
pub fn fnv1a(v: i64, seed: u64) -> i64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ seed;
    for b in (v as u64).to_le_bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h as i64
}

/// One round's bijection on values up to `mask`: multiply by an odd number, XOR, rotate the
/// top bit of `bits` to the bottom.
fn scramble(v: u64, m: u64, r: u64, mask: u64, bits: u32) -> u64 {
    let v = (v.wrapping_mul(m) ^ r) & mask;
    ((v << 1) & mask) | (v >> (bits - 1))
}

/// permute(i, size, seed): where `i` lands in a pseudorandom permutation of 0..size that
/// `seed` picks. Six rounds, each a bijection on the lower and on the upper part of the range
/// (overlapping halves of a power of two) and a random rotation of the whole range.
pub fn permute(value: i64, size: i64, seed: i64) -> i64 {
    if size < 2 {
        return 0;
    }
    let mut rng = PgPrng::new(seed as u64);
    let size = size as u64;
    let mut v = (value as u64) % size;
    let bits = 63 - size.leading_zeros();
    let mask = (1u64 << bits) - 1;
    for _ in 0..6 {
        let m = (rng.next_u64() & mask) | 1;
        let r = rng.next_u64() & mask;
        if v <= mask {
            v = scramble(v, m, r, mask, bits);
        }
        let m = (rng.next_u64() & mask) | 1;
        let r = rng.next_u64() & mask;
        let t = size - 1 - v;
        if t <= mask {
            v = size - 1 - scramble(t, m, r, mask, bits);
        }
        let offset = rng.range_u64(0, size - 1);
        v = (v + offset) % size;
    }
    v as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_match_pgbench() {
        // pgbench 15 -d with `\set h hash_murmur2(1, 0)`, `\set f hash_fnv1a(1, 0)`,
        // `\set g hash_murmur2(-123456789, 42)` and `SELECT :h, :f, :g;` sent these values.
        assert_eq!(murmur2(1, 0), -8089716718896805586);
        assert_eq!(fnv1a(1, 0), -8517097267634966620);
        assert_eq!(murmur2(-123456789, 42), -7458701487178859300);
    }

    #[test]
    fn permute_is_a_permutation_for_every_size() {
        for size in [1i64, 2, 3, 5, 8, 100, 1000] {
            let mut seen: Vec<i64> = (0..size).map(|i| permute(i, size, 12345)).collect();
            seen.sort_unstable();
            let expected: Vec<i64> = if size < 2 {
                vec![0]
            } else {
                (0..size).collect()
            };
            assert_eq!(seen, expected, "size {size}");
        }
        assert_ne!(
            (0..100).map(|i| permute(i, 100, 1)).collect::<Vec<_>>(),
            (0..100).map(|i| permute(i, 100, 2)).collect::<Vec<_>>()
        );
    }
}
