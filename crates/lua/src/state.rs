//! One LuaJIT state running a script: made on the thread that uses it (a worker's own), the
//! prelude first, then the whole script (chunk `@path`, so errors read `path:line: msg`), then
//! `sysbench.opt` completed from the options the script declared. Its entry points are called
//! through cached functions; SQL goes to the `Host` lent for the call.

use crate::cmdline::{self, typed, Declared, Opt};
use crate::host::{lend, Ctx, Host};
use crate::{exports, ffi};
use dbpress_core::options::table::Kind;
use dbpress_core::options::OptionValues;
use dbpress_core::rand::{DistParams, Rng};
use dbpress_session::DbError;
use mlua::{Function, Lua, LuaOptions, StdLib, Table, Value as LuaValue};
use std::mem::ManuallyDrop;
use std::sync::Arc;
use std::thread::ThreadId;

/// dbpress's clean-room `sysbench.*`, in the order the parts run: `base` first (its FFI
/// declarations and entry points, handed to the others), `modules` last (it closes `sysbench`).
const PRELUDE: [(&str, &str); 9] = [
    ("base", include_str!("prelude/base.lua")),
    ("cmdline", include_str!("prelude/cmdline.lua")),
    ("sysbench_ffi", include_str!("prelude/sysbench_ffi.lua")),
    ("rand", include_str!("prelude/rand.lua")),
    ("sql", include_str!("prelude/sql.lua")),
    ("loop", include_str!("prelude/loop.lua")),
    ("compat", include_str!("prelude/compat.lua")),
    ("report", include_str!("prelude/report.lua")),
    ("modules", include_str!("prelude/modules.lua")),
];

/// The prelude as stripped bytecode, compiled once per process, as sysbench embeds its own Lua:
/// a state then holds no line tables or local names of it and does not parse 40 KB of source.
fn compiled_prelude() -> &'static [Vec<u8>] {
    static COMPILED: std::sync::OnceLock<Vec<Vec<u8>>> = std::sync::OnceLock::new();
    COMPILED.get_or_init(|| {
        let lua = Lua::new();
        // Lua's `string.dump(f, true)`: LuaJIT's C `lua_dump` (mlua's `Function::dump`) keeps
        // the debug information whatever it is asked.
        let dump = |text: &str| -> mlua::Result<Vec<u8>> {
            let f = lua.load(text).into_function()?;
            let dumped: mlua::LuaString = lua.load("return string.dump(..., true)").call(f)?;
            Ok(dumped.as_bytes().to_vec())
        };
        PRELUDE
            .iter()
            // The prelude is part of the binary and its tests run it: it compiles.
            .map(|(_, text)| dump(text).expect("dbpress's Lua prelude compiles"))
            .collect()
    })
}

/// A script as every state of a run loads it: read once, its options and command fixed.
pub struct Script {
    pub path: String,
    pub source: Arc<[u8]>,
    /// The command word (`run`, `prepare`, …), `sysbench.cmdline.command`; empty for none.
    pub command: String,
    pub opts: Vec<Opt>,
    /// The command line as given, `sysbench.cmdline.argv` (0-based: the program's name first).
    pub argv: Vec<String>,
}

impl Script {
    /// Read `path` (the one line naming it when it cannot be read).
    pub fn load(path: &str, command: &str, values: &OptionValues) -> Result<Script, String> {
        let source =
            std::fs::read(path).map_err(|e| format!("cannot read the Lua script '{path}': {e}"))?;
        Ok(Script::from_source(path, source.into(), command, values))
    }

    /// A script already read (from stdin, or by the main state), named `path` in errors.
    pub fn from_source(
        path: &str,
        source: Arc<[u8]>,
        command: &str,
        values: &OptionValues,
    ) -> Script {
        let mut opts: Vec<Opt> = values
            .table()
            .rows()
            .filter(|s| !s.secret)
            .map(|s| Opt {
                name: s.name.replace('-', "_"),
                kind: s.kind,
                text: values.get(s.name).to_string(),
                explicit: values.is_set(s.name),
            })
            .collect();
        if dbpress_core::personality::is_sysbench() {
            as_sysbench_opts(&mut opts);
        }
        Script {
            path: path.to_string(),
            source,
            command: command.to_string(),
            opts,
            argv: Vec::new(),
        }
    }
}

