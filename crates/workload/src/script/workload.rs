//! Scripts as a workload: each event picks a script by weight (with pgbench's draw) and runs
//! it on the session's [`Client`]: SQL pasted as text (simple mode) or as prepared statements
//! with `:names` bound, branches taken, `\gset` kept.

use super::client::{Abort, Client, Debug, QueryMode, Ready, Slot, SqlTarget};
use super::expr::prng::{PgPrng, RunSeeds};
use super::expr::Value;
use super::parse::{Command, Script};
use super::pgbench_rules::{AbortNote, PgbenchRules, TryNote, TxnNote, Verdict};
use super::pgbench_tables::{self, PgbenchTables};
use super::run_once::run_once;
use super::sql::Sql;
use crate::events::{EventGen, EventSteps, Exec};
use crate::workload::{Context, Workload};
use dbpress_core::error::Result;
use dbpress_core::rand::{Distribution, Rng};
use dbpress_driver::{
    Connection, DbResult, Dialect, ResultRows, SqlFamily, StmtHandle, Value as Param,
};
use std::collections::HashMap;

pub struct ScriptWorkload {
    pub scripts: Vec<Script>,
    /// Variables every client starts with: -D values, scale, random_seed, default_seed.
    pub globals: HashMap<String, Value>,
    /// How SQL is sent (pgbench's -M); prepared unless set.
    pub mode: QueryMode,
    /// How many clients the run has (pgbench seeds each client's sequence in turn).
    pub clients: u32,
    /// Label each event with its script's number (pgbench's per-script counts).
    labelled: bool,
    /// pgbench's rules for failures and aborts (dbpress as pgbench).
    rules: Option<PgbenchRules>,
    kinds: &'static [&'static str],
    transactional: bool,
    /// What prepare and cleanup do (nothing for a run's workload).
    tables: Option<Tables>,
}

/// Whose tables the scripts use, which prepare and cleanup then make and drop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tables {
    /// pgbench's own (the built-in scripts'), made as pgbench -i makes them.
    Pgbench(PgbenchTables),
    /// The user's: prepare and cleanup run each of their scripts once, drawing random values
    /// from `seed`.
    Scripted { seed: u64 },
}

/// SQL sent as written, except on other engines than PostgreSQL pgbench's `END` (COMMIT's
/// PostgreSQL alias, which MySQL lacks) and, in scripts that write, `BEGIN` as the dialect
/// begins a write transaction (SQLite's BEGIN IMMEDIATE).
fn adapt(sql: &str, writes: bool, dialect: &Dialect) -> String {
    if dialect.family == SqlFamily::Postgres {
        return sql.to_string();
    }
    let word = sql.trim().to_ascii_lowercase();
    match word.as_str() {
        "end" | "end transaction" => "COMMIT".into(),
        "begin" | "begin transaction" | "start transaction" if writes => {
            dialect.begin_write.to_string()
        }
        _ => sql.to_string(),
    }
}

fn writes(s: &Script) -> bool {
    s.sql().any(|sql| {
        let w = sql.text.trim_start().to_ascii_lowercase();
        ["insert", "update", "delete", "replace", "merge"]
            .iter()
            .any(|k| w.starts_with(k))
    })
}

impl ScriptWorkload {
    pub fn new(scripts: Vec<Script>, globals: HashMap<String, Value>) -> ScriptWorkload {
        let mut kinds = Vec::new();
        for s in &scripts {
            for sql in s.sql() {
                let (text, line) = (&sql.text, sql.line);
                {
                    let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
                    let short: String = one_line.chars().take(30).collect();
                    let more = if short.chars().count() < one_line.chars().count() {
                        "…"
                    } else {
                        ""
                    };
                    let file = s.name.rsplit('/').next().unwrap_or(&s.name);
                    let name = format!("{file}:{line} {short}{more}");
                    kinds.push(&*Box::leak(name.into_boxed_str()));
                }
            }
        }
        let transactional = scripts.iter().any(|s| {
            s.sql().any(|sql| {
                let t = sql.text.trim().to_ascii_lowercase();
                t.starts_with("begin") || t.starts_with("start transaction")
            })
        });
        ScriptWorkload {
            scripts,
            globals,
            mode: QueryMode::Prepared,
            clients: 1,
            labelled: false,
            rules: None,
            kinds: Box::leak(kinds.into_boxed_slice()),
            transactional,
            tables: None,
        }
    }

