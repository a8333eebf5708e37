//! One LuaJIT state running a script: made on the thread that uses it (a worker's own), the
//! prelude first, then the whole script (chunk `@path`, so errors read `path:line: msg`), then
//! `sysbench.opt` completed from the options the script declared. Its entry points are called
//! through cached functions; SQL goes to the `Host` lent for the call.

use crate::host::{lend, Ctx, Host};
use crate::{exports, ffi};
use dbpress_core::options::table::Kind;
use dbpress_core::options::{parse_bool, OptionValues};
use dbpress_core::rand::{DistParams, Rng};
use dbpress_session::DbError;
use mlua::{Function, Lua, LuaOptions, StdLib, Table, Value as LuaValue};
use std::sync::Arc;
use std::thread::ThreadId;

/// dbpress's clean-room `sysbench.*`, in the order the parts run: `base` first (its FFI
/// declarations and entry points, handed to the others), `modules` last (it closes `sysbench`).
const PRELUDE: [(&str, &str); 7] = [
    ("base", include_str!("prelude/base.lua")),
    ("sysbench_ffi", include_str!("prelude/sysbench_ffi.lua")),
    ("rand", include_str!("prelude/rand.lua")),
    ("sql", include_str!("prelude/sql.lua")),
    ("loop", include_str!("prelude/loop.lua")),
    ("compat", include_str!("prelude/compat.lua")),
    ("modules", include_str!("prelude/modules.lua")),
];

/// A script as every state of a run loads it: read once, its options and command fixed.
pub struct Script {
    pub path: String,
    pub source: Arc<[u8]>,
    /// The command word (`run`, `prepare`, …), `sysbench.cmdline.command`.
    pub command: String,
    pub opts: Vec<Opt>,
}

/// One option for `sysbench.opt`, as dbpress read it.
pub struct Opt {
    /// With underscores, as scripts spell it.
    pub name: String,
    pub kind: Kind,
    pub text: String,
    /// Given on the command line (else a script's declared default wins over dbpress's).
    pub explicit: bool,
}

impl Script {
    /// Read `path` (the one line naming it when it cannot be read).
    pub fn load(path: &str, command: &str, values: &OptionValues) -> Result<Script, String> {
        let source =
            std::fs::read(path).map_err(|e| format!("cannot read the Lua script '{path}': {e}"))?;
        let opts = values
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
        Ok(Script {
            path: path.to_string(),
            source: source.into(),
            command: command.to_string(),
            opts,
        })
    }
}

