//! Per-thread latency counters on HdrHistogram's exact bucket layout (1 µs lowest value,
//! 3 significant digits), recorded with a few instructions and drained losslessly into a real
//! `hdrhistogram::Histogram` by the reporter.
//!
//! Why not record into `Histogram` directly: its `record` also maintains totals, min/max and
//! auto-resize on every call (~60 instructions measured); a worker records ~20 values per
//! read-write event, so this is most of dbpress's own per-event cost.

use hdrhistogram::Histogram;

/// Largest latency kept exactly: one hour, in µs. Longer values are clamped to it.
pub const MAX_TRACKED_US: u64 = 3_600_000_000;

/// log2 of half the sub-bucket count for 3 significant digits (2048 sub-buckets).
const HALF_MAGNITUDE: u32 = 10;
const HALF_COUNT: usize = 1 << HALF_MAGNITUDE;
const SUB_BUCKET_MASK: u64 = (2 * HALF_COUNT as u64) - 1;
/// 64 − unit magnitude (0) − HALF_MAGNITUDE − 1.
const LEADING_ZERO_BASE: u32 = 64 - HALF_MAGNITUDE - 1;

/// Index of `v` in HdrHistogram's counts array (lowest 1, 3 significant digits).
#[inline]
fn index_of(v: u64) -> usize {
    let bucket = LEADING_ZERO_BASE - (v | SUB_BUCKET_MASK).leading_zeros();
    let sub = (v >> bucket) as usize;
    ((bucket as usize + 1) << HALF_MAGNITUDE) + sub - HALF_COUNT
}

/// The lowest value that maps to `index`.
fn value_of(index: usize) -> u64 {
    let mut bucket = (index >> HALF_MAGNITUDE) as i64 - 1;
    let mut sub = (index & (HALF_COUNT - 1)) + HALF_COUNT;
    if bucket < 0 {
        sub -= HALF_COUNT;
        bucket = 0;
    }
    (sub as u64) << bucket
}

/// Counters that are drained once, when the run ends (a worker's statement latencies): no
/// bookkeeping beyond the count itself.
///
/// They start sparse — a sorted list of (index, count) — and become a dense array only once
/// it pays: when the values recorded reach an eighth of the array they would need, or the
/// list would outgrow it. A dense array spans every index up to the largest value seen, so a
/// thread that recorded a few latencies between 1 ms and 20 s held 28 KiB per statement kind:
/// 2 048 TPC-C connections with 27 kinds each took 686 MB, where a few hundred entries each
/// were all they needed. A busy thread turns dense within its first hundreds of values, and
/// from then on records as before.
pub struct Buckets {
    /// 16-bit counters halve the memory of a thread's latency counters (a thousand threads ×
    /// a dozen statement kinds × up to 24 Ki buckets each); a counter that would pass 65 535
    /// moves 65 536 into `carries` and restarts at 0, so no count is ever lost or capped.
    /// Empty while the counters are sparse.
    counts: Vec<u16>,
    /// (index, count carried out of that counter), rarely more than a few entries.
    carries: Vec<(usize, u64)>,
    /// The sparse counters, sorted by index, before `counts` exists.
    sparse: Vec<(u32, u64)>,
    /// Values recorded while sparse, drains included: what decides when dense pays.
    sparse_records: u64,
}

impl Default for Buckets {
    fn default() -> Self {
        Self::new()
    }
}

impl Buckets {
    /// Empty; memory is taken on the first record, so statement kinds a workload never runs
    /// cost nothing and a thousand connections stay small.
    pub fn new() -> Buckets {
        Buckets {
            counts: Vec::new(),
            carries: Vec::new(),
            sparse: Vec::new(),
            sparse_records: 0,
        }
    }

    /// Count `us`.
    #[inline]
    pub fn record(&mut self, us: u64) {
        self.record_first(us);
    }

    /// Count `us`; returns its index when its counter was zero before.
    #[inline]
    fn record_first(&mut self, us: u64) -> Option<u32> {
        let i = index_of(us.min(MAX_TRACKED_US));
        if i >= self.counts.len() {
            return self.record_outside(i);
        }
        self.record_dense(i)
    }

    #[inline(always)]
    fn record_dense(&mut self, i: usize) -> Option<u32> {
        let c = &mut self.counts[i];
        let was = *c;
        if was == u16::MAX {
            *c = 0;
            self.carry(i, u16::MAX as u64 + 1);
        } else {
            *c = was + 1;
        }
        (was == 0).then_some(i as u32)
    }