    /// What prepare and cleanup make and drop.
    pub fn on_tables(mut self, tables: Tables) -> ScriptWorkload {
        self.tables = Some(tables);
        self
    }

    /// Send SQL as pgbench's `-M` says.
    pub fn in_mode(mut self, mode: QueryMode, clients: u32) -> ScriptWorkload {
        self.mode = mode;
        self.clients = clients.max(1);
        self
    }

    /// Label each event with the number of the script it ran (up to the runner's labels),
    /// and time each script's transactions as a kind of their own, `script N` (pgbench's
    /// per-script blocks).
    pub fn labelled(mut self) -> ScriptWorkload {
        self.labelled = true;
        let mut kinds = self.kinds.to_vec();
        for i in 0..self.scripts.len() {
            kinds.push(Box::leak(format!("script {}", i + 1).into_boxed_str()));
        }
        self.kinds = Box::leak(kinds.into_boxed_slice());
        self
    }

    /// Run each client by pgbench's rules: failures retried or counted, errors abort one
    /// client, not the run.
    pub fn with_rules(mut self, rules: PgbenchRules) -> ScriptWorkload {
        self.rules = Some(rules);
        self
    }

    /// The statement kind `script N`'s transactions are timed as, when labelled.
    pub fn script_kind(&self, script: usize) -> Option<&'static str> {
        let sql: usize = self.scripts.iter().map(|s| s.sql().count()).sum();
        self.labelled
            .then(|| self.kinds.get(sql + script).copied())
            .flatten()
    }

    /// Each script once, in order, on one session.
    fn run_each_once(&self, ctx: &Context<'_>, seed: u64) -> Result<()> {
        let mut conn = ctx.connect(0)?;
        for s in &self.scripts {
            run_once(conn.as_mut(), s, &self.globals, seed)?;
        }
        Ok(())
    }

    pub fn statements(&self) -> usize {
        self.kinds.len()
    }
}

impl Workload for ScriptWorkload {
    fn name(&self) -> &'static str {
        "script"
    }

    fn statement_kinds(&self) -> &'static [&'static str] {
        self.kinds
    }

    fn transactional(&self) -> bool {
        self.transactional
    }

    fn draws_keys_from_rand_type(&self) -> bool {
        false
    }

    fn describe(&self) -> Vec<String> {
        let list: Vec<String> = self
            .scripts
            .iter()
            .map(|s| format!("{}@{}", s.name, s.weight))
            .collect();
        vec![format!(
            "Scripts: {} (one chosen by weight per event; variables bound as parameters)",
            list.join(", ")
        )]
    }

    /// pgbench -i when the scripts use its tables, else the user's prepare scripts.
    fn prepare(&self, ctx: &Context<'_>) -> Result<Option<dbpress_measure::host::HostUsage>> {
        match self.tables {
            Some(Tables::Pgbench(tables)) => tables.prepare(ctx),
            Some(Tables::Scripted { seed }) => self.run_each_once(ctx, seed).map(|()| None),
            None => Ok(None),
        }
    }

    fn cleanup(&self, ctx: &Context<'_>) -> Result<()> {
        match self.tables {
            Some(Tables::Pgbench(_)) => pgbench_tables::cleanup(ctx),
            Some(Tables::Scripted { seed }) => self.run_each_once(ctx, seed),
            None => Ok(()),
        }
    }

    fn missing_table_fix(&self) -> String {
        "create it in a prepare section or file (`dbpress script prepare`), or connect to the database that holds it".into()
    }

    fn worker(
        &self,
        conn: &mut dyn Connection,
        dialect: &'static Dialect,
        thread: u32,
        _rng: Rng,
        _dist: Distribution,
    ) -> DbResult<Box<dyn EventGen>> {
        let mut ready = Vec::new();
        let mut kind = 0u8;
        for s in &self.scripts {
            let (r, next) =
                prepare_script(s, conn, dialect, self.mode, kind, self.rules.is_some())?;
            kind = next;
            ready.push(r);
        }
        let mut vars = self.globals.clone();
        vars.entry("client_id".into())
            .or_insert(Value::Int(i64::from(thread)));
        let seed = match vars.get("random_seed") {
            Some(Value::Int(s)) => *s as u64,
            _ => 0,
        };
        let seeds = RunSeeds::new(seed, self.clients as usize);
        let mut client = Client::new(vars, PgPrng::new(seeds.client(thread as usize)));
        if self.rules.as_ref().is_some_and(|r| r.time_commands) {
            client.timings = Some(Vec::new());
        }
        client.simple = self.mode == QueryMode::Simple;
        if self.rules.as_ref().is_some_and(|r| r.debug) {
            client.debug = Some(Debug::new(thread, &self.scripts));
        }
        Ok(Box::new(ScriptEvents {
            total_weight: self.scripts.iter().map(|s| i64::from(s.weight)).sum(),
            ready,
            choose: PgPrng::new(seeds.choose(thread as usize)),
            rules: self.rules.clone(),
            client_id: thread,
            transactions: 0,
            sessions: 0,
            script_kinds: self.labelled.then_some(kind),
            client,
        }))
    }
}

