//! The workloads dbpress knows by name: the list `dbpress list` prints, the one a name and its
//! options build, and the option table with every workload's rows.

use crate::workload::Workload;
use crate::{bulk_insert, machine, oltp, tpcc};
use dbpress_core::error::{usage, Result};
use dbpress_core::options::table::{Group, Table};
use dbpress_core::options::OptionValues;

/// Every option dbpress takes: core's general, driver and output rows, then each workload's
/// own. Assembled here and nowhere else; the binary installs it once at start
/// (`dbpress_core::options::table::install`), and a Lua script's rows are declared on it (#41).
pub fn options() -> Table {
    Table::general()
        .with(oltp::options::OPTIONS, oltp::options::ALIASES)
        .with(tpcc::options::OPTIONS, tpcc::options::ALIASES)
        .with(machine::options::OPTIONS, machine::options::ALIASES)
}

/// The help section of the workload `name`'s own options (bulk_insert shows OLTP's, as in
/// sysbench).
pub fn help_group(name: &str) -> Group {
    if name == tpcc::NAME {
        tpcc::options::GROUP
    } else if machine::is_machine_test(name) {
        machine::options::GROUP
    } else {
        oltp::options::GROUP
    }
}

/// (name, one-line description) of every workload, for `dbpress list`.
pub fn list() -> Vec<(&'static str, &'static str)> {
    let mut all: Vec<_> = oltp::VARIANTS
        .iter()
        .map(|v| (v.name, v.description))
        .collect();
    all.push((bulk_insert::NAME, bulk_insert::DESCRIPTION));
    all.push((tpcc::NAME, tpcc::DESCRIPTION));
    all.extend(machine::TESTS);
    all
}

/// The workload `name` configured from `opts`, for a run of `threads` sessions (per-thread
/// state such as bulk_insert's tables is sized by it) with the run's `seed` (for sequences
/// shared by all threads, such as oltp_insert's unique ids).
pub fn build(
    name: &str,
    opts: &OptionValues,
    threads: u32,
    seed: u64,
) -> Result<Box<dyn Workload>> {
    known(name)?;
    if name == tpcc::NAME {
        return Ok(Box::new(tpcc::Tpcc::new(opts, seed)?));
    }
    if machine::is_machine_test(name) {
        return machine::build(name, opts);
    }
    if name == bulk_insert::NAME {
        return Ok(Box::new(bulk_insert::BulkInsert::new(threads)));
    }
    let v = oltp::VARIANTS
        .iter()
        .find(|v| v.name == name)
        .expect("known() accepted the name");
    Ok(Box::new(oltp::Oltp::new(v, opts, threads, seed)?))
}

/// Ok for a known workload name, else the one-line error listing them.
pub fn known(name: &str) -> Result<()> {
    let all = list();
    if all.iter().any(|(n, _)| *n == name) {
        return Ok(());
    }
    let names: Vec<&str> = all.iter().map(|(n, _)| *n).collect();
    Err(usage(format!(
        "unknown workload '{name}': available are {} (`dbpress list`)",
        names.join(", ")
    )))
}

#[cfg(test)]
mod tests {
    use super::*;
    use dbpress_core::options::table::Alias;

    #[test]
    fn every_option_is_in_the_table_once_and_every_old_spelling_names_one() {
        let table = options();
        let mut names: Vec<&str> = table.rows().map(|s| s.name).collect();
        let all = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), all, "an option name given twice");
        let parts = [
            dbpress_core::options::table::GENERAL_ALIASES,
            oltp::options::ALIASES,
            tpcc::options::ALIASES,
            machine::options::ALIASES,
        ];
        for (old, alias) in parts.iter().flat_map(|p| p.iter()) {
            let targets: Vec<&str> = match alias {
                Alias::Rename(new) => vec![new],
                Alias::Expand(sets) => sets.iter().map(|(n, _)| *n).collect(),
            };
            for t in targets {
                assert!(
                    table.find(t).is_some(),
                    "--{old} names --{t}, not in the table"
                );
            }
            assert!(
                table.find(old).is_none(),
                "--{old} is an option and an old spelling"
            );
        }
    }

    #[test]
    fn a_declared_row_joins_the_table_unless_its_name_is_taken() {
        use dbpress_core::options::table::{Kind, Spec};
        let mut table = options();
        let group = Group::Workload("script options");
        table.declare(vec![
            Spec::new("my-opt", Kind::Str, "x", group, "a script's option"),
            Spec::new("tables", Kind::Str, "9", group, "a built-in name"),
        ]);
        assert_eq!(table.find("my-opt").map(|s| s.default), Some("x"));
        assert_eq!(table.find("tables").map(|s| s.default), Some("1"));
    }
}
