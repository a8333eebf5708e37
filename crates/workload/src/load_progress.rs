//! A load's progress: messages on stdout (sysbench's per-table lines), and on a terminal a
//! progress bar on stderr with rows/s and ETA; shared by every workload's prepare.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// sysbench's per-table messages on stdout, and on a terminal a progress line on stderr with
/// rows/s and ETA.
pub struct LoadProgress {
    total: u64,
    /// Whether `total` is exact (the finish line is printed only for a load that reached it)
    /// or an estimate (TPC-C's order lines are drawn as they are loaded).
    exact: bool,
    done: AtomicU64,
    start: Instant,
    bar: Option<indicatif::ProgressBar>,
}

impl LoadProgress {
    pub fn new(total: u64) -> LoadProgress {
        // As sysbench (#42): its lines only, no bar.
        let bar = (std::io::stderr().is_terminal()
            && dbpress_core::verbosity::notices()
            && !dbpress_core::personality::is_sysbench())
        .then(|| {
            let b = indicatif::ProgressBar::new(total);
            b.set_style(
                indicatif::ProgressStyle::with_template(
                    "{bar:40} {pos}/{len} rows  {per_sec}  ETA {eta}",
                )
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
            );
            b.enable_steady_tick(Duration::from_millis(200));
            b
        });
        LoadProgress {
            total,
            exact: true,
            done: AtomicU64::new(0),
            start: Instant::now(),
            bar,
        }
    }

    pub fn say(&self, line: &str) {
        if !dbpress_core::verbosity::notices() {
            return;
        }
        match &self.bar {
            Some(b) => b.println(line),
            None => {
                let mut out = dbpress_core::out::Stdout;
                let _ = writeln!(out, "{line}");
            }
        }
    }

    pub fn add(&self, rows: u64) {
        self.done.fetch_add(rows, Ordering::Relaxed);
        if let Some(b) = &self.bar {
            b.inc(rows);
        }
    }

    /// Clear the bar of a load that stopped early and return the rows it loaded.
    pub fn stopped(&self) -> u64 {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
        self.done.load(Ordering::Relaxed)
    }

    pub fn finish(&self, path: &str) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
        let secs = self.start.elapsed().as_secs_f64();
        let done = self.done.load(Ordering::Relaxed);
        if done > 0
            && (done == self.total || !self.exact)
            && !dbpress_core::personality::is_sysbench()
        {
            dbpress_core::notice!(
                "Loaded {done} rows in {secs:.2}s ({:.0} rows/s) with {path}",
                done as f64 / secs.max(1e-9),
            );
        }
    }
}

impl LoadProgress {
    /// A progress line towards an estimated total.
    pub fn estimated(total: u64) -> LoadProgress {
        let mut p = LoadProgress::new(total);
        p.exact = false;
        p
    }

    /// Rows loaded so far.
    pub fn done(&self) -> u64 {
        self.done.load(Ordering::Relaxed)
    }
}
