//! The option rows of the tests of the machine, with sysbench's names, defaults and help.

use dbpress_core::options::table::{Alias, Group, Kind, Spec};

/// The help section of the tests of the machine.
pub const GROUP: Group =
    Group::Workload("Tests of the machine (cpu, memory, threads, mutex; no database)");

#[rustfmt::skip]
pub static OPTIONS: &[Spec] = &[
    Spec::new("cpu-max-prime", Kind::Int, "10000", GROUP, "upper limit for primes generator"),
    Spec::new("memory-block-size", Kind::Str, "1K", GROUP, "size of memory block for test"),
    Spec::new("memory-total-size", Kind::Str, "100G", GROUP, "total size of data to transfer"),
    Spec::new("memory-scope", Kind::Str, "global", GROUP, "memory access scope {global,local}"),
    Spec::new("memory-hugetlb", Kind::Bool, "off", GROUP, "allocate memory from HugeTLB pool"),
    Spec::new("memory-oper", Kind::Str, "write", GROUP, "type of memory operations {read, write, none}"),
    Spec::new("memory-access-mode", Kind::Str, "seq", GROUP, "memory access mode {seq,rnd}"),
    Spec::new("thread-yields", Kind::Int, "1000", GROUP, "number of yields to do per request"),
    Spec::new("thread-locks", Kind::Int, "8", GROUP, "number of locks per thread"),
    Spec::new("mutex-num", Kind::Int, "4096", GROUP, "total size of mutex array"),
    Spec::new("mutex-locks", Kind::Int, "50000", GROUP, "number of mutex locks to do per thread"),
    Spec::new("mutex-loops", Kind::Int, "10000", GROUP, "number of empty loops to do outside mutex lock"),
];

/// Options whose value is a size (`1K`, `100G`): sysbench's help shows them as `=SIZE`.
pub const SIZES: &[&str] = &["memory-block-size", "memory-total-size"];

pub static ALIASES: &[(&str, Alias)] = &[];

/// The options of the test `name`, as its help lists them.
pub fn of_test(name: &str) -> Vec<&'static Spec> {
    // The threads test's options are `thread-…`, the others' their test's name.
    let prefix = match name {
        "threads" => "thread-".to_string(),
        _ => format!("{name}-"),
    };
    OPTIONS
        .iter()
        .filter(|s| s.name.starts_with(&prefix))
        .collect()
}
