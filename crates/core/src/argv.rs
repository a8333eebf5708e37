//! The process's own argument memory, which `ps` and /proc/PID/cmdline show to every user of
//! the machine for as long as the process runs. A password given on the command line is
//! overwritten there with `x`s once read, as the mysql client does; the copy the program
//! parsed (`std::env::args_os`) is its own and unchanged.

use std::ffi::{c_char, c_int};
use std::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};

static ARGC: AtomicUsize = AtomicUsize::new(0);
static ARGV: AtomicPtr<*mut c_char> = AtomicPtr::new(std::ptr::null_mut());

/// glibc calls the functions of `.init_array` with the program's argc, argv and envp before
/// `main`: the only portable way to the original argument memory on Linux.
extern "C" fn capture(argc: c_int, argv: *mut *mut c_char, _envp: *mut *mut c_char) {
    ARGC.store(argc.max(0) as usize, Ordering::Relaxed);
    ARGV.store(argv, Ordering::Relaxed);
}

#[used]
#[unsafe(link_section = ".init_array")]
static CAPTURE: extern "C" fn(c_int, *mut *mut c_char, *mut *mut c_char) = capture;

/// Overwrite bytes `range` of argument `index` (0 is the program's name) with `x`, where it is
/// in memory. Out-of-range requests are ignored.
pub fn blank(index: usize, range: std::ops::Range<usize>) {
    let argv = ARGV.load(Ordering::Relaxed);
    if argv.is_null() || index >= ARGC.load(Ordering::Relaxed) {
        return;
    }
    // SAFETY: argv has argc valid pointers to NUL-terminated strings owned by the process for
    // its whole life; only bytes before each string's terminator are written.
    unsafe {
        let arg = *argv.add(index);
        if arg.is_null() {
            return;
        }
        let len = std::ffi::CStr::from_ptr(arg).to_bytes().len();
        for k in range.start.min(len)..range.end.min(len) {
            *arg.add(k) = b'x' as c_char;
        }
    }
}

/// The bytes of `original` that differ from `redacted` (its copy with a secret replaced), as
/// the range between their common prefix and their common suffix; None when they are equal.
pub fn secret_range(original: &str, redacted: &str) -> Option<std::ops::Range<usize>> {
    if original == redacted {
        return None;
    }
    let (a, b) = (original.as_bytes(), redacted.as_bytes());
    let prefix = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let suffix = a[prefix..]
        .iter()
        .rev()
        .zip(b[prefix.min(b.len())..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    Some(prefix..a.len() - suffix)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_secret_is_what_the_redaction_changed() {
        assert_eq!(
            secret_range("--mysql-password=s3cret", "--mysql-password=***"),
            Some(17..23)
        );
        let url = "mysql://u:pw@h:3306/db";
        let r = secret_range(url, "mysql://u:***@h:3306/db").unwrap();
        assert_eq!(&url[r], "pw");
        assert_eq!(secret_range("-pabc", "-p***"), Some(2..5));
        assert_eq!(secret_range("same", "same"), None);
    }
}
