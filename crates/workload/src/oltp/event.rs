//! One OLTP event, exactly as sysbench's Lua scripts compose it: each statement group picks its
//! table once (uniformly; the legacy workload once per event), ids follow --rand-type, strings
//! follow the c/pad templates.

use super::sql::{
    insert_without_id, random_points, random_ranges, statement, C_TEMPLATE, PAD_TEMPLATE,
};
use super::{kind, Mix, Oltp, RandomSelect, ReinsertId};
use crate::events::{EventGen, Exec, KeyedStatement};
use dbpress_core::rand::{Distribution, Rng, Template, UniqueSequence};
use dbpress_driver::{Connection, DbResult, Dialect, StmtHandle, Value};
use std::sync::Arc;

const NO_STMT: StmtHandle = StmtHandle(u32::MAX);

pub struct OltpEvents {
    mix: Mix,
    plan: Vec<StatementGroup>,
    tables: u32,
    table_size: u32,
    range_size: u32,
    auto_inc: bool,
    /// The INSERT leaves the id out so the server assigns it (the dialect's way of asking for
    /// an auto id, under --reinsert-id=new or oltp_insert's --auto-inc).
    insert_omits_id: bool,
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
    /// select_random_*: this thread's slice of k, [lo, hi] (sysbench: table_size / threads).
    slice: (f64, f64),
    params: Vec<Value<'static>>,
    unique: Arc<UniqueSequence>,
    events: u64,
}

impl OltpEvents {
    pub fn new(
        w: &Oltp,
        conn: &mut dyn Connection,
        dialect: &'static Dialect,
        thread: u32,
        rng: Rng,
        dist: Distribution,
    ) -> DbResult<OltpEvents> {
        let m = &w.mix;
        let server_id = (m.delete_inserts > 0 && m.reinsert == ReinsertId::New)
            || (m.text_inserts > 0 && w.schema.auto_inc);
        let insert_omits_id = server_id && dialect.auto_id_by_omission;
        // A statement is prepared when it is sent, or when sysbench's script prepares its
        // group anyway (the server then does the same work per session as under sysbench).
        let g = m.prepared;
        let used = |k: u8| -> bool {
            match k {
                kind::POINT_SELECT => m.point_selects > 0 || g.selects,
                kind::SIMPLE_RANGE => m.simple_ranges > 0 || g.ranges,
                kind::SUM_RANGE => m.sum_ranges > 0 || g.ranges,
                kind::ORDER_RANGE => m.order_ranges > 0 || g.ranges,
                kind::DISTINCT_RANGE => m.distinct_ranges > 0 || g.ranges,
                kind::INDEX_UPDATE => m.index_updates > 0 || g.writes,
                kind::NON_INDEX_UPDATE => m.non_index_updates > 0 || g.writes,
                kind::DELETE => m.delete_inserts > 0 || m.deletes > 0 || g.writes,
                kind::INSERT => m.delete_inserts > 0 || m.text_inserts > 0 || g.writes,
                _ => false,
            }
        };
        // The legacy script and oltp_insert send text SQL; everything else is prepared.
        let prep = |conn: &mut dyn Connection, sql: &str, text: bool| {
            if text || m.legacy {
                conn.prepare_text(sql)
            } else {
                conn.prepare(sql)
            }
        };
        let (begin, commit) = if m.trx {
            let begin = if m.writes() {
                dialect.begin_write.to_string()
            } else {
                statement(kind::BEGIN, 0, m.legacy)
            };
            (
                prep(conn, &begin, false)?,
                prep(conn, &statement(kind::COMMIT, 0, m.legacy), false)?,
            )
        } else {
            (NO_STMT, NO_STMT)
        };
        let mut stmts = Vec::with_capacity(w.schema.tables as usize);
        for t in 1..=w.schema.tables {
            let mut row = [NO_STMT; kind::COUNT];
            for k in 0..kind::BEGIN {
                if used(k) {
                    let text = k == kind::INSERT && m.text_inserts > 0;
                    let sql = if k == kind::INSERT && insert_omits_id {
                        insert_without_id(t)
                    } else {
                        statement(k, t, m.legacy)
                    };
                    row[k as usize] = prep(conn, &sql, text)?;
                }
            }
            if t == 1 && m.random_select == Some(RandomSelect::Points) {
                row[kind::RANDOM_POINTS as usize] =
                    prep(conn, &random_points(m.random_points), false)?;
            }
            if t == 1 && m.random_select == Some(RandomSelect::Ranges) {
                row[kind::RANDOM_RANGES as usize] =
                    prep(conn, &random_ranges(m.random_ranges), false)?;
            }
            stmts.push(row);
        }
        let slice_len = f64::from(w.schema.table_size) / f64::from(w.threads);
        let lo = slice_len * f64::from(thread % w.threads);
        Ok(OltpEvents {
            mix: m.clone(),
            plan: plan(m),
            tables: w.schema.tables,
            table_size: w.schema.table_size,
            range_size: w.schema.range_size,
            auto_inc: w.schema.auto_inc,
            insert_omits_id,
            stmts,
            begin,
            commit,
            rng,
            dist,
            c_tpl: Template::new(C_TEMPLATE),
            pad_tpl: Template::new(PAD_TEMPLATE),
            c_buf: [0; 119],
            pad_buf: [0; 59],
            slice: (lo, lo + slice_len),
            params: Vec::new(),
            unique: Arc::clone(&w.unique),
            events: 0,
        })
    }

