//! One OLTP event, exactly as sysbench's oltp_common.lua composes it: each statement group picks
//! its table once (uniformly), ids follow --rand-type, strings follow the c/pad templates.

use super::sql::{statement, C_TEMPLATE, PAD_TEMPLATE};
use super::{kind, Mix, Oltp};
use crate::driver::{Connection, DbResult, StmtHandle, Value};
use crate::rand::{Distribution, Rng, Template};
use crate::workload::{EventGen, Exec};

const NO_STMT: StmtHandle = StmtHandle(u32::MAX);

pub struct OltpEvents {
    mix: Mix,
    tables: u32,
    table_size: u32,
    range_size: u32,
    /// stmts[table - 1][kind]
    stmts: Vec<[StmtHandle; kind::COUNT]>,
    begin: StmtHandle,
    commit: StmtHandle,
    rng: Rng,
    dist: Distribution,
    c_tpl: Template,
    pad_tpl: Template,
    c_buf: [u8; 119],
    pad_buf: [u8; 59],
}

impl OltpEvents {
    pub fn new(
        w: &Oltp,
        conn: &mut dyn Connection,
        rng: Rng,
        dist: Distribution,
    ) -> DbResult<OltpEvents> {
        let m = &w.mix;
        let used = |k: u8| -> bool {
            match k {
                kind::POINT_SELECT => m.point_selects > 0,
                kind::SIMPLE_RANGE => m.simple_ranges > 0,
                kind::SUM_RANGE => m.sum_ranges > 0,
                kind::ORDER_RANGE => m.order_ranges > 0,
                kind::DISTINCT_RANGE => m.distinct_ranges > 0,
                kind::INDEX_UPDATE => m.index_updates > 0,
                kind::NON_INDEX_UPDATE => m.non_index_updates > 0,
                kind::DELETE | kind::INSERT => m.delete_inserts > 0,
                _ => false,
            }
        };
        let (begin, commit) = if m.trx {
            (
                conn.prepare(&statement(kind::BEGIN, 0))?,
                conn.prepare(&statement(kind::COMMIT, 0))?,
            )
        } else {
            (NO_STMT, NO_STMT)
        };
        let mut stmts = Vec::with_capacity(w.schema.tables as usize);
        for t in 1..=w.schema.tables {
            let mut row = [NO_STMT; kind::COUNT];
            for k in 0..kind::BEGIN {
                if used(k) {
                    row[k as usize] = conn.prepare(&statement(k, t))?;
                }
            }
            stmts.push(row);
        }
        Ok(OltpEvents {
            mix: m.clone(),
            tables: w.schema.tables,
            table_size: w.schema.table_size,
            range_size: w.schema.range_size,
            stmts,
            begin,
            commit,
            rng,
            dist,
            c_tpl: Template::new(C_TEMPLATE),
            pad_tpl: Template::new(PAD_TEMPLATE),
            c_buf: [0; 119],
            pad_buf: [0; 59],
        })
    }

    #[inline]
    fn table(&mut self) -> usize {
        self.rng.uniform(1, self.tables) as usize - 1
    }

    #[inline]
    fn id(&mut self) -> i64 {
        i64::from(self.dist.sample(&mut self.rng, 1, self.table_size))
    }

    fn ranges(&mut self, exec: &mut Exec<'_>, k: u8, count: u32) -> DbResult<()> {
        if count == 0 {
            return Ok(());
        }
        let t = self.table();
        for _ in 0..count {
            let start = self.id();
            let end = start + i64::from(self.range_size) - 1;
            exec.run(
                k,
                self.stmts[t][k as usize],
                &[Value::Int(start), Value::Int(end)],
            )?;
        }
        Ok(())
    }
}

impl EventGen for OltpEvents {
    fn event(&mut self, exec: &mut Exec<'_>) -> DbResult<()> {
        if self.mix.trx {
            exec.run(kind::BEGIN, self.begin, &[])?;
        }
        if self.mix.point_selects > 0 {
            let t = self.table();
            for _ in 0..self.mix.point_selects {
                let id = self.id();
                exec.run(
                    kind::POINT_SELECT,
                    self.stmts[t][kind::POINT_SELECT as usize],
                    &[Value::Int(id)],
                )?;
            }
        }
        self.ranges(exec, kind::SIMPLE_RANGE, self.mix.simple_ranges)?;
        self.ranges(exec, kind::SUM_RANGE, self.mix.sum_ranges)?;
        self.ranges(exec, kind::ORDER_RANGE, self.mix.order_ranges)?;
        self.ranges(exec, kind::DISTINCT_RANGE, self.mix.distinct_ranges)?;
        if self.mix.index_updates > 0 {
            let t = self.table();
            for _ in 0..self.mix.index_updates {
                let id = self.id();
                exec.run(
                    kind::INDEX_UPDATE,
                    self.stmts[t][kind::INDEX_UPDATE as usize],
                    &[Value::Int(id)],
                )?;
            }
        }
        if self.mix.non_index_updates > 0 {
            let t = self.table();
            for _ in 0..self.mix.non_index_updates {
                self.c_tpl.fill(&mut self.rng, &mut self.c_buf);
                let id = self.id();
                let s = self.stmts[t][kind::NON_INDEX_UPDATE as usize];
                exec.run(
                    kind::NON_INDEX_UPDATE,
                    s,
                    &[Value::Str(&self.c_buf), Value::Int(id)],
                )?;
            }
        }
        if self.mix.delete_inserts > 0 {
            let t = self.table();
            for _ in 0..self.mix.delete_inserts {
                let id = self.id();
                let k = self.id();
                exec.run(
                    kind::DELETE,
                    self.stmts[t][kind::DELETE as usize],
                    &[Value::Int(id)],
                )?;
                self.c_tpl.fill(&mut self.rng, &mut self.c_buf);
                self.pad_tpl.fill(&mut self.rng, &mut self.pad_buf);
                let params = [
                    Value::Int(id),
                    Value::Int(k),
                    Value::Str(&self.c_buf),
                    Value::Str(&self.pad_buf),
                ];
                exec.run(kind::INSERT, self.stmts[t][kind::INSERT as usize], &params)?;
            }
        }
        if self.mix.trx {
            exec.run(kind::COMMIT, self.commit, &[])?;
        }
        Ok(())
    }
}
