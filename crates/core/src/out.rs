//! Standard output that a closed pipe or a full disk cannot turn into a panic. `println!`
//! panics when stdout fails (`dbpress … | head` closes the pipe after ten lines; `> /dev/full`
//! fills), which ended a run with exit 101 before its result file was written. Everything
//! dbpress prints goes through here instead: a failed write is remembered and skipped, the
//! command finishes its work (the result file included), and `main` then ends as a Unix tool
//! does — quietly with 141 (128 + SIGPIPE) for a closed pipe, with one line and exit 2 for any
//! other failure.

use std::io::{self, Write};
use std::sync::Mutex;

/// The first write to stdout that failed.
static FAILED: Mutex<Option<io::ErrorKind>> = Mutex::new(None);

fn remember(e: &io::Error) {
    let mut f = FAILED.lock().unwrap_or_else(|p| p.into_inner());
    if f.is_none() {
        *f = Some(e.kind());
    }
}

/// How the first failed write to stdout failed, if one did.
pub fn failure() -> Option<io::ErrorKind> {
    *FAILED.lock().unwrap_or_else(|p| p.into_inner())
}

/// The process's stdout as a `Write` that never fails: a failed write is remembered (see
/// `failure`) and the bytes are dropped, so a report goes on to its end and its result file.
pub struct Stdout;

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if failure().is_some() {
            return Ok(buf.len());
        }
        match io::stdout().write_all(buf) {
            Ok(()) => Ok(buf.len()),
            Err(e) => {
                remember(&e);
                Ok(buf.len())
            }
        }
    }

    /// A formatted write is made whole first and written under one lock, so lines printed by
    /// several threads at once (a load's progress) do not interleave.
    fn write_fmt(&mut self, args: std::fmt::Arguments<'_>) -> io::Result<()> {
        let text = std::fmt::format(args);
        self.write_all(text.as_bytes())
    }

    fn flush(&mut self) -> io::Result<()> {
        if failure().is_none() {
            if let Err(e) = io::stdout().flush() {
                remember(&e);
            }
        }
        Ok(())
    }
}

/// `print!` through `Stdout`.
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => {{
        use ::std::io::Write as _;
        let _ = write!($crate::out::Stdout, $($arg)*);
    }};
}

/// `println!` through `Stdout`.
#[macro_export]
macro_rules! outln {
    () => {{
        use ::std::io::Write as _;
        let _ = writeln!($crate::out::Stdout);
    }};
    ($($arg:tt)*) => {{
        use ::std::io::Write as _;
        let _ = writeln!($crate::out::Stdout, $($arg)*);
    }};
}
