//! A script's commands (sysbench-lua.md §1.1, §2): the main state (sysbench's global one)
//! loaded before the command line is read, so the options the script declares are known; then
//! the command run as sysbench runs it: a command of `sysbench.cmdline.commands` (a parallel
//! one in `--threads` fresh states, each on its own thread with its own connection), else the
//! built-in `run` (init() and done() around it), `prepare`, `cleanup` or `help`.

use super::hosts::{Errors, SetupHost};
use super::kinds::Kinds;
use super::{driver_name, script_failed, LuaWorkload, MainSlot};
use crate::workload::{Context, Workload};
use dbpress_config::RunConfig;
use dbpress_core::error::{failed, Error, Result};
use dbpress_core::options::table::Spec;
use dbpress_core::options::OptionValues;
use dbpress_core::rand::Rng;
use dbpress_driver::{Connection, DbError, DbErrorKind, DbResult, QueryKind, ResultRows, Value};
use dbpress_lua::{cmdline, Declared, Host, Script, State};
use std::sync::Arc;

pub use dbpress_lua::cmdline::legacy_rows;

/// A script in its main state, its top level run: what it declares is known.
pub struct MainScript {
    path: String,
    /// The bare name that found the script, when one did.
    given: Option<String>,
    source: Arc<[u8]>,
    state: State,
    declared: Option<Vec<Declared>>,
}

impl MainScript {
    /// Load the script at `path` (or `source`, read from stdin) in a main state: the prelude and
    /// the script's top level run once, here, as in sysbench before it reads the options.
    /// `load_with_argv` with the process's own arguments as `sysbench.cmdline.argv`.
    pub fn load(path: &str, source: Option<Vec<u8>>, command: &str) -> Result<MainScript> {
        MainScript::load_with_argv(path, source, command, std::env::args().collect())
    }

    /// `load`, `argv` being `sysbench.cmdline.argv` for the top level (the program as invoked,
    /// then its arguments, as a C program's).
    pub fn load_with_argv(
        path: &str,
        source: Option<Vec<u8>>,
        command: &str,
        argv: Vec<String>,
    ) -> Result<MainScript> {
        let source: Arc<[u8]> = match source {
            Some(s) => s.into(),
            None => std::fs::read(path)
                .map_err(|e| {
                    failed(format!(
                        "cannot read the Lua script '{path}': {e}: give a readable file"
                    ))
                })?
                .into(),
        };
        let mut script = Script::from_source(path, source.clone(), command, &no_options());
        script.opts.clear();
        script.argv = argv;
        let state = State::main(&script).map_err(|e| script_failed(&e))?;
        // sysbench reads the declared options in a function of its own, and names it.
        let declared = state.declared().map_err(|e| {
            failed(format!(
                "`sysbench.cmdline.read_cmdline_options' function failed: {}",
                script_failed(&e).message()
            ))
        })?;
        Ok(MainScript {
            path: path.to_string(),
            given: None,
            source,
            state,
            declared,
        })
    }

    pub fn path(&self) -> &str {
        &self.path
    }

    /// The script named by a bare name found on the search path (`sysbench ops help` for
    /// ./ops.lua): sysbench then names the test as it was given.
    pub fn named_as(mut self, given: &str) -> MainScript {
        self.given = Some(given.to_string());
        self
    }

    /// The script's name as sysbench names the test in its messages: as given when a bare name
    /// found it, else its file's name.
    pub fn name(&self) -> &str {
        match &self.given {
            Some(g) => g,
            None => self.path.rsplit('/').next().unwrap_or(&self.path),
        }
    }

    /// The options the script declares, sorted by name; None in legacy mode.
    pub fn declared(&self) -> Option<&[Declared]> {
        self.declared.as_deref()
    }

    /// The option rows the script declares; None in legacy mode (it declares none).
    pub fn option_rows(&self) -> Option<Vec<Spec>> {
        let declared = self.declared.as_ref()?;
        Some(cmdline::rows(self.name(), declared))
    }
}

fn no_options() -> OptionValues {
    OptionValues::new(dbpress_core::options::table::Table::general())
}

