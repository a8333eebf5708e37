//! sysbench-compatible random numbers.
//!
//! The generator is xoroshiro128+ (the one sysbench uses), and each distribution reproduces
//! sysbench's arithmetic so that key-access patterns — and therefore lock contention and cache
//! behaviour on the server — match what sysbench produces for the same options.
//! Unlike sysbench, seeding is deterministic per thread: `--rand-seed=N` gives the same stream
//! for thread `t` on every run (sysbench issue #524).

use std::fmt;

/// xoroshiro128+ with SplitMix64 seeding.
#[derive(Clone, Debug)]
pub struct Rng {
    s0: u64,
    s1: u64,
}

fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Rng {
    /// A generator for `stream` (a thread id, or a table number during prepare) under `seed`.
    pub fn new(seed: u64, stream: u64) -> Rng {
        let mut sm = seed ^ stream.wrapping_mul(0xD1B5_4A32_D192_ED03);
        let s0 = splitmix64(&mut sm);
        let mut s1 = splitmix64(&mut sm);
        if s0 == 0 && s1 == 0 {
            s1 = 1; // the all-zero state is the generator's only fixed point
        }
        Rng { s0, s1 }
    }

    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        let (s0, mut s1) = (self.s0, self.s1);
        let result = s0.wrapping_add(s1);
        s1 ^= s0;
        self.s0 = s0.rotate_left(24) ^ s1 ^ (s1 << 16);
        self.s1 = s1.rotate_left(37);
        result
    }

    /// A double in [0, 1) with 52 bits of resolution, built the way sysbench builds it.
    #[inline]
    pub fn uniform_double(&mut self) -> f64 {
        f64::from_bits((0x3FF << 52) | (self.next_u64() >> 12)) - 1.0
    }

    /// Uniform integer in [a, b]: the high 64 bits of a 64-bit draw times the range's size
    /// (bias below size / 2^64). sysbench scales a double instead; the distribution is the
    /// same, in three instructions rather than a dozen.
    #[inline]
    pub fn uniform(&mut self, a: u32, b: u32) -> u32 {
        let size = u128::from(b - a) + 1;
        a + ((u128::from(self.next_u64()) * size) >> 64) as u32
    }

    /// Sixteen uniform digits from one 64-bit value, two at a time: the high part of x × 100
    /// is a pair 00–99 and the low 64 bits carry on. Since 100 = 4 × 25 with 25 odd, each step
    /// uses up exactly two bits of x, so the eighth pair still comes from 50 uniform bits (bias
    /// below 10⁻¹³): one draw and eight multiplications for sixteen digits.
    #[inline]
    fn sixteen_digits(mut x: u64) -> [u8; 16] {
        let mut out = [0u8; 16];
        for pair in out.chunks_exact_mut(2) {
            let m = u128::from(x) * 100;
            pair.copy_from_slice(&DIGIT_PAIRS[(m >> 64) as usize]);
            x = m as u64;
        }
        out
    }

    /// Fill `out` with uniformly random ASCII digits. sysbench draws one random double per
    /// character; here each 64-bit draw yields sixteen digits.
    #[inline]
    pub fn fill_digits(&mut self, out: &mut [u8]) {
        let mut chunks = out.chunks_exact_mut(16);
        for c in &mut chunks {
            c.copy_from_slice(&Self::sixteen_digits(self.next_u64()));
        }
        let rest = chunks.into_remainder();
        if !rest.is_empty() {
            let n = rest.len();
            rest.copy_from_slice(&Self::sixteen_digits(self.next_u64())[..n]);
        }
    }
}

/// "00", "01", … "99".
static DIGIT_PAIRS: [[u8; 2]; 100] = {
    let mut t = [[0u8; 2]; 100];
    let mut i = 0;
    while i < 100 {
        t[i] = [b'0' + (i / 10) as u8, b'0' + (i % 10) as u8];
        i += 1;
    }
    t
};

/// A sysbench string template (`#` digit, `@` lowercase letter, anything else literal),
/// analysed once so that filling it costs little per event.
#[derive(Clone, Debug)]
pub struct Template {
    literal: Vec<u8>,
    /// Positions of characters that are neither `#` nor `@`.
    fixed: Vec<(usize, u8)>,
    /// Positions of `@`.
    letters: Vec<usize>,
}

