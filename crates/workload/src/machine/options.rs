//! The option rows of the tests of the machine, with sysbench's names, defaults and help.

use dbpress_core::options::table::{Alias, Group, Kind, Spec};
use std::fmt::Write;

/// The help section of the tests of the machine.
pub const GROUP: Group =
    Group::Workload("Tests of the machine (cpu, memory, threads, mutex, fileio; no database)");

#[rustfmt::skip]
pub static OPTIONS: &[Spec] = &[
    Spec::new("cpu-max-prime", Kind::Int, "10000", GROUP, "upper limit for primes generator"),
    Spec::new("memory-block-size", Kind::Str, "1K", GROUP, "size of memory block for test"),
    Spec::new("memory-total-size", Kind::Str, "100G", GROUP, "total size of data to transfer"),
    Spec::new("memory-scope", Kind::Str, "global", GROUP, "memory access scope {global,local}"),
    Spec::new("memory-hugetlb", Kind::Bool, "off", GROUP, "allocate memory from HugeTLB pool"),
    Spec::new("memory-oper", Kind::Str, "write", GROUP, "type of memory operations {read, write, none}"),
    Spec::new("memory-access-mode", Kind::Str, "seq", GROUP, "memory access mode {seq,rnd}"),
    Spec::new("file-num", Kind::Int, "128", GROUP, "number of files to create"),
    Spec::new("file-block-size", Kind::Int, "16384", GROUP, "block size to use in all IO operations"),
    Spec::new("file-total-size", Kind::Str, "2G", GROUP, "total size of files to create"),
    Spec::new("file-test-mode", Kind::Str, "", GROUP, "test mode {seqwr, seqrewr, seqrd, rndrd, rndwr, rndrw}"),
    Spec::new("file-io-mode", Kind::Str, "sync", GROUP, "file operations mode {sync,async,mmap}"),
    Spec::new("file-async-backlog", Kind::Int, "128", GROUP, "number of asynchronous operatons to queue per thread"),
    Spec::new("file-extra-flags", Kind::List, "", GROUP, "list of additional flags to use to open files {sync,dsync,direct}"),
    Spec::new("file-fsync-freq", Kind::Int, "100", GROUP, "do fsync() after this number of requests (0 - don't use fsync())"),
    Spec::new("file-fsync-all", Kind::Bool, "off", GROUP, "do fsync() after each write operation"),
    Spec::new("file-fsync-end", Kind::Bool, "on", GROUP, "do fsync() at the end of test"),
    Spec::new("file-fsync-mode", Kind::Str, "fsync", GROUP, "which method to use for synchronization {fsync, fdatasync}"),
    Spec::new("file-merged-requests", Kind::Int, "0", GROUP, "merge at most this number of IO requests if possible (0 - don't merge)"),
    Spec::new("file-rw-ratio", Kind::Float, "1.5", GROUP, "reads/writes ratio for combined test"),
    Spec::new("thread-yields", Kind::Int, "1000", GROUP, "number of yields to do per request"),
    Spec::new("thread-locks", Kind::Int, "8", GROUP, "number of locks per thread"),
    Spec::new("mutex-num", Kind::Int, "4096", GROUP, "total size of mutex array"),
    Spec::new("mutex-locks", Kind::Int, "50000", GROUP, "number of mutex locks to do per thread"),
    Spec::new("mutex-loops", Kind::Int, "10000", GROUP, "number of empty loops to do outside mutex lock"),
];

/// Options whose value is a size (`1K`, `100G`): sysbench's help shows them as `=SIZE`.
pub const SIZES: &[&str] = &["memory-block-size", "memory-total-size", "file-total-size"];

pub static ALIASES: &[(&str, Alias)] = &[];

/// The options of the test `name`, as its help lists them.
pub fn of_test(name: &str) -> Vec<&'static Spec> {
    // The threads test's options are `thread-…`, fileio's `file-…`, the others' their test's.
    let prefix = match name {
        "threads" => "thread-".to_string(),
        "fileio" => "file-".to_string(),
        _ => format!("{name}-"),
    };
    OPTIONS
        .iter()
        .filter(|s| s.name.starts_with(&prefix))
        .collect()
}

/// The test's options as sysbench's help lists them (`fileio options:`, a row each aligned as
/// sysbench aligns them, a blank line): its `help`, and what follows its error for a missing
/// `--file-test-mode`.
pub fn help_rows(name: &str) -> String {
    let rows: Vec<(String, String)> = of_test(name)
        .into_iter()
        .map(|o| {
            let shape = match o.kind {
                _ if SIZES.contains(&o.name) => "=SIZE",
                Kind::Bool => "[=on|off]",
                Kind::Int | Kind::Float => "=N",
                Kind::Str => "=STRING",
                Kind::List => "=[LIST,...]",
            };
            // A list shows its empty default; an option without one shows none.
            let default = match o.default {
                "" if o.kind == Kind::List => " []".to_string(),
                "" => String::new(),
                d => format!(" [{d}]"),
            };
            (
                format!("--{}{shape}", o.name),
                format!("{}{default}", o.help),
            )
        })
        .collect();
    let width = rows.iter().map(|(f, _)| f.len()).max().unwrap_or(0);
    let mut s = format!("{name} options:\n");
    for (flag, help) in rows {
        let _ = writeln!(s, "  {flag:<width$} {help}");
    }
    s.push('\n');
    s
}
