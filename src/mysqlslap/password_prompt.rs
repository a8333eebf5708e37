//! `-p` without a value: mysqlslap asks for the password as MariaDB's client library does. With
//! a terminal, the prompt goes to it and the answer is read from it without echo, a newline
//! after; without one, the prompt goes to stderr and the answer is stdin's first line.

use std::io::{BufRead, Write};
use std::os::fd::AsRawFd;

const PROMPT: &str = "Enter password: ";

/// The password typed (without its line end); empty when nothing could be read.
pub fn ask() -> String {
    match std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/tty")
    {
        Ok(tty) => from_terminal(tty),
        Err(_) => {
            eprint!("{PROMPT}");
            let _ = std::io::stderr().flush();
            let mut line = String::new();
            let _ = std::io::stdin().lock().read_line(&mut line);
            trimmed(line)
        }
    }
}

fn from_terminal(mut tty: std::fs::File) -> String {
    let _ = write!(tty, "{PROMPT}");
    let _ = tty.flush();
    let fd = tty.as_raw_fd();
    // SAFETY: termios is plain data, filled by tcgetattr for this open terminal.
    let mut saved: libc::termios = unsafe { std::mem::zeroed() };
    let have = unsafe { libc::tcgetattr(fd, &mut saved) } == 0;
    if have {
        let mut quiet = saved;
        quiet.c_lflag &= !libc::ECHO;
        // SAFETY: a termios copied from the terminal's own, echo turned off.
        unsafe { libc::tcsetattr(fd, libc::TCSAFLUSH, &quiet) };
    }
    let mut line = String::new();
    let _ = std::io::BufReader::new(&tty).read_line(&mut line);
    if have {
        // SAFETY: the terminal's settings as they were.
        unsafe { libc::tcsetattr(fd, libc::TCSAFLUSH, &saved) };
    }
    let _ = writeln!(tty);
    trimmed(line)
}

fn trimmed(mut line: String) -> String {
    while line.ends_with(['\n', '\r']) {
        line.pop();
    }
    line
}
