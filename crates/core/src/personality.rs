//! Who dbpress is in this process: itself, or a peer tool it stands in for (#42). Invoked
//! through a link named `sysbench` (or with `--compat=sysbench`) it prints what sysbench 1.0.20
//! prints — its first line, header, report and error lines — and exits with sysbench's codes,
//! and nothing of its own; its additions stay one option away (`--output=r.json`, `--store`).
//!
//! One value for the whole process, set once where argv is read, as the verbosity is: the
//! header, the report and the error line are written far apart, and each asks it here.

use std::sync::atomic::{AtomicU8, Ordering};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Personality {
    Dbpress = 0,
    /// sysbench 1.0.20, as Debian 12 packages it.
    Sysbench = 1,
    /// pgbench of PostgreSQL 15, or 16 or 17 when asked (`pgbench_version`).
    Pgbench = 2,
    /// mysqlslap of MariaDB 10.11, as Debian 12 packages it (also under its name `mariadb-slap`).
    Mysqlslap = 3,
    /// tpcc-mysql's tpcc_start at its last commit (1ec1c5e).
    TpccStart = 4,
    /// tpcc-mysql's tpcc_load at the same commit.
    TpccLoad = 5,
}

/// What sysbench 1.0.20 (Debian's package, the peer the tests compare with) prints first.
pub const SYSBENCH_FIRST_LINE: &str = "sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)";
/// What `sysbench --version` prints.
pub const SYSBENCH_VERSION: &str = "sysbench 1.0.20";
/// The pgbench releases dbpress speaks as, by major version, with the version their banner
/// and `--version` name: Debian 12's pgbench (the default) and Debian 13's, the peers the tests
/// compare with; and 16 as the build in the `pgserver` Python wheel names itself (16.2), the
/// only pgbench 16 this machine's package sources have.
pub const PGBENCH_RELEASES: [(u8, &str); 3] = [
    (15, "15.18 (Debian 15.18-0+deb12u1)"),
    (16, "16.2"),
    (17, "17.12 (Debian 17.12-0+deb13u1)"),
];

static SYSBENCH_DEBUG: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// As sysbench, `--debug` was given on: everything is logged (`verbosity::set` gives 5),
/// `Debug mode enabled.` is said in the header, and each thread's figures after the report.
pub fn set_sysbench_debug(on: bool) {
    SYSBENCH_DEBUG.store(on, Ordering::Relaxed);
}

/// Whether sysbench's `--debug` is on (only ever under its personality).
pub fn sysbench_debug() -> bool {
    SYSBENCH_DEBUG.load(Ordering::Relaxed)
}

/// The variable that picks the pgbench release a `pgbench` link speaks as (`17`).
pub const PGBENCH_VERSION_VARIABLE: &str = "DBPRESS_PGBENCH_VERSION";

static PGBENCH_MAJOR: AtomicU8 = AtomicU8::new(15);

/// Speak as pgbench of PostgreSQL `major` (one of `PGBENCH_RELEASES`).
pub fn set_pgbench_major(major: u8) {
    PGBENCH_MAJOR.store(major, Ordering::Relaxed);
}

/// The major version of the pgbench dbpress speaks as.
pub fn pgbench_major() -> u8 {
    PGBENCH_MAJOR.load(Ordering::Relaxed)
}

/// The version the banner and `--version` name.
pub fn pgbench_version() -> &'static str {
    let major = pgbench_major();
    PGBENCH_RELEASES
        .iter()
        .find(|(m, _)| *m == major)
        .map_or(PGBENCH_RELEASES[0].1, |(_, v)| v)
}

/// The names `--compat=` takes, and the links `install-links` makes for each.
pub const PEERS: [(&str, Personality); 5] = [
    ("sysbench", Personality::Sysbench),
    ("pgbench", Personality::Pgbench),
    ("mysqlslap", Personality::Mysqlslap),
    ("tpcc_start", Personality::TpccStart),
    ("tpcc_load", Personality::TpccLoad),
];

static CURRENT: AtomicU8 = AtomicU8::new(Personality::Dbpress as u8);

pub fn set(p: Personality) {
    CURRENT.store(p as u8, Ordering::Relaxed);
}

pub fn current() -> Personality {
    match CURRENT.load(Ordering::Relaxed) {
        1 => Personality::Sysbench,
        2 => Personality::Pgbench,
        3 => Personality::Mysqlslap,
        4 => Personality::TpccStart,
        5 => Personality::TpccLoad,
        _ => Personality::Dbpress,
    }
}

/// Whether dbpress speaks as sysbench in this process.
pub fn is_sysbench() -> bool {
    current() == Personality::Sysbench
}

/// Whether dbpress speaks as pgbench in this process.
pub fn is_pgbench() -> bool {
    current() == Personality::Pgbench
}

/// Whether a peer speaks (dbpress's own notices and checks stay quiet).
pub fn is_peer() -> bool {
    current() != Personality::Dbpress
}

