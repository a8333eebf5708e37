//! Folding per-thread cells into an interval aggregate, and interval aggregates into the run's
//! cumulative totals. Only the reporter (and the final collection) runs this code.

use super::event_counts::{EventCounts, StmtCounts};
use super::{aggregate_histogram, ThreadCell, ThreadStats};
use hdrhistogram::Histogram;
use std::collections::BTreeMap;
use std::time::Instant;

pub struct StmtTotals {
    pub counts: StmtCounts,
    pub latency: Histogram<u64>,
}

/// Totals over some set of threads and some span of time.
pub struct Totals {
    pub counts: EventCounts,
    pub response: Histogram<u64>,
    pub service: Histogram<u64>,
    pub stmts: Vec<StmtTotals>,
    pub errors_by_code: BTreeMap<String, u64>,
}

impl Totals {
    pub fn new(stmt_kinds: usize) -> Totals {
        Totals {
            counts: EventCounts::EMPTY,
            response: aggregate_histogram(),
            service: aggregate_histogram(),
            stmts: (0..stmt_kinds)
                .map(|_| StmtTotals {
                    counts: StmtCounts::EMPTY,
                    latency: aggregate_histogram(),
                })
                .collect(),
            errors_by_code: BTreeMap::new(),
        }
    }

    /// Back to empty, keeping the histograms' memory.
    pub fn reset(&mut self) {
        self.counts = EventCounts::EMPTY;
        self.response.reset();
        self.service.reset();
        for s in &mut self.stmts {
            s.counts = StmtCounts::EMPTY;
            s.latency.reset();
        }
        self.errors_by_code.clear();
    }

    /// Fold one thread's interval in, draining its latency counters; its statement counts and
    /// latencies go into `stmts`.
    fn add_thread(&mut self, t: &mut ThreadStats, stmts: &mut [StmtTotals]) {
        let one = &mut t.statement_events;
        if one.counts.count > 0 {
            // Recorded once, counted twice: as this interval's events and as the statement.
            let into = &mut stmts[one.kind as usize];
            t.counts.add_statement_events(&one.counts);
            into.counts.add(&one.counts);
            one.counts = StmtCounts::EMPTY;
            one.latency
                .drain_into_both(&mut self.response, &mut into.latency);
        }
        self.counts.add(&t.counts);
        t.response.drain_into(&mut self.response);
        t.service.drain_into(&mut self.service);
        for (into, from) in stmts.iter_mut().zip(t.stmts.kinds.iter_mut()) {
            into.counts.add(&from.counts);
            from.latency.drain_into(&mut into.latency);
        }
        for (code, n) in &t.errors_by_code {
            *self.errors_by_code.entry(code.clone()).or_insert(0) += n;
        }
    }

    pub fn add(&mut self, o: &Totals) {
        self.counts.add(&o.counts);
        let _ = self.response.add(&o.response);
        let _ = self.service.add(&o.service);
        for (into, from) in self.stmts.iter_mut().zip(&o.stmts) {
            into.counts.add(&from.counts);
            let _ = into.latency.add(&from.latency);
        }
        for (code, n) in &o.errors_by_code {
            *self.errors_by_code.entry(code.clone()).or_insert(0) += n;
        }
    }
}

/// One thread's share of a run so far: its finished events, their latencies' sum, and their
/// shortest and longest (for the fairness figures and sysbench's `--debug` statistics).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThreadShare {
    pub events: u64,
    pub lat_sum_ns: u64,
    /// `u64::MAX` before the first event.
    pub lat_min_ns: u64,
    pub lat_max_ns: u64,
}

impl Default for ThreadShare {
    fn default() -> Self {
        ThreadShare {
            events: 0,
            lat_sum_ns: 0,
            lat_min_ns: u64::MAX,
            lat_max_ns: 0,
        }
    }
}

impl ThreadShare {
    /// What was added since `base`: events and the latency sum (the extremes are the run's).
    pub fn since(&self, base: &ThreadShare) -> ThreadShare {
        ThreadShare {
            events: self.events - base.events,
            lat_sum_ns: self.lat_sum_ns - base.lat_sum_ns,
            ..*self
        }
    }
}

