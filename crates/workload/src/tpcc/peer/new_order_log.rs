//! tpcc_start's `-f` and `-t` files (dbpress as tpcc_start, #42): a line per New-Order as each
//! client finishes one, from the start of the ramp-up to the clients' end. `-f`: every
//! New-Order, committed or rolled back on its unused item, as `TIME_COUNT RT` — the interval
//! counter (0 until the first tick, then the tick's seconds) and the response time in ms,
//! tries included. `-t`: every committed one, as `t_num: T finish: S NS start: S NS` — the
//! client (from 0) and the wall-clock times of its COMMIT's return and of its last attempt's
//! start.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

#[derive(Default)]
pub struct NewOrderLogs {
    rt: Option<Mutex<BufWriter<File>>>,
    trx: Option<Mutex<BufWriter<File>>>,
    /// tpcc_start's interval counter: the seconds of the last tick (0 before the first).
    time_count: AtomicI64,
}

/// One finished New-Order.
pub struct Finished {
    pub thread: u32,
    pub ms: f64,
    pub committed: bool,
    /// When its last attempt started.
    pub attempt_start: SystemTime,
}

impl NewOrderLogs {
    /// The files tpcc_start's `-f` and `-t` name, truncated; Err names a path that cannot be
    /// created and why (tpcc_start ignores it silently), the other file still kept.
    pub fn create(rt: Option<&str>, trx: Option<&str>) -> (NewOrderLogs, Vec<String>) {
        let mut refused = Vec::new();
        let mut open = |flag: char, path: Option<&str>| {
            let path = path?;
            match File::create(path) {
                Ok(f) => Some(Mutex::new(BufWriter::new(f))),
                Err(e) => {
                    refused.push(format!("-{flag} {path}: cannot be written ({e}): choose a writable path; the run goes on without it"));
                    None
                }
            }
        };
        let logs = NewOrderLogs {
            rt: open('f', rt),
            trx: open('t', trx),
            time_count: AtomicI64::new(0),
        };
        (logs, refused)
    }

    /// Whether a New-Order's times are wanted at all.
    pub fn wanted(&self) -> bool {
        self.rt.is_some() || self.trx.is_some()
    }

    /// A tick of the interval timer, `seconds` into the measurement.
    pub fn tick(&self, seconds: i64) {
        self.time_count.store(seconds, Ordering::Relaxed);
    }

    pub fn finished(&self, n: &Finished) {
        if let Some(f) = &self.rt {
            let count = self.time_count.load(Ordering::Relaxed);
            let mut f = f.lock().unwrap_or_else(|p| p.into_inner());
            let _ = writeln!(f, "{count} {:.3}", n.ms);
        }
        if let (Some(f), true) = (&self.trx, n.committed) {
            let (fs, fns) = since_epoch(SystemTime::now());
            let (ss, sns) = since_epoch(n.attempt_start);
            let mut f = f.lock().unwrap_or_else(|p| p.into_inner());
            let _ = writeln!(
                f,
                "t_num: {} finish: {fs} {fns} start: {ss} {sns}",
                n.thread
            );
        }
    }

    /// Write out what is buffered (at the run's end).
    pub fn flush(&self) {
        for f in [&self.rt, &self.trx].into_iter().flatten() {
            let _ = f.lock().unwrap_or_else(|p| p.into_inner()).flush();
        }
    }
}

fn since_epoch(t: SystemTime) -> (u64, u32) {
    let d = t.duration_since(UNIX_EPOCH).unwrap_or_default();
    (d.as_secs(), d.subsec_nanos())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_tpcc_starts() {
        let dir = std::env::temp_dir().join(format!("nolog-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (f, t) = (dir.join("f"), dir.join("t"));
        let (logs, refused) = NewOrderLogs::create(f.to_str(), t.to_str());
        assert!(refused.is_empty() && logs.wanted());
        let start = UNIX_EPOCH + std::time::Duration::new(1_700_000_000, 5);
        let n = |committed| Finished {
            thread: 1,
            ms: 6.9144,
            committed,
            attempt_start: start,
        };
        logs.finished(&n(true));
        logs.tick(2);
        logs.finished(&n(false));
        logs.flush();
        assert_eq!(std::fs::read_to_string(&f).unwrap(), "0 6.914\n2 6.914\n");
        let t = std::fs::read_to_string(&t).unwrap();
        assert!(t.starts_with("t_num: 1 finish: "), "{t}");
        assert!(t.ends_with(" start: 1700000000 5\n"), "{t}");
        assert_eq!(
            t.lines().count(),
            1,
            "a rolled-back New-Order has no -t line"
        );
        let (logs, refused) = NewOrderLogs::create(Some("/nonexistent-dir/f"), None);
        assert!(!logs.wanted());
        assert!(
            refused[0].starts_with("-f /nonexistent-dir/f: cannot be written"),
            "{refused:?}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
