//! The workloads dbpress knows by name: the list `dbpress list` prints, and the one a name and
//! its options build.

use crate::workload::Workload;
use crate::{bulk_insert, oltp, tpcc};
use dbpress_core::error::{usage, Result};
use dbpress_core::options::OptionValues;

/// (name, one-line description) of every workload, for `dbpress list`.
pub fn list() -> Vec<(&'static str, &'static str)> {
    let mut all: Vec<_> = oltp::VARIANTS
        .iter()
        .map(|v| (v.name, v.description))
        .collect();
    all.push((bulk_insert::NAME, bulk_insert::DESCRIPTION));
    all.push((tpcc::NAME, tpcc::DESCRIPTION));
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
