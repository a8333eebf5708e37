//! glibc's `random()` after `srandom(1)` (its default state), which mysqlslap draws its
//! generated rows from: the same sequence gives `-a` the same rows and statements as
//! mysqlslap's, byte for byte. The additive feedback generator glibc documents for its
//! default (TYPE_3) state: 31 words seeded by a Lehmer step, 310 outputs discarded.

pub struct GlibcRandom {
    r: [u32; 34],
    /// Where the next output goes in the ring of the last 34 words.
    at: usize,
}

impl GlibcRandom {
    pub fn new(seed: u32) -> GlibcRandom {
        let mut r = [0u32; 34];
        r[0] = seed;
        for i in 1..31 {
            // 16807 * r[i-1] % 2147483647, computed as glibc does (Schrage's method).
            let prev = r[i - 1] as i32 as i64;
            let (hi, lo) = (prev / 127_773, prev % 127_773);
            let mut word = 16_807 * lo - 2_836 * hi;
            if word < 0 {
                word += 2_147_483_647;
            }
            r[i] = word as u32;
        }
        for i in 31..34 {
            r[i] = r[i - 31];
        }
        let mut g = GlibcRandom { r, at: 0 };
        for _ in 34..344 {
            g.step();
        }
        g
    }

    fn step(&mut self) -> u32 {
        let n = self.r.len();
        let v = self.r[(self.at + n - 31) % n].wrapping_add(self.r[(self.at + n - 3) % n]);
        self.r[self.at] = v;
        self.at = (self.at + 1) % n;
        v
    }

    /// The next `random()`: 31 bits.
    pub fn next(&mut self) -> u32 {
        self.step() >> 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sequence_is_glibcs() {
        let mut g = GlibcRandom::new(1);
        let first: Vec<u32> = (0..3).map(|_| g.next()).collect();
        // `random()` without `srandom`, as any C program on glibc prints them.
        assert_eq!(first, [1_804_289_383, 846_930_886, 1_681_692_777]);
        // The 128th: the second row of mysqlslap's default `-a` table (one INT, 126 chars).
        let mut g = GlibcRandom::new(1);
        assert_eq!((0..128).map(|_| g.next()).last(), Some(822_890_675));
    }
}
