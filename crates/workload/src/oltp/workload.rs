//! The OLTP variants as a `Workload`: their lifecycle commands (in `prepare.rs`) and one event
//! generator per worker (in `event.rs`).

use super::{event, prepare, Oltp, ReinsertId, KIND_NAMES};
use crate::events::EventGen;
use crate::workload::{Context, Workload};
use dbpress_core::error::Result;
use dbpress_core::rand::{Distribution, Rng};
use dbpress_driver::{Connection, DbResult, Dialect};

impl Workload for Oltp {
    fn name(&self) -> &'static str {
        self.variant.name
    }

    fn statement_kinds(&self) -> &'static [&'static str] {
        &KIND_NAMES
    }

    fn transactional(&self) -> bool {
        self.mix.trx
    }

    fn describe(&self) -> Vec<String> {
        let m = &self.mix;
        let (r, w, o) = m.expected_rwo();
        let mut lines = vec![
            format!(
                "Tables: {} x {} rows, range size {}",
                self.schema.tables, self.schema.table_size, self.schema.range_size
            ),
            format!(
                "Statements per event: {} (read {r}, write {w}, other {o}){}{}",
                r + w + o,
                if m.trx { "" } else { ", autocommit" },
                if m.legacy {
                    ", one table per event (sysbench 0.5 oltp.lua)"
                } else {
                    ""
                }
            ),
        ];
        if m.delete_inserts > 0 {
            lines.push(match m.reinsert {
                ReinsertId::Same => {
                    "Delete/insert: re-insert the deleted id (--reinsert-id=same, as sysbench)"
                        .into()
                }
                ReinsertId::New => {
                    "Delete/insert: insert with a new AUTO_INCREMENT id (--reinsert-id=new)".into()
                }
            });
        }
        if m.reconnect_every > 0 {
            lines.push(format!(
                "Reconnect: after every {} events",
                m.reconnect_every
            ));
        }
        lines
    }

    fn sends_text_as(&self) -> Option<&'static str> {
        let m = &self.mix;
        if m.legacy {
            Some("sysbench 0.5's oltp.lua")
        } else if m.text_inserts > 0 && m.expected_rwo() == (0, m.text_inserts, 0) {
            Some("sysbench's oltp_insert")
        } else {
            None
        }
    }

    fn prepare(&self, ctx: &Context<'_>) -> Result<Option<dbpress_measure::host::HostUsage>> {
        prepare::prepare(self, ctx)
    }

    fn cleanup(&self, ctx: &Context<'_>) -> Result<()> {
        prepare::cleanup(self, ctx)
    }

    fn check(&self, ctx: &Context<'_>) -> Result<()> {
        prepare::check(self, ctx)
    }

    fn prewarm(&self, ctx: &Context<'_>) -> Result<()> {
        prepare::prewarm(self, ctx)
    }

    fn check_ready(&self, conn: &mut dyn Connection, ctx: &Context<'_>) -> Result<Vec<String>> {
        prepare::check_ready(self, conn, ctx)
    }

    fn names_a_foreign_table(&self, e: &dbpress_driver::DbError) -> bool {
        e.origin.is_none() && e.names_unknown_column()
    }

    fn worker(
        &self,
        conn: &mut dyn Connection,
        dialect: &'static Dialect,
        thread: u32,
        rng: Rng,
        dist: Distribution,
    ) -> DbResult<Box<dyn EventGen>> {
        Ok(Box::new(event::OltpEvents::new(
            self, conn, dialect, thread, rng, dist,
        )?))
    }
}
