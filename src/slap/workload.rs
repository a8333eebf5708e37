//! The `--query` list as a workload: one event is one pass over the list, each statement sent as
//! text (as mysqlslap sends it) and timed as its own statement kind.

use crate::driver::{Connection, DbResult, Dialect, StmtHandle};
use crate::error::Result;
use crate::rand::{Distribution, Rng};
use crate::workload::{Context, EventGen, Exec, Workload};

pub struct SlapWorkload {
    statements: Vec<String>,
    /// "1: UPDATE seckill SET …": names for the per-statement report, made once per run.
    kinds: &'static [&'static str],
    transactional: bool,
    /// `--engine`: the header's line naming the storage engine of this round's tables.
    pub engine_line: Option<String>,
}

impl SlapWorkload {
    pub fn new(statements: &[String]) -> SlapWorkload {
        let kinds: Vec<&'static str> = statements
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let one_line = s.split_whitespace().collect::<Vec<_>>().join(" ");
                let short: String = one_line.chars().take(36).collect();
                let name = if short.chars().count() < one_line.chars().count() {
                    format!("{}: {short}…", i + 1)
                } else {
                    format!("{}: {short}", i + 1)
                };
                &*Box::leak(name.into_boxed_str())
            })
            .collect();
        let transactional = statements.iter().any(|s| {
            let l = s.trim_start().to_ascii_lowercase();
            l.starts_with("begin") || l.starts_with("start transaction")
        });
        SlapWorkload {
            statements: statements.to_vec(),
            kinds: Box::leak(kinds.into_boxed_slice()),
            transactional,
            engine_line: None,
        }
    }
}

impl Workload for SlapWorkload {
    fn name(&self) -> &'static str {
        "slap"
    }

    fn statement_kinds(&self) -> &'static [&'static str] {
        self.kinds
    }

    fn transactional(&self) -> bool {
        self.transactional
    }

    fn describe(&self) -> Vec<String> {
        let mut lines = vec![format!(
            "Statements per event: {} (one pass over --query, sent as text)",
            self.statements.len()
        )];
        lines.extend(self.engine_line.clone());
        lines
    }

    fn prepare(&self, _ctx: &Context<'_>) -> Result<()> {
        Ok(())
    }

    fn cleanup(&self, _ctx: &Context<'_>) -> Result<()> {
        Ok(())
    }

    fn check_ready(&self, _conn: &mut dyn Connection, _ctx: &Context<'_>) -> Result<Vec<String>> {
        Ok(Vec::new())
    }

    fn missing_table_fix(&self) -> String {
        super::MISSING_TABLE_FIX.into()
    }

    fn worker(
        &self,
        conn: &mut dyn Connection,
        _dialect: &'static Dialect,
        _thread: u32,
        _rng: Rng,
        _dist: Distribution,
    ) -> DbResult<Box<dyn EventGen>> {
        let stmts = self
            .statements
            .iter()
            .map(|s| conn.prepare_text(s))
            .collect::<DbResult<Vec<StmtHandle>>>()?;
        Ok(Box::new(SlapEvents { stmts }))
    }
}

struct SlapEvents {
    stmts: Vec<StmtHandle>,
}

impl EventGen for SlapEvents {
    fn event(&mut self, exec: &mut Exec<'_>) -> DbResult<()> {
        for (i, &s) in self.stmts.iter().enumerate() {
            exec.run(i as u8, s, &[])?;
        }
        Ok(())
    }
}