impl Template {
    pub fn new(template: &[u8]) -> Template {
        Template {
            literal: template.to_vec(),
            fixed: template
                .iter()
                .enumerate()
                .filter(|(_, &b)| b != b'#' && b != b'@')
                .map(|(i, &b)| (i, b))
                .collect(),
            letters: template
                .iter()
                .enumerate()
                .filter(|(_, &b)| b == b'@')
                .map(|(i, _)| i)
                .collect(),
        }
    }

    pub fn len(&self) -> usize {
        self.literal.len()
    }

    pub fn is_empty(&self) -> bool {
        self.literal.is_empty()
    }

    /// Write a fresh random instance into `out` (which must be `len()` long): digits
    /// everywhere in 16-byte strides, then letters and literal characters put in place.
    #[inline]
    pub fn fill(&self, rng: &mut Rng, out: &mut [u8]) {
        rng.fill_digits(out);
        for &i in &self.letters {
            out[i] = b'a' + (((rng.next_u64() >> 32) * 26) >> 32) as u8;
        }
        for &(i, b) in &self.fixed {
            out[i] = b;
        }
    }
}

/// A non-repeating sequence of 32-bit values shared by all threads, like sysbench's
/// `rand.unique()` (a permutation built from quadratic residues modulo the prime 2³²−5, after
/// Preshing's RandomSequence). Unlike sysbench's, it is seeded from the run's seed, so a
/// second run does not regenerate the first run's ids (sysbench #414).
#[derive(Debug)]
pub struct UniqueSequence {
    index: std::sync::atomic::AtomicU32,
    offset: u32,
}

const UNIQUE_PRIME: u32 = 4_294_967_291;

fn permute_qpr(x: u32) -> u32 {
    if x >= UNIQUE_PRIME {
        return x; // the five values above the prime map to themselves
    }
    let residue = ((u64::from(x) * u64::from(x)) % u64::from(UNIQUE_PRIME)) as u32;
    if x <= UNIQUE_PRIME / 2 {
        residue
    } else {
        UNIQUE_PRIME - residue
    }
}

impl UniqueSequence {
    pub fn new(seed: u64) -> UniqueSequence {
        let mut rng = Rng::new(seed, 0x0417_u64);
        let (a, b) = (rng.next_u64() as u32, rng.next_u64() as u32);
        UniqueSequence {
            index: std::sync::atomic::AtomicU32::new(permute_qpr(
                permute_qpr(a).wrapping_add(0x682f_0161),
            )),
            offset: permute_qpr(permute_qpr(b).wrapping_add(0x4679_0905)),
        }
    }

    pub fn next(&self) -> u32 {
        let i = self
            .index
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        permute_qpr(permute_qpr(i).wrapping_add(self.offset) ^ 0x5bf0_3635)
    }
}

/// The `--rand-type` choices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DistKind {
    Uniform,
    Gaussian,
    Special,
    Pareto,
    Zipfian,
}

impl DistKind {
    pub const NAMES: &'static str = "uniform, gaussian, special, pareto, zipfian";

    pub fn parse(s: &str) -> Option<DistKind> {
        Some(match s {
            "uniform" => DistKind::Uniform,
            "gaussian" => DistKind::Gaussian,
            "special" => DistKind::Special,
            "pareto" => DistKind::Pareto,
            "zipfian" => DistKind::Zipfian,
            _ => return None,
        })
    }
}

impl fmt::Display for DistKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DistKind::Uniform => "uniform",
            DistKind::Gaussian => "gaussian",
            DistKind::Special => "special",
            DistKind::Pareto => "pareto",
            DistKind::Zipfian => "zipfian",
        })
    }
}

/// The parameters of `--rand-*`, with sysbench 1.0.20's defaults.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct DistParams {
    pub kind: DistKind,
    pub spec_iter: u32,
    pub spec_pct: f64,
    pub spec_res: f64,
    pub pareto_h: f64,
    pub zipfian_exp: f64,
}

impl Default for DistParams {
    fn default() -> Self {
        DistParams {
            kind: DistKind::Uniform,
            spec_iter: 12,
            spec_pct: 1.0,
            spec_res: 75.0,
            pareto_h: 0.2,
            zipfian_exp: 0.8,
        }
    }
}

/// A distribution with its constants precomputed once.
#[derive(Clone, Debug)]
pub struct Distribution {
    kind: DistKind,
    iter: u32,
    iter_mult: f64,
    pct_mult: f64,
    pct_2_mult: f64,
    res_mult: f64,
    pareto_power: f64,
    zipf: Zipf,
}

