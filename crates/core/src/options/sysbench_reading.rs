//! Where sysbench 1.0.20 reads a command line otherwise than dbpress (#42), for its
//! personality: `--config-file` and the four deprecated spellings of 1.0.
//!
//! sysbench reads `--config-file` where it stands among the options (an option after it wins
//! over the file, one before it loses), before it knows any test's or script's options, so
//! only the general, random-number and driver options of a file apply; a line applies only as
//! `name=value` with the name at the line's very start, its value the first word after `=` (or
//! a quoted string); any other line, and a name it does not know, are passed over in silence.
//! A file it cannot open is said on stderr and the run goes on without it. (dbpress's own
//! reading applies every option of a file and refuses a line it cannot read.)
//!
//! `--num-threads`, `--max-requests`, `--max-time` and `--tx-rate`, given a value other than
//! their default, win over the current names wherever those stand, each with sysbench's
//! `WARNING:` line on stdout before anything else; given their default, they do nothing.
//!
//! And `--rand-type` defaults to sysbench 1.0.20's `special`.

use super::table::{Group, Table};
use super::OptionValues;
use crate::error::{usage, Result};
use std::sync::atomic::{AtomicBool, Ordering};

/// sysbench 1.0's deprecated spellings in the order it warns of them: the current name, and
/// the value that leaves them unset.
const DEPRECATED: [(&str, &str, u64); 4] = [
    ("num-threads", "threads", 1),
    ("max-requests", "events", 0),
    ("max-time", "time", 0),
    ("tx-rate", "rate", 0),
];

/// Whether `name` (with dashes) is one of sysbench 1.0's deprecated spellings.
pub(super) fn is_deprecated(name: &str) -> bool {
    DEPRECATED.iter().any(|(old, _, _)| *old == name)
}

/// The warnings are said once: a command line is read more than once (a Lua script's twice).
static WARNED: AtomicBool = AtomicBool::new(false);
/// The same for a config file that cannot be read.
static UNREAD_SAID: AtomicBool = AtomicBool::new(false);

/// Apply the deprecated spellings `given` (name with dashes, value; the last of each wins) to
/// `opts`, saying sysbench's warning for each that takes effect.
pub(super) fn apply_deprecated(opts: &mut OptionValues, given: &[(String, String)]) -> Result<()> {
    let mut warnings = Vec::new();
    for (old, new, default) in DEPRECATED {
        let Some((_, raw)) = given.iter().rev().find(|(n, _)| n == old) else {
            continue;
        };
        let v: u64 = raw
            .trim()
            .parse()
            .map_err(|_| usage(super::values::sysbench_invalid(old, raw)))?;
        if v != default {
            opts.set(new, raw.trim().to_string());
            warnings.push(format!(
                "WARNING: --{old} is deprecated, use --{new} instead"
            ));
        }
    }
    if !warnings.is_empty() && !WARNED.swap(true, Ordering::Relaxed) {
        for w in warnings {
            crate::outln!("{w}");
        }
    }
    Ok(())
}

/// sysbench 1.0.20 draws keys by its `special` distribution unless told otherwise (its help
/// says `[special]`); dbpress's own default is `uniform`, as sysbench master's. As sysbench,
/// the same keys are hot as under sysbench, so the server does the same work.
pub(super) fn default_distribution(opts: &mut OptionValues) {
    if !opts.is_set("rand-type") && opts.table().find("rand-type").is_some() {
        opts.set("rand-type", "special");
    }
}

/// `args` with each `--config-file` replaced, where it stands, by the options sysbench takes
/// from its file (as `--name=value`).
pub(super) fn expand_config_files(table: &Table, args: &[String]) -> Vec<String> {
    let mut out = Vec::with_capacity(args.len());
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        i += 1;
        let norm = a.replace('_', "-");
        let path = if let Some(p) = norm.strip_prefix("--config-file=") {
            a[a.len() - p.len()..].to_string()
        } else if norm == "--config-file" {
            // No value: sysbench reads no file, and the next word stays a word.
            continue;
        } else {
            out.push(a.clone());
            continue;
        };
        match std::fs::read_to_string(&path) {
            Ok(text) => out.extend(text.lines().filter_map(|l| option_of_line(table, l))),
            Err(e) if !UNREAD_SAID.swap(true, Ordering::Relaxed) => {
                eprintln!("{path}: {}", os_words(&e))
            }
            Err(_) => {}
        }
    }
    out
}

/// The C library's words for an I/O error (`No such file or directory`), without Rust's
/// ` (os error 2)`.
fn os_words(e: &std::io::Error) -> String {
    let text = e.to_string();
    match text.find(" (os error") {
        Some(at) => text[..at].to_string(),
        None => text,
    }
}

/// One line of a config file as the option it gives, when sysbench takes it.
fn option_of_line(table: &Table, line: &str) -> Option<String> {
    let (name, rest) = line.split_once('=')?;
    if name.is_empty() || name.chars().any(char::is_whitespace) {
        return None;
    }
    let key = name.replace('_', "-");
    let known = table
        .find(&key)
        .is_some_and(|s| !matches!(s.group, Group::Workload(_)))
        || is_deprecated(&key);
    if !known {
        return None;
    }
    Some(format!("--{name}={}", first_value(rest)))
}

/// The value after `=`: blanks skipped, then a quoted string (empty when the quote is not
/// closed) or the word up to the next blank.
fn first_value(rest: &str) -> String {
    let rest = rest.trim_start();
    for quote in ['"', '\''] {
        if let Some(inner) = rest.strip_prefix(quote) {
            return inner
                .split_once(quote)
                .map_or(String::new(), |(v, _)| v.to_string());
        }
    }
    rest.split(char::is_whitespace)
        .next()
        .unwrap_or("")
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn issue_42_config_file_lines_as_sysbench_reads_them() {
        let t = Table::general();
        let line = |l: &str| option_of_line(&t, l);
        assert_eq!(line("threads=2"), Some("--threads=2".into()));
        assert_eq!(line("threads= 2 # two"), Some("--threads=2".into()));
        assert_eq!(line("threads='3'"), Some("--threads=3".into()));
        assert_eq!(line("threads=\"3"), Some("--threads=".into()));
        assert_eq!(line("num_threads=2"), Some("--num_threads=2".into()));
        assert_eq!(line("events=5#x"), Some("--events=5#x".into()));
        for ignored in [
            " threads=2",
            "threads =2",
            "--threads=2",
            "#threads=2",
            "threads",
            "THREADS=2",
            "nosuch=1",
            "config-file=x.cfg",
        ] {
            assert_eq!(line(ignored), None, "{ignored}");
        }
    }
}
