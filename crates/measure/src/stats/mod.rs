//! Latency and throughput statistics.
//!
//! Each worker owns a `ThreadCell`: its interval counters and event latency counters laid out
//! exactly like HdrHistogram's buckets (`counts.rs`: µs, 3 significant digits, sized on demand,
//! clamped at one hour), drained losslessly into `hdrhistogram::Histogram`s by the reporter. The
//! worker records a whole event under its own cell's lock, which no other worker ever touches;
//! the reporter takes each lock once per interval to fold the cell into the interval aggregate
//! and clear it. So the hot path never waits on another worker, and percentiles come from full
//! histograms, not a coarse bucket grid.
//!
//! Statement statistics need no lock at all: no interval figure uses them, so each worker keeps
//! its `StmtStats` to itself while it runs and hands them to its cell once, when it stops.

pub mod counts;
pub mod event_counts;
pub mod snapshot;
pub mod summary;

use counts::{Buckets, LatencyCounts};
use dbpress_driver::QueryKind;
use event_counts::{EventCounts, StmtCounts};
use hdrhistogram::Histogram;
use parking_lot::Mutex;

pub use counts::MAX_TRACKED_US;

pub fn aggregate_histogram() -> Histogram<u64> {
    let mut h = Histogram::new_with_bounds(1, 4096, 3).expect("valid histogram bounds");
    h.auto(true);
    h
}

/// Monotonic nanoseconds from an arbitrary origin (CLOCK_MONOTONIC through the vDSO): cheaper
/// than `Instant` arithmetic on the hot path, and the same clock.
#[inline]
pub fn now_ns() -> u64 {
    let mut ts = std::mem::MaybeUninit::<libc::timespec>::uninit();
    // SAFETY: CLOCK_MONOTONIC always exists, so clock_gettime succeeds and fills the timespec.
    let ts = unsafe {
        libc::clock_gettime(libc::CLOCK_MONOTONIC, ts.as_mut_ptr());
        ts.assume_init()
    };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

/// Microseconds, for the latency counters (which clamp at `MAX_TRACKED_US` themselves).
#[inline]
pub fn ns_to_us(ns: u64) -> u64 {
    ns / 1000
}

/// Counts and latencies of one statement kind in one thread.
pub struct StmtCell {
    pub counts: StmtCounts,
    /// Drained once, when the worker has stopped.
    pub latency: Buckets,
}

/// One worker's statement statistics, indexed by statement kind.
pub struct StmtStats {
    /// Only as long as the highest kind recorded: a Lua script's workload declares room for 64
    /// kinds and most run two or three; 64 empty cells were 7.7 KiB of each of 1 000 workers.
    pub kinds: Vec<StmtCell>,
}

impl StmtStats {
    /// Room for `stmt_kinds` kinds; a cell is made when its kind is first recorded.
    pub fn new(stmt_kinds: usize) -> StmtStats {
        StmtStats {
            kinds: Vec::with_capacity(stmt_kinds.min(8)),
        }
    }

    #[inline]
    pub fn record(&mut self, kind: u8, ns: u64, failed: bool) {
        let cell = match self.kinds.get_mut(kind as usize) {
            Some(cell) => cell,
            None => self.add_kinds_to(kind),
        };
        if failed {
            cell.counts.errors += 1;
        } else {
            cell.counts.record_success(ns);
            cell.latency.record(ns_to_us(ns));
        }
    }

    /// Cells up to `kind`, the first time it is recorded.
    #[cold]
    fn add_kinds_to(&mut self, kind: u8) -> &mut StmtCell {
        self.kinds.resize_with(kind as usize + 1, || StmtCell {
            counts: StmtCounts::EMPTY,
            latency: Buckets::new(),
        });
        &mut self.kinds[kind as usize]
    }
}

/// The interval statistics of one worker.
pub struct ThreadStats {
    pub counts: EventCounts,
    /// Response time: from intended start under --rate, from actual start otherwise.
    pub response: LatencyCounts,
    /// Service time: from actual start (differs from `response` only under --rate).
    pub service: LatencyCounts,
    /// Empty until the worker stops and hands over its statement statistics.
    pub stmts: StmtStats,
    pub statement_events: StatementEvents,
    pub errors_by_code: Vec<(String, u64)>,
    /// What ran during the warm-up (never cleared: read once, after the run).
    pub warmup: crate::counters::WarmupCounts,
}

/// Events that were one statement and nothing else, each recorded once (`dbpress_run::keyed`): the
/// reporter counts them both as events (this interval's, like `ThreadStats::response`) and as
/// executions of statement `kind` (the run's).
pub struct StatementEvents {
    /// Statement kind, set by the worker before it records any.
    pub kind: u8,
    pub counts: StmtCounts,
    pub latency: LatencyCounts,
}

impl Default for ThreadStats {
    fn default() -> Self {
        Self::new()
    }
}

impl ThreadStats {
    pub fn new() -> ThreadStats {
        ThreadStats {
            counts: EventCounts::EMPTY,
            response: LatencyCounts::new(),
            service: LatencyCounts::new(),
            // Handed over by the worker when it stops (`deposit_statements`).
            stmts: StmtStats::new(0),
            statement_events: StatementEvents {
                kind: 0,
                counts: StmtCounts::EMPTY,
                latency: LatencyCounts::new(),
            },
            errors_by_code: Vec::new(),
            warmup: Default::default(),
        }
    }

    pub fn clear(&mut self) {
        self.counts = EventCounts::EMPTY;
        self.statement_events.counts = StmtCounts::EMPTY;
        // Histogram counters were drained into the totals by `snapshot::collect`.
        debug_assert!(self.response.is_empty() && self.service.is_empty());
        debug_assert!(self.statement_events.latency.is_empty());
        for s in &mut self.stmts.kinds {
            s.counts = StmtCounts::EMPTY;
        }
        self.errors_by_code.clear();
    }
}

/// What one event did, handed to the cell in one piece.
pub struct EventRecord<'a> {
    /// False for an event that never succeeded (a fatal error ended it, or the run stopped
    /// while it was being retried): its statements and errors count, but it is not a finished
    /// event (no transaction, no latency).
    pub completed: bool,
    pub response_ns: u64,
    pub service_ns: u64,
    pub reads: u64,
    pub writes: u64,
    pub other: u64,
    pub reconnects: u64,
    pub late: bool,
    pub lag_ns: u64,
    /// Finished slower than --latency-limit.
    pub over_limit: bool,
    /// Under --rate: service time differs from response time and gets its own histogram.
    pub paced: bool,
    /// Server codes of the ignorable errors that restarted this event.
    pub error_codes: &'a [String],
    /// The event's kind as its workload labelled it (below `event_counts::LABELS`).
    pub label: Option<u8>,
}