/// What running a command needs from the binary: the values read, the raw command line, the
/// run's random seed, and how to measure a run of the script.
pub struct CommandLine<'a> {
    pub opts: &'a OptionValues,
    /// `sysbench.cmdline.argv`: the program's name, then the arguments.
    pub argv: Vec<String>,
    pub seed: u64,
    /// Measure `run`, given how to make the script's workload for a run's configuration: once,
    /// or once for each level of a thread sweep.
    pub measure: &'a dyn Fn(BuildRun<'_>) -> Result<u8>,
}

/// The script's workload for one run of `run` (each level of a sweep has its own).
pub type BuildRun<'a> = &'a dyn Fn(&RunConfig) -> Result<Box<dyn Workload>>;

/// Run `command` as sysbench does for a script; the exit code.
pub fn run(
    mut main: MainScript,
    command: &str,
    line: &CommandLine<'_>,
    ctx: &Context<'_>,
) -> Result<u8> {
    let mut script = Script::from_source(&main.path, main.source.clone(), command, line.opts);
    script.argv = line.argv.clone();
    let driver = driver_name(ctx.driver.dialect());
    main.state
        .configure(&script, driver, Rng::new(line.seed, 0), ctx.dist)
        .map_err(|e| script_failed(&e))?;
    let script = Arc::new(script);
    let mut host = LazyHost::new(ctx, 0);
    let ok = match main.state.command_kind(command) {
        Some(true) if ctx.threads > 1 => parallel(&script, command, line.seed, ctx)?,
        Some(_) => {
            let r = main.state.run_command(command, &mut host);
            host.failed_in(r, CALL_COMMAND)?
        }
        None => return built_in(main, script, command, line, ctx),
    };
    if !ok {
        return Err(failed(format!(
            "the script's '{command}' command failed (its function returned false)"
        )));
    }
    Ok(0)
}

/// What sysbench names a failure in a command of `sysbench.cmdline.commands` after.
const CALL_COMMAND: &str = "sysbench.cmdline.call_command";

/// `run`, `prepare`, `cleanup` and `help` when the script's commands table does not have them.
fn built_in(
    mut main: MainScript,
    script: Arc<Script>,
    command: &str,
    line: &CommandLine<'_>,
    ctx: &Context<'_>,
) -> Result<u8> {
    let name = main.name().to_string();
    let lacks = || {
        failed(format!(
            "'{name}' test does not implement the '{command}' command."
        ))
    };
    let mut host = LazyHost::new(ctx, 0);
    match command {
        "run" => {
            if !main.state.defines("event") {
                return Err(failed(format!(
                    "cannot find the event() function in {name}"
                )));
            }
            call_hook(&mut main.state, "init", &mut host)?;
            // Lent for the run (each level of a sweep in turn): the script's
            // report_cumulative runs in it, as in sysbench; init and done run once.
            let slot = MainSlot::new(std::sync::Mutex::new(Some(main.state)));
            let build = |cfg: &RunConfig| -> Result<Box<dyn Workload>> {
                let (dist, seed) = (cfg.keys.dist.clone(), cfg.keys.seed);
                let mut w = LuaWorkload::new(&script.path, command, line.opts, dist, seed)?;
                w.script = script.clone();
                w.share_main(slot.clone());
                Ok(Box::new(w))
            };
            let code = (line.measure)(&build);
            main.state = slot
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .take()
                .expect("the main state is given back after the runs");
            let code = code?;
            call_hook(&mut main.state, "done", &mut host)?;
            Ok(code)
        }
        "prepare" | "cleanup" if main.state.defines(command) => {
            let r = main.state.call(command, &mut host);
            host.failed_in(r, command)?;
            Ok(0)
        }
        "help" => {
            let r = main.state.help(&name, &mut host);
            match host.failed_in(r, "help")? {
                true => Ok(0),
                false => Err(lacks()),
            }
        }
        "prepare" | "cleanup" => Err(lacks()),
        _ => Err(failed(format!("Unknown command: {command}"))),
    }
}

/// init() or done() in the main state, when the script has it.
fn call_hook(state: &mut State, name: &str, host: &mut LazyHost<'_>) -> Result<()> {
    if !state.defines(name) {
        return Ok(());
    }
    let r = state.call(name, host);
    host.result(r)
        .map_err(|e| failed(format!("`{name}' function failed: {}", e.message())))
}

