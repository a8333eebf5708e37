//! The driver a configuration's target names, with the option names its errors quote taken
//! from the grammar the target was written in.

use crate::run_config::{ConnectionFlags, RunConfig, Target};
use dbpress_core::error::{self, Result};
use dbpress_driver::{
    dry_run::DryRunDriver, flag_hints, mysql::MysqlDriver, pgsql::PgDriver, sqlite::SqliteDriver,
    Driver,
};

pub fn make_driver(cfg: &RunConfig) -> Result<Box<dyn Driver>> {
    // Errors name what the user typed: mysqlslap's flags for `dbpress slap`, pgbench's for
    // `dbpress script`, a --db URL's parts.
    use ConnectionFlags::*;
    Ok(match &cfg.connection.target {
        Target::Mysql(t) => {
            let d =
                MysqlDriver::new(t.clone(), cfg.connection.ps_mode).map_err(error::environment)?;
            Box::new(match cfg.connection.flags {
                Mysqlslap => d.with_hints(&flag_hints::MYSQL_SLAP_HINTS),
                Pgbench => d.with_hints(&flag_hints::MYSQL_PGBENCH_HINTS),
                Url => d.with_hints(&flag_hints::MYSQL_URL_HINTS),
                Sysbench => d,
            })
        }
        Target::Sqlite(t) => Box::new(SqliteDriver::new(t.clone(), cfg.connection.ps_mode)),
        Target::Pgsql(t) => {
            let d = PgDriver::new(t.clone(), cfg.connection.ps_mode).map_err(error::environment)?;
            Box::new(match cfg.connection.flags {
                Mysqlslap => d.with_hints(&flag_hints::PGSQL_SLAP_HINTS),
                Pgbench => d.with_hints(&flag_hints::PGSQL_PGBENCH_HINTS),
                Url => d.with_hints(&flag_hints::PGSQL_URL_HINTS),
                Sysbench => d,
            })
        }
        Target::DryRun => Box::new(DryRunDriver::default()),
    })
}
