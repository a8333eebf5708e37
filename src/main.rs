use std::sync::atomic::{AtomicBool, Ordering};

fn main() -> std::process::ExitCode {
    // A panic is a bug in dbpress: say so in one line, once (a worker's panic is re-raised
    // when its thread is joined), instead of a backtrace meant for its developers.
    static REPORTED: AtomicBool = AtomicBool::new(false);
    std::panic::set_hook(Box::new(|info| {
        if REPORTED.swap(true, Ordering::Relaxed) {
            return;
        }
        let what = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown cause".into());
        let place = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        eprintln!(
            "dbpress: internal error (a bug in dbpress): {what}{place}: please report it with the command that caused it"
        );
    }));
    // `std::env::args` panics on an argument that is not UTF-8: read them raw and refuse such
    // one in a line (every option and name dbpress knows is text).
    let mut args = Vec::new();
    // The program's name picks who dbpress is (a link named `sysbench`, #42); not UTF-8, it
    // is not a peer's name.
    let program = std::env::args_os()
        .next()
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_default();
    for (i, a) in std::env::args_os().enumerate().skip(1) {
        match a.into_string() {
            Ok(s) => args.push(s),
            Err(raw) => {
                let shown: String = raw.to_string_lossy().chars().take(80).collect();
                eprintln!(
                    "dbpress: error: argument {i} ('{shown}') is not valid UTF-8: give options, names and paths as UTF-8 text"
                );
                return std::process::ExitCode::from(2);
            }
        }
    }
    dbpress::hide_secrets_from_ps(&program, &args);
    std::process::ExitCode::from(dbpress::main_with_program(&program, &args))
}