/// A script's error as one line: Lua's message, and where (`path:line`) when it says.
#[derive(Debug)]
pub struct ScriptError {
    pub message: String,
    pub origin: Option<String>,
    /// The database error behind it, when a SQL call failed.
    pub sql: Option<DbError>,
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
        }
    }

    fn from_lua(e: &mlua::Error) -> ScriptError {
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
    lua: Lua,
    ctx: *mut Ctx,
    event: Option<Function>,
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
        // SAFETY: sysbench's scripts need `ffi` (and `debug`, `io`, `os`): the whole standard
        // library, as sysbench opens it.
        let lua = unsafe { Lua::unsafe_new_with(StdLib::ALL, LuaOptions::new()) };
        let ctx = Box::into_raw(Ctx::new(rng, dist));
        let state = State {
            lua,
            ctx,
            event: None,
            tid,
            thread: std::thread::current().id(),
        };
        state.boot(script, driver).map_err(|e| state.error(&e))?;
        let mut state = state;
        state.event = state
            .lua
            .globals()
            .get::<Option<Function>>("event")
            .ok()
            .flatten();
        Ok(state)
    }

    fn boot(&self, script: &Script, driver: &str) -> mlua::Result<()> {
        let lua = &self.lua;
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
        info.set("command", script.command.as_str())?;
        info.set("script_path", script.path.as_str())?;
        info.set("driver", driver)?;
        if let Some(dir) = std::path::Path::new(&script.path).parent() {
            let dir = dir.to_string_lossy();
            info.set("script_dir", if dir.is_empty() { "." } else { &dir })?;
        }
        let (_, base) = PRELUDE[0];
        let parts: Table = lua.load(base).set_name("@dbpress-prelude/base.lua").call((
            self.ctx as usize as f64,
            fns,
            opts.clone(),
            info,
        ))?;
        for (name, text) in &PRELUDE[1..] {
            lua.load(*text)
                .set_name(format!("@dbpress-prelude/{name}.lua"))
                .call::<()>(&parts)?;
        }
        // As a script file is loaded (luaL_loadfile): a first line starting with `#` (the
        // `#!/usr/bin/env sysbench` line) is skipped, its line number kept.
        let source: std::borrow::Cow<'_, [u8]> = if script.source.first() == Some(&b'#') {
            let mut s = b"--".to_vec();
            s.extend_from_slice(&script.source);
            s.into()
        } else {
            (&script.source[..]).into()
        };
        lua.load(&source[..])
            .set_name(format!("@{}", script.path))
            .exec()?;
        // The options the script declares: a value given on the command line typed as its
        // default is, else the script's default.
        let sysbench: Table = lua.globals().raw_get("sysbench")?;
        let cmdline: Table = sysbench.raw_get("cmdline")?;
        if let Some(declared) = cmdline.raw_get::<Option<Table>>("options")? {
            for pair in declared.pairs::<String, Table>() {
                let (name, row) = pair?;
                let default: LuaValue = row.raw_get(2)?;
                let given = script.opts.iter().find(|o| o.name == name && o.explicit);
                let value = match given {
                    Some(o) => match &default {
                        LuaValue::Boolean(_) => typed(lua, Kind::Bool, &o.text)?,
                        LuaValue::Number(_) | LuaValue::Integer(_) => {
                            typed(lua, Kind::Float, &o.text)?
                        }
                        LuaValue::Table(_) => typed(lua, Kind::List, &o.text)?,
                        _ => typed(lua, Kind::Str, &o.text)?,
                    },
                    None => match default {
                        LuaValue::Nil => match script.opts.iter().find(|o| o.name == name) {
                            Some(o) => typed(lua, o.kind, &o.text)?,
                            None => LuaValue::String(lua.create_string("")?),
                        },
                        d => d,
                    },
                };
                opts.raw_set(name, value)?;
            }
        }
        Ok(())
    }

    fn error(&self, e: &mlua::Error) -> ScriptError {
        let mut se = ScriptError::from_lua(e);
        // SAFETY: this state's context, on its thread.
        se.sql = unsafe { (*self.ctx).sql_error.take() };
        se
    }

    #[inline(always)]
    fn check_thread(&self) {
        debug_assert_eq!(
            self.thread,
            std::thread::current().id(),
            "a Lua state used off the thread that made it"
        );
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
        // SAFETY: this state's context, on its thread.
        unsafe { lend(self.ctx, host, || f.call::<()>(self.tid)) }.map_err(|e| self.error(&e))
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
        // SAFETY: this state's context, on its thread.
        let r = unsafe { lend(self.ctx, host, || f.call::<LuaValue>(self.tid)) };
        match r {
            Ok(LuaValue::Nil | LuaValue::Boolean(false)) => Ok(false),
            Ok(_) => Ok(true),
            Err(e) => Err(self.error(&e)),
        }
    }
}

impl Drop for State {
    fn drop(&mut self) {
        self.event = None;
        // The state goes first (its cdata point into nothing of the context, but its calls do).
        let lua = std::mem::replace(&mut self.lua, Lua::new());
        drop(lua);
        // SAFETY: made by `Box::into_raw` in `new`, freed once here.
        drop(unsafe { Box::from_raw(self.ctx) });
    }
}

/// An option's text as the Lua value sysbench exports for its kind.
fn typed(lua: &Lua, kind: Kind, text: &str) -> mlua::Result<LuaValue> {
    Ok(match kind {
        Kind::Bool => LuaValue::Boolean(parse_bool(text).unwrap_or(false)),
        Kind::Int | Kind::Float => match text.trim().parse::<f64>() {
            Ok(n) => LuaValue::Number(n),
            Err(_) => LuaValue::String(lua.create_string(text)?),
        },
        Kind::Str => LuaValue::String(lua.create_string(text)?),
        Kind::List => {
            let t = lua.create_table()?;
            for (i, part) in text.split(',').filter(|p| !p.is_empty()).enumerate() {
                t.raw_set(i + 1, part)?;
            }
            LuaValue::Table(t)
        }
    })
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
