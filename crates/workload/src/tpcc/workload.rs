//! TPC-C as a `Workload`: lifecycle commands in `load` and `check`, one terminal per worker.

use super::check::{self, Meta};
use super::deck::Deck;
use super::event::TpccEvents;
use super::figures::{self, Setup};
use super::gen::CConstants;
use super::schema::META;
use super::txn::statements::{Statements, KIND_NAMES};
use super::txn::Terminal;
use super::{load, Tpcc, NAME};
use crate::events::EventGen;
use crate::workload::{Context, Workload};
use dbpress_core::error::{environment, Result};
use dbpress_core::rand::{Distribution, Rng};
use dbpress_driver::SqlFamily;
use dbpress_driver::{Connection, DbResult, Dialect};
use dbpress_result::RunResult;
use dbpress_result::WorkloadFigures;

impl Tpcc {
    fn meta(&self) -> Meta {
        self.loaded
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
            .unwrap_or(Meta {
                warehouses: self.warehouses,
                c_last: 0,
                c_id: 0,
                ol_i_id: 0,
                state: String::new(),
                sets: self.sets.unwrap_or(0),
            })
    }

    fn c_run(&self) -> CConstants {
        let m = self.meta();
        self.c_run
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .unwrap_or_else(|| {
                CConstants::for_run(
                    CConstants {
                        c_last: m.c_last,
                        c_id: m.c_id,
                        ol_i_id: m.ol_i_id,
                    },
                    &mut Rng::new(self.seed, 0xC0C0),
                )
            })
    }

    fn home_name(&self) -> &'static str {
        if self.random_home {
            "random"
        } else {
            "terminal"
        }
    }
}