/// A parallel command: `--threads` fresh states, each on its own thread with `sysbench.tid`
/// 0..N-1 and its own connection. True when every one succeeded.
fn parallel(script: &Arc<Script>, command: &str, seed: u64, ctx: &Context<'_>) -> Result<bool> {
    use std::io::Write;
    if dbpress_core::verbosity::notices() {
        let mut out = dbpress_core::out::Stdout;
        let _ = writeln!(out, "Initializing worker threads...\n");
        let _ = out.flush();
    }
    let driver = driver_name(ctx.driver.dialect());
    let results: Vec<Result<bool>> = std::thread::scope(|s| {
        let threads: Vec<_> = (0..ctx.threads)
            .map(|tid| {
                let script = script.clone();
                s.spawn(move || -> Result<bool> {
                    let mut state = State::new(
                        &script,
                        driver,
                        tid,
                        Rng::new(seed, u64::from(tid)),
                        ctx.dist,
                    )
                    .map_err(|e| script_failed(&e))?;
                    let mut host = LazyHost::new(ctx, tid as usize);
                    let r = state.run_command(command, &mut host);
                    host.failed_in(r, CALL_COMMAND)
                })
            })
            .collect();
        threads
            .into_iter()
            .map(|t| {
                t.join()
                    .unwrap_or_else(|_| Err(failed("a command thread panicked")))
            })
            .collect()
    });
    let mut all = true;
    for r in results {
        all &= r?;
    }
    Ok(all)
}

/// The main state's (and a command thread's) session: connected when the script first needs
/// it (`drv:connect()` or its first statement), so a command without SQL needs no server.
struct LazyHost<'c> {
    ctx: &'c Context<'c>,
    index: usize,
    conn: Option<Box<dyn Connection>>,
    kinds: Arc<Kinds>,
    /// Why connecting failed, with its own exit code, for the command's result.
    connect_error: Option<Error>,
}

impl<'c> LazyHost<'c> {
    fn new(ctx: &'c Context<'c>, index: usize) -> LazyHost<'c> {
        LazyHost {
            ctx,
            index,
            conn: None,
            kinds: Arc::default(),
            connect_error: None,
        }
    }

    fn setup(&mut self) -> DbResult<SetupHost<'_>> {
        if self.conn.is_none() {
            match self.ctx.connect(self.index) {
                Ok(c) => self.conn = Some(c),
                Err(e) => {
                    let db = DbError::new(DbErrorKind::Unreachable, "", e.message().to_string());
                    self.connect_error = Some(e);
                    return Err(db);
                }
            }
        }
        let conn = self.conn.as_deref_mut().expect("connected above");
        Ok(SetupHost {
            conn,
            kinds: &self.kinds,
            // The main state's commands restart no event: every server error is fatal.
            errors: Errors::NONE,
        })
    }

    /// `result`, a script's error named after the function it failed in, as sysbench names
    /// it (`` `prepare' function failed: file:line: message ``).
    fn failed_in<T>(
        &mut self,
        r: std::result::Result<T, dbpress_lua::ScriptError>,
        function: &str,
    ) -> Result<T> {
        r.map_err(|e| {
            self.connect_error.take().unwrap_or_else(|| {
                failed(format!(
                    "`{function}' function failed: {}",
                    script_failed(&e).message()
                ))
            })
        })
    }

    /// A call's result as the user reads it: a failed connection's own line, else the script's.
    fn result<T>(&mut self, r: std::result::Result<T, dbpress_lua::ScriptError>) -> Result<T> {
        r.map_err(|e| {
            self.connect_error
                .take()
                .unwrap_or_else(|| script_failed(&e))
        })
    }
}

impl Host for LazyHost<'_> {
    fn connect(&mut self) -> DbResult<()> {
        self.setup().map(|_| ())
    }

    fn prepare(&mut self, sql: &str) -> DbResult<u64> {
        self.setup()?.prepare(sql)
    }

    fn execute(&mut self, token: u64, params: &[Value<'_>]) -> DbResult<QueryKind> {
        self.setup()?.execute(token, params)
    }

    fn query(&mut self, sql: &str, rows: &mut ResultRows) -> DbResult<QueryKind> {
        self.setup()?.query(sql, rows)
    }

    fn reconnect(&mut self) -> DbResult<()> {
        self.setup()?.reconnect()
    }
}