impl Distribution {
    pub fn new(p: &DistParams) -> Distribution {
        let iter = p.spec_iter.max(1);
        Distribution {
            kind: p.kind,
            iter,
            iter_mult: 1.0 / f64::from(iter),
            pct_mult: p.spec_pct / 100.0,
            pct_2_mult: p.spec_pct / 200.0,
            res_mult: 100.0 / (100.0 - p.spec_res),
            pareto_power: p.pareto_h.ln() / (1.0 - p.pareto_h).ln(),
            zipf: Zipf::new(p.zipfian_exp),
        }
    }

    pub fn kind(&self) -> DistKind {
        self.kind
    }

    /// A value in [a, b] drawn from the configured distribution.
    // Inlined so the uniform draw, the default, costs no call; the others stay out of line.
    #[inline]
    pub fn sample(&self, rng: &mut Rng, a: u32, b: u32) -> u32 {
        match self.kind {
            DistKind::Uniform => rng.uniform(a, b),
            DistKind::Gaussian => self.gaussian(rng, a, b),
            DistKind::Special => self.special(rng, a, b),
            DistKind::Pareto => self.pareto(rng, a, b),
            DistKind::Zipfian => a + self.zipf.sample(rng, b - a + 1) - 1,
        }
    }

    /// Irwin–Hall sum of `iter` uniforms, centred in the range (1.0.20's working version).
    #[inline(never)]
    fn gaussian(&self, rng: &mut Rng, a: u32, b: u32) -> u32 {
        let width = f64::from(b - a + 1);
        let mut sum = 0.0;
        for _ in 0..self.iter {
            sum += rng.uniform_double() * width;
        }
        a + (sum * self.iter_mult) as u32
    }

    /// sysbench 1.0.20's default: `spec_res`% of draws land uniformly in a window of
    /// `spec_pct`% of the range at its centre; the rest are gaussian over the whole range.
    #[inline(never)]
    fn special(&self, rng: &mut Rng, a: u32, b: u32) -> u32 {
        let t = f64::from(b - a);
        let rnd = rng.uniform_double();
        if rnd * t * self.res_mult < t {
            let mut sum = 0.0;
            for _ in 0..self.iter {
                sum += rng.uniform_double();
            }
            return a + (sum * t * self.iter_mult) as u32;
        }
        // The same `rnd` (now known to be in the hot share) places the value in the window.
        let window = t * self.pct_mult;
        let offset = rnd * (window + 1.0) + t / 2.0 - t * self.pct_2_mult;
        a + offset as u32
    }

    /// Pareto with shape from `h`: for h = 0.2, 80% of draws hit the lowest 20% of ids.
    #[inline(never)]
    fn pareto(&self, rng: &mut Rng, a: u32, b: u32) -> u32 {
        a + (f64::from(b - a + 1) * rng.uniform_double().powf(self.pareto_power)) as u32
    }
}

/// Zipf over [1, n] by rejection-inversion (Hörmann & Derflinger 1996), P(k) ∝ k^-exponent.
#[derive(Clone, Debug)]
struct Zipf {
    exponent: f64,
    /// Shortcut bound from the paper: accepting k - x <= s skips the exact test.
    s: f64,
    h_integral_x1: f64,
}

impl Zipf {
    fn new(exponent: f64) -> Zipf {
        let e = exponent;
        Zipf {
            exponent: e,
            s: 2.0 - h_integral_inverse(h_integral(2.5, e) - h(2.0, e), e),
            h_integral_x1: h_integral(1.5, e) - 1.0,
        }
    }

    fn sample(&self, rng: &mut Rng, n: u32) -> u32 {
        let e = self.exponent;
        let h_n = h_integral(f64::from(n) + 0.5, e);
        loop {
            let u = h_n + rng.uniform_double() * (self.h_integral_x1 - h_n);
            let x = h_integral_inverse(u, e);
            let k = ((x + 0.5) as u32).clamp(1, n);
            let kf = f64::from(k);
            if kf - x <= self.s || u >= h_integral(kf + 0.5, e) - h(kf, e) {
                return k;
            }
        }
    }
}

/// H(x), the integral of h: (x^(1-e) - 1) / (1-e), or ln x when e = 1.
fn h_integral(x: f64, e: f64) -> f64 {
    let log_x = x.ln();
    exp_m1_over_x((1.0 - e) * log_x) * log_x
}

fn h(x: f64, e: f64) -> f64 {
    (-e * x.ln()).exp()
}

