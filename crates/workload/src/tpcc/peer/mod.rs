//! TPC-C as tpcc-mysql loads and runs it (dbpress as tpcc_load and tpcc_start, #42): its statements, mix, retries
//! and report figures, on its tables (`new_orders`, …), so the server does tpcc-mysql's work
//! per transaction — the Com_* counts of each type are tpcc-mysql's. `dbpress tpcc` keeps its
//! own statements (fewer round trips for the same rows); this is what a pasted tpcc_start
//! line runs.
//!
//! - `statements`: its 35 statements, their kinds
//! - `client`: one client's state and the calls its transactions share
//! - `new_order`, `payment`, `order_status`, `delivery`, `stock_level`: the transactions
//! - `deck`: the 23-card deck all clients share
//! - `events`: a client as the runner's event generator, with tpcc-mysql's retries
//! - `figures`: sc/lt/rt/fl per type, per-interval figures, its percentile
//! - `new_order_log`: tpcc_start's `-f` and `-t` files
//! - `workload`: the `Workload`, and the interval line
//! - `load`: tpcc_load's load (one session, a prepared INSERT per row, its text)

mod client;
mod deck;
mod delivery;
mod events;
pub mod figures;
pub mod load;
mod new_order;
pub mod new_order_log;
mod order_status;
mod payment;
pub mod statements;
mod stock_level;
mod workload;

pub use deck::SharedDeck;
pub use workload::TpccMysql;
