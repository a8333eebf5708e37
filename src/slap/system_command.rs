//! mysqlslap's `--pre-system`/`--post-system`: `sh -c CMD` before and after each round. A
//! failure is a warning and the rounds go on, as in mysqlslap.

use std::io::Write;

/// Whose run it is, which decides where the command's output goes and who warns.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Voice {
    /// `dbpress slap`: the command's output on stderr (stdout keeps the report, or `--csv`
    /// alone); a failure in dbpress's words, without the command (it may hold a password).
    Dbpress,
    /// As mysqlslap, whose `system()` leaves the command its stdout, and which warns on stderr
    /// with the wait status as the C library gives it (`returned 32512.` for exit code 127).
    Mysqlslap,
}

/// Run `cmd` for `option` (`--pre-system`), as `voice` runs it.
pub fn run(option: &str, cmd: &str, voice: Voice) {
    use std::os::fd::AsFd;
    use std::os::unix::process::ExitStatusExt;
    let mut c = std::process::Command::new("sh");
    c.arg("-c").arg(cmd);
    if voice == Voice::Dbpress {
        if let Ok(fd) = std::io::stderr().as_fd().try_clone_to_owned() {
            c.stdout(fd);
        }
    }
    let _ = std::io::stdout().flush();
    let status = c.status();
    if voice == Voice::Mysqlslap {
        let raw = status.map_or(-1, |s| s.into_raw());
        if raw != 0 {
            let name = option.trim_start_matches('-').replace('-', "_");
            eprintln!("Warning: Execution of {name} option returned {raw}.");
        }
        return;
    }
    match status {
        Ok(s) if s.success() => {}
        Ok(s) => dbpress_core::verbosity::warn(&format!(
            "the {option} command exited with {}; the rounds go on",
            s.code()
                .map_or("a signal".to_string(), |c| format!("status {c}"))
        )),
        Err(e) => dbpress_core::verbosity::warn(&format!(
            "the {option} command could not start: {e}; the rounds go on"
        )),
    }
}
