//! The `--query` list as a workload: one event is one pass over the list, each statement sent as
//! text (as mysqlslap sends it) and timed as its own statement kind.

use crate::events::{EventGen, Exec};
use crate::workload::Workload;
use dbpress_core::rand::{Distribution, Rng};
use dbpress_driver::{Connection, DbResult, Dialect, StmtHandle};

/// What to do when a statement names a table that is not there.
const MISSING_TABLE_FIX: &str =
    "create it with --create, or point --create-schema at the database that holds it";

#[derive(Clone)]
pub struct SlapWorkload {
    statements: Vec<String>,
    /// "1: UPDATE seckill SET …": names for the per-statement report, made once per run.
    kinds: &'static [&'static str],
    transactional: bool,
    /// `--engine`: the header's line naming the storage engine of this round's tables.
    pub engine_line: Option<String>,
    /// mysqlslap's `--commit=N`: (N, mysqlslap queries in one pass over the list). Sessions
    /// run with autocommit off and send COMMIT after every N queries and once at the end.
    commit: Option<(u64, u64)>,
    /// dbpress as mysqlslap: its text about the statements (None: dbpress's own).
    pub peer: Option<PeerText>,
}

/// What mysqlslap says about its clients' statements: a failed one is named in the error
/// (`Cannot run query Q ERROR : …`), and at `-vvv` (`echo`) each client prints `connected!`
/// and each statement as it sends it.
#[derive(Clone, Copy, Debug)]
pub struct PeerText {
    pub echo: bool,
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
            commit: None,
            peer: None,
        }
    }

    /// mysqlslap's `--commit=every`, with `per_pass` of its queries in one pass over the list:
    /// COMMIT becomes one more statement kind, timed like the others.
    pub fn with_commit(mut self, every: u64, per_pass: u64) -> SlapWorkload {
        let mut kinds = self.kinds.to_vec();
        kinds.push(COMMIT_KIND);
        self.kinds = Box::leak(kinds.into_boxed_slice());
        self.commit = Some((every.max(1), per_pass.max(1)));
        self
    }
}

/// The statement kind of `--commit`'s COMMITs in the per-statement report.
pub(super) const COMMIT_KIND: &str = "COMMIT (--commit)";

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

    fn draws_keys_from_rand_type(&self) -> bool {
        false
    }

    fn describe(&self) -> Vec<String> {
        let mut lines = vec![format!(
            "Statements per event: {} (one pass over --query, sent as text)",
            self.statements.len()
        )];
        if let Some((every, _)) = self.commit {
            lines.push(format!(
                "Commits: autocommit off, COMMIT after every {every} queries and once at the end (--commit, as mysqlslap)"
            ));
        }
        lines.extend(self.engine_line.clone());
        lines
    }

    fn missing_table_fix(&self) -> String {
        MISSING_TABLE_FIX.into()
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
        let echo = self.peer.is_some_and(|p| p.echo);
        if echo {
            dbpress_core::outln!("connected!");
            if self.commit.is_some() {
                dbpress_core::outln!("SET AUTOCOMMIT=0;");
            }
        }
        let commit = match self.commit {
            Some((every, per_pass)) => {
                let mut c = Commits::start(conn, self.statements.len() as u8, every, per_pass)?;
                c.echo = echo;
                Some(c)
            }
            None => None,
        };
        let texts = self.peer.map(|_| (self.statements.clone().into(), echo));
        Ok(Box::new(SlapEvents {
            stmts,
            commit,
            texts,
        }))
    }
}

/// mysqlslap's `--commit`: each session without autocommit, a COMMIT (timed as statement
/// `kind`) after every `every` of mysqlslap's queries and one when the client is done.
pub(super) struct Commits {
    stmt: StmtHandle,
    kind: u8,
    every: u64,
    /// mysqlslap's queries in one event.
    per_event: u64,
    since: u64,
    /// As mysqlslap at -vvv: each COMMIT printed as it is sent.
    pub(super) echo: bool,
}

impl Commits {
    /// Turn autocommit off on `conn` and prepare the COMMIT.
    pub(super) fn start(
        conn: &mut dyn Connection,
        kind: u8,
        every: u64,
        per_event: u64,
    ) -> DbResult<Commits> {
        conn.query("SET AUTOCOMMIT=0")?;
        Ok(Commits {
            stmt: conn.prepare_text("COMMIT")?,
            kind,
            every: every.max(1),
            per_event: per_event.max(1),
            since: 0,
            echo: false,
        })
    }

    /// After an event: the COMMITs its queries make due (none without --commit).
    pub(super) fn after_event(c: &mut Option<Commits>, exec: &mut Exec<'_>) -> DbResult<()> {
        let Some(c) = c else { return Ok(()) };
        c.since += c.per_event;
        while c.since >= c.every {
            if c.echo {
                dbpress_core::outln!("COMMIT;");
            }
            exec.run(c.kind, c.stmt, &[])?;
            c.since -= c.every;
        }
        Ok(())
    }

    /// mysqlslap's last COMMIT, sent by every client when it is done (none without --commit).
    pub(super) fn finish(c: &Option<Commits>, exec: &mut Exec<'_>) -> DbResult<()> {
        match c {
            Some(c) => {
                if c.echo {
                    dbpress_core::outln!("COMMIT;");
                }
                exec.run(c.kind, c.stmt, &[])
            }
            None => Ok(()),
        }
    }
}

struct SlapEvents {
    stmts: Vec<StmtHandle>,
    commit: Option<Commits>,
    /// As mysqlslap: the statements' text, and whether to print each (-vvv).
    texts: Option<(std::sync::Arc<[String]>, bool)>,
}

impl EventGen for SlapEvents {
    fn event(&mut self, exec: &mut Exec<'_>) -> DbResult<()> {
        match &self.texts {
            None => {
                for (i, &s) in self.stmts.iter().enumerate() {
                    exec.run(i as u8, s, &[])?;
                }
            }
            Some((texts, echo)) => {
                for (i, &s) in self.stmts.iter().enumerate() {
                    if *echo {
                        dbpress_core::outln!("{};", texts[i]);
                    }
                    exec.run(i as u8, s, &[])
                        .map_err(|e| e.at(texts[i].clone()))?;
                }
            }
        }
        Commits::after_event(&mut self.commit, exec)
    }

    fn finish(&mut self, exec: &mut Exec<'_>) -> DbResult<()> {
        Commits::finish(&self.commit, exec)
    }
}