impl Workload for Tpcc {
    fn name(&self) -> &'static str {
        NAME
    }

    fn statement_kinds(&self) -> &'static [&'static str] {
        &KIND_NAMES
    }

    fn transactional(&self) -> bool {
        true
    }

    fn draws_keys_from_rand_type(&self) -> bool {
        false
    }

    fn describe(&self) -> Vec<String> {
        let m = self.meta();
        let c = self.c_run();
        vec![
            format!(
                "TPC-C: {} warehouse(s); {}; mix: the 23-card deck (10 New-Order, 10 Payment, 1 each of the others) per connection",
                m.warehouses,
                if self.random_home {
                    "a random warehouse per transaction (--home-warehouse=random)".to_string()
                } else {
                    "a home warehouse per connection, connections spread evenly over the warehouses".to_string()
                }
            ),
            format!(
                "NURand C: load C_LAST {}, run C_LAST {} C_ID {} OL_I_ID {}; deadlocks and lock timeouts retried up to {} attempts (--max-tries); {}",
                m.c_last,
                c.c_last,
                c.c_id,
                c.ol_i_id,
                self.max_tries,
                match self.think_time {
                    f if f <= 0.0 => "no keying or think time (--think-time)".to_string(),
                    1.0 => "the spec's keying and think times, outside each transaction's latency".to_string(),
                    f => format!("keying and think times at {f} x the spec's, outside each transaction's latency"),
                }
            ),
        ]
    }

    fn prepare(&self, ctx: &Context<'_>) -> Result<Option<dbpress_measure::host::HostUsage>> {
        load::prepare(self, ctx)
    }

    fn cleanup(&self, ctx: &Context<'_>) -> Result<()> {
        load::cleanup(ctx)
    }

    fn check(&self, ctx: &Context<'_>) -> Result<()> {
        check::check(ctx)
    }

    fn check_ready(&self, conn: &mut dyn Connection, ctx: &Context<'_>) -> Result<Vec<String>> {
        let dry = ctx.driver.dialect().executes_nothing;
        let mut m = if dry {
            Meta {
                warehouses: self.warehouses,
                c_last: 0,
                c_id: 0,
                ol_i_id: 0,
                state: "ready".into(),
                sets: self.sets.unwrap_or(0),
            }
        } else {
            check::ready_meta(conn, ctx)?
        };
        if let Some(n) = self.sets {
            if n > m.sets.max(1) || (m.sets == 0 && !dry) {
                return Err(environment(format!(
                    "--tables={n} asks for {n} table set(s) but {}: prepare with the same --tables",
                    if m.sets == 0 {
                        "the database has the spec's table names (prepared without --tables)"
                            .to_string()
                    } else {
                        format!("{} were prepared", m.sets)
                    }
                )));
            }
            m.sets = n;
        }
        if self.warehouses_given {
            if self.warehouses > m.warehouses {
                return Err(environment(format!(
                    "--warehouses={} but {} warehouse(s) are loaded: run with --warehouses={} or fewer, or prepare again with more",
                    self.warehouses, m.warehouses, m.warehouses
                )));
            }
            m.warehouses = self.warehouses;
        }
        if !dry && m.state != "ran" {
            // From now on condition 11 no longer holds; `check` knows it from this mark.
            let _ = conn.query(&format!("UPDATE {META} SET state = 'ran'"));
        }
        let load = CConstants {
            c_last: m.c_last,
            c_id: m.c_id,
            ol_i_id: m.ol_i_id,
        };
        *self.c_run.lock().unwrap_or_else(|p| p.into_inner()) =
            Some(CConstants::for_run(load, &mut Rng::new(self.seed, 0xC0C0)));
        *self.tally.lock().unwrap_or_else(|p| p.into_inner()) = Default::default();
        let mut warnings = Vec::new();
        if !self.random_home && ctx.threads < m.warehouses {
            warnings.push(format!(
                "{} connection(s) for {} warehouses: warehouses {}..{} have no terminal and get no transactions (use --threads={} or more, or --home-warehouse=random)",
                ctx.threads,
                m.warehouses,
                ctx.threads + 1,
                m.warehouses,
                m.warehouses
            ));
        }
        *self.loaded.lock().unwrap_or_else(|p| p.into_inner()) = Some(m);
        Ok(warnings)
    }

    fn missing_table_fix(&self) -> String {
        format!("run `dbpress {NAME} prepare` with the same connection options first")
    }

    fn worker(
        &self,
        conn: &mut dyn Connection,
        dialect: &'static Dialect,
        thread: u32,
        rng: Rng,
        _dist: Distribution,
    ) -> DbResult<Box<dyn EventGen>> {
        let m = self.meta();
        let w = m.warehouses.max(1);
        let engine = dialect.family;
        if let Some((mysql, pg)) = self.isolation {
            match engine {
                SqlFamily::Mysql => conn.query(mysql)?,
                SqlFamily::Postgres => conn.query(pg)?,
                // SQLite's transactions are serializable whatever is asked.
                SqlFamily::Sqlite => dbpress_driver::QueryKind::Other,
            };
        }
        let sets = m.names();
        // A terminal's set and home warehouse: connections spread over the sets first, then
        // over the warehouses of each.
        let n_sets = sets.len() as u32;
        let set = (thread % n_sets) as usize;
        let stmts = Statements::prepare(conn, engine, &sets[set])?;
        let home = (!self.random_home).then_some((thread / n_sets) % w + 1);
        let mut term = Terminal::new(
            stmts,
            rng,
            self.c_run(),
            w,
            home,
            (thread / n_sets / w) % 10 + 1,
        );
        term.set_sets(sets, set, self.random_home);
        Ok(Box::new(TpccEvents {
            term,
            deck: Deck::new(),
            max_tries: self.max_tries,
            think: self.think_time,
            next: None,
            last: None,
            sink: self.tally.clone(),
        }))
    }

    fn figures(&self, r: &RunResult) -> Option<WorkloadFigures> {
        let m = self.meta();
        let c = self.c_run();
        let t = *self.tally.lock().unwrap_or_else(|p| p.into_inner());
        Some(WorkloadFigures::Tpcc(figures::figures(
            r,
            &t,
            &Setup {
                warehouses: m.warehouses,
                home_warehouse: self.home_name(),
                c_load: m.c_last,
                c_run: [c.c_last, c.c_id, c.ol_i_id],
                think_time: self.think_time,
            },
        )))
    }
}