/// A script made ready on a session: its SQL adapted to the engine and, in prepared mode,
/// prepared; statement kinds numbered from `kind`. Gives the next free kind.
fn prepare_script(
    s: &Script,
    conn: &mut dyn Connection,
    dialect: &'static Dialect,
    mode: QueryMode,
    mut kind: u8,
    lazily: bool,
) -> DbResult<(Ready, u8)> {
    let w = writes(s);
    let mut script = s.clone();
    let mut sql = Vec::with_capacity(script.commands.len());
    for c in &mut script.commands {
        let Command::Sql(q) = c else {
            sql.push(None);
            continue;
        };
        let adapted = adapt(&q.text, w, dialect);
        if adapted != q.text {
            let store = q.store.take();
            *q = Sql::new(&adapted, q.line);
            q.store = store;
        }
        let slot = match mode {
            QueryMode::Simple => Slot::Text,
            // As pgbench prepares: on a statement's first use.
            QueryMode::Prepared if lazily => Slot::Unprepared,
            // Prepared before the run, so a bad statement stops it at once; the server's
            // complaint names the statement by where it is written.
            QueryMode::Prepared => Slot::Prepared(
                conn.prepare(&q.bound().0)
                    .map_err(|e| e.at(format!("{}:{}", s.name, q.line)))?,
            ),
        };
        sql.push(Some((kind, slot)));
        kind += 1;
    }
    Ok((Ready { script, sql }, kind))
}

struct ScriptEvents {
    ready: Vec<Ready>,
    total_weight: i64,
    /// pgbench's rules for failures and aborts, when dbpress runs as pgbench.
    rules: Option<PgbenchRules>,
    client_id: u32,
    /// Transactions this client ended (pgbench's log numbers them).
    transactions: u64,
    /// Sessions this client used (pgbench's -C opens one per transaction).
    sessions: u64,
    /// Which script each event runs (pgbench's per-thread choice sequence).
    choose: PgPrng,
    /// When labelled: the first of the kinds each script's transactions are timed as.
    script_kinds: Option<u8>,
    client: Client,
}

