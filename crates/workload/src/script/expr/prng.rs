//! pgbench's random numbers: PostgreSQL's generator (xoroshiro128**, seeded through splitmix64)
//! and pgbench's draws from it, so a run with `--random-seed=N` draws the values pgbench draws.

/// One random sequence (pgbench keeps one per client for the script's functions, and the run
/// one from which every other is seeded).
#[derive(Clone, Debug)]
pub struct PgPrng {
    s0: u64,
    s1: u64,
}

fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut v = *state;
    v = (v ^ (v >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    v = (v ^ (v >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    v ^ (v >> 31)
}

impl PgPrng {
    pub fn new(seed: u64) -> PgPrng {
        let mut s = seed;
        let (s0, s1) = (splitmix64(&mut s), splitmix64(&mut s));
        if s0 == 0 && s1 == 0 {
            // All zero would stay zero forever: PostgreSQL's fixed replacement.
            return PgPrng {
                s0: 0x5851_F42D_4C95_7F2D,
                s1: 0x1405_7B7E_F767_814F,
            };
        }
        PgPrng { s0, s1 }
    }

    /// A generator seeded from this one's next value (how pgbench derives per-client ones).
    pub fn child(&mut self) -> PgPrng {
        PgPrng::new(self.next_u64())
    }

    pub fn next_u64(&mut self) -> u64 {
        let (s0, mut s1) = (self.s0, self.s1);
        let v = s0.wrapping_mul(5).rotate_left(7).wrapping_mul(9);
        s1 ^= s0;
        self.s0 = s0.rotate_left(24) ^ s1 ^ (s1 << 16);
        self.s1 = s1.rotate_left(37);
        v
    }

    /// Uniform in `lo..=hi` by masking and rejecting, as PostgreSQL does.
    pub fn range_u64(&mut self, lo: u64, hi: u64) -> u64 {
        if hi <= lo {
            return lo;
        }
        let span = hi - lo;
        let shift = span.leading_zeros();
        loop {
            let v = self.next_u64() >> shift;
            if v <= span {
                return lo + v;
            }
        }
    }

    /// Uniform in [0, 1) with 52 random bits.
    pub fn double(&mut self) -> f64 {
        (self.next_u64() >> 12) as f64 * (1.0 / (1u64 << 52) as f64)
    }

    /// A standard normal value (Box-Muller).
    pub fn normal(&mut self) -> f64 {
        let u1 = 1.0 - self.double();
        let u2 = 1.0 - self.double();
        (-2.0 * u1.ln()).sqrt() * (2.0 * std::f64::consts::PI * u2).sin()
    }

    /// `random(lb, ub)`; the caller checked lb <= ub and that the span fits.
    pub fn uniform(&mut self, lb: i64, ub: i64) -> i64 {
        lb.wrapping_add(self.range_u64(0, ub.wrapping_sub(lb) as u64) as i64)
    }

    /// `random_exponential(lb, ub, parameter)`, parameter > 0.
    pub fn exponential(&mut self, lb: i64, ub: i64, parameter: f64) -> i64 {
        let cut = (-parameter).exp();
        let uniform = 1.0 - self.double();
        let r = -(cut + (1.0 - cut) * uniform).ln() / parameter;
        lb + ((ub - lb + 1) as f64 * r) as i64
    }

    /// `random_gaussian(lb, ub, parameter)`, parameter >= 2: normal values within
    /// ±parameter standard deviations, spread over the range.
    pub fn gaussian(&mut self, lb: i64, ub: i64, parameter: f64) -> i64 {
        let z = loop {
            let z = self.normal();
            if z >= -parameter && z < parameter {
                break z;
            }
        };
        let r = (z + parameter) / (parameter * 2.0);
        lb + ((ub - lb + 1) as f64 * r) as i64
    }

    /// `random_zipfian(lb, ub, s)`, 1 < s: rejection sampling (Devroye), 1 the most likely.
    pub fn zipfian(&mut self, lb: i64, ub: i64, s: f64) -> i64 {
        let n = ub - lb + 1;
        if n <= 1 {
            return lb;
        }
        let b = 2f64.powf(s - 1.0);
        let x = loop {
            let u = self.double();
            let v = self.double();
            let x = u.powf(-1.0 / (s - 1.0)).floor();
            let t = (1.0 + 1.0 / x).powf(s - 1.0);
            if v * x * (t - 1.0) / (b - 1.0) <= t / b && x <= n as f64 {
                break x;
            }
        };
        lb + x as i64 - 1
    }
}

/// The seeds pgbench derives from a run's seed, in the order it draws them: one per client
/// (its functions' sequence), then `:default_seed`, then three per thread (the first picks
/// scripts). dbpress runs each client on its own thread, as pgbench with `-j` equal to `-c`.
pub struct RunSeeds {
    draws: Vec<u64>,
    clients: usize,
}

impl RunSeeds {
    pub fn new(seed: u64, clients: usize) -> RunSeeds {
        let mut base = PgPrng::new(seed);
        RunSeeds {
            draws: (0..clients * 4 + 1).map(|_| base.next_u64()).collect(),
            clients,
        }
    }

    pub fn client(&self, i: usize) -> u64 {
        self.draws[i.min(self.clients.saturating_sub(1))]
    }

    pub fn default_seed(&self) -> u64 {
        self.draws[self.clients]
    }

    pub fn choose(&self, thread: usize) -> u64 {
        self.draws[self.clients + 1 + 3 * thread.min(self.clients.saturating_sub(1))]
    }

    /// The thread's sequence for `--sampling-rate` (its third draw).
    pub fn sample(&self, thread: usize) -> u64 {
        self.draws[self.clients + 3 + 3 * thread.min(self.clients.saturating_sub(1))]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_stay_in_their_ranges() {
        let mut r = PgPrng::new(42);
        for _ in 0..10_000 {
            assert!((1..=10).contains(&r.uniform(1, 10)));
            assert!((1..=100).contains(&r.exponential(1, 100, 3.0)));
            assert!((1..=100).contains(&r.gaussian(1, 100, 2.5)));
            assert!((1..=100).contains(&r.zipfian(1, 100, 1.5)));
            let d = r.double();
            assert!((0.0..1.0).contains(&d));
        }
        assert_eq!(r.uniform(i64::MIN, i64::MAX - 1).signum().abs(), 1);
    }

    #[test]
    fn the_same_seed_gives_the_same_sequence_and_children_differ() {
        let (mut a, mut b) = (PgPrng::new(7), PgPrng::new(7));
        assert_eq!(a.next_u64(), b.next_u64());
        let (mut c1, mut c2) = (a.child(), a.child());
        assert_ne!(c1.next_u64(), c2.next_u64());
    }
}
