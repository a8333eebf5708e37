//! The options of a TPC-C command, and what a run learns from the database before it starts.

use super::keys;
use dbpress_core::error::{usage, Result};
use dbpress_core::options::OptionValues;
use std::sync::{Arc, Mutex};

pub struct Tpcc {
    /// --warehouses: what prepare loads; for run, what it uses (None: all loaded).
    pub warehouses: u32,
    pub warehouses_given: bool,
    pub use_fk: bool,
    pub random_home: bool,
    pub max_tries: u32,
    /// `--think-time`'s factor of the spec's keying and think times; 0: off.
    pub think_time: f64,
    pub no_check: bool,
    pub mysql_engine: String,
    pub seed: u64,
    /// sysbench-tpcc's `--tables=N`: N table sets with suffixed names; None: the spec's names.
    pub sets: Option<u32>,
    pub force_pk: bool,
    /// SQL that sets the session's isolation (--trx-level), per engine: (MySQL, PostgreSQL).
    pub isolation: Option<(&'static str, &'static str)>,
    /// Set by `check_ready`: the warehouses a run uses and the load's constants.
    pub(crate) loaded: Mutex<Option<super::check::Meta>>,
    /// The terminals' counts of the current run.
    pub(crate) tally: Arc<Mutex<super::tally::Tally>>,
    /// The run's NURand constants, drawn in `check_ready`.
    pub(crate) c_run: Mutex<Option<super::gen::CConstants>>,
}

impl Tpcc {
    pub fn new(opts: &OptionValues, seed: u64) -> Result<Tpcc> {
        let home = opts.text(keys::HOME_WAREHOUSE);
        let random_home = match home {
            "terminal" => false,
            "random" => true,
            other => {
                return Err(usage(format!(
                    "--home-warehouse={other}: expected terminal (a home warehouse per connection) or random (per transaction)"
                )))
            }
        };
        let isolation = match opts.text(keys::TRX_LEVEL).to_ascii_uppercase().as_str() {
            "" => None,
            "RR" | "REPEATABLE READ" | "REPEATABLE-READ" => Some((
                "SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ",
                "SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL REPEATABLE READ",
            )),
            "RC" | "READ COMMITTED" | "READ-COMMITTED" => Some((
                "SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED",
                "SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL READ COMMITTED",
            )),
            "SER" | "SERIALIZABLE" => Some((
                "SET SESSION TRANSACTION ISOLATION LEVEL SERIALIZABLE",
                "SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL SERIALIZABLE",
            )),
            other => {
                return Err(usage(format!(
                    "--trx-level={other}: expected RR (repeatable read), RC (read committed) or SER (serializable)"
                )))
            }
        };
        let think_time = super::think::parse(opts.text(keys::THINK_TIME))?;
        if think_time > 0.0
            && opts
                .text(dbpress_config::keys::RATE)
                .parse::<f64>()
                .is_ok_and(|r| r > 0.0)
        {
            return Err(usage(
                "--think-time and --rate both pace the terminals: give one of them",
            ));
        }
        if opts.flag(keys::ENABLE_PURGE)? {
            return Err(usage(
                "--enable-purge: sysbench-tpcc's purge card (deleting delivered orders) is not supported by dbpress; run without it",
            ));
        }
        Ok(Tpcc {
            sets: opts
                .given(keys::TABLES)
                .then(|| opts.int(keys::TABLES))
                .transpose()?
                .map(|n| n as u32),
            force_pk: opts.flag(keys::FORCE_PK)?,
            isolation,
            warehouses: opts.int(keys::WAREHOUSES)? as u32,
            warehouses_given: opts.given(keys::WAREHOUSES),
            use_fk: opts.flag(keys::USE_FK)?,
            random_home,
            max_tries: opts.int(keys::MAX_TRIES)? as u32,
            think_time,
            no_check: opts.flag(keys::NO_CHECK)?,
            mysql_engine: opts
                .text(crate::oltp::keys::MYSQL_STORAGE_ENGINE)
                .to_string(),
            seed,
            loaded: Mutex::new(None),
            tally: Arc::new(Mutex::new(super::tally::Tally::default())),
            c_run: Mutex::new(None),
        })
    }
}