/// Take every thread's interval statistics (clearing them) into `interval`, which is reset
/// first (the reporter reuses one: a fresh histogram costs ~33 000 instructions, mostly zeroing
/// its counts). Statement counts and latencies, which workers hand over only when they stop, go
/// straight into `stmts`, the run's cumulative ones; `interval` has none.
/// `per_thread` receives each thread's share (`ThreadShare`).
///
/// Returns the mean of the moments the cells were read. Each cell holds what its worker
/// recorded since the cell was last read, so when a starved reporter takes a second to read
/// them all, the cells read first have given a shorter span than the ones read last; ending
/// the interval at the mean read moment makes the interval's rate the sum of the workers'
/// rates (an unbiased one when they run alike), where ending it at the last read moment
/// moved a share of one interval's events into the next (7 700 tps then 45 000 against a
/// server doing 20 000, with 300 threads on 2 cores).
pub fn collect(
    cells: &[ThreadCell],
    per_thread: &mut [ThreadShare],
    stmts: &mut [StmtTotals],
    interval: &mut Totals,
) -> Instant {
    interval.reset();
    let base = Instant::now();
    let mut read_ns: u128 = 0;
    let mut fold = |i: usize, s: &mut ThreadStats| {
        read_ns += base.elapsed().as_nanos();
        interval.add_thread(s, stmts);
        let share = &mut per_thread[i];
        share.events += s.counts.events;
        share.lat_sum_ns += s.counts.lat_sum_ns;
        share.lat_min_ns = share.lat_min_ns.min(s.counts.lat_min_ns);
        share.lat_max_ns = share.lat_max_ns.max(s.counts.lat_max_ns);
        s.clear();
    };
    // A worker the scheduler preempted while recording holds its cell until it runs again:
    // with hundreds of busy threads on a few cores, one scheduling round. Waiting for such
    // cells one after another cost a round each (a 2 s run of 600 threads took 60 s), so
    // take the free cells first and come back for the busy ones, which run meanwhile.
    let mut busy: Vec<usize> = Vec::new();
    for (i, cell) in cells.iter().enumerate() {
        match cell.stats.try_lock() {
            Some(mut s) => fold(i, &mut s),
            None => busy.push(i),
        }
    }
    while !busy.is_empty() {
        std::thread::sleep(std::time::Duration::from_micros(100));
        busy.retain(|&i| match cells[i].stats.try_lock() {
            Some(mut s) => {
                fold(i, &mut s);
                false
            }
            None => true,
        });
    }
    let mean = read_ns / cells.len().max(1) as u128;
    base + std::time::Duration::from_nanos(mean as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::{EventRecord, StmtStats};

    /// Regression (found while building #2): per-thread histograms started with a 4 ms range and
    /// were folded with `saturating_record_n`, which clamps instead of growing, so every latency
    /// above 4 ms was reported as ~4 ms.
    #[test]
    fn issue2_latencies_above_4ms_are_not_clamped() {
        let cells = [ThreadCell::new()];
        let mut stmts = StmtStats::new(1);
        for ms in [1u64, 50, 1200, 60_000] {
            stmts.record(0, ms * 1_000_000, false);
            cells[0].record_event(&EventRecord {
                completed: true,
                response_ns: ms * 1_000_000,
                service_ns: ms * 1_000_000,
                reads: 1,
                writes: 0,
                other: 0,
                reconnects: 0,
                late: false,
                lag_ns: 0,
                over_limit: false,
                paced: false,
                error_codes: &[],
                label: None,
            });
        }
        cells[0].deposit_statements(stmts);
        let mut per_thread = [ThreadShare::default()];
        let mut run = Totals::new(1);
        let mut t = Totals::new(0);
        collect(&cells, &mut per_thread, &mut run.stmts, &mut t);
        assert_eq!(t.counts.events, 4);
        let max_us = t.response.max();
        assert!(
            (59_000_000..=61_000_000).contains(&max_us),
            "max {max_us} µs"
        );
        assert!(t.response.value_at_quantile(0.75) >= 1_190_000);
        assert!(run.stmts[0].latency.max() >= 59_000_000);
        assert_eq!(run.stmts[0].counts.count, 4);
        // The statement's extremes and sum are exact, not bucket edges.
        assert_eq!(
            run.stmts[0].counts.exact_latency(),
            Some((1_000_000, 60_000_000_000, 61_251_000_000))
        );
        assert!(t.stmts.is_empty());
        assert_eq!(per_thread[0].events, 4);
    }

    /// Issue 41 (memory at 1 000 threads): a worker's statement cells are made when a kind is
    /// first recorded, not 64 up front, and a kind recorded alone is still collected as itself.
    #[test]
    fn issue_41_statement_cells_exist_only_up_to_the_kinds_recorded() {
        let cells = [ThreadCell::new()];
        let mut stmts = StmtStats::new(64);
        assert!(stmts.kinds.is_empty());
        stmts.record(2, 3_000_000, false);
        stmts.record(2, 5_000_000, true);
        assert_eq!(stmts.kinds.len(), 3);
        cells[0].deposit_statements(stmts);
        let mut per_thread = [ThreadShare::default()];
        let mut run = Totals::new(64);
        let mut t = Totals::new(0);
        collect(&cells, &mut per_thread, &mut run.stmts, &mut t);
        assert_eq!(run.stmts[2].counts.count, 1);
        assert_eq!(run.stmts[2].counts.errors, 1);
        assert!(run
            .stmts
            .iter()
            .enumerate()
            .all(|(k, s)| k == 2 || s.counts.count == 0));
    }

    #[test]
    fn statement_events_count_as_events_and_as_their_statement() {
        // The keyed loop records an event that was one statement once; collecting it must
        // give the interval the events and the run the statement, with the same figures.
        let cells = [ThreadCell::new()];
        cells[0].set_statement_events_kind(2);
        for us in [5u64, 70, 900] {
            cells[0].record_statement_event(dbpress_driver::QueryKind::Write, us * 1000 + 1);
        }
        let mut per_thread = [ThreadShare::default()];
        let mut run = Totals::new(3);
        let mut t = Totals::new(0);
        collect(&cells, &mut per_thread, &mut run.stmts, &mut t);
        assert_eq!((t.counts.events, t.counts.writes), (3, 3));
        assert_eq!(t.counts.exact_latency(), Some((5_001, 900_001, 975_003)));
        assert_eq!(t.response.len(), 3);
        let s = &run.stmts[2];
        assert_eq!(s.counts.exact_latency(), t.counts.exact_latency());
        assert_eq!(s.latency.len(), 3);
        assert_eq!(s.latency.max(), t.response.max());
        assert_eq!(s.latency.min(), t.response.min());
        assert_eq!(run.stmts[0].counts.count + run.stmts[1].counts.count, 0);
        assert_eq!(
            (per_thread[0].events, per_thread[0].lat_sum_ns),
            (3, 975_003)
        );
        // Collected means cleared: a second interval has nothing.
        collect(&cells, &mut per_thread, &mut run.stmts, &mut t);
        assert_eq!((t.counts.events, t.response.len()), (0, 0));
        assert_eq!(run.stmts[2].counts.count, 3);
    }

    /// Regression (#2): with 300 threads on 2 cores the reporter took about a second to read
    /// every cell, and ending the interval at the last reading gave 7 700 tps then 45 000
    /// against a server doing 20 000. The interval ends at the mean reading moment: with nine
    /// cells read at once and one held by its worker for a while, near the start.
    #[test]
    fn issue_2_an_interval_ends_at_the_mean_moment_its_cells_were_read() {
        let cells: Vec<ThreadCell> = (0..10).map(|_| ThreadCell::new()).collect();
        let held = std::sync::Barrier::new(2);
        let mut per_thread = [ThreadShare::default(); 10];
        let mut run = Totals::new(1);
        let mut t = Totals::new(0);
        let (before, mean, after) = std::thread::scope(|scope| {
            scope.spawn(|| {
                let _guard = cells[0].stats.lock();
                held.wait();
                std::thread::sleep(std::time::Duration::from_millis(200));
            });
            held.wait();
            let before = Instant::now();
            let mean = collect(&cells, &mut per_thread, &mut run.stmts, &mut t);
            (before, mean, Instant::now())
        });
        let whole = after - before;
        assert!(whole >= std::time::Duration::from_millis(200), "{whole:?}");
        // One reading in ten came at the end: the mean is a tenth of the way, not the end.
        assert!(
            mean > before && mean - before < whole / 2,
            "{:?} of {whole:?}",
            mean - before
        );
    }
}
