//! The counters kept at every level of aggregation (a worker's cell, one interval of the run,
//! the whole run): `EventCounts` for events, `StmtCounts` for each statement kind. One type per
//! kind of figure, so adding a counter cannot miss a level.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EventCounts {
    /// Finished events (transactions).
    pub events: u64,
    pub reads: u64,
    pub writes: u64,
    pub other: u64,
    /// Ignorable errors that restarted an event.
    pub errors: u64,
    pub reconnects: u64,
    /// Events that started later than their intended time (under --rate).
    pub late: u64,
    pub max_lag_ns: u64,
    /// Finished events slower than --latency-limit, and events skipped under --rate because
    /// they were already later than it when due (pgbench's -L).
    pub over_limit: u64,
    pub skipped: u64,
    /// Exact sum, min and max of the finished events' response times.
    pub lat_sum_ns: u64,
    pub lat_min_ns: u64,
    pub lat_max_ns: u64,
    /// Finished events by the kind their workload gave them (`Exec::label`: TPC-C's five
    /// transactions); all zero for workloads that give none.
    pub by_label: [u64; LABELS],
}

/// Event kinds a workload may label its events with.
pub const LABELS: usize = 8;

impl Default for EventCounts {
    fn default() -> Self {
        Self::EMPTY
    }
}

impl EventCounts {
    pub const EMPTY: EventCounts = EventCounts {
        events: 0,
        reads: 0,
        writes: 0,
        other: 0,
        errors: 0,
        reconnects: 0,
        late: 0,
        max_lag_ns: 0,
        over_limit: 0,
        skipped: 0,
        lat_sum_ns: 0,
        lat_min_ns: u64::MAX,
        lat_max_ns: 0,
        by_label: [0; LABELS],
    };

    /// Whether anything was counted that a figure of the run adds up: events, errors,
    /// statements, or events skipped under --latency-limit (a stretch of only those is still
    /// part of the run's skipped total).
    pub fn any(&self) -> bool {
        self.events + self.errors + self.queries() + self.skipped > 0
    }

    /// One more finished event that took `ns`.
    #[inline]
    pub fn record_finished(&mut self, ns: u64) {
        self.events += 1;
        self.lat_sum_ns += ns;
        self.lat_min_ns = self.lat_min_ns.min(ns);
        self.lat_max_ns = self.lat_max_ns.max(ns);
    }

    /// Count the successes in `s` as finished events, each as long as its statement (events
    /// that were that statement alone).
    pub fn add_statement_events(&mut self, s: &StmtCounts) {
        self.events += s.count;
        self.lat_sum_ns += s.sum_ns;
        self.lat_min_ns = self.lat_min_ns.min(s.min_ns);
        self.lat_max_ns = self.lat_max_ns.max(s.max_ns);
    }

    pub fn queries(&self) -> u64 {
        self.reads + self.writes + self.other
    }

    /// (min, max, sum) of the response times in ns, for `summary::latency`; None without events.
    pub fn exact_latency(&self) -> Option<(u64, u64, u64)> {
        (self.events > 0).then_some((self.lat_min_ns, self.lat_max_ns, self.lat_sum_ns))
    }

    pub fn add(&mut self, o: &EventCounts) {
        self.events += o.events;
        self.reads += o.reads;
        self.writes += o.writes;
        self.other += o.other;
        self.errors += o.errors;
        self.reconnects += o.reconnects;
        self.late += o.late;
        self.max_lag_ns = self.max_lag_ns.max(o.max_lag_ns);
        self.over_limit += o.over_limit;
        self.skipped += o.skipped;
        self.lat_sum_ns += o.lat_sum_ns;
        self.lat_min_ns = self.lat_min_ns.min(o.lat_min_ns);
        self.lat_max_ns = self.lat_max_ns.max(o.lat_max_ns);
        for (a, b) in self.by_label.iter_mut().zip(o.by_label) {
            *a += b;
        }
    }
}

/// Executions of one statement kind: successes with the exact sum, min and max of their
/// latencies (so a statement's max is the same number as the max of the event containing it,
/// not its histogram bucket's upper edge), and failures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StmtCounts {
    pub count: u64,
    pub errors: u64,
    pub sum_ns: u64,
    pub min_ns: u64,
    pub max_ns: u64,
}

impl StmtCounts {
    pub const EMPTY: StmtCounts = StmtCounts {
        count: 0,
        errors: 0,
        sum_ns: 0,
        min_ns: u64::MAX,
        max_ns: 0,
    };

    #[inline]
    pub fn record_success(&mut self, ns: u64) {
        self.count += 1;
        self.sum_ns += ns;
        self.min_ns = self.min_ns.min(ns);
        self.max_ns = self.max_ns.max(ns);
    }

    /// (min, max, sum) in ns, for `summary::latency`; None when nothing succeeded.
    pub fn exact_latency(&self) -> Option<(u64, u64, u64)> {
        (self.count > 0).then_some((self.min_ns, self.max_ns, self.sum_ns))
    }

    pub fn add(&mut self, o: &StmtCounts) {
        self.count += o.count;
        self.errors += o.errors;
        self.sum_ns += o.sum_ns;
        self.min_ns = self.min_ns.min(o.min_ns);
        self.max_ns = self.max_ns.max(o.max_ns);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The closing interval of a run is kept only when its counts hold something; one whose
    /// last stretch only skipped events (--rate with --latency-limit on a starved worker) lost
    /// them from the intervals while the summary counted them.
    #[test]
    fn issue_5_skipped_events_alone_are_something_to_report() {
        assert!(!EventCounts::EMPTY.any());
        let skipped = EventCounts {
            skipped: 3,
            ..EventCounts::EMPTY
        };
        assert!(skipped.any());
        let errors = EventCounts {
            errors: 1,
            ..EventCounts::EMPTY
        };
        assert!(errors.any());
    }

    #[test]
    fn adding_keeps_sums_and_extremes_and_empty_is_neutral() {
        let a = EventCounts {
            events: 2,
            reads: 3,
            writes: 4,
            other: 5,
            errors: 1,
            reconnects: 1,
            late: 1,
            max_lag_ns: 7,
            over_limit: 1,
            skipped: 2,
            lat_sum_ns: 30,
            lat_min_ns: 10,
            lat_max_ns: 20,
            by_label: [1, 0, 2, 0, 0, 0, 0, 0],
        };
        let b = EventCounts {
            max_lag_ns: 3,
            lat_sum_ns: 45,
            lat_min_ns: 5,
            lat_max_ns: 40,
            ..a
        };
        let mut t = EventCounts::EMPTY;
        t.add(&a);
        assert_eq!(t, a);
        t.add(&b);
        assert_eq!(t.events, 4);
        assert_eq!((t.over_limit, t.skipped), (2, 4));
        assert_eq!(t.queries(), 24);
        assert_eq!(t.exact_latency(), Some((5, 40, 75)));
        assert_eq!(t.max_lag_ns, 7);
        assert_eq!(EventCounts::EMPTY.exact_latency(), None);
    }

    #[test]
    fn statement_counts_keep_exact_extremes_across_levels() {
        let mut a = StmtCounts::EMPTY;
        assert_eq!(a.exact_latency(), None);
        a.record_success(30);
        a.record_success(10);
        a.errors += 1;
        let mut b = StmtCounts::EMPTY;
        b.record_success(50);
        let mut t = StmtCounts::EMPTY;
        t.add(&a);
        t.add(&b);
        assert_eq!((t.count, t.errors), (3, 1));
        assert_eq!(t.exact_latency(), Some((10, 50, 90)));
    }
}