fn h_integral_inverse(x: f64, e: f64) -> f64 {
    let t = (x * (1.0 - e)).max(-1.0);
    (ln_1p_over_x(t) * x).exp()
}

/// ln(1+x)/x, by its series near 0 where the quotient loses precision.
fn ln_1p_over_x(x: f64) -> f64 {
    if x.abs() > 1e-8 {
        x.ln_1p() / x
    } else {
        1.0 - x * (0.5 - x * (1.0 / 3.0 - 0.25 * x))
    }
}

/// (e^x - 1)/x, by its series near 0.
fn exp_m1_over_x(x: f64) -> f64 {
    if x.abs() > 1e-8 {
        x.exp_m1() / x
    } else {
        1.0 + x * 0.5 * (1.0 + x / 3.0 * (1.0 + 0.25 * x))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DRAWS: usize = 200_000;

    fn histogram(kind: DistKind, n: u32) -> Vec<u64> {
        let dist = Distribution::new(&DistParams {
            kind,
            ..DistParams::default()
        });
        let mut rng = Rng::new(42, 0);
        let mut counts = vec![0u64; n as usize + 1];
        for _ in 0..DRAWS {
            let v = dist.sample(&mut rng, 1, n);
            assert!((1..=n).contains(&v), "{kind} produced {v} outside [1, {n}]");
            counts[v as usize] += 1;
        }
        counts
    }

    fn share(counts: &[u64], lo: usize, hi: usize) -> f64 {
        counts[lo..=hi].iter().sum::<u64>() as f64 / DRAWS as f64
    }

    #[test]
    fn xoroshiro_is_deterministic_per_seed_and_stream() {
        let a: Vec<u64> = (0..4).map(|_| Rng::new(7, 1).next_u64()).collect();
        assert!(a.windows(2).all(|w| w[0] == w[1]));
        assert_ne!(Rng::new(7, 1).next_u64(), Rng::new(7, 2).next_u64());
        assert_ne!(Rng::new(7, 1).next_u64(), Rng::new(8, 1).next_u64());
    }

    #[test]
    fn uniform_covers_range_evenly() {
        let counts = histogram(DistKind::Uniform, 10);
        for (v, &c) in counts.iter().enumerate().skip(1) {
            let p = c as f64 / DRAWS as f64;
            assert!((p - 0.1).abs() < 0.005, "value {v} has share {p}");
        }
        // Chi-square with 9 degrees of freedom: 27.9 is the 0.999 quantile.
        let expected = DRAWS as f64 / 10.0;
        let chi2: f64 = counts[1..]
            .iter()
            .map(|&c| (c as f64 - expected).powi(2) / expected)
            .sum();
        assert!(chi2 < 27.9, "chi-square {chi2}");
    }

    #[test]
    fn special_hot_window_for_1000_rows_is_498_to_506_with_three_quarters_of_draws() {
        let counts = histogram(DistKind::Special, 1000);
        let hot = share(&counts, 498, 506);
        assert!((0.74..0.77).contains(&hot), "hot share {hot}");
        // Every id in the window is hot, and nothing just outside it is.
        for (id, &c) in counts.iter().enumerate().take(507).skip(498) {
            assert!(c as f64 / DRAWS as f64 > 0.03, "id {id} is not hot");
        }
        assert!((counts[497] as f64 / DRAWS as f64) < 0.01);
        assert!((counts[507] as f64 / DRAWS as f64) < 0.01);
    }

    #[test]
    fn special_hot_window_for_10000_rows_holds_about_76_ids() {
        let counts = histogram(DistKind::Special, 10_000);
        let hot = share(&counts, 4975, 5051);
        assert!((0.74..0.78).contains(&hot), "hot share {hot}");
    }

    #[test]
    fn gaussian_is_centred_with_sd_of_range_over_12() {
        let counts = histogram(DistKind::Gaussian, 1200);
        let mean: f64 = counts
            .iter()
            .enumerate()
            .map(|(v, &c)| v as f64 * c as f64)
            .sum::<f64>()
            / DRAWS as f64;
        let var: f64 = counts
            .iter()
            .enumerate()
            .map(|(v, &c)| (v as f64 - mean).powi(2) * c as f64)
            .sum::<f64>()
            / DRAWS as f64;
        assert!((mean - 600.5).abs() < 3.0, "mean {mean}");
        assert!((var.sqrt() - 100.0).abs() < 3.0, "sd {}", var.sqrt());
    }

    #[test]
    fn pareto_puts_80_percent_in_lowest_20_percent() {
        let counts = histogram(DistKind::Pareto, 1000);
        let low = share(&counts, 1, 200);
        assert!((0.78..0.82).contains(&low), "low share {low}");
    }

    #[test]
    fn zipfian_frequencies_follow_power_law() {
        let counts = histogram(DistKind::Zipfian, 1000);
        // P(k) ∝ k^-0.8, so count(1)/count(k) ≈ k^0.8.
        let c1 = counts[1] as f64;
        for k in [2usize, 4, 8] {
            let ratio = c1 / counts[k] as f64;
            let want = (k as f64).powf(0.8);
            assert!(
                (ratio / want - 1.0).abs() < 0.08,
                "k={k}: {ratio} vs {want}"
            );
        }
        let harmonic: f64 = (1..=1000).map(|k| (k as f64).powf(-0.8)).sum();
        let p1 = c1 / DRAWS as f64;
        assert!((p1 - 1.0 / harmonic).abs() < 0.005, "P(1) {p1}");
    }

    #[test]
    fn unique_sequence_does_not_repeat_and_depends_on_the_seed() {
        let u = UniqueSequence::new(7);
        let mut seen = std::collections::HashSet::new();
        for _ in 0..200_000 {
            assert!(seen.insert(u.next()), "repeated value");
        }
        assert_ne!(UniqueSequence::new(7).next(), UniqueSequence::new(8).next());
    }

    #[test]
    fn template_digits_are_uniform() {
        let mut rng = Rng::new(5, 5);
        // sysbench's c column template (oltp_common.lua): groups of 11 digits between dashes.
        let c = Template::new(b"###########-###########-###########-###########-###########-###########-###########-###########-###########-###########");
        let mut buf = [0u8; 119];
        let mut counts = [0u64; 10];
        for _ in 0..5000 {
            c.fill(&mut rng, &mut buf);
            for &b in buf.iter().filter(|b| b.is_ascii_digit()) {
                counts[(b - b'0') as usize] += 1;
            }
        }
        let total: u64 = counts.iter().sum();
        assert_eq!(total, 5000 * 110);
        let expected = total as f64 / 10.0;
        let chi2: f64 = counts
            .iter()
            .map(|&c| (c as f64 - expected).powi(2) / expected)
            .sum();
        assert!(chi2 < 27.9, "chi-square {chi2}: {counts:?}");
    }

    #[test]
    fn every_digit_pair_of_a_draw_is_uniform_and_independent_of_the_next() {
        // Each of the eight pairs a draw yields, and each pair with its successor.
        let mut rng = Rng::new(9, 2);
        let mut single = vec![[0u64; 100]; 8];
        let mut joint = vec![0u64; 10_000];
        let draws = 200_000;
        for _ in 0..draws {
            let d = Rng::sixteen_digits(rng.next_u64());
            let pair =
                |i: usize| usize::from(d[2 * i] - b'0') * 10 + usize::from(d[2 * i + 1] - b'0');
            for (i, counts) in single.iter_mut().enumerate() {
                counts[pair(i)] += 1;
            }
            joint[pair(6) * 100 + pair(7)] += 1;
        }
        let chi2 = |counts: &[u64]| {
            let e = draws as f64 / counts.len() as f64;
            counts
                .iter()
                .map(|&c| (c as f64 - e).powi(2) / e)
                .sum::<f64>()
        };
        for (i, counts) in single.iter().enumerate() {
            // 99 degrees of freedom: 148.2 is the 0.999 quantile.
            assert!(
                chi2(counts) < 148.2,
                "pair {i}: chi-square {}",
                chi2(counts)
            );
        }
        // 9 999 degrees of freedom: mean 9 999, sd ~141; 10 450 is above the 0.999 quantile.
        assert!(chi2(&joint) < 10_450.0, "pairs 6 and 7: {}", chi2(&joint));
    }

    #[test]
    fn template_fills_digits_and_letters() {
        let mut rng = Rng::new(1, 1);
        let t = Template::new(b"###-@@@");
        let mut buf = [0u8; 7];
        t.fill(&mut rng, &mut buf);
        assert!(buf[..3].iter().all(u8::is_ascii_digit));
        assert_eq!(buf[3], b'-');
        assert!(buf[4..].iter().all(u8::is_ascii_lowercase));
    }
}
