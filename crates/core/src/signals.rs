//! SIGINT/SIGTERM: the first one stops the run cleanly (summary and result file cover what
//! ran); a second SIGINT exits at once.

use signal_hook::consts::{SIGINT, SIGTERM};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

pub struct Signals {
    int: Arc<AtomicBool>,
    term: Arc<AtomicBool>,
}

impl Signals {
    pub fn install() -> Signals {
        let int = Arc::new(AtomicBool::new(false));
        let term = Arc::new(AtomicBool::new(false));
        // Registration only fails for forbidden signals; these two are always allowed.
        let _ = signal_hook::flag::register_conditional_shutdown(SIGINT, 130, Arc::clone(&int));
        let _ = signal_hook::flag::register(SIGINT, Arc::clone(&int));
        let _ = signal_hook::flag::register(SIGTERM, Arc::clone(&term));
        Signals { int, term }
    }

    pub fn caught(&self) -> Option<&'static str> {
        if self.int.load(Ordering::Relaxed) {
            Some("SIGINT")
        } else if self.term.load(Ordering::Relaxed) {
            Some("SIGTERM")
        } else {
            None
        }
    }
}

/// Exit code for a run stopped by `signal`: 128 + the signal number, as shells report it.
pub fn exit_code(signal: &str) -> u8 {
    match signal {
        "SIGINT" => 130,
        _ => 143,
    }
}
