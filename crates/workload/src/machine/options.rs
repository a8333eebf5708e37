//! The option rows of the tests of the machine, with sysbench's names, defaults and help.

use dbpress_core::options::table::{Alias, Group, Kind, Spec};

/// The help section of the tests of the machine.
pub const GROUP: Group = Group::Workload("Tests of the machine (cpu; no database)");

#[rustfmt::skip]
pub static OPTIONS: &[Spec] = &[
    Spec::new("cpu-max-prime", Kind::Int, "10000", GROUP, "upper limit for primes generator"),
];

pub static ALIASES: &[(&str, Alias)] = &[];

/// The options of the test `name`, as its help lists them.
pub fn of_test(name: &str) -> Vec<&'static Spec> {
    let prefix = format!("{name}-");
    OPTIONS
        .iter()
        .filter(|s| s.name.starts_with(&prefix))
        .collect()
}