/// As sysbench (#42), `sysbench.opt` as sysbench 1.0.20 fills it: its flags dbpress takes and
/// ignores and its old spellings, at their defaults (`debug` as given), and `db_driver` naming
/// the driver it defaults to, `mysql`, where none was given.
fn as_sysbench_opts(opts: &mut Vec<Opt>) {
    let debug = if dbpress_core::personality::sysbench_debug() {
        "on"
    } else {
        "off"
    };
    let extra = [
        ("debug", Kind::Bool, debug),
        ("help", Kind::Bool, "off"),
        ("version", Kind::Bool, "off"),
        ("db_debug", Kind::Bool, "off"),
        ("mysql_debug", Kind::Bool, "off"),
        ("num_threads", Kind::Int, "1"),
        ("max_requests", Kind::Int, "0"),
        ("max_time", Kind::Int, "0"),
        ("tx_rate", Kind::Int, "0"),
        ("thread_stack_size", Kind::Int, "65536"),
    ];
    for (name, kind, text) in extra {
        if !opts.iter().any(|o| o.name == name) {
            opts.push(Opt {
                name: name.to_string(),
                kind,
                text: text.to_string(),
                explicit: false,
            });
        }
    }
    if let Some(d) = opts
        .iter_mut()
        .find(|o| o.name == "db_driver" && !o.explicit)
    {
        d.text = "mysql".to_string();
    }
    // --debug logs everything: sysbench's verbosity is then 5, whatever was given.
    let verbosity = opts.iter_mut().find(|o| o.name == "verbosity");
    if let Some(v) = verbosity.filter(|_| dbpress_core::personality::sysbench_debug()) {
        v.text = "5".to_string();
    }
    // sysbench 1.0.20's --mysql-ssl is a flag; dbpress's also takes TLS modes.
    let flag = |o: &&mut Opt| dbpress_core::options::parse_bool(&o.text).is_some();
    if let Some(ssl) = opts.iter_mut().find(|o| o.name == "mysql_ssl").filter(flag) {
        ssl.kind = Kind::Bool;
    }
}

/// A script's error as one line: Lua's message, and where (`path:line`) when it says.
#[derive(Debug)]
pub struct ScriptError {
    pub message: String,
    pub origin: Option<String>,
    /// The database error behind it, when a SQL call failed.
    pub sql: Option<DbError>,
    /// The error is sysbench's restart (an IGNORABLE error, or a FATAL one the script's
    /// `sql_error_ignorable` hook accepted): the event is to be retried.
    pub restart: bool,
}

impl std::fmt::Display for ScriptError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.origin {
            Some(o) => write!(f, "{o}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl ScriptError {
    fn plain(message: impl Into<String>) -> ScriptError {
        ScriptError {
            message: message.into(),
            origin: None,
            sql: None,
            restart: false,
        }
    }

    pub(crate) fn from_lua(e: &mlua::Error) -> ScriptError {
        let text = match e {
            mlua::Error::SyntaxError { message, .. } => message.clone(),
            mlua::Error::RuntimeError(m) => m.clone(),
            mlua::Error::CallbackError { cause, .. } => return ScriptError::from_lua(cause),
            other => other.to_string(),
        };
        // The first line: Lua's message without the traceback mlua appends.
        let line = text.lines().next().unwrap_or("").trim_end().to_string();
        let (origin, message) = split_origin(&line);
        ScriptError {
            message,
            origin,
            sql: None,
            restart: false,
        }
    }
}

/// `path:12: msg` → (Some("path:12"), "msg"); anything else whole.
fn split_origin(line: &str) -> (Option<String>, String) {
    let mut from = 0;
    while let Some(i) = line[from..].find(": ") {
        let at = from + i;
        let head = &line[..at];
        if let Some(colon) = head.rfind(':') {
            let num = &head[colon + 1..];
            if colon > 0 && !num.is_empty() && num.bytes().all(|b| b.is_ascii_digit()) {
                return (Some(head.to_string()), line[at + 2..].to_string());
            }
        }
        from = at + 2;
    }
    (None, line.to_string())
}

/// A script's state. It never leaves the thread that made it (see `Send` below).
pub struct State {
    /// Dropped by hand, before the context its calls use.
    lua: ManuallyDrop<Lua>,
    ctx: *mut Ctx,
    event: Option<Function>,
    /// The prelude's `enter(f, tid, resume)`, through which every call into the script goes.
    enter: Option<Function>,
    tid: u32,
    thread: ThreadId,
}

// SAFETY: a State is made on a worker's thread and used and dropped there only (the runner
// creates the event generator inside the worker thread and never moves it); the trait objects
// holding it must be `Send`, which it is not by itself (the Lua state and the raw context).
// `check_thread` asserts it in debug builds.
unsafe impl Send for State {}

impl State {
    /// A state for thread `tid` (0 for the main one): the prelude, the script, the options.
    /// `driver` is what `drv:name()` says (mysql, pgsql, sqlite).
    pub fn new(
        script: &Script,
        driver: &str,
        tid: u32,
        rng: Rng,
        dist: &DistParams,
    ) -> Result<State, ScriptError> {
        let mut state = State::bare(tid, rng, dist);
        state.set_driver(driver);
        state.boot(script, driver).map_err(|e| state.error(&e))?;
        state.cache_event();
        Ok(state)
    }