    /// Past the dense array's end, or no dense array yet.
    #[cold]
    fn record_outside(&mut self, i: usize) -> Option<u32> {
        if !self.counts.is_empty() {
            self.grow(i);
            return self.record_dense(i);
        }
        self.sparse_records += 1;
        let first = match self.sparse.binary_search_by_key(&(i as u32), |e| e.0) {
            Ok(k) => {
                self.sparse[k].1 += 1;
                false
            }
            Err(k) => {
                self.sparse.insert(k, (i as u32, 1));
                true
            }
        };
        let top = self.sparse.last().map_or(0, |e| e.0 as usize);
        let dense_len = (top + 1).next_multiple_of(HALF_COUNT) as u64;
        let sparse_bytes = (self.sparse.len() * std::mem::size_of::<(u32, u64)>()) as u64;
        if self.sparse_records * 8 >= dense_len || sparse_bytes >= dense_len * 2 {
            self.make_dense(top);
        }
        first.then_some(i as u32)
    }

    /// Move the sparse counters into a dense array reaching `top`.
    #[cold]
    fn make_dense(&mut self, top: usize) {
        self.grow(top);
        const CARRY: u64 = u16::MAX as u64 + 1;
        for (i, n) in std::mem::take(&mut self.sparse) {
            let i = i as usize;
            self.counts[i] = (n % CARRY) as u16;
            if n >= CARRY {
                self.carry(i, n - n % CARRY);
            }
        }
    }

    #[cold]
    fn grow(&mut self, i: usize) {
        self.counts.resize((i + 1).next_multiple_of(HALF_COUNT), 0);
    }

    /// `n` (a multiple of 65 536) more at index `i`, beyond its 16-bit counter.
    #[cold]
    fn carry(&mut self, i: usize, n: u64) {
        match self.carries.iter_mut().find(|(at, _)| *at == i) {
            Some((_, c)) => *c += n,
            None => self.carries.push((i, n)),
        }
    }

    /// Move every count into `h` and leave these counters empty.
    pub fn drain_into(&mut self, h: &mut Histogram<u64>) {
        self.drain_at(0..self.counts.len(), |v, n| record_n(h, v, n));
    }

    /// Whether the counters are still a sparse list.
    pub fn is_sparse(&self) -> bool {
        self.counts.is_empty()
    }

    /// Hand every carry and each (lowest value, count) at `indexes` (which must include every
    /// carried counter's) to `take`, leaving them zero. An index given twice is taken once.
    fn drain_at(
        &mut self,
        indexes: impl IntoIterator<Item = usize>,
        mut take: impl FnMut(u64, u64),
    ) {
        for (at, n) in self.carries.drain(..) {
            take(value_of(at), n);
        }
        // Sparse: the list is every counter there is (the touched ones of an interval's).
        for (i, n) in self.sparse.drain(..) {
            take(value_of(i as usize), n);
        }
        if self.counts.is_empty() {
            return;
        }
        for i in indexes {
            let c = &mut self.counts[i];
            if *c > 0 {
                take(value_of(i), u64::from(*c));
                *c = 0;
            }
        }
    }
}

fn record_n(h: &mut Histogram<u64>, v: u64, n: u64) {
    // `record_n` grows an auto-resizing histogram; `saturating_record_n` would clamp to its
    // current range instead.
    if h.record_n(v, n).is_err() {
        h.saturating_record_n(v, n);
    }
}

/// Counters drained every interval (a worker's event latencies): they list the counters that
/// went from zero to one since the last drain, so the reporter reads only those. Scanning the
/// whole touched range instead cost ~10 ms a tick for 600 threads with latencies from 20 µs
/// to 1.6 s: more than a scheduler slice, and on an oversubscribed host a reporter preempted
/// mid-scan waits a full round of every runnable thread (seconds) before it runs again.
pub struct LatencyCounts {
    buckets: Buckets,
    /// Indexes that became non-zero since the last drain. A carry restarts its counter at 0,
    /// so an index can appear twice; the drain zeroes a counter when it takes it, and the
    /// second visit finds nothing.
    touched: Vec<u32>,
}

impl Default for LatencyCounts {
    fn default() -> Self {
        Self::new()
    }
}

impl LatencyCounts {
    pub fn new() -> LatencyCounts {
        LatencyCounts {
            buckets: Buckets::new(),
            touched: Vec::new(),
        }
    }

    #[inline]
    pub fn record(&mut self, us: u64) {
        if let Some(i) = self.buckets.record_first(us) {
            self.touched.push(i);
        }
    }

    pub fn is_empty(&self) -> bool {
        self.touched.is_empty()
    }

    /// Move every count into `h` and leave these counters empty.
    pub fn drain_into(&mut self, h: &mut Histogram<u64>) {
        self.drain_each(|v, n| record_n(h, v, n));
    }

    /// Add every count to both `a` and `b` and leave these counters empty.
    pub fn drain_into_both(&mut self, a: &mut Histogram<u64>, b: &mut Histogram<u64>) {
        self.drain_each(|v, n| {
            record_n(a, v, n);
            record_n(b, v, n);
        });
    }

