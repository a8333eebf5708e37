//! What every layer of dbpress above the drivers shares, and nothing of any one command:
//!
//! - `error`: `Error` (usage, environment, failed, interrupted) with its exit code, and the one
//!   line a session that could not be opened gets
//! - `personality`: dbpress itself or the peer it stands in for (a link named `sysbench`)
//! - `verbosity`: `--verbosity`, the process-wide level, and the `notice!` macro
//! - `signals`: SIGINT/SIGTERM as flags a run or a load polls
//! - `options`: the option table and the values a command line gave them, with typed getters
//! - `rand`: sysbench's random numbers (xoroshiro128+, its five distributions, string templates)
//! - `result_file`: a result file checked writable before a run and written after it

pub mod argv;
pub mod error;
pub mod options;
pub mod out;
pub mod personality;
pub mod rand;
pub mod result_file;
pub mod signals;
pub mod verbosity;
