//! A workload's own figures of a run, beside the figures every run has: one variant per
//! workload that has any. Each lands in its own place of the result (TPC-C's in `tpcc`, where
//! src/run/assemble.rs puts it), so the file's shape stays what the schema says.

use crate::machine::MachineTest;
use crate::tpcc::TpccFigures;

#[derive(Clone, Debug, PartialEq)]
pub enum WorkloadFigures {
    /// tpmC, the mix and the response-time check (clause 5.4).
    Tpcc(TpccFigures),
    /// What a test of the machine (sysbench's `cpu`) was asked to do.
    Machine(MachineTest),
}