    fn drain_each(&mut self, take: impl FnMut(u64, u64)) {
        if self.is_empty() {
            return;
        }
        // Every carry's counter was touched before it overflowed.
        self.buckets
            .drain_at(self.touched.iter().map(|&i| i as usize), take);
        self.touched.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_matches_hdrhistogram_exactly() {
        let mut direct = crate::stats::aggregate_histogram();
        let mut ours = LatencyCounts::new();
        let mut once = Buckets::new();
        let mut rng = dbpress_core::rand::Rng::new(11, 3);
        let mut values = vec![
            0u64,
            1,
            2,
            1023,
            1024,
            2047,
            2048,
            2049,
            4095,
            4096,
            1_000_000,
            3_600_000_000,
        ];
        values.extend((0..50_000).map(|i| rng.next_u64() >> (i % 40 + 24)));
        for &v in &values {
            let v = v.min(crate::stats::MAX_TRACKED_US);
            direct.record(v).unwrap();
            ours.record(v);
            once.record(v);
        }
        let mut drained = crate::stats::aggregate_histogram();
        ours.drain_into(&mut drained);
        let mut drained_once = crate::stats::aggregate_histogram();
        once.drain_into(&mut drained_once);
        assert_eq!(drained.len(), direct.len());
        for q in [0.0, 0.1, 0.5, 0.9, 0.99, 0.999, 1.0] {
            assert_eq!(
                drained.value_at_quantile(q),
                direct.value_at_quantile(q),
                "q={q}"
            );
        }
        let a: Vec<(u64, u64)> = direct
            .iter_recorded()
            .map(|v| (v.value_iterated_to(), v.count_at_value()))
            .collect();
        let b: Vec<(u64, u64)> = drained
            .iter_recorded()
            .map(|v| (v.value_iterated_to(), v.count_at_value()))
            .collect();
        assert_eq!(a, b);
        let c: Vec<(u64, u64)> = drained_once
            .iter_recorded()
            .map(|v| (v.value_iterated_to(), v.count_at_value()))
            .collect();
        assert_eq!(a, c);
        assert!(ours.is_empty());
        assert!(LatencyCounts::default().is_empty());
        // Drained means empty: a second drain adds nothing.
        once.drain_into(&mut drained_once);
        assert_eq!(drained_once.len(), direct.len());
    }

    #[test]
    fn counts_past_16_bits_carry_without_loss() {
        let mut b = Buckets::new();
        let n = 3 * 65_536 + 17;
        for _ in 0..n {
            b.record(5);
        }
        for _ in 0..70_000 {
            b.record(1_000_000);
        }
        b.record(7);
        let mut h = crate::stats::aggregate_histogram();
        b.drain_into(&mut h);
        assert_eq!(h.len(), n + 70_001);
        assert_eq!(h.count_at(5), n);
        assert_eq!(h.count_at(1_000_000), 70_000);
        assert_eq!(h.count_at(7), 1);
        // Drained means empty, carries included.
        let mut again = crate::stats::aggregate_histogram();
        b.drain_into(&mut again);
        assert_eq!(again.len(), 0);
    }

    #[test]
    fn interval_counters_past_16_bits_drain_once_and_exactly() {
        // A carry restarts the counter at 0, so its index is listed again on the next record:
        // the drain must still take each count once.
        let mut c = LatencyCounts::new();
        for round in 1..=2u64 {
            for _ in 0..(2 * 65_536 + 5) {
                c.record(900);
            }
            c.record(3);
            let mut h = crate::stats::aggregate_histogram();
            c.drain_into(&mut h);
            assert_eq!(h.count_at(900), 2 * 65_536 + 5, "round {round}");
            assert_eq!(h.count_at(3), 1);
            assert_eq!(h.len(), 2 * 65_536 + 6);
            assert!(c.is_empty());
        }
    }

    #[test]
    fn few_values_stay_sparse_and_many_turn_dense_exactly() {
        // A 2 048-connection thread's few latencies, 1 ms to 20 s: a list, not 28 KiB.
        let mut few = Buckets::new();
        for k in 0..200u64 {
            few.record(1_000 + k * 100_000);
        }
        assert!(few.is_sparse());
        let mut h = crate::stats::aggregate_histogram();
        few.drain_into(&mut h);
        assert_eq!(h.len(), 200);
        // A busy one turns dense, keeping what it counted while sparse.
        let mut busy = LatencyCounts::new();
        let mut direct = crate::stats::aggregate_histogram();
        for k in 0..5_000u64 {
            let v = 50 + k % 700;
            busy.record(v);
            direct.record(v).unwrap();
        }
        assert!(!busy.buckets.is_sparse());
        let mut drained = crate::stats::aggregate_histogram();
        busy.drain_into(&mut drained);
        assert_eq!(drained, direct);
    }

    #[test]
    fn value_of_is_the_lowest_equivalent_value() {
        for v in [0u64, 1, 2047, 2048, 2050, 123_456, 3_600_000_000] {
            let lowest = value_of(index_of(v));
            assert!(lowest <= v);
            assert_eq!(index_of(lowest), index_of(v));
        }
    }
}
