//! `sysbench.histogram`: a fixed number of buckets spaced evenly on a log scale from `min` to
//! `max`, each value counted in the nearest one, printed as sysbench prints it (a value, a bar
//! of up to 40 stars scaled to the fullest bucket, a count; empty buckets left out, and nothing
//! at all for an empty histogram). dbpress's HDR histograms would not print these buckets.

use std::fmt::Write;

pub struct Histogram {
    counts: Vec<u64>,
    ln_min: f64,
    /// Buckets per unit of ln(value): (size − 1) / (ln max − ln min); negative when max < min
    /// (the buckets then run downwards, as in sysbench), 0 when they are equal.
    per_ln: f64,
    min: f64,
    /// The last `text`, NUL-terminated for the prelude.
    text: String,
}

const BAR: usize = 40;

impl Histogram {
    /// None unless `size` ≥ 2 and both bounds are positive (sysbench prints NaN or crashes).
    pub fn new(size: usize, min: f64, max: f64) -> Option<Histogram> {
        // Also false for NaN.
        let positive = |x: f64| x > 0.0 && x.is_finite();
        if size < 2 || !positive(min) || !positive(max) {
            return None;
        }
        let span = max.ln() - min.ln();
        Some(Histogram {
            counts: vec![0; size],
            ln_min: min.ln(),
            per_ln: if span == 0.0 {
                0.0
            } else {
                (size - 1) as f64 / span
            },
            min,
            text: String::new(),
        })
    }

    /// Count `v` in the nearest bucket; values beyond the ends (0 and negatives too) in the end
    /// buckets.
    pub fn update(&mut self, v: f64) {
        let last = self.counts.len() - 1;
        let x = (v.ln() - self.ln_min) * self.per_ln;
        // NaN (v ≤ 0 with min = max, or NaN itself) goes to the first bucket, as sysbench does.
        let i = if x.is_nan() || x < 0.0 {
            0
        } else {
            ((x + 0.5).floor() as usize).min(last)
        };
        self.counts[i] += 1;
    }

    /// The value bucket `i` stands for.
    fn value(&self, i: usize) -> f64 {
        if self.per_ln == 0.0 {
            self.min
        } else {
            (self.ln_min + i as f64 / self.per_ln).exp()
        }
    }

    /// sysbench's rendering, NUL-terminated.
    pub fn text(&mut self) -> &str {
        self.text.clear();
        let fullest = self.counts.iter().copied().max().unwrap_or(0);
        if fullest > 0 {
            self.text
                .push_str("       value  ------------- distribution ------------- count\n");
        }
        for (i, &n) in self.counts.iter().enumerate() {
            if n == 0 {
                continue;
            }
            let stars = (n as f64 * BAR as f64 / fullest as f64 + 0.5).floor() as usize;
            let bar = "*".repeat(stars.min(BAR));
            let _ = writeln!(self.text, "{:12.3} |{bar:<BAR$} {n}", self.value(i));
        }
        self.text.push('\0');
        &self.text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What sysbench 1.0.20 prints for `new(10, 1, 100)` updated with 1..=100.
    const ONE_TO_HUNDRED: &str = "       value  ------------- distribution ------------- count
       1.000 |*                                        1
       1.668 |*                                        1
       2.783 |*                                        1
       4.642 |***                                      2
       7.743 |*****                                    4
      12.915 |*********                                7
      21.544 |**************                           11
      35.938 |*************************                19
      59.948 |**************************************** 31
     100.000 |******************************           23
\0";

    #[test]
    fn values_land_in_the_nearest_log_bucket_and_print_as_sysbench_prints_them() {
        let mut h = Histogram::new(10, 1.0, 100.0).unwrap();
        for v in 1..=100 {
            h.update(f64::from(v));
        }
        assert_eq!(h.text(), ONE_TO_HUNDRED);
    }

    #[test]
    fn bars_round_half_up_and_out_of_range_values_go_to_the_ends() {
        let mut h = Histogram::new(3, 1.0, 100.0).unwrap();
        for _ in 0..80 {
            h.update(100.0);
        }
        h.update(0.0);
        h.update(-3.0);
        h.update(1e9);
        assert_eq!(
            h.text(),
            "       value  ------------- distribution ------------- count
       1.000 |*                                        2
     100.000 |**************************************** 81
\0"
        );
    }

    #[test]
    fn an_empty_histogram_prints_nothing_and_bad_bounds_are_refused() {
        assert_eq!(Histogram::new(5, 10.0, 20.0).unwrap().text(), "\0");
        assert!(Histogram::new(1, 1.0, 8.0).is_none());
        assert!(Histogram::new(4, 0.0, 8.0).is_none());
        assert!(Histogram::new(4, 1.0, f64::NAN).is_none());
        // Reversed bounds run downwards, as in sysbench.
        let mut h = Histogram::new(4, 8.0, 1.0).unwrap();
        h.update(2.0);
        assert!(h.text().contains("       2.000 |"), "{}", h.text());
    }
}
