//! `dbpress slap`'s rounds: every concurrency level, once per `--engine`, `--iterations` times.
//! Each round's tables are made and dropped around one measured run, which the sweep records;
//! each level ends with mysqlslap's "Benchmark" block and `--csv` line.

use super::args::SlapArgs;
use super::mysqlslap_block::{benchmark_block, csv_line};
use super::peer::{said, Peer};
use super::plan::{events, Plan};
use super::system_command::{self, Voice};
use crate::run;
use crate::sweep::{echo_with, level_config, Sweep};
use dbpress_config::to_driver::make_driver;
use dbpress_config::{ConnectionSettings, PsMode, RunConfig, RunShape};
use dbpress_core::error::{failed, Result};
use dbpress_core::signals::Signals;
use dbpress_driver::Connection;
use dbpress_report::OutputFormat;
use dbpress_workload::slap::autogen::{self, AutoWorkload};
use dbpress_workload::slap::tables::{SetUpFailed, SlapTables, StorageEngine};
use dbpress_workload::slap::workload::{PeerText, SlapWorkload};
use dbpress_workload::{Context, Workload};
use std::io::Write;

/// How a level ended: the next level follows, or the next engine, or nothing more runs.
enum LevelEnd {
    Next,
    NextEngine,
    Stop(Option<&'static str>),
}

/// How a round ended.
enum RoundEnd {
    /// Measured: its wall seconds and mysqlslap's queries it ran; after a failed clean-up
    /// (the server went away) no further round is tried.
    Ran {
        seconds: f64,
        queries: u64,
        cleanup_failed: bool,
    },
    /// It could not start: the level ends there, without its block.
    NotRun,
    /// The `--engine` could not make its tables: its levels are recorded as not run.
    EngineUnusable,
    Interrupted(&'static str),
}

/// What every round needs, and what the levels add up to.
pub struct Rounds<'a> {
    a: &'a SlapArgs,
    plan: Plan,
    /// The plan's tables, through the rounds.
    tables: SlapTables,
    /// The --query list as a workload (None with -a, whose workload is made each round).
    listed: Option<SlapWorkload>,
    first: &'a RunConfig,
    argv: &'a [String],
    out: &'a mut dyn Write,
    signals: &'a Signals,
    /// mysqlslap's --csv lines, one per concurrency level.
    pub csv: String,
    /// dbpress as mysqlslap: the schema made and dropped each round, and only mysqlslap's text.
    peer: Option<Peer>,
}

impl<'a> Rounds<'a> {
    pub fn new(
        a: &'a SlapArgs,
        mut plan: Plan,
        first: &'a RunConfig,
        argv: &'a [String],
        out: &'a mut dyn Write,
        signals: &'a Signals,
    ) -> Rounds<'a> {
        let listed = plan.auto.is_none().then(|| match a.commit {
            0 => SlapWorkload::new(&plan.queries),
            every => SlapWorkload::new(&plan.queries).with_commit(every, plan.slap_queries),
        });
        Rounds {
            a,
            tables: std::mem::take(&mut plan.tables),
            plan,
            listed,
            first,
            argv,
            out,
            signals,
            csv: String::new(),
            peer: None,
        }
    }