/// One worker's statistics, padded to its own cache lines.
#[repr(align(128))]
pub struct ThreadCell {
    pub stats: Mutex<ThreadStats>,
}

impl Default for ThreadCell {
    fn default() -> Self {
        Self::new()
    }
}

impl ThreadCell {
    pub fn new() -> ThreadCell {
        ThreadCell {
            stats: Mutex::new(ThreadStats::new()),
        }
    }

    /// Count statements that ran outside any event (a workload's final flush).
    pub fn record_statements(&self, reads: u64, writes: u64, other: u64) {
        let c = &mut self.stats.lock().counts;
        c.reads += reads;
        c.writes += writes;
        c.other += other;
    }

    /// Count one warm-up event (finished or not) and its statements: no figure of the run
    /// includes it, only the comparison with the server's counters.
    #[cold]
    pub fn record_warmup(&self, finished: bool, reads: u64, writes: u64, other: u64, errors: u64) {
        self.stats
            .lock()
            .warmup
            .add(&crate::counters::WarmupCounts {
                events: u64::from(finished),
                reads,
                writes,
                other,
                errors,
            });
    }

    /// What this worker ran during the warm-up.
    pub fn warmup(&self) -> crate::counters::WarmupCounts {
        self.stats.lock().warmup
    }

    /// Say which statement kind this worker's `record_statement_event`s are.
    pub fn set_statement_events_kind(&self, kind: u8) {
        self.stats.lock().statement_events.kind = kind;
    }

    /// Take over a stopped worker's statement statistics, for the final collection.
    pub fn deposit_statements(&self, stmts: StmtStats) {
        let mut s = self.stats.lock();
        s.stmts = stmts;
    }

    /// Record a closed-loop event that was one statement of this worker's
    /// `statement_events.kind`, run once, which took `ns` and was of `kind` (`dbpress_run::keyed`).
    #[inline]
    pub fn record_statement_event(&self, kind: QueryKind, ns: u64) {
        let mut guard = self.stats.lock();
        let s = &mut *guard;
        match kind {
            QueryKind::Read => s.counts.reads += 1,
            QueryKind::Write => s.counts.writes += 1,
            QueryKind::Other => s.counts.other += 1,
        }
        s.statement_events.counts.record_success(ns);
        s.statement_events.latency.record(ns_to_us(ns));
    }

    /// An event not run under --rate: it was already later than --latency-limit when due.
    #[cold]
    pub fn record_skipped(&self) {
        self.stats.lock().counts.skipped += 1;
    }

    /// A keyed event (recorded by `record_statement_event`) slower than --latency-limit; apart,
    /// so the keyed loop pays only a comparison when the limit is off or met.
    #[cold]
    pub fn record_over_limit(&self) {
        self.stats.lock().counts.over_limit += 1;
    }

    /// Record one finished event: latencies, query counts and any ignorable errors.
    // Always inlined: with a second caller (the keyed loop's retries) the compiler stopped
    // inlining it into the general loop, which then cost ~30 more instructions per event.
    #[inline(always)]
    pub fn record_event(&self, e: &EventRecord<'_>) {
        let mut guard = self.stats.lock();
        let s = &mut *guard;
        let c = &mut s.counts;
        c.reads += e.reads;
        c.writes += e.writes;
        c.other += e.other;
        c.reconnects += e.reconnects;
        if e.completed {
            c.record_finished(e.response_ns);
            if let Some(l) = e.label {
                c.by_label[l as usize % event_counts::LABELS] += 1;
            }
            s.response.record(ns_to_us(e.response_ns));
            if e.paced {
                s.service.record(ns_to_us(e.service_ns));
            }
        }
        if e.late {
            c.late += 1;
        }
        if e.over_limit && e.completed {
            c.over_limit += 1;
        }
        if e.paced {
            // Over every paced event, not only late ones: "max lag 0.4 ms" says more than 0.
            c.max_lag_ns = c.max_lag_ns.max(e.lag_ns);
        }
        if !e.error_codes.is_empty() {
            c.errors += e.error_codes.len() as u64;
            for code in e.error_codes {
                match s.errors_by_code.iter_mut().find(|(c, _)| c == code) {
                    Some((_, n)) => *n += 1,
                    None => s.errors_by_code.push((code.clone(), 1)),
                }
            }
        }
    }
}
