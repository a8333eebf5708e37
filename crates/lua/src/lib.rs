//! sysbench 1.0's Lua API on embedded LuaJIT (issue #41), knowing nothing of the runner: the
//! workload that runs a script (`dbpress-workload`'s `lua/`) lends each state a `Host` for its
//! SQL and calls its entry points.
//!
//! - `state`: a state per thread, the script loaded as `@path`, entry points and commands
//! - `cmdline`: the options a script declares (as option rows) and `sysbench.opt` exported
//! - `host`: `Host` (the SQL side the workload provides) and the per-state context
//! - `ffi`: the `extern "C"` functions the prelude calls through LuaJIT FFI
//! - `exports`: sysbench's own C symbols (`sb_*`) for scripts that call them through `ffi.C`,
//!   and the 1.1 rand superset
//! - `histogram`: `sysbench.histogram`'s buckets and sysbench's rendering of them
//! - `output`: a script's `print`/`io.write` through dbpress's stdout, in order with its lines
//! - `reporter`: a state for a script's report hooks, called with sysbench's `stat`
//! - `prelude/*.lua`: dbpress's own clean-room `sysbench.*`, one part per file (base: FFI
//!   declarations and the `sysbench` table; cmdline; sysbench_ffi: sysbench's C declarations;
//!   rand; sql; loop; compat: the 0.5 names; report: sysbench's built-in reporters; modules),
//!   and `output.lua` before them (`output`)

pub mod cmdline;
mod exports;
mod ffi;
mod histogram;
pub mod host;
mod output;
pub mod reporter;
pub mod state;

pub use cmdline::{Declared, Opt};

/// Whether any script state of this process asked for a driver (`sysbench.sql.driver()`).
pub fn driver_asked() -> bool {
    ffi::DRIVER_ASKED.load(std::sync::atomic::Ordering::Relaxed)
}
pub use host::Host;
pub use reporter::{Hook, Reports, Stat};
pub use state::{Script, ScriptError, State};
