//! An unknown `--db-driver` as sysbench meets it (#42): not when it reads its command line but
//! when a script asks for its driver. A test of the machine never asks, and runs; a stock OLTP
//! script asks in the command's own function, so sysbench prints its header (for `run`, the
//! run's header and `Initializing worker threads...`), its driver's line and the function that
//! failed, and exits 1. dbpress says the same, and sends nothing.

use dbpress_config::{keys, Command, Engine, RunConfig};
use dbpress_core::options::OptionValues;
use dbpress_workload::Workload;
use std::io::Write;

/// The `--db-driver` named that is no driver, as sysbench (None when dbpress reads it itself:
/// its own line, with the fix, comes from the run's configuration).
pub fn named(opts: &OptionValues) -> Option<String> {
    if !dbpress_core::personality::is_sysbench() || !opts.given(keys::DB_DRIVER) {
        return None;
    }
    let name = opts.text(keys::DB_DRIVER);
    Engine::named(name).is_none().then(|| name.to_string())
}

/// The options without the driver sysbench would only refuse later (the run's configuration
/// is read with the default one, which nothing connects to).
pub fn without(opts: &OptionValues) -> OptionValues {
    let mut opts = opts.clone();
    opts.unset(keys::DB_DRIVER.name);
    opts
}

/// What sysbench prints for a stock OLTP script's command with driver `name` unknown, as the
/// error dbpress exits with (1); None where the words are not known (dbpress's own line then).
pub fn refusal(
    out: &mut dyn Write,
    cfg: &RunConfig,
    w: &dyn Workload,
    name: &str,
) -> Option<dbpress_core::error::Error> {
    let stock = dbpress_workload::oltp::VARIANTS
        .iter()
        .any(|v| v.name == cfg.workload);
    // Where in sysbench's oltp_common.lua each command asks for its driver.
    let (function, line) = match cfg.command {
        _ if !stock => return None,
        Command::Prepare => ("sysbench.cmdline.call_command", 82),
        Command::Cleanup => ("cleanup", 387),
        Command::Run => ("thread_init", 348),
        _ => return None,
    };
    if dbpress_core::verbosity::notices() {
        let _ = write!(out, "{}", dbpress_core::personality::first_line_block());
        if cfg.command == Command::Run {
            super::header::print_sysbench(out, cfg, w);
            let _ = writeln!(out, "Initializing worker threads...\n");
        }
        let _ = out.flush();
    }
    let mut lines = vec![
        format!("invalid database driver name: '{name}'"),
        format!("`{function}' function failed: /usr/share/sysbench/oltp_common.lua:{line}: failed to initialize the DB driver"),
    ];
    if cfg.command == Command::Run {
        lines.push("Thread initialization failed!".to_string());
    }
    Some(dbpress_core::error::failed(lines.join("\nFATAL: ")))
}
