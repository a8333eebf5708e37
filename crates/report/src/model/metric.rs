//! The figures a comparison's tables can show (`--metrics`): their names, titles, and a cell's
//! value, range and ratio to the baseline's.

use super::comparison::Cell;

/// A figure a table can show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Metric {
    Tps,
    Qps,
    P95,
    P99,
    Errors,
    Cpu,
    Written,
    Flushes,
    Net,
    Miss,
    Wait,
}

/// The metric names --metrics takes, for messages.
pub const METRIC_NAMES: &str = "tps, qps, p95, p99, err, cpu, written, flushes, net, miss or wait";

impl Metric {
    pub fn parse(s: &str) -> Option<Metric> {
        Some(match s {
            "tps" => Metric::Tps,
            "qps" => Metric::Qps,
            "p95" => Metric::P95,
            "p99" => Metric::P99,
            "err" => Metric::Errors,
            "cpu" => Metric::Cpu,
            "written" => Metric::Written,
            "flushes" => Metric::Flushes,
            "net" => Metric::Net,
            "miss" => Metric::Miss,
            "wait" => Metric::Wait,
            _ => return None,
        })
    }

    pub fn title(self) -> &'static str {
        match self {
            Metric::Tps => "TPS (higher is better)",
            Metric::Qps => "QPS (higher is better)",
            Metric::P95 => "p95 latency, ms (lower is better)",
            Metric::P99 => "p99 latency, ms (lower is better)",
            Metric::Errors => "ignored errors per second",
            Metric::Cpu => "server CPU per event, us (lower is better)",
            Metric::Written => "KiB written to the disk under the data per event",
            Metric::Flushes => "disk cache flushes per event",
            Metric::Net => "KiB through the sessions' network interface per event, both ways",
            Metric::Miss => "server cache misses, % of page requests (lower is better)",
            Metric::Wait => "most frequent server wait event of the run's sessions",
        }
    }

    /// (value, ratio to the baseline) of a cell.
    pub(crate) fn of(self, c: &Cell) -> (Option<f64>, Option<f64>) {
        let r = &c.vs_baseline;
        match self {
            Metric::Tps => (c.tps, r.tps),
            Metric::Qps => (c.qps, r.qps),
            Metric::P95 => (c.p95_ms, r.p95_ms),
            Metric::P99 => (c.p99_ms, r.p99_ms),
            // Mostly 0 in the baseline: a ratio would say nothing.
            Metric::Errors => (c.errors_per_s, None),
            Metric::Cpu => (c.server_cpu_us, r.server_cpu_us),
            Metric::Written => (c.disk_kib_per_event, r.disk_kib_per_event),
            Metric::Flushes => (c.disk_flushes_per_event, r.disk_flushes_per_event),
            Metric::Net => (c.net_kib_per_event, r.net_kib_per_event),
            // A share near 0 in the baseline: its ratio would say nothing.
            Metric::Miss => (c.cache_miss_pct, None),
            // Not a figure: the table shows the event (see `metric_table`).
            Metric::Wait => (None, None),
        }
    }

    /// The figure of a cell.
    pub fn value(self, c: &Cell) -> Option<f64> {
        self.of(c).0
    }

    /// [lowest, highest] of the figure over a group's runs.
    pub fn range(self, c: &Cell) -> Option<[f64; 2]> {
        let r = c.ranges.as_ref()?;
        match self {
            Metric::Tps => r.tps,
            Metric::Qps => r.qps,
            Metric::P95 => r.p95_ms,
            Metric::P99 => r.p99_ms,
            Metric::Errors => r.errors_per_s,
            Metric::Cpu => r.server_cpu_us,
            Metric::Written => r.disk_kib_per_event,
            Metric::Flushes => r.disk_flushes_per_event,
            Metric::Net => r.net_kib_per_event,
            Metric::Miss => r.cache_miss_pct,
            Metric::Wait => None,
        }
    }

    /// Decimals the tables write the figure with.
    pub(crate) fn precision(self) -> usize {
        match self {
            Metric::P95 | Metric::P99 => 3,
            Metric::Cpu | Metric::Written | Metric::Net => 1,
            Metric::Flushes => 3,
            _ => 2,
        }
    }
}
