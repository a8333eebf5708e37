//! `--verbosity=N`, sysbench's log level: 0 errors only, 1–2 also warnings and notices on
//! stderr, 3 (default) also the header, interval lines, messages and report on stdout, 4–5 also
//! sysbench's INFO lines at the end of a run ("Time limit exceeded, exiting...", "Done."), 5
//! also its DEBUG lines of each worker's start.
//! Errors are always printed; so is a JSON result asked for on stdout, which is data, not log.
//! One level for the whole process, as in sysbench, set once from the command line.

use std::sync::atomic::{AtomicU8, Ordering};

pub const DEFAULT: u8 = 3;

static LEVEL: AtomicU8 = AtomicU8::new(DEFAULT);

pub fn set(level: u8) {
    // sysbench's `--debug` logs everything, whatever `--verbosity` says.
    let level = if crate::personality::sysbench_debug() {
        5
    } else {
        level
    };
    LEVEL.store(level, Ordering::Relaxed);
}

/// Warnings and notices on stderr (sysbench's WARNING, level 2).
pub fn warnings() -> bool {
    LEVEL.load(Ordering::Relaxed) >= 2
}

/// The header, interval lines, progress messages and the report (sysbench's NOTICE, level 3).
pub fn notices() -> bool {
    LEVEL.load(Ordering::Relaxed) >= 3
}

/// `dbpress: warning: …` on stderr, at warning level.
pub fn warn(text: &str) {
    if warnings() {
        eprintln!("dbpress: warning: {text}");
    }
}

/// sysbench's INFO lines (level 4).
pub fn info() -> bool {
    LEVEL.load(Ordering::Relaxed) >= 4
}

/// sysbench's DEBUG lines (level 5): its workers' start and set-up.
pub fn debug() -> bool {
    LEVEL.load(Ordering::Relaxed) >= 5
}

/// `println!` at notice level: prepare's, cleanup's and check's messages.
#[macro_export]
macro_rules! notice {
    ($($arg:tt)*) => {
        if $crate::verbosity::notices() {
            $crate::outln!($($arg)*);
        }
    };
}
