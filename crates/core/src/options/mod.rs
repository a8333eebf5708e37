//! Every option dbpress knows and the values a command line gave them, shared by the grammars
//! that read a command line (`cli`, slap's and script's flags) and the layers that read values
//! (config, workloads). What a value means is checked where it is used, through the typed getters.
//!
//! - `table`: the option rows (names, kinds, defaults, help, secrecy): core's general ones, the
//!   `Table` that puts them together with a workload's, the one installed for the process
//! - `scan`: a command line in sysbench's grammar read into values and words
//! - `sysbench_reading`: where sysbench reads a line otherwise (`--config-file`, 1.0's
//!   deprecated spellings), for its personality
//! - `values`: `OptionValues` and the getters by name `int`, `float`, `boolean`, `choice`;
//!   `size_bytes`, sysbench's sizes (`1K`, `100G`)
//! - `keys`: typed option keys (`IntOpt`, `FloatOpt`, `BoolOpt`, `TextOpt`), their getters on
//!   `OptionValues`, and `option_keys!`

pub mod keys;
pub mod scan;
mod sysbench_reading;
pub mod table;
mod values;

pub use keys::{BoolOpt, FloatOpt, IntOpt, TextOpt};
pub use values::{boolean, choice, float, int, parse_bool, size_bytes, OptionValues};
