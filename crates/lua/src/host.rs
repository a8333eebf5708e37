//! What a state's FFI calls act on: `Ctx`, one per state (its random stream, its statements,
//! the last error), `Host`, the session the embedding workload lends it for a call, and the
//! `#[repr(C)]` structs the prelude reads and writes (`ErrC`, `BindC`).

use dbpress_core::rand::{DistKind, DistParams, Distribution, Rng, Template};
use dbpress_session::{DbError, DbErrorKind, DbResult, Value};
use std::ptr::NonNull;

/// The database side of a script's SQL calls, implemented by the workload that runs the script
/// (which times each statement the way it times its own). Lent to the state for one call into
/// Lua (`State::event`, `State::call`).
pub trait Host {
    /// `drv:connect()`: make a connection available to the script.
    fn connect(&mut self) -> DbResult<()>;
    /// `con:prepare(sql)`: a token `execute` is given back.
    fn prepare(&mut self, sql: &str) -> DbResult<u64>;
    /// `stmt:execute()` with its bound values.
    fn execute(&mut self, token: u64, params: &[Value<'_>]) -> DbResult<()>;
    /// `con:query(sql)`.
    fn query(&mut self, sql: &str) -> DbResult<()>;
    /// The loop's next event (`thread_run`): claim and start it; false when the run is over.
    /// None outside a run's loop.
    fn next_event(&mut self) -> bool {
        false
    }
    /// The event `next_event` started has ended.
    fn event_done(&mut self) {}
    /// `sb_event_start` in a script's own loop: the event `next_event` claimed starts now (what
    /// the script did in between, such as its own pacing, is not the event's time). Nothing
    /// for a resumed event: its retries stay inside one timed event.
    fn event_start(&mut self) {}
    /// `sb_counter_inc(tid, counter)`: the script counts one of sysbench's counters itself
    /// (`SB_CNT_*`: 0 other, 1 read, 2 write, 4 error, 5 reconnect), as sysbench-tpcc counts
    /// its deliberate rollbacks as errors.
    fn count(&mut self, _counter: i32) {}
}

/// A failed call's error, read by the prelude (`dbp_err`), which raises it in the script.
#[repr(C)]
pub struct ErrC {
    pub failed: i32,
    pub sql_errno: i32,
    pub sql_state: [u8; 8],
    pub len: u32,
    pub msg: [u8; 500],
}

impl ErrC {
    pub const EMPTY: ErrC = ErrC {
        failed: 0,
        sql_errno: 0,
        sql_state: [0; 8],
        len: 0,
        msg: [0; 500],
    };

    pub fn set(&mut self, errno: i32, msg: &str) {
        self.failed = 1;
        self.sql_errno = errno;
        self.sql_state = [0; 8];
        let n = msg.len().min(self.msg.len());
        // Cut on a character boundary so Lua gets valid UTF-8 when the server's message did.
        let n = (0..=n)
            .rev()
            .find(|&i| msg.is_char_boundary(i))
            .unwrap_or(0);
        self.msg[..n].copy_from_slice(&msg.as_bytes()[..n]);
        self.len = n as u32;
    }
}

/// A parameter buffer the prelude allocated (`dbp_bind`): `param:set` stores into it.
#[repr(C)]
pub struct BindC {
    pub i: i64,
    pub d: f64,
    pub str: *mut u8,
    pub len: u32,
    pub max_len: u32,
    pub ty: i32,
    pub is_null: i32,
}

pub const BIND_INT: i32 = 1;
pub const BIND_DOUBLE: i32 = 2;
pub const BIND_STR: i32 = 3;

/// A prepared statement as the prelude holds it (`dbp_stmt *`, opaque there).
pub struct StmtC {
    pub token: u64,
    pub binds: *const *const BindC,
    pub n: u32,
}

/// One state's side of the FFI calls. Boxed, so the address handed to the prelude stays put.
pub struct Ctx {
    pub err: ErrC,
    pub rng: Rng,
    /// --rand-type's distribution, then gaussian, special, pareto with the run's parameters.
    pub dists: [Distribution; 4],
    pub templates: Vec<(Vec<u8>, Template)>,
    pub stmts: Vec<Box<StmtC>>,
    pub scratch: Vec<u8>,
    /// The error of the last failed SQL call, for the workload to classify.
    pub sql_error: Option<DbError>,
    pub(crate) host: Option<NonNull<dyn Host>>,
}

impl Ctx {
    pub fn new(rng: Rng, dist: &DistParams) -> Box<Ctx> {
        let with = |kind: DistKind| {
            Distribution::new(&DistParams {
                kind,
                ..dist.clone()
            })
        };
        Box::new(Ctx {
            err: ErrC::EMPTY,
            rng,
            dists: [
                Distribution::new(dist),
                with(DistKind::Gaussian),
                with(DistKind::Special),
                with(DistKind::Pareto),
            ],
            templates: Vec::new(),
            stmts: Vec::new(),
            scratch: Vec::new(),
            sql_error: None,
            host: None,
        })
    }

    /// The host lent for the current call.
    #[inline(always)]
    pub fn host(&mut self) -> DbResult<&mut dyn Host> {
        lent(&mut self.host)
    }

    /// Keep `e` for the workload and in `err` for the prelude to raise; returns the failure code.
    #[cold]
    pub fn fail(&mut self, e: DbError) -> i32 {
        let errno = e.code.parse::<i32>().unwrap_or(0);
        let msg = if errno == 0 && !e.code.is_empty() {
            format!("{} (error {})", e.message, e.code)
        } else {
            e.message.clone()
        };
        self.err.set(errno, &msg);
        self.sql_error = Some(e);
        1
    }
}

/// The host in `slot`, lent for the current call.
#[inline(always)]
pub(crate) fn lent(slot: &mut Option<NonNull<dyn Host>>) -> DbResult<&mut dyn Host> {
    match slot {
        // SAFETY: set only by `lend` for the duration of a call into Lua, on this thread.
        Some(h) => Ok(unsafe { h.as_mut() }),
        None => Err(DbError::new(
            DbErrorKind::Unsupported,
            "",
            "no database session here: dbpress runs SQL only from thread_init, event and thread_done so far (#41)",
        )),
    }
}

/// Lend `host` to the state whose context is `ctx` for the duration of `f` (a call into Lua).
///
/// # Safety
/// `ctx` is a live context of a state on this thread.
pub unsafe fn lend<R>(ctx: *mut Ctx, host: &mut dyn Host, f: impl FnOnce() -> R) -> R {
    // The pointer is cleared before `host`'s borrow ends (the guard runs on unwind too), so no
    // call dereferences it afterwards.
    let h: NonNull<dyn Host + '_> = NonNull::from(host);
    // SAFETY: only the lifetime is erased; see above.
    let h: NonNull<dyn Host> = unsafe { std::mem::transmute(h) };
    unsafe { (*ctx).host = Some(h) };
    // sysbench's C functions a script calls through `ffi.C` take no context: they find it here.
    let outer = CURRENT.with(|c| c.replace(ctx));
    struct Clear(*mut Ctx, *mut Ctx);
    impl Drop for Clear {
        fn drop(&mut self) {
            // SAFETY: the context outlives the guard.
            unsafe { (*self.0).host = None };
            CURRENT.with(|c| c.set(self.1));
        }
    }
    let _clear = Clear(ctx, outer);
    f()
}

thread_local! {
    /// The context of the state this thread is in a call into (`lend`), else null.
    static CURRENT: std::cell::Cell<*mut Ctx> = const { std::cell::Cell::new(std::ptr::null_mut()) };
}

/// The context `lend` set on this thread: the state a script's `ffi.C.sb_*` call comes from.
#[inline(always)]
pub(crate) fn current() -> *mut Ctx {
    CURRENT.with(|c| c.get())
}
