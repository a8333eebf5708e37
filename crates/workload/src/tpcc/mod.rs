//! TPC-C (TPC Benchmark C rev. 5.11): the nine tables with the spec's names, the population of
//! clause 4.3 loaded in parallel by each engine's fastest path, the five transactions with the
//! spec's inputs, mix (the 23-card deck) and a home warehouse per connection, the consistency
//! conditions of 3.3.2, and the figures of 5.4 (tpmC, NOPM, efficiency, response times).
//!
//! - `names`: the spec's table names, or sysbench-tpcc's numbered table sets
//! - `schema`: the tables per engine, indexes, foreign keys, the bookkeeping table
//! - `gen`: NURand and its C constants, names, strings, money and time as text
//! - `load`: `prepare` and `cleanup`
//! - `rows`: one row of each table as clause 4.3 populates it (both loads' rows)
//! - `check`: the consistency conditions, and what the bookkeeping row says
//! - `txn/`: the statements and the five transactions of one terminal
//! - `deck`: the card deck; `think`: keying and think times; `event`: a terminal as the
//!   runner's event generator (pauses, retries)
//! - `tally`, `figures`: counts and the run's TPC-C figures
//! - `options`: TPC-C's option rows; `keys`: them as typed keys; `settings`: a TPC-C command's settings from them,
//!   and what a run learns from the database
//! - `workload`: `Workload` for TPC-C

pub mod check;
pub mod deck;
pub mod event;
pub mod figures;
pub mod gen;
pub mod keys;
pub mod load;
pub mod names;
pub mod options;
pub mod peer;
pub mod rows;
pub mod schema;
mod settings;
pub mod tally;
pub mod think;
pub mod txn;
mod workload;

pub use settings::Tpcc;

pub const NAME: &str = "tpcc";
pub const DESCRIPTION: &str =
    "TPC-C: prepare, run, check and cleanup of the nine tables and the five transactions";