    /// Run the rounds as mysqlslap does (#42).
    pub fn with_peer(mut self, peer: Peer) -> Rounds<'a> {
        self.peer = Some(peer);
        self
    }

    /// Every level of every engine; what interrupted them, if anything did.
    pub fn run(
        &mut self,
        sweep: &mut Sweep,
        engines: &[Option<&StorageEngine>],
    ) -> Result<Option<&'static str>> {
        if let Some(p) = &mut self.peer {
            // mysqlslap's main session comes first: a login refused stops it there.
            p.session().map_err(said)?;
            p.say(2, "Parsing engines to use.");
            p.check_schema_is_free().map_err(said)?;
        }
        for &engine in engines {
            if let Some(p) = &self.peer {
                p.say(2, "Starting Concurrency Test");
            }
            if let Some(l) = &mut self.listed {
                l.engine_line = engine.map(StorageEngine::header_line);
            }
            for &clients in &self.a.concurrency {
                let end = self.level(sweep, engine, clients);
                if let (Err(_), Some(p)) = (&end, &mut self.peer) {
                    // mysqlslap leaves its schema behind when it stops; dbpress drops it.
                    p.clean_up_after_failure();
                }
                match end? {
                    LevelEnd::Next => {}
                    LevelEnd::NextEngine => break,
                    LevelEnd::Stop(interrupted) => {
                        if let Some(p) = &mut self.peer {
                            p.clean_up_after_failure();
                        }
                        return Ok(interrupted);
                    }
                }
            }
            if let Some(p) = &mut self.peer {
                p.end_engine().map_err(said)?;
            }
        }
        Ok(None)
    }

    /// One concurrency level's rounds, one driver for them all, then its block.
    fn level(
        &mut self,
        sweep: &mut Sweep,
        engine: Option<&StorageEngine>,
        clients: u32,
    ) -> Result<LevelEnd> {
        let cfg = round_config(self.first, clients, events(self.a, &self.plan, clients));
        let driver = make_driver(&cfg)?;
        let ctx = Context {
            driver: driver.as_ref(),
            threads: clients,
            dist: &cfg.keys.dist,
            invocation: cfg.invocation("slap"),
        };
        let (mut seconds, mut queries) = (Vec::new(), 0u64);
        for round in 1..=self.a.iterations {
            match self.round(sweep, &cfg, &ctx, engine, round)? {
                RoundEnd::Ran {
                    seconds: s,
                    queries: q,
                    cleanup_failed,
                } => {
                    seconds.push(s);
                    queries += q;
                    if cleanup_failed {
                        // The level's block still covers its rounds; then the run ends.
                        self.close_level(engine, &seconds, clients, queries);
                        return Ok(LevelEnd::Stop(None));
                    }
                }
                RoundEnd::NotRun => return Ok(LevelEnd::Next),
                RoundEnd::EngineUnusable => return Ok(LevelEnd::NextEngine),
                RoundEnd::Interrupted(sig) => return Ok(LevelEnd::Stop(Some(sig))),
            }
        }
        if let Some(p) = &self.peer {
            p.say(2, "Generating stats");
        }
        self.close_level(engine, &seconds, clients, queries);
        Ok(LevelEnd::Next)
    }

    /// One round: its tables made, the run measured and recorded, its tables dropped.
    fn round(
        &mut self,
        sweep: &mut Sweep,
        cfg: &RunConfig,
        ctx: &Context<'_>,
        engine: Option<&StorageEngine>,
        round: u32,
    ) -> Result<RoundEnd> {
        if self.peer.is_some() {
            return self.peer_round(sweep, cfg, ctx, engine);
        }
        let clients = cfg.shape.threads;
        let Some(w) = self.set_up(sweep, ctx, engine, clients, round)? else {
            return Ok(RoundEnd::EngineUnusable);
        };
        let (w, hints) = (w.as_ref(), ctx.driver.hints());
        // mysqlslap has no --forced-shutdown, so a slap run is never forced to end.
        let measured = run::measure(cfg, w, ctx, self.argv, self.out, self.signals, &|m| {
            run::exit_forced(cfg, &m, hints, w)
        });
        // The round is measured: nothing after it may lose it.
        let cleanup_failed = self.tear_down(sweep, ctx, clients, round);
        let engine_name = engine.map(|e| e.name.as_str());
        let m = match measured {
            Ok(m) => m,
            Err(e) => {
                let _ = writeln!(
                    self.out,
                    "dbpress: {clients} clients did not run: {}\n",
                    e.message()
                );
                sweep.missed(clients, engine_name, e.message());
                return Ok(RoundEnd::NotRun);
            }
        };
        if cfg.reporting.format == OutputFormat::Text {
            let _ = write!(
                self.out,
                "{}",
                dbpress_report::text::summary(&m.result, cfg.reporting.histogram)
            );
        }
        let s = &m.result.summary;
        let (seconds, queries) = (s.total_time_s, s.events * self.plan.slap_queries);
        let fatal = m.fatal.as_ref().map(|e| {
            let message = dbpress_run::fatal_message(e, hints, w)
                .message()
                .to_string();
            // The cause and its fix on stderr, where a script looks for them.
            eprintln!("dbpress: {clients} clients: {message}");
            message
        });
        sweep.ran(clients, engine_name, m.result, fatal);
        if let Some(sig) = m.interrupted_by.or(self.signals.caught()) {
            return Ok(RoundEnd::Interrupted(sig));
        }
        Ok(RoundEnd::Ran {
            seconds,
            queries,
            cleanup_failed,
        })
    }

    /// One round as mysqlslap runs it (#42): the schema and tables made on the main session,
    /// the run measured with nothing of dbpress's printed, the schema dropped. A client that
    /// cannot connect is a line and the level goes on; a failed query ends the program with
    /// exit code 0 and no block, as mysqlslap's clients end it.
    fn peer_round(
        &mut self,
        sweep: &mut Sweep,
        cfg: &RunConfig,
        ctx: &Context<'_>,
        engine: Option<&StorageEngine>,
    ) -> Result<RoundEnd> {
        let (a, clients) = (self.a, cfg.shape.threads);
        let w = self.peer_workload(engine, clients)?;
        let peer = self.peer.as_mut().expect("a peer's round");
        peer.before_clients(&self.tables).map_err(said)?;
        if let Some(cmd) = &a.pre_system {
            system_command::run("--pre-system", cmd, Voice::Mysqlslap);
        }
        let (w, hints) = (w.as_ref(), ctx.driver.hints());
        let started = std::time::Instant::now();
        let measured = run::measure(
            cfg,
            w,
            ctx,
            self.argv,
            &mut std::io::sink(),
            self.signals,
            &|m| run::exit_forced(cfg, &m, hints, w),
        );
        let elapsed = started.elapsed().as_secs_f64();
        let engine_name = engine.map(|e| e.name.as_str());
        if let Some(e) = measured.as_ref().ok().and_then(|m| m.fatal.as_ref()) {
            // mysqlslap's client exits the program there, with 0 and no block; its
            // --post-query never runs (the schema is dropped by `run`, as dbpress made it).
            eprintln!(
                "{}: Cannot run query {} ERROR : {}",
                peer.program,
                e.origin.as_deref().unwrap_or_default(),
                e.message
            );
            return Err(dbpress_core::error::Error::Interrupted(String::new(), 0));
        }
        if let Err(e) = &measured {
            // Clients that could not connect: mysqlslap's line as they fail, before the
            // round's end, and the level goes on.
            eprintln!("{}", peer.client_connect_line(ctx.driver, e));
        }
        peer.tear_down(&self.tables, || {
            if let Some(cmd) = &a.post_system {
                system_command::run("--post-system", cmd, Voice::Mysqlslap);
            }
        })
        .map_err(said)?;
        let m = match measured {
            Ok(m) => m,
            Err(_) => {
                let queries = cfg.shape.events * self.plan.slap_queries;
                return Ok(RoundEnd::Ran {
                    seconds: elapsed,
                    queries,
                    cleanup_failed: false,
                });
            }
        };
        // mysqlslap's seconds run from its clients' start to their end, sessions opened and
        // closed included: the wall time around the run. Its queries per client are 0 for
        // -a without --number-of-queries: its text, kept.
        let unlimited = a.auto.as_ref().is_some_and(|g| g.execute_number.is_none());
        let queries = match unlimited && a.number_of_queries == 0 {
            true => 0,
            false => m.result.summary.events * self.plan.slap_queries,
        };
        sweep.ran(clients, engine_name, m.result, None);
        if let Some(sig) = m.interrupted_by.or(self.signals.caught()) {
            return Ok(RoundEnd::Interrupted(sig));
        }
        Ok(RoundEnd::Ran {
            seconds: elapsed,
            queries,
            cleanup_failed: false,
        })
    }

    /// A peer round's schema and tables made, and its workload: `-a`'s over the keys its
    /// table holds now (read on the main session, as mysqlslap reads them), or the --query
    /// list; either says its statements in mysqlslap's words.
    fn peer_workload(
        &mut self,
        engine: Option<&StorageEngine>,
        clients: u32,
    ) -> Result<Box<dyn Workload>> {
        let peer = self.peer.as_mut().expect("a peer's round");
        peer.make_schema(&self.tables, engine).map_err(said)?;
        let text = PeerText {
            echo: peer.verbose >= 3,
        };
        Ok(match (&self.plan.auto, &self.listed) {
            (Some(sql), _) => {
                if sql.needs_keys() {
                    peer.say(3, &format!("{};", autogen::KEYS_QUERY));
                }
                let conn = peer.session().map_err(said)?;
                let mut g = auto_workload(self.a, sql, conn.as_mut(), engine, clients)?;
                g.peer = Some(text);
                Box::new(g)
            }
            (None, Some(listed)) => {
                let mut l = listed.clone();
                l.peer = Some(text);
                Box::new(l)
            }
            (None, None) => unreachable!("a plan has --query or -a"),
        })
    }

    /// Before a round: its tables, its workload, its header line, mysqlslap's --pre-system.
    /// None when the round's --engine could not make its tables.
    fn set_up(
        &mut self,
        sweep: &mut Sweep,
        ctx: &Context<'_>,
        engine: Option<&StorageEngine>,
        clients: u32,
        round: u32,
    ) -> Result<Option<Box<dyn Workload>>> {
        let a = self.a;
        let mut setup = ctx.connect(0)?;
        match self.tables.set_up(setup.as_mut(), ctx, engine, self.out) {
            Ok(()) => {}
            Err(SetUpFailed::Run(e)) => return Err(e),
            Err(SetUpFailed::Engine(e)) => {
                engine_unusable(sweep, a, engine, clients, &e);
                return Ok(None);
            }
        }
        let w: Box<dyn Workload> = match (&self.plan.auto, &self.listed) {
            (Some(sql), _) => Box::new(auto_workload(a, sql, setup.as_mut(), engine, clients)?),
            (None, Some(listed)) => Box::new(listed.clone()),
            (None, None) => unreachable!("a plan has --query or -a"),
        };
        let on = engine.map_or(String::new(), |e| format!(", engine {}", e.name));
        let _ = writeln!(
            self.out,
            "=== {clients} clients{on}, round {round} of {} ===\n",
            a.iterations
        );
        // The setup session would sit idle through the run: one more session in the server's
        // view of the run's sessions (its wait events) and of its connection limit. Closed for
        // the run, opened again after it.
        drop(setup);
        if let Some(cmd) = &a.pre_system {
            system_command::run("--pre-system", cmd, Voice::Dbpress);
        }
        Ok(Some(w))
    }

    /// After a round, on a session of its own: --post-query, --post-system, the tables
    /// dropped. If that fails (the server went away), that is one more line, the round is
    /// still reported and saved, and no further round is tried (true).
    fn tear_down(
        &mut self,
        sweep: &mut Sweep,
        ctx: &Context<'_>,
        clients: u32,
        round: u32,
    ) -> bool {
        let a = self.a;
        let cleanup = self.tables.tear_down(ctx, || {
            if let Some(cmd) = &a.post_system {
                system_command::run("--post-system", cmd, Voice::Dbpress);
            }
        });
        let Err(e) = cleanup else {
            return false;
        };
        eprintln!(
            "dbpress: the clean-up after {clients} clients, round {round} failed: {}{}",
            e.message(),
            self.tables.left_behind_note()
        );
        sweep.mark_failed();
        true
    }

    /// mysqlslap's "Benchmark" block for a level's rounds, and its --csv line.
    fn close_level(
        &mut self,
        engine: Option<&StorageEngine>,
        seconds: &[f64],
        clients: u32,
        queries: u64,
    ) {
        // No round ran (mysqlslap's `-i 0`): its block of zeros, no clients.
        let (seconds, clients) = match seconds.is_empty() {
            true => (&[0.0][..], 0),
            false => (seconds, clients),
        };
        if self.a.csv.as_deref() != Some("") {
            let _ = write!(
                self.out,
                "{}",
                benchmark_block(engine, seconds, clients, queries)
            );
        }
        let mode = self.a.auto.as_ref().map_or("mixed", |g| g.load.name());
        self.csv
            .push_str(&csv_line(engine, mode, seconds, clients, queries));
    }
}