impl SqlTarget for Exec<'_> {
    fn prepare(&mut self, sql: &str) -> DbResult<StmtHandle> {
        self.conn.prepare(sql)
    }

    fn text(&mut self, kind: u8, sql: &str, rows: Option<&mut ResultRows>) -> DbResult<()> {
        match rows {
            Some(r) => self.run_query_rows(kind, sql, r).map(|_| ()),
            None => self.run_query(kind, sql),
        }
    }

    fn bound(
        &mut self,
        kind: u8,
        stmt: StmtHandle,
        params: &[Param<'_>],
        rows: Option<&mut ResultRows>,
    ) -> DbResult<()> {
        match rows {
            Some(r) => self.run_rows(kind, stmt, params, r).map(|_| ()),
            None => self.run(kind, stmt, params),
        }
    }

    fn pipeline_start(&mut self) -> DbResult<()> {
        self.conn.pipeline_start()
    }

    fn pipeline_sync(&mut self) -> DbResult<()> {
        self.conn.pipeline_sync()
    }

    fn pipeline_end(&mut self) -> DbResult<()> {
        self.conn.pipeline_end()
    }
}

/// pgbench's pick: a uniform draw over the total weight, scripts taken in order.
fn choose(rng: &mut PgPrng, ready: &[Ready], total: i64) -> usize {
    if ready.len() < 2 {
        return 0;
    }
    let mut w = rng.uniform(0, total - 1);
    for (i, r) in ready.iter().enumerate() {
        w -= i64::from(r.script.weight);
        if w < 0 {
            return i;
        }
    }
    ready.len() - 1
}

impl ScriptEvents {
    /// Script `no` once, timed as its script's kind when labelled.
    fn run_script(&mut self, no: usize, exec: &mut Exec<'_>) -> std::result::Result<(), Abort> {
        let Some(first) = self.script_kinds else {
            return self.client.run(no, &mut self.ready[no], exec);
        };
        exec.label = u8::try_from(no).ok();
        let t0 = dbpress_measure::stats::now_ns();
        let r = self.client.run(no, &mut self.ready[no], exec);
        let ns = dbpress_measure::stats::now_ns().saturating_sub(t0);
        exec.record_kind(first + no as u8, ns, r.is_err());
        r
    }

    /// One transaction under pgbench's rules: retried with its draws replayed, or failed and
    /// counted, or the client aborted; said to the log when there is one.
    fn pgbench_transaction(
        &mut self,
        rules: &PgbenchRules,
        exec: &mut Exec<'_>,
        steps: &dyn EventSteps,
    ) -> Ended {
        let no = choose(&mut self.choose, &self.ready, self.total_weight);
        let t0 = rules.on_txn.is_some().then(dbpress_measure::stats::now_ns);
        // Under --rate pgbench counts a transaction's time from its slot in the schedule.
        let lag_ns = steps.lag_ns();
        if rules.connect_each && !self.connect(rules, exec) {
            return Ended::Aborted;
        }
        let draws = self.client.rng.clone();
        let mut tries = 1;
        let ended = loop {
            let Err(abort) = self.run_script(no, exec) else {
                rules.tried(tries);
                break Ended::Done;
            };
            let verdict = rules.judge(&abort, no, tries, steps.stopping());
            if let Verdict::Abort = verdict {
                rules.abort(&AbortNote {
                    client: self.client_id,
                    script: no,
                    abort: &abort,
                });
                return Ended::Aborted;
            }
            if let Some(say) = &rules.on_try {
                say(&TryNote {
                    client: self.client_id,
                    script: no,
                    abort: &abort,
                    tries,
                    failed: matches!(verdict, Verdict::Failed(_)),
                });
            }
            // As pgbench: the transaction block is rolled back before anything else.
            let _ = exec.conn.query("ROLLBACK");
            if let Verdict::Failed(code) = verdict {
                rules.tried(tries);
                break Ended::Failed(code);
            }
            self.client.rng = draws.clone();
            tries += 1;
        };
        // pgbench counts the transaction, then aborts a client whose script left a
        // transaction block open.
        let left_open = matches!(ended, Ended::Done) && exec.conn.in_transaction();
        if left_open {
            rules.abort(&AbortNote {
                client: self.client_id,
                script: no,
                abort: &Abort::end_of_script(self.ready[no].script.commands.len()),
            });
        }
        if let (Some(log), Some(t0)) = (&rules.on_txn, t0) {
            self.transactions += 1;
            log(&TxnNote {
                client: self.client_id,
                transaction: self.transactions,
                script: no,
                latency_ns: dbpress_measure::stats::now_ns().saturating_sub(t0)
                    + lag_ns.unwrap_or(0),
                lag_ns,
                failed: match ended {
                    Ended::Failed(code) => Some(code),
                    _ => None,
                },
                retries: tries - 1,
                skipped_at_us: None,
            });
        }
        if left_open {
            return Ended::DoneThenAborted;
        }
        ended
    }
}

