//! A script's report hooks (`sysbench.hooks.report_intermediate`, `report_cumulative`): a state
//! of their own, made like sysbench's reporter's by running the whole script again on the
//! thread that reports, and the hook called with sysbench's `stat` table. Once a second at
//! most, so through mlua: nothing here is on an event's path.

use crate::state::{Script, ScriptError, State};
use dbpress_core::rand::{DistParams, Rng};
use mlua::{Function, Table, Value as LuaValue};

/// Which hook a `Reports` state calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hook {
    /// At each --report-interval tick, in the reporter's state.
    Intermediate,
    /// Once at the end, in the main state.
    Cumulative,
}

impl Hook {
    pub fn name(self) -> &'static str {
        match self {
            Hook::Intermediate => "report_intermediate",
            Hook::Cumulative => "report_cumulative",
        }
    }
}

/// sysbench's `stat`: counts over `time_interval` seconds (the hooks divide), times and
/// latencies in seconds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Stat {
    pub threads_running: u32,
    pub time_interval: f64,
    pub time_total: f64,
    /// At --percentile.
    pub latency_pct: f64,
    pub events: u64,
    pub reads: u64,
    pub writes: u64,
    pub other: u64,
    pub errors: u64,
    pub reconnects: u64,
    /// An intermediate report's (queue_length, concurrency): the --rate backlog and the events
    /// in flight, 0 without --rate.
    pub queue: Option<(u64, u64)>,
    /// A cumulative report's latency_min, latency_max, latency_avg, latency_sum.
    pub latency: Option<[f64; 4]>,
}

/// A state that runs one report hook.
pub struct Reports {
    // Dropped before the state it belongs to.
    hook: Function,
    state: State,
}

impl Reports {
    /// The state for `hook` (`tid`: sysbench gives the reporter's `--threads`, the main state 0),
    /// or None when the script, run again in it, leaves that hook unset. The state is closed when
    /// this is dropped (`report_json`'s closing `]` comes then).
    pub fn new(
        script: &Script,
        driver: &str,
        tid: u32,
        rng: Rng,
        dist: &DistParams,
        hook: Hook,
    ) -> Result<Option<Reports>, ScriptError> {
        let state = State::new(script, driver, tid, rng, dist)?;
        let found = find_hook(&state, hook).map_err(|e| ScriptError::from_lua(&e))?;
        Ok(found.map(|hook| Reports { hook, state }))
    }

    /// Call `hook` in `state` (a state of another role: the main one) with `stat`; false when
    /// the script left it unset.
    pub fn call_in(state: &State, hook: Hook, stat: &Stat) -> Result<bool, ScriptError> {
        match find_hook(state, hook).map_err(|e| ScriptError::from_lua(&e))? {
            Some(f) => {
                let t = stat_table(state.lua(), stat).map_err(|e| ScriptError::from_lua(&e))?;
                f.call::<()>(t).map_err(|e| ScriptError::from_lua(&e))?;
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// Call the hook with `stat`.
    pub fn report(&mut self, stat: &Stat) -> Result<(), ScriptError> {
        let lua = self.state.lua();
        let t = stat_table(lua, stat).map_err(|e| ScriptError::from_lua(&e))?;
        self.hook
            .call::<()>(t)
            .map_err(|e| ScriptError::from_lua(&e))
    }
}

/// `sysbench.hooks[hook]` in `state`, when it is a function.
fn find_hook(state: &State, hook: Hook) -> mlua::Result<Option<Function>> {
    let sysbench: Table = state.lua().globals().raw_get("sysbench")?;
    let hooks: Table = sysbench.raw_get("hooks")?;
    Ok(match hooks.raw_get::<LuaValue>(hook.name())? {
        LuaValue::Function(f) => Some(f),
        _ => None,
    })
}

fn stat_table(lua: &mlua::Lua, s: &Stat) -> mlua::Result<Table> {
    let t = lua.create_table()?;
    t.raw_set("threads_running", s.threads_running)?;
    t.raw_set("time_interval", s.time_interval)?;
    t.raw_set("time_total", s.time_total)?;
    t.raw_set("latency_pct", s.latency_pct)?;
    for (k, v) in [
        ("events", s.events),
        ("reads", s.reads),
        ("writes", s.writes),
        ("other", s.other),
        ("errors", s.errors),
        ("reconnects", s.reconnects),
    ] {
        // Numbers as Lua has them (doubles), as sysbench's cdata fields convert.
        t.raw_set(k, v as f64)?;
    }
    if let Some((queue, concurrency)) = s.queue {
        t.raw_set("queue_length", queue as f64)?;
        t.raw_set("concurrency", concurrency as f64)?;
    }
    if let Some([min, max, avg, sum]) = s.latency {
        t.raw_set("latency_min", min)?;
        t.raw_set("latency_max", max)?;
        t.raw_set("latency_avg", avg)?;
        t.raw_set("latency_sum", sum)?;
    }
    Ok(t)
}
