//! The results store: every run dbpress keeps (an experiment's cells, and any run, sweep, slap,
//! script or tpcc given `--store`) in one SQLite file, with its full JSON result, its tags, the
//! plan cell it belongs to and when it ran. WAL and one transaction per run, so concurrent
//! writers wait for each other and a killed process leaves every committed run whole.
//!
//! - `schema`: the tables and the file's version
//! - `store`: `Store` — open, save a run, list, show, tags
//! - `experiment`: what an experiment keeps besides its runs (its plan and generation, the server
//!   settings it changed and must restore, which tables it prepared)

pub mod experiment;
mod schema;
pub mod store;

pub use store::{CellKey, NewRun, RunFilter, RunRow, Status, Store};