    /// The main state (sysbench's global one) before the command line is read: the prelude and
    /// the script's top level, so its declared options (`declared`) can be read; `configure`
    /// then gives it the options, the driver and the random streams.
    pub fn main(script: &Script) -> Result<State, ScriptError> {
        let state = State::bare(0, Rng::new(1, 0), &DistParams::default());
        let run = || -> mlua::Result<()> {
            state.prelude(script, "")?;
            state.run_script(script)
        };
        run().map_err(|e| state.error(&e))?;
        Ok(state)
    }

    /// The main state made ready for its command: `script`'s options exported into
    /// `sysbench.opt`, the command named, the driver and random streams set.
    pub fn configure(
        &mut self,
        script: &Script,
        driver: &str,
        rng: Rng,
        dist: &DistParams,
    ) -> Result<(), ScriptError> {
        self.check_thread();
        // SAFETY: this state's context, on its thread; replaced in place, so the address the
        // prelude holds stays valid (no statement or host refers to the old one yet).
        unsafe { *self.ctx = *Ctx::new(rng, dist) };
        let run = || -> mlua::Result<()> {
            let info: Table = self.lua.named_registry_value("dbpress_info")?;
            info.raw_set("driver", driver)?;
            let sysbench: Table = self.lua.globals().raw_get("sysbench")?;
            let cmd: Table = sysbench.raw_get("cmdline")?;
            cmd.raw_set("command", command_value(&script.command))?;
            cmd.raw_set("argv", argv_table(&self.lua, &script.argv)?)?;
            cmdline::export(&self.lua, &script.opts)
        };
        run().map_err(|e| self.error(&e))?;
        self.set_driver(driver);
        self.cache_event();
        Ok(())
    }

    /// PostgreSQL's errors are SQLSTATEs, which a script sees as sql_state with errno 0.
    fn set_driver(&mut self, driver: &str) {
        // SAFETY: this state's context, on its thread.
        unsafe { (*self.ctx).pg = driver == "pgsql" };
    }

    fn bare(tid: u32, rng: Rng, dist: &DistParams) -> State {
        // SAFETY: sysbench's scripts need `ffi` (and `debug`, `io`, `os`): the whole standard
        // library, as sysbench opens it.
        //
        // mlua gives LuaJIT its Rust allocator (glibc's malloc). LuaJIT's own allocator was
        // tried: 381 KiB per connection at 1 000 threads against 313, since each state then
        // keeps its load-time garbage in its own 128 KiB segments, where glibc's arenas lend
        // one state's freed memory to the next (bench/RESULTS.md).
        let lua =
            ManuallyDrop::new(unsafe { Lua::unsafe_new_with(StdLib::ALL, LuaOptions::new()) });
        State {
            lua,
            ctx: Box::into_raw(Ctx::new(rng, dist)),
            event: None,
            enter: None,
            tid,
            thread: std::thread::current().id(),
        }
    }

    /// The script's `event` and the prelude's `enter`, looked up once the script has run.
    fn cache_event(&mut self) {
        self.enter = self
            .lua
            .named_registry_value::<Table>("dbpress_parts")
            .and_then(|p| p.raw_get::<Option<Function>>("enter"))
            .ok()
            .flatten();
        self.event = self
            .lua
            .globals()
            .get::<Option<Function>>("event")
            .ok()
            .flatten();
    }

    fn boot(&self, script: &Script, driver: &str) -> mlua::Result<()> {
        self.prelude(script, driver)?;
        self.run_script(script)?;
        cmdline::export(&self.lua, &script.opts)
    }