impl ScriptEvents {
    /// pgbench's -C: a new session for this transaction (the worker's first one serves the
    /// first), its time counted; false when it could not be had (the client aborts).
    fn connect(&mut self, rules: &PgbenchRules, exec: &mut Exec<'_>) -> bool {
        self.sessions += 1;
        if self.sessions == 1 {
            return true;
        }
        let t0 = dbpress_measure::stats::now_ns();
        if exec.reconnect().is_err() {
            rules.aborted_connecting(self.client_id);
            return false;
        }
        let ns = dbpress_measure::stats::now_ns().saturating_sub(t0);
        rules
            .tally
            .connects
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        rules
            .tally
            .connect_ns
            .fetch_add(ns, std::sync::atomic::Ordering::Relaxed);
        true
    }
}

/// How a transaction under pgbench's rules ended.
enum Ended {
    Done,
    /// Failed with this SQLSTATE, its tries used up.
    Failed(&'static str),
    Aborted,
    /// Done, and then the client aborted (its script left a transaction block open).
    DoneThenAborted,
}

impl ScriptEvents {
    /// The slots --latency-limit skipped before this transaction, as pgbench counts them: each
    /// chose its script (a draw, with several) and took a transaction number, then was logged
    /// as `skipped` and not run.
    fn log_skipped(&mut self, rules: &PgbenchRules, steps: &mut dyn EventSteps) {
        for at in steps.take_skipped() {
            let no = choose(&mut self.choose, &self.ready, self.total_weight);
            self.transactions += 1;
            let Some(log) = &rules.on_txn else {
                continue;
            };
            log(&TxnNote {
                client: self.client_id,
                transaction: self.transactions,
                script: no,
                latency_ns: 0,
                lag_ns: Some(0),
                failed: None,
                retries: 0,
                skipped_at_us: Some(at),
            });
        }
    }
}

impl EventGen for ScriptEvents {
    fn event(&mut self, exec: &mut Exec<'_>) -> DbResult<()> {
        let no = choose(&mut self.choose, &self.ready, self.total_weight);
        self.run_script(no, exec).map_err(|a| a.into_db_error())?;
        if exec.conn.in_transaction() {
            let commands = self.ready[no].script.commands.len();
            return Err(Abort::end_of_script(commands).into_db_error());
        }
        Ok(())
    }

    fn drives_loop(&self) -> bool {
        self.rules.is_some()
    }

    /// The client's command times join the run's (pgbench's -r).
    fn finish(&mut self, _exec: &mut Exec<'_>) -> DbResult<()> {
        if let (Some(rules), Some(t)) = (&self.rules, &self.client.timings) {
            rules.tally.add_times(t);
        }
        Ok(())
    }

    /// pgbench's client: transactions until the run ends or this client aborts.
    fn run_loop(&mut self, exec: &mut Exec<'_>, steps: &mut dyn EventSteps) -> DbResult<()> {
        let Some(rules) = self.rules.clone() else {
            return Ok(());
        };
        let mut more = steps.next(exec);
        while more {
            if rules.skips {
                self.log_skipped(&rules, steps);
            }
            match self.pgbench_transaction(&rules, exec, steps) {
                Ended::Aborted => break,
                Ended::DoneThenAborted => {
                    steps.step(exec);
                    break;
                }
                Ended::Failed(code) => steps.error(code),
                Ended::Done => {}
            }
            // One clock read ends this transaction and starts the next.
            more = steps.step(exec);
        }
        // Slots skipped after the last transaction, before the run's end.
        if rules.skips {
            self.log_skipped(&rules, steps);
        }
        Ok(())
    }
}
