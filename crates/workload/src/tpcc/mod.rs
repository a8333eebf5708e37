//! TPC-C (TPC Benchmark C rev. 5.11): the nine tables with the spec's names, the population of
//! clause 4.3 loaded in parallel by each engine's fastest path, the five transactions with the
//! spec's inputs, mix (the 23-card deck) and a home warehouse per connection, the consistency
//! conditions of 3.3.2, and the figures of 5.4 (tpmC, NOPM, efficiency, response times).
//!
//! - `schema`: the tables per engine, indexes, foreign keys, the bookkeeping table
//! - `gen`: NURand and its C constants, names, strings, money and time as text
//! - `load`: `prepare` and `cleanup`
//! - `check`: the consistency conditions, and what the bookkeeping row says
//! - `txn/`: the statements and the five transactions of one terminal
//! - `deck`: the card deck; `event`: a terminal as the runner's event generator (retries)
//! - `tally`, `figures`: counts and the run's TPC-C figures
//! - `workload`: `Workload` for TPC-C

pub mod check;
pub mod deck;
pub mod event;
pub mod figures;
pub mod gen;
pub mod load;
pub mod schema;
pub mod tally;
pub mod txn;
mod workload;

use dbpress_core::error::{usage, Result};
use dbpress_core::options::{boolean, int, OptionValues};
use std::sync::{Arc, Mutex};

pub const NAME: &str = "tpcc";
pub const DESCRIPTION: &str =
    "TPC-C: prepare, run, check and cleanup of the nine tables and the five transactions";

pub struct Tpcc {
    /// --warehouses: what prepare loads; for run, what it uses (None: all loaded).
    pub warehouses: u32,
    pub warehouses_given: bool,
    pub use_fk: bool,
    pub random_home: bool,
    pub max_tries: u32,
    pub no_check: bool,
    pub mysql_engine: String,
    pub seed: u64,
    /// Set by `check_ready`: the warehouses a run uses and the load's constants.
    pub(crate) loaded: Mutex<Option<check::Meta>>,
    /// The terminals' counts of the current run.
    pub(crate) tally: Arc<Mutex<tally::Tally>>,
    /// The run's NURand constants, drawn in `check_ready`.
    pub(crate) c_run: Mutex<Option<gen::CConstants>>,
}

impl Tpcc {
    pub fn new(opts: &OptionValues, seed: u64) -> Result<Tpcc> {
        let home = opts.get("home-warehouse");
        let random_home = match home {
            "terminal" => false,
            "random" => true,
            other => {
                return Err(usage(format!(
                    "--home-warehouse={other}: expected terminal (a home warehouse per connection) or random (per transaction)"
                )))
            }
        };
        Ok(Tpcc {
            warehouses: int(opts, "warehouses", 1, 100_000)? as u32,
            warehouses_given: opts.is_set("warehouses"),
            use_fk: boolean(opts, "use-fk")?,
            random_home,
            max_tries: int(opts, "max-tries", 1, 1_000_000)? as u32,
            no_check: boolean(opts, "no-check")?,
            mysql_engine: opts.get("mysql-storage-engine").to_string(),
            seed,
            loaded: Mutex::new(None),
            tally: Arc::new(Mutex::new(tally::Tally::default())),
            c_run: Mutex::new(None),
        })
    }
}