    /// dbpress's `sysbench.*`, its options known so far already in `sysbench.opt` (a harmless
    /// superset: sysbench exports them only after the top level).
    fn prelude(&self, script: &Script, driver: &str) -> mlua::Result<()> {
        let lua = &self.lua;
        crate::output::install(lua)?;
        let fns = lua.create_table()?;
        for (name, addr) in ffi::addresses().into_iter().chain(exports::addresses()) {
            fns.set(name, addr as f64)?;
        }
        let opts = lua.create_table()?;
        for o in &script.opts {
            opts.set(o.name.as_str(), typed(lua, o.kind, &o.text)?)?;
        }
        let info = lua.create_table()?;
        info.set("tid", self.tid)?;
        info.set("command", command_value(&script.command))?;
        info.set("script_path", script.path.as_str())?;
        info.set("driver", driver)?;
        info.set("argv", argv_table(lua, &script.argv)?)?;
        if let Some(dir) = std::path::Path::new(&script.path).parent() {
            let dir = dir.to_string_lossy();
            info.set("script_dir", if dir.is_empty() { "." } else { &dir })?;
        }
        lua.set_named_registry_value("dbpress_info", &info)?;
        let compiled = compiled_prelude();
        let load = |i: usize| {
            lua.load(&compiled[i][..])
                .set_mode(mlua::chunk::ChunkMode::Binary)
                .set_name(format!("@dbpress-prelude/{}.lua", PRELUDE[i].0))
        };
        let parts: Table = load(0).call((self.ctx as usize as f64, fns, opts, info))?;
        for i in 1..PRELUDE.len() {
            load(i).call::<()>(&parts)?;
        }
        lua.set_named_registry_value("dbpress_parts", parts)
    }

    /// The whole script, as a script file is loaded (luaL_loadfile): a first line starting
    /// with `#` (the `#!/usr/bin/env sysbench` line) is skipped, its line number kept.
    fn run_script(&self, script: &Script) -> mlua::Result<()> {
        let source: std::borrow::Cow<'_, [u8]> = if script.source.first() == Some(&b'#') {
            let mut s = b"--".to_vec();
            s.extend_from_slice(&script.source);
            s.into()
        } else {
            (&script.source[..]).into()
        };
        self.lua
            .load(&source[..])
            .set_name(format!("@{}", script.path))
            .exec()
    }

    /// A full collection before the events start. Loading the prelude and the script and
    /// running `thread_init` leave ~60 KiB of garbage per state, which an event loop that
    /// allocates nothing would carry to the end: a thousand workers' worth of it, freed here,
    /// is reused by the states still booting (bench/RESULTS.md, memory at 1 000 threads).
    pub fn settle(&self) {
        self.check_thread();
        // A collection cannot fail but for a finaliser's error, and none of ours raises.
        let _ = self.lua.gc_collect();
    }

    /// The options the script's top level declared; None in legacy mode (none declared).
    pub fn declared(&self) -> Result<Option<Vec<Declared>>, ScriptError> {
        self.check_thread();
        cmdline::declared(&self.lua).map_err(|e| self.error(&e))
    }

    /// Whether `sysbench.cmdline.commands` declares `name`, and then whether it is parallel.
    pub fn command_kind(&self, name: &str) -> Option<bool> {
        self.check_thread();
        let cmd = self.cmdline().ok()?;
        let defined: Function = cmd.raw_get("command_defined").ok()?;
        if !defined.call::<bool>(name).ok()? {
            return None;
        }
        let parallel: Function = cmd.raw_get("command_parallel").ok()?;
        parallel.call::<bool>(name).ok()
    }

    /// Run the declared command `name` in this state with `host` lent for its SQL: false when
    /// its function returned false.
    pub fn run_command(&mut self, name: &str, host: &mut dyn Host) -> Result<bool, ScriptError> {
        self.check_thread();
        let f: Function = self
            .cmdline()
            .and_then(|c| c.raw_get("call_command"))
            .map_err(|e| self.error(&e))?;
        // SAFETY: this state's context, on its thread.
        let r = unsafe { lend(self.ctx, host, || f.call::<bool>(name)) };
        self.flush();
        r.map_err(|e| self.error(&e))
    }

    /// The `help` command: the script's help() if it has one, else its declared options under
    /// `script_name`; false when it has neither.
    pub fn help(&mut self, script_name: &str, host: &mut dyn Host) -> Result<bool, ScriptError> {
        if self.defines("help") {
            return self.call("help", host).map(|_| true);
        }
        let declared = cmdline::declared(&self.lua).map_err(|e| self.error(&e))?;
        if declared.is_none() {
            return Ok(false);
        }
        let print = || -> mlua::Result<()> {
            let parts: Table = self.lua.named_registry_value("dbpress_parts")?;
            parts
                .raw_get::<Function>("print_help")?
                .call::<()>(script_name)
        };
        let r = print();
        self.flush();
        r.map(|_| true).map_err(|e| self.error(&e))
    }

    fn cmdline(&self) -> mlua::Result<Table> {
        let sysbench: Table = self.lua.globals().raw_get("sysbench")?;
        sysbench.raw_get("cmdline")
    }

