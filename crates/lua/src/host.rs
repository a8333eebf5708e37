//! What a state's FFI calls act on: `Ctx`, one per state (its random stream, its statements,
//! the last error, the current result's rows), `Host`, the session the embedding workload lends
//! it for a call, and the `#[repr(C)]` structs the prelude reads and writes (`ErrC`, `BindC`,
//! `ResC`, `ValC`).

use dbpress_core::rand::{DistKind, DistParams, Distribution, Rng, Template};
use dbpress_session::{DbError, DbErrorKind, DbResult, QueryKind, ResultRows, Value};
use std::ptr::NonNull;

/// The database side of a script's SQL calls, implemented by the workload that runs the script
/// (which times each statement the way it times its own). Lent to the state for one call into
/// Lua (`State::event`, `State::call`).
pub trait Host {
    /// `drv:connect()`: make a connection available to the script.
    fn connect(&mut self) -> DbResult<()>;
    /// `con:prepare(sql)`: a token `execute` is given back.
    fn prepare(&mut self, sql: &str) -> DbResult<u64>;
    /// `stmt:execute()` with its bound values, classified as sysbench counts it (its rows are
    /// not kept: a prepared statement's rows cannot be fetched in sysbench 1.0).
    fn execute(&mut self, token: u64, params: &[Value<'_>]) -> DbResult<QueryKind>;
    /// `con:query(sql)`: its rows kept in `rows` for the script to fetch, classified as
    /// sysbench counts it (a result set is a read).
    fn query(&mut self, sql: &str, rows: &mut ResultRows) -> DbResult<QueryKind>;
    /// `con:reconnect()`: a new session, its statements prepared again, counted as a reconnect.
    fn reconnect(&mut self) -> DbResult<()>;
    /// Whether `e` restarts the event (sysbench's IGNORABLE class): the run's
    /// --mysql-ignore-errors/--pgsql-ignore-errors, decided as the runner decides its retries.
    fn ignorable(&self, _e: &DbError) -> bool {
        false
    }
    /// A SQL call failed with `e`: counted in the errors column, as sysbench counts every
    /// failed query (also those the script catches with pcall).
    fn failed(&mut self, _e: &DbError) {}
    /// The loop's next event (`thread_run`): claim and start it; false when the run is over.
    /// None outside a run's loop.
    fn next_event(&mut self) -> bool {
        false
    }
    /// The event `next_event` started has ended.
    fn event_done(&mut self) {}
    /// `event_done` then `next_event` in one call (the prelude's loop, one FFI crossing and
    /// one clock read per event instead of two).
    fn event_step(&mut self) -> bool {
        self.event_done();
        self.next_event()
    }
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
    /// sysbench's error class: 0 not the server's (raised as the message alone),
    /// `IGNORABLE` or `FATAL`.
    pub class: i32,
    /// Set by the prelude as an error leaves the script: 1 when it is a restart (the errdesc
    /// table with `RESTART_EVENT`), and whether it is the SQL error kept in `Ctx::sql_error`
    /// (not a script's own error raised after it caught one).
    pub restart: i32,
    pub sql: i32,
}

/// `ErrC::class`: the event restarts.
pub const IGNORABLE: i32 = 1;
/// `ErrC::class`: the error fails the script unless its `sql_error_ignorable` hook says not.
pub const FATAL: i32 = 2;

impl ErrC {
    pub const EMPTY: ErrC = ErrC {
        failed: 0,
        sql_errno: 0,
        sql_state: [0; 8],
        len: 0,
        msg: [0; 500],
        class: 0,
        restart: 0,
        sql: 0,
    };

    pub fn set(&mut self, errno: i32, msg: &str) {
        self.failed = 1;
        self.sql_errno = errno;
        self.sql_state = [0; 8];
        self.class = 0;
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

/// A result as the prelude reads it (`dbp_result`): `rs.nrows`, `rs.nfields` are its fields.
/// A state has two, at fixed addresses: the current `con:query` result (freed by the next
/// query, as sysbench's one result per connection) and the result a SELECT's `execute` returns,
/// whose rows cannot be fetched (as in sysbench 1.0: `nfields` 0).
#[repr(C)]
pub struct ResC {
    pub nrows: u32,
    pub nfields: u32,
    /// The row `fetch_row` gives next.
    pub next: u32,
    /// 0 once freed (or replaced by a query that returned no result set).
    pub live: i32,
    /// `RES_QUERY` or `RES_EXECUTE`.
    pub kind: i32,
}

pub const RES_QUERY: i32 = 1;
pub const RES_EXECUTE: i32 = 2;

/// One value of a fetched row (`dbp_value`): `len` bytes at `ptr`, or SQL NULL.
#[repr(C)]
pub struct ValC {
    pub ptr: *const u8,
    pub len: u32,
    pub null: i32,
}

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
    /// The current query result and an execute's (`ResC`), the query's rows, and the row
    /// `fetch_row` hands the prelude (its numbers written out in `numbers`).
    pub res: [ResC; 2],
    pub rows: ResultRows,
    pub row: Vec<ValC>,
    pub numbers: Vec<u8>,
    /// PostgreSQL's errors are SQLSTATEs (sysbench shows errno 0 and the state); MySQL's are
    /// numbers.
    pub pg: bool,
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
            res: [
                ResC {
                    nrows: 0,
                    nfields: 0,
                    next: 0,
                    live: 0,
                    kind: RES_QUERY,
                },
                ResC {
                    nrows: 0,
                    nfields: 0,
                    next: 0,
                    live: 0,
                    kind: RES_EXECUTE,
                },
            ],
            rows: ResultRows::new(),
            row: Vec::new(),
            numbers: Vec::new(),
            pg: false,
            host: None,
        })
    }

    /// The host lent for the current call.
    #[inline(always)]
    pub fn host(&mut self) -> DbResult<&mut dyn Host> {
        lent(&mut self.host)
    }

    /// Keep `e` for the workload and in `err` for the prelude to raise, classified as sysbench
    /// classifies it (and counted by the host); returns the failure code.
    #[cold]
    pub fn fail(&mut self, e: DbError) -> i32 {
        let sqlstate = self.pg && e.code.len() == 5;
        let errno = if sqlstate {
            0
        } else {
            e.code.parse::<i32>().unwrap_or(0)
        };
        // The server's primary message, as sysbench's drivers give it (not PostgreSQL's DETAIL).
        let primary = e.primary_len.and_then(|n| e.message.get(..n));
        let msg = if errno == 0 && !sqlstate && !e.code.is_empty() {
            format!("{} (error {})", e.message, e.code)
        } else {
            primary.unwrap_or(&e.message).to_string()
        };
        self.err.set(errno, &msg);
        if sqlstate {
            self.err.sql_state[..5].copy_from_slice(e.code.as_bytes());
        } else if let Some(state) = e.sqlstate {
            self.err.sql_state[..5].copy_from_slice(&state);
        }
        // A server's error (it has a code, and is not the script's own input) has a class.
        let server = !e.code.is_empty() && e.kind != DbErrorKind::Input;
        if let Ok(h) = lent(&mut self.host) {
            h.failed(&e);
            if server {
                self.err.class = if h.ignorable(&e) { IGNORABLE } else { FATAL };
            }
        } else if server {
            self.err.class = FATAL;
        }
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