    #[inline]
    fn table(&mut self) -> usize {
        // With one table there is nothing to draw.
        if self.tables == 1 {
            0
        } else {
            self.rng.uniform(1, self.tables) as usize - 1
        }
    }

    #[inline]
    fn id(&mut self) -> i64 {
        i64::from(self.dist.sample(&mut self.rng, 1, self.table_size))
    }

    /// A k value in this thread's slice, as select_random_* draw it (sysbench truncates the
    /// slice bounds to integers).
    #[inline]
    fn slice_value(&mut self) -> i64 {
        let (lo, hi) = self.slice;
        i64::from(self.dist.sample(&mut self.rng, lo as u32, hi as u32))
    }

    fn ranges(&mut self, exec: &mut Exec<'_>, t: usize, k: u8, count: u32) -> DbResult<()> {
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

    /// The table of a statement group: drawn per group, or the event's one in legacy mode.
    #[inline]
    fn group_table(&mut self, event_table: usize) -> usize {
        if self.mix.legacy {
            event_table
        } else {
            self.table()
        }
    }

    /// DELETE of a random id, then INSERT of a row with that id (or a server-assigned one).
    fn delete_insert(&mut self, exec: &mut Exec<'_>, t: usize) -> DbResult<()> {
        let id = self.id();
        let k = self.id();
        exec.run(
            kind::DELETE,
            self.stmts[t][kind::DELETE as usize],
            &[Value::Int(id)],
        )?;
        let insert_id = match self.mix.reinsert {
            ReinsertId::Same => Value::Int(id),
            ReinsertId::New => Value::Null,
        };
        self.insert(exec, t, insert_id, k)
    }

    /// oltp_insert's INSERT of a new row.
    fn text_insert(&mut self, exec: &mut Exec<'_>) -> DbResult<()> {
        let t = self.table();
        let k = self.id();
        // sysbench: id 0 lets AUTO_INCREMENT assign; otherwise a unique id as a signed INT.
        let id = if self.auto_inc {
            0
        } else {
            i64::from(self.unique.next()) - 2_147_483_648
        };
        self.insert(exec, t, Value::Int(id), k)
    }

    /// INSERT of one row into table `t` with fresh c and pad strings; `id` is left out when the
    /// dialect asks the server for the id by omitting it.
    fn insert(&mut self, exec: &mut Exec<'_>, t: usize, id: Value<'_>, k: i64) -> DbResult<()> {
        self.c_tpl.fill(&mut self.rng, &mut self.c_buf);
        self.pad_tpl.fill(&mut self.rng, &mut self.pad_buf);
        let params = [
            id,
            Value::Int(k),
            Value::Str(&self.c_buf),
            Value::Str(&self.pad_buf),
        ];
        let params = if self.insert_omits_id {
            &params[1..]
        } else {
            &params[..]
        };
        exec.run(kind::INSERT, self.stmts[t][kind::INSERT as usize], params)
    }

    /// One statement on sbtest1 with values from this thread's slice of k: a list of points,
    /// or [v, v + delta] ranges.
    fn random_select(&mut self, exec: &mut Exec<'_>, select: RandomSelect) -> DbResult<()> {
        let mut params = std::mem::take(&mut self.params);
        params.clear();
        let k = match select {
            RandomSelect::Points => {
                for _ in 0..self.mix.random_points {
                    params.push(Value::Int(self.slice_value()));
                }
                kind::RANDOM_POINTS
            }
            RandomSelect::Ranges => {
                for _ in 0..self.mix.random_ranges {
                    let v = self.slice_value();
                    params.push(Value::Int(v));
                    params.push(Value::Int(v + i64::from(self.mix.delta)));
                }
                kind::RANDOM_RANGES
            }
        };
        let r = exec.run(k, self.stmts[0][k as usize], &params);
        self.params = params;
        r
    }
}

/// One statement group of an event, in sysbench's order. The plan is built once from the mix,
/// so an event walks only the groups it has instead of testing all ten every time.
#[derive(Clone, Copy)]
enum StatementGroup {
    Begin,
    PointSelects(u32),
    /// (statement kind, count)
    Ranges(u8, u32),
    IndexUpdates(u32),
    NonIndexUpdates(u32),
    DeleteInserts(u32),
    /// oltp_delete's DELETE without re-insert.
    Delete,
    TextInsert,
    RandomSelect(RandomSelect),
    Commit,
}

/// The steps of one event of `m`, in the order sysbench's event function runs them.
fn plan(m: &Mix) -> Vec<StatementGroup> {
    let mut steps = Vec::new();
    if m.trx {
        steps.push(StatementGroup::Begin);
    }
    if m.point_selects > 0 {
        steps.push(StatementGroup::PointSelects(m.point_selects));
    }
    for (k, n) in [
        (kind::SIMPLE_RANGE, m.simple_ranges),
        (kind::SUM_RANGE, m.sum_ranges),
        (kind::ORDER_RANGE, m.order_ranges),
        (kind::DISTINCT_RANGE, m.distinct_ranges),
    ] {
        if n > 0 {
            steps.push(StatementGroup::Ranges(k, n));
        }
    }
    if m.index_updates > 0 {
        steps.push(StatementGroup::IndexUpdates(m.index_updates));
    }
    if m.non_index_updates > 0 {
        steps.push(StatementGroup::NonIndexUpdates(m.non_index_updates));
    }
    if m.delete_inserts > 0 {
        steps.push(StatementGroup::DeleteInserts(m.delete_inserts));
    }
    if m.deletes > 0 {
        steps.push(StatementGroup::Delete);
    }
    if m.text_inserts > 0 {
        steps.push(StatementGroup::TextInsert);
    }
    if let Some(select) = m.random_select {
        steps.push(StatementGroup::RandomSelect(select));
    }
    if m.trx {
        steps.push(StatementGroup::Commit);
    }
    steps
}

impl EventGen for OltpEvents {
    fn event(&mut self, exec: &mut Exec<'_>) -> DbResult<()> {
        // The legacy script draws its one table before anything else.
        let event_table = if self.mix.legacy { self.table() } else { 0 };
        for i in 0..self.plan.len() {
            match self.plan[i] {
                StatementGroup::Begin => exec.run(kind::BEGIN, self.begin, &[])?,
                StatementGroup::PointSelects(n) => {
                    let t = self.group_table(event_table);
                    for _ in 0..n {
                        let id = self.id();
                        let s = self.stmts[t][kind::POINT_SELECT as usize];
                        exec.run(kind::POINT_SELECT, s, &[Value::Int(id)])?;
                    }
                }
                StatementGroup::Ranges(k, n) => {
                    let t = self.group_table(event_table);
                    self.ranges(exec, t, k, n)?;
                }
                StatementGroup::IndexUpdates(n) => {
                    let t = self.group_table(event_table);
                    for _ in 0..n {
                        let id = self.id();
                        let s = self.stmts[t][kind::INDEX_UPDATE as usize];
                        exec.run(kind::INDEX_UPDATE, s, &[Value::Int(id)])?;
                    }
                }
                StatementGroup::NonIndexUpdates(n) => {
                    let t = self.group_table(event_table);
                    for _ in 0..n {
                        self.c_tpl.fill(&mut self.rng, &mut self.c_buf);
                        let id = self.id();
                        let s = self.stmts[t][kind::NON_INDEX_UPDATE as usize];
                        let params = [Value::Str(&self.c_buf), Value::Int(id)];
                        exec.run(kind::NON_INDEX_UPDATE, s, &params)?;
                    }
                }
                StatementGroup::DeleteInserts(n) => {
                    let t = self.group_table(event_table);
                    for _ in 0..n {
                        self.delete_insert(exec, t)?;
                    }
                }
                StatementGroup::Delete => {
                    let t = self.table();
                    let id = self.id();
                    let s = self.stmts[t][kind::DELETE as usize];
                    exec.run(kind::DELETE, s, &[Value::Int(id)])?;
                }
                StatementGroup::TextInsert => self.text_insert(exec)?,
                StatementGroup::RandomSelect(select) => self.random_select(exec, select)?,
                StatementGroup::Commit => exec.run(kind::COMMIT, self.commit, &[])?,
            }
        }
        self.events += 1;
        if self.mix.reconnect_every > 0 && self.events % self.mix.reconnect_every == 0 {
            // sysbench master's --reconnect: inside the event, so its cost lands in this event.
            exec.reconnect()?;
        }
        Ok(())
    }

    fn statements_bound_event(&self) -> bool {
        // A --reconnect after the last statement is part of the event.
        self.mix.reconnect_every == 0
    }

    fn keyed_statement(&self) -> Option<KeyedStatement> {
        // The legacy script draws its table per event with its own rules; a --reconnect is part
        // of the event.
        if self.mix.legacy || self.mix.reconnect_every > 0 || self.plan.len() != 1 {
            return None;
        }
        // Each of these steps draws its table, then one id, then runs one statement.
        let kind = match self.plan[0] {
            StatementGroup::PointSelects(1) => kind::POINT_SELECT,
            StatementGroup::IndexUpdates(1) => kind::INDEX_UPDATE,
            StatementGroup::Delete => kind::DELETE,
            _ => return None,
        };
        Some(KeyedStatement {
            kind,
            stmts: self.stmts.iter().map(|row| row[kind as usize]).collect(),
            keys: self.dist.clone(),
            key_max: self.table_size,
            rng: self.rng.clone(),
        })
    }
}
