//! tpcc-mysql's command lines, pasted: `dbpress tpcc-load -h -P -d -u -p -w [-l -m -n]` loads
//! the TPC-C tables as `dbpress tpcc prepare` does, and `dbpress tpcc-start -h -P -d -u -p -w -c
//! -r -l -i [-f file] [-t file]` runs as `dbpress tpcc run`, printing dbpress's report and then
//! tpcc_start's closing blocks. Transactions pick a random warehouse each, as tpcc_start's do.

pub mod as_load;
pub mod as_start;
pub mod blocks;
pub mod flags;
mod getopt;
mod peer_report;

use crate::cli::parse_workload;
use crate::run;
use dbpress_config::to_driver::make_driver;
use dbpress_config::RunConfig;
use dbpress_core::error::{usage, Result};
use dbpress_core::signals::Signals;
use dbpress_result::VERSION;
use dbpress_workload::Context;
use flags::{connection, get, getopt, number};

const LOAD: &str = "tpcc-load";
const START: &str = "tpcc-start";

fn help(tool: &str) -> Option<u8> {
    let lines = if tool == LOAD {
        "usage: dbpress tpcc-load -h host -P port -d database -u user -p password -w warehouses [-l part -m min_wh -n max_wh]\n\
         Loads every table of the TPC-C database in one process, in parallel (as `dbpress tpcc prepare`);\n\
         -l/-m/-n, which split tpcc_load's work over processes, are accepted: part 1 loads everything, parts 2-4 have nothing left to do."
    } else {
        "usage: dbpress tpcc-start -h host -P port [-S socket] -d database -u user -p password -w warehouses -c connections -r rampup_s -l measure_s -i report_s [-f file] [-t file] [-0..-4 limit]\n\
         Runs `dbpress tpcc run` (transactions on random warehouses, as tpcc_start) and prints tpcc_start's blocks after dbpress's report."
    };
    dbpress_core::outln!("{lines}");
    Some(0)
}

/// `dbpress tpcc-load …`
pub fn load_main(args: &[String]) -> Result<u8> {
    if args.iter().any(|a| a == "--help") {
        return Ok(help(LOAD).unwrap_or(0));
    }
    let f = getopt(args, "hPdupwlmnS", LOAD)?;
    let part = number(&f, 'l', 0, LOAD)?;
    if part > 4 {
        return Err(usage(format!(
            "{LOAD}: -l {part}: parts are 1 (ITEM), 2 (WAREHOUSE, STOCK, DISTRICT), 3 (CUSTOMER, HISTORY), 4 (ORDERS, NEW_ORDER, ORDER_LINE)"
        )));
    }
    if part >= 2 {
        dbpress_core::notice!(
            "{LOAD}: -l {part}: dbpress loads every part in the run with -l 1 (or without -l); nothing to do here"
        );
        return Ok(0);
    }
    let warehouses = number(&f, 'w', 1, LOAD)?;
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let mut words = vec!["tpcc".to_string(), "prepare".to_string()];
    words.extend(connection(&f, "tpcc"));
    words.push(format!("--warehouses={warehouses}"));
    words.push(format!("--threads={threads}"));
    if get(&f, 'm').is_some() || get(&f, 'n').is_some() {
        dbpress_core::notice!(
            "{LOAD}: -m/-n ignored: dbpress loads warehouses 1..{warehouses} in parallel itself"
        );
    }
    run_words(&words, &flags::hide_password(args), None)
}

/// `dbpress tpcc-start …`
pub fn start_main(args: &[String]) -> Result<u8> {
    if args.iter().any(|a| a == "--help") {
        return Ok(help(START).unwrap_or(0));
    }
    let f = getopt(args, "hPdupwcrlifmotS01234", START)?;
    if get(&f, 'm').is_some() {
        return Err(usage(format!(
            "{START}: -m (several schemas <db>_0..) is not supported: run one dbpress per schema with -d"
        )));
    }
    let mut limits = blocks::DEFAULT_LIMITS_S;
    for (i, letter) in ['0', '1', '2', '3', '4'].into_iter().enumerate() {
        if let Some(v) = get(&f, letter) {
            let x: f64 = v.parse().map_err(|_| {
                usage(format!(
                    "{START}: -{letter} {v}: expected a number of seconds"
                ))
            })?;
            // tpcc_start's README gives the limits in seconds; its code compared them with
            // milliseconds, so people pass 5000 for 5 s. Above 1000 a value is taken as ms.
            limits[i] = if x > 1000.0 { x / 1000.0 } else { x };
        }
    }
    let mut words = vec!["tpcc".to_string(), "run".to_string()];
    words.extend(connection(&f, "tpcc"));
    words.push(format!("--warehouses={}", number(&f, 'w', 1, START)?));
    words.push(format!("--threads={}", number(&f, 'c', 10, START)?));
    words.push(format!("--warmup-time={}", number(&f, 'r', 10, START)?));
    words.push(format!("--time={}", number(&f, 'l', 20, START)?));
    words.push(format!("--report-interval={}", number(&f, 'i', 10, START)?));
    words.push("--home-warehouse=random".into());
    for letter in ['f', 't'] {
        if let Some(file) = get(&f, letter) {
            dbpress_core::notice!(
                "{START}: -{letter} {file}: per-New-Order files are not written; each transaction's latency histogram is in the JSON result (--output)"
            );
        }
    }
    dbpress_core::notice!(
        "{START}: response-time limits {} s (New-Order, Payment, Order-Status, Delivery, Stock-Level), compared with latencies in seconds",
        limits.map(|l| l.to_string()).join("/")
    );
    run_words(&words, &flags::hide_password(args), Some(limits))
}

/// Run the `dbpress tpcc` command line `words`; `argv` is what was typed (kept, redacted, in
/// results). With `limits`, tpcc_start's blocks follow the report.
fn run_words(words: &[String], argv: &[String], limits: Option<[f64; 5]>) -> Result<u8> {
    let (workload, command, opts) = parse_workload(words)?;
    let cfg = RunConfig::from_options(&workload, command, &opts)?;
    let w = dbpress_workload::registry::build(&workload, &opts, cfg.shape.threads, cfg.keys.seed)?;
    let driver = make_driver(&cfg)?;
    let ctx = Context {
        driver: driver.as_ref(),
        threads: cfg.shape.threads,
        dist: &cfg.keys.dist,
        invocation: cfg.invocation("tpcc"),
    };
    dbpress_core::outln!("dbpress {VERSION} (tpcc-mysql-compatible)\n");
    if cfg.command == dbpress_config::Command::Prepare {
        if let Some(usage) = w.prepare(&ctx)? {
            dbpress_report::text::host::report_prepare(&usage);
        }
        return Ok(0);
    }
    let signals = Signals::install();
    let mut out = dbpress_core::out::Stdout;
    let m = run::measure(&cfg, w.as_ref(), &ctx, argv, &mut out, &signals, &|m| {
        run::exit_forced(&cfg, &m, driver.hints(), w.as_ref())
    })?;
    let code = run::finish(&cfg, &m, driver.hints(), w.as_ref())?;
    if let Some(limits) = limits {
        dbpress_core::out!("{}", blocks::blocks(&m.result, &limits));
    }
    Ok(code)
}