/// A round's configuration: the first level's with this level's clients and their share of
/// the events, no time limit (so no forced shutdown either), and statements sent as text, as
/// mysqlslap sends them (the header then says so).
fn round_config(first: &RunConfig, clients: u32, (total, per_client): (u64, u64)) -> RunConfig {
    let level = level_config(first, clients);
    RunConfig {
        shape: RunShape {
            time: 0,
            forced_shutdown: None,
            events: total,
            events_per_thread: per_client,
            ..level.shape
        },
        connection: ConnectionSettings {
            ps_mode: PsMode::Disable,
            ..level.connection.clone()
        },
        echo: echo_with(
            &level.echo,
            &[
                ("time", "0".into()),
                ("events", total.to_string()),
                ("db-ps-mode", "disable".into()),
            ],
        ),
        ..level
    }
}

/// An engine the server lacks (or substituted) cannot run any level: this level and the
/// ones after it go in the table with the reason, and the next engine runs.
fn engine_unusable(
    sweep: &mut Sweep,
    a: &SlapArgs,
    engine: Option<&StorageEngine>,
    clients: u32,
    e: &dbpress_core::error::Error,
) {
    let name = engine.map_or("", |e| e.name.as_str());
    eprintln!("dbpress: engine {name} did not run: {}", e.message());
    for &c in a.concurrency.iter().skip_while(|&&c| c != clients) {
        sweep.missed(c, Some(name), e.message());
    }
}

/// -a's workload for one round: its queries over the keys t1 holds now.
fn auto_workload(
    a: &SlapArgs,
    sql: &autogen::AutoSql,
    conn: &mut dyn Connection,
    engine: Option<&StorageEngine>,
    clients: u32,
) -> Result<AutoWorkload> {
    let keys = match sql.needs_keys() {
        true => autogen::fetch_keys(conn)
            .map_err(|e| failed(format!("reading the keys of t1 failed: {}", e.message)))?,
        false => Vec::new(),
    };
    let mut g = AutoWorkload::new(sql, keys, clients);
    g.engine_line = engine.map(StorageEngine::header_line);
    g.commit_every = a.commit;
    Ok(g)
}