impl Personality {
    /// The personality a program name gives (`argv[0]`, a path or a bare name): a link named
    /// after a peer; dbpress for any other name.
    pub fn of_program(argv0: &str) -> Personality {
        let base = std::path::Path::new(argv0)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        match base.as_str() {
            // MariaDB's own name for its mysqlslap.
            "mariadb-slap" => Personality::Mysqlslap,
            _ => Personality::named(&base).unwrap_or(Personality::Dbpress),
        }
    }

    /// The peer `--compat=NAME` names, if dbpress stands in for it.
    pub fn named(name: &str) -> Option<Personality> {
        PEERS.iter().find(|(n, _)| *n == name).map(|(_, p)| *p)
    }

    /// The first line a run, prepare or cleanup prints, before a blank line.
    pub fn first_line(self) -> String {
        match self {
            Personality::Dbpress => format!("dbpress {} (sysbench-compatible)", version()),
            Personality::Sysbench => SYSBENCH_FIRST_LINE.to_string(),
            Personality::Pgbench => format!("pgbench ({})", pgbench_version()),
            // mysqlslap prints no first line before a run.
            Personality::Mysqlslap | Personality::TpccStart | Personality::TpccLoad => {
                String::new()
            }
        }
    }
}

static FIRST_LINE_SAID: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// The first line for the current personality, to be printed: remembered as said.
pub fn first_line() -> String {
    FIRST_LINE_SAID.store(true, Ordering::Relaxed);
    current().first_line()
}

/// The first line and its blank line, to be printed where a command's text begins; as
/// sysbench, said once per process (it says it before it loads a script, whose top level may
/// print before the command does), so empty when said already.
pub fn first_line_block() -> String {
    if is_sysbench() && first_line_said() {
        return String::new();
    }
    format!("{}\n\n", first_line())
}

/// Whether the first line was printed already.
pub fn first_line_said() -> bool {
    FIRST_LINE_SAID.load(Ordering::Relaxed)
}

/// An error's words: sysbench's, as it prints them, under its personality; dbpress's own (with
/// the fix) otherwise.
pub fn words(sysbench: impl FnOnce() -> String, dbpress: impl FnOnce() -> String) -> String {
    if is_sysbench() {
        sysbench()
    } else {
        dbpress()
    }
}

/// A value an option cannot take: under sysbench's personality the `FATAL:` line sysbench
/// prints for it (`sysbench`), else dbpress's usage error with the fix.
pub fn refused(sysbench: String, dbpress: impl FnOnce() -> String) -> crate::error::Error {
    if is_sysbench() {
        crate::error::failed(sysbench)
    } else {
        crate::error::usage(dbpress())
    }
}

/// sysbench's errors about the command line, which it prints on stderr without `FATAL:`.
pub fn said_without_fatal(message: &str) -> bool {
    [
        "invalid option: ",
        "Unknown command: ",
        "Invalid value for the ",
        "Unrecognized command line argument: ",
    ]
    .iter()
    .any(|p| message.starts_with(p))
        || (message.starts_with('\'') && message.contains("' test does not implement the '"))
}

/// sysbench's errors that come after its first line (it reads the test's options, the test
/// and the command after printing it; its general options before).
pub fn follows_first_line(message: &str) -> bool {
    [
        "invalid option: ",
        "Unknown command: ",
        "Cannot find benchmark ",
        "Invalid value for memory-",
        "Invalid value for file-",
        "Invalid value of cpu-max-prime",
        // A test's own option that is no number (cpu_max_prime, file_num, memory_block_size…).
        "Invalid value for the 'cpu_",
        "Invalid value for the 'file_",
        "Invalid value for the 'memory_",
        "Invalid value for the 'thread_yields'",
        "Invalid value for the 'thread_locks'",
        "Invalid value for the 'mutex_",
        "Missing required argument: ",
        "Invalid IO operations mode: ",
        "unknown I/O mode: ",
        "Invalid fsync mode: ",
    ]
    .iter()
    .any(|p| message.starts_with(p))
        || (message.starts_with("The '") && message.contains("' test requires a command argument"))
}

/// dbpress's own version (the workspace's); the result crate names it for results.
fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_named_sysbench_is_sysbench_wherever_it_lies() {
        assert_eq!(Personality::of_program("sysbench"), Personality::Sysbench);
        assert_eq!(
            Personality::of_program("/usr/local/bin/sysbench"),
            Personality::Sysbench
        );
        assert_eq!(Personality::of_program("/x/dbpress"), Personality::Dbpress);
        assert_eq!(Personality::of_program("sysbench2"), Personality::Dbpress);
        assert_eq!(Personality::named("sysbench"), Some(Personality::Sysbench));
        assert_eq!(Personality::named("pgbench"), Some(Personality::Pgbench));
        assert_eq!(
            Personality::named("mysqlslap"),
            Some(Personality::Mysqlslap)
        );
        assert_eq!(
            Personality::of_program("/usr/bin/mariadb-slap"),
            Personality::Mysqlslap
        );
        assert_eq!(
            Personality::named("tpcc_start"),
            Some(Personality::TpccStart)
        );
        assert_eq!(Personality::named("tpcc_load"), Some(Personality::TpccLoad));
    }
}