    /// What Lua wrote to stdout (C stdio) out before Rust writes more.
    fn flush(&self) {
        let _ = self.lua.load("io.stdout:flush()").exec();
    }

    fn error(&self, e: &mlua::Error) -> ScriptError {
        self.error_from(e, false)
    }

    /// A script error; `entered`: it left through the prelude's `enter`, which says whether it
    /// is a restart and whether it is the SQL error kept (not one the script caught before
    /// failing on its own); otherwise the last SQL error is taken to be it.
    fn error_from(&self, e: &mlua::Error, entered: bool) -> ScriptError {
        let mut se = ScriptError::from_lua(e);
        // SAFETY: this state's context, on its thread.
        let ctx = unsafe { &mut *self.ctx };
        let sql = ctx.sql_error.take();
        if ctx.err.sql != 0 || !entered {
            se.sql = sql;
        }
        se.restart = entered && ctx.err.restart != 0;
        ctx.err.sql = 0;
        ctx.err.restart = 0;
        se
    }

    /// `f(tid)` through the prelude's `enter`, with `host` lent; `resume`: the call may retry an
    /// event a restart left (thread_run, event).
    fn enter(
        &self,
        f: &Function,
        resume: bool,
        host: &mut dyn Host,
    ) -> Result<LuaValue, ScriptError> {
        let enter = self.enter.as_ref().expect("set once the state is made");
        // SAFETY: this state's context, on its thread.
        unsafe {
            lend(self.ctx, host, || {
                enter.call::<LuaValue>((f, self.tid, resume))
            })
        }
        .map_err(|e| self.error_from(&e, true))
    }

    #[inline(always)]
    fn check_thread(&self) {
        debug_assert_eq!(
            self.thread,
            std::thread::current().id(),
            "a Lua state used off the thread that made it"
        );
    }

    /// The Lua state, for calls made another way (`reporter.rs`).
    pub(crate) fn lua(&self) -> &Lua {
        self.check_thread();
        &self.lua
    }

    /// Whether the script defines the global function `name`.
    pub fn defines(&self, name: &str) -> bool {
        self.check_thread();
        matches!(
            self.lua.globals().raw_get::<LuaValue>(name),
            Ok(LuaValue::Function(_))
        )
    }

    /// Call the script's `name(tid)` with `host` lent for its SQL (thread_init, thread_done).
    pub fn call(&mut self, name: &str, host: &mut dyn Host) -> Result<(), ScriptError> {
        self.check_thread();
        let f: Function = match self.lua.globals().raw_get::<LuaValue>(name) {
            Ok(LuaValue::Function(f)) => f,
            _ => {
                return Err(ScriptError::plain(format!(
                    "the script has no {name}() function"
                )))
            }
        };
        let r = self.enter(&f, name == "thread_run", host);
        self.flush();
        r.map(|_| ())
    }

    /// One event: the script's `event(tid)`. True when it returned a true value (sysbench then
    /// stops this thread without counting the event).
    #[inline]
    pub fn event(&mut self, host: &mut dyn Host) -> Result<bool, ScriptError> {
        self.check_thread();
        let Some(f) = &self.event else {
            return Err(ScriptError::plain(
                "the script has no event() function, which a run needs",
            ));
        };
        match self.enter(f, true, host)? {
            LuaValue::Nil | LuaValue::Boolean(false) => Ok(false),
            _ => Ok(true),
        }
    }
}

impl Drop for State {
    fn drop(&mut self) {
        self.event = None;
        self.enter = None;
        // The state goes first (its cdata point into nothing of the context, but its calls do).
        // SAFETY: dropped once, here; nothing of it is used after.
        unsafe { ManuallyDrop::drop(&mut self.lua) };
        // SAFETY: made by `Box::into_raw` in `new`, freed once here.
        drop(unsafe { Box::from_raw(self.ctx) });
    }
}

/// `sysbench.cmdline.command`: nil when no command was given.
fn command_value(command: &str) -> Option<&str> {
    (!command.is_empty()).then_some(command)
}

/// `sysbench.cmdline.argv`: 0-based, as sysbench's is.
fn argv_table(lua: &Lua, argv: &[String]) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    for (i, a) in argv.iter().enumerate() {
        t.raw_set(i, a.as_str())?;
    }
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_line_splits_into_where_and_what() {
        assert_eq!(
            split_origin("/tmp/a b/x.lua:12: attempt to call a nil value"),
            (
                Some("/tmp/a b/x.lua:12".to_string()),
                "attempt to call a nil value".to_string()
            )
        );
        assert_eq!(split_origin("no place"), (None, "no place".to_string()));
    }
}
