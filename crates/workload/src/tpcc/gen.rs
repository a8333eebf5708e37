//! TPC-C's random values (clauses 2.1.5–2.1.6 and 4.3.2): NURand with its C constants, the
//! syllable last names, a-strings and n-strings, zips, the ORIGINAL mark, money as text.

use dbpress_core::rand::Rng;

const ALNUM: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const SYLLABLES: [&str; 10] = [
    "BAR", "OUGHT", "ABLE", "PRI", "PRES", "ESE", "ANTI", "CALLY", "ATION", "EING",
];

/// The NURand C constants of one run (or of the load): one per field, shared by every terminal
/// (2.1.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CConstants {
    /// For C_LAST, A = 255.
    pub c_last: u32,
    /// For C_ID, A = 1023.
    pub c_id: u32,
    /// For OL_I_ID, A = 8191.
    pub ol_i_id: u32,
}

impl CConstants {
    /// The load's constants.
    pub fn draw(rng: &mut Rng) -> CConstants {
        CConstants {
            c_last: rng.uniform(0, 255),
            c_id: rng.uniform(0, 1023),
            ol_i_id: rng.uniform(0, 8191),
        }
    }

    /// A run's constants given the load's: C_LAST differs from the load's by 65..=119 but
    /// neither 96 nor 112 (2.1.6.1); the others are drawn afresh.
    pub fn for_run(load: CConstants, rng: &mut Rng) -> CConstants {
        let c_last = loop {
            let c = rng.uniform(0, 255);
            if valid_c_last_delta(c, load.c_last) {
                break c;
            }
        };
        CConstants {
            c_last,
            c_id: rng.uniform(0, 1023),
            ol_i_id: rng.uniform(0, 8191),
        }
    }
}

pub fn valid_c_last_delta(run: u32, load: u32) -> bool {
    let d = run.abs_diff(load);
    (65..=119).contains(&d) && d != 96 && d != 112
}

/// NURand(A, x, y) = (((random(0, A) | random(x, y)) + C) % (y − x + 1)) + x.
#[inline]
pub fn nurand(rng: &mut Rng, a: u32, x: u32, y: u32, c: u32) -> u32 {
    (((rng.uniform(0, a) | rng.uniform(x, y)) + c) % (y - x + 1)) + x
}

/// The last name of syllable number `n` (0..=999): its three digits pick the syllables.
pub fn last_name(n: u32, out: &mut Vec<u8>) {
    out.clear();
    for d in [n / 100, (n / 10) % 10, n % 10] {
        out.extend_from_slice(SYLLABLES[d as usize].as_bytes());
    }
}

/// A random alphanumeric string of a random length in min..=max, appended.
pub fn a_string(rng: &mut Rng, min: u32, max: u32, out: &mut Vec<u8>) {
    let n = rng.uniform(min, max);
    for _ in 0..n {
        out.push(ALNUM[rng.uniform(0, ALNUM.len() as u32 - 1) as usize]);
    }
}

/// `n` random capital letters, appended (S_DIST_xx, OL_DIST_INFO).
pub fn letters(rng: &mut Rng, n: u32, out: &mut Vec<u8>) {
    for _ in 0..n {
        out.push(b'A' + rng.uniform(0, 25) as u8);
    }
}

/// `n` random digits, appended.
pub fn n_string(rng: &mut Rng, n: u32, out: &mut Vec<u8>) {
    for _ in 0..n {
        out.push(b'0' + rng.uniform(0, 9) as u8);
    }
}

/// A zip: four random digits and "11111" (4.3.2.7).
pub fn zip(rng: &mut Rng, out: &mut Vec<u8>) {
    n_string(rng, 4, out);
    out.extend_from_slice(b"11111");
}

/// I_DATA / S_DATA: an a-string of 26..=50 with "ORIGINAL" at a random place in 10% of rows.
pub fn data_with_original(rng: &mut Rng, out: &mut Vec<u8>) {
    let start = out.len();
    a_string(rng, 26, 50, out);
    if rng.uniform(1, 10) == 1 {
        let len = out.len() - start;
        let at = start + rng.uniform(0, (len - 8) as u32) as usize;
        out[at..at + 8].copy_from_slice(b"ORIGINAL");
    }
}

