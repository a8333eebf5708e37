//! SIGINT, SIGTERM and SIGHUP: the first one asks the run to stop cleanly (its summary and
//! result file cover what ran); a second one of any of them ends the process at once, with one
//! line on stderr that says so. `timeout`, systemd and CI send SIGTERM and, when nothing
//! happens, SIGKILL: a phase that cannot notice the first request (a connection waiting on a
//! server that never answers, the wait for a hung server after `--time`) still ends on the
//! second. SIGHUP is a closed terminal or ssh session, treated as SIGTERM (`nohup` ignores it).

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::Once;

/// The first stop signal the process received, 0 for none.
static FIRST: AtomicI32 = AtomicI32::new(0);
static INSTALL: Once = Once::new();

/// The handlers are process-wide and installed once; each `Signals` reads what they saw.
pub struct Signals(());

impl Signals {
    pub fn install() -> Signals {
        INSTALL.call_once(|| {
            for sig in [SIGINT, SIGTERM, SIGHUP] {
                // SAFETY: the action only touches an atomic and, on a second signal, calls
                // write(2) and _exit(2), which are async-signal-safe.
                // Registration only fails for forbidden signals; these three are allowed.
                let _ = unsafe { signal_hook::low_level::register(sig, move || on_signal(sig)) };
            }
        });
        Signals(())
    }

    pub fn caught(&self) -> Option<&'static str> {
        name(FIRST.load(Ordering::Relaxed))
    }
}

fn name(sig: i32) -> Option<&'static str> {
    match sig {
        SIGINT => Some("SIGINT"),
        SIGTERM => Some("SIGTERM"),
        SIGHUP => Some("SIGHUP"),
        _ => None,
    }
}

/// In the signal handler: remember the first; end the process on the second.
fn on_signal(sig: i32) {
    if FIRST
        .compare_exchange(0, sig, Ordering::SeqCst, Ordering::SeqCst)
        .is_ok()
    {
        return;
    }
    let line: &[u8] = match sig {
        SIGINT => SECOND_SIGINT,
        SIGTERM => SECOND_SIGTERM,
        _ => SECOND_SIGHUP,
    };
    // SAFETY: write(2) and _exit(2) are async-signal-safe; `line` is a static buffer.
    unsafe {
        libc::write(2, line.as_ptr().cast(), line.len());
        libc::_exit(128 + sig);
    }
}

const SECOND_SIGINT: &[u8] =
    b"dbpress: a second SIGINT: stopped at once; no summary was printed and no result file was written\n";
const SECOND_SIGTERM: &[u8] =
    b"dbpress: a second SIGTERM: stopped at once; no summary was printed and no result file was written\n";
const SECOND_SIGHUP: &[u8] =
    b"dbpress: a second SIGHUP: stopped at once; no summary was printed and no result file was written\n";

/// Exit code for a run stopped by `signal`: 128 + the signal number, as shells report it.
pub fn exit_code(signal: &str) -> u8 {
    match signal {
        "SIGINT" => 130,
        "SIGHUP" => 129,
        _ => 143,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_exit_codes_agree() {
        for (sig, code) in [(SIGINT, 130), (SIGTERM, 143), (SIGHUP, 129)] {
            let n = name(sig).unwrap();
            assert_eq!(exit_code(n), code);
            assert_eq!(i32::from(code), 128 + sig);
        }
        assert_eq!(name(0), None);
    }
}