/// A fixed-point number (`units` of 10^-scale) as decimal text, appended: 1234 at scale 2 →
/// "12.34", −5 at scale 2 → "-0.05".
pub fn decimal(units: i64, scale: u32, out: &mut Vec<u8>) {
    if units < 0 {
        out.push(b'-');
    }
    let u = units.unsigned_abs();
    let div = 10u64.pow(scale);
    dbpress_driver::push_int(out, (u / div) as i64);
    if scale > 0 {
        out.push(b'.');
        let frac = u % div;
        let digits = frac.to_string();
        for _ in digits.len()..scale as usize {
            out.push(b'0');
        }
        out.extend_from_slice(digits.as_bytes());
    }
}

/// Seconds since the epoch as 'YYYY-MM-DD HH:MM:SS' (UTC), the literal every engine reads as
/// a date and time.
pub fn timestamp(unix_s: u64, out: &mut Vec<u8>) {
    let days = (unix_s / 86_400) as i64;
    let secs = unix_s % 86_400;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    let text = format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02}",
        secs / 3600,
        (secs / 60) % 60,
        secs % 60
    );
    out.extend_from_slice(text.as_bytes());
}

pub fn now_unix() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn last_names_follow_the_syllable_table() {
        let mut out = Vec::new();
        last_name(371, &mut out);
        assert_eq!(out, b"PRICALLYOUGHT");
        last_name(40, &mut out);
        assert_eq!(out, b"BARPRESBAR");
    }

    #[test]
    fn nurand_stays_in_range_and_is_skewed() {
        let mut rng = Rng::new(7, 1);
        let mut counts = vec![0u32; 3001];
        for _ in 0..300_000 {
            let v = nurand(&mut rng, 1023, 1, 3000, 259);
            assert!((1..=3000).contains(&v));
            counts[v as usize] += 1;
        }
        let max = *counts.iter().max().unwrap();
        let min = *counts[1..].iter().min().unwrap();
        assert!(max > 4 * min.max(1), "non-uniform: max {max} min {min}");
    }

    #[test]
    fn run_c_last_keeps_the_legal_distance_from_the_load() {
        let mut rng = Rng::new(3, 3);
        for load in 0..=255 {
            let run = CConstants::for_run(
                CConstants {
                    c_last: load,
                    c_id: 0,
                    ol_i_id: 0,
                },
                &mut rng,
            );
            assert!(
                valid_c_last_delta(run.c_last, load),
                "{load} → {}",
                run.c_last
            );
            assert!(run.c_last <= 255);
        }
        assert!(!valid_c_last_delta(196, 100), "96 is excluded");
        assert!(!valid_c_last_delta(0, 64));
    }

    #[test]
    fn decimals_and_timestamps_print_as_servers_read_them() {
        let mut out = Vec::new();
        decimal(1234, 2, &mut out);
        out.push(b' ');
        decimal(-5, 2, &mut out);
        out.push(b' ');
        decimal(30_000_000, 2, &mut out);
        out.push(b' ');
        decimal(1234, 4, &mut out);
        assert_eq!(out, b"12.34 -0.05 300000.00 0.1234");
        out.clear();
        timestamp(1_764_072_000, &mut out);
        assert_eq!(out, b"2025-11-25 12:00:00");
    }

    #[test]
    fn original_marks_about_a_tenth_of_rows() {
        let mut rng = Rng::new(11, 2);
        let mut marked = 0;
        for _ in 0..10_000 {
            let mut out = Vec::new();
            data_with_original(&mut rng, &mut out);
            assert!((26..=50).contains(&out.len()));
            if out.windows(8).any(|w| w == b"ORIGINAL") {
                marked += 1;
            }
        }
        assert!((900..=1100).contains(&marked), "{marked}");
    }
}
