//! The entry points the prelude calls through LuaJIT FFI: plain `extern "C"` functions whose
//! addresses the prelude casts to function pointers (sysbench-lua.md §3.4 (b)), so the trace
//! compiler calls them directly. Each takes its state's `Ctx`; none calls back into Lua, and
//! none lets a panic cross into LuaJIT's frames (`catch_unwind`, the error in `ErrC`).

use crate::host::{lent, BindC, Ctx, ErrC, ResC, StmtC, ValC, BIND_DOUBLE, BIND_INT, BIND_STR};
use dbpress_core::rand::Template;
use dbpress_session::{DbError, DbErrorKind, QueryKind, Value};
use std::os::raw::c_char;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// What `query` and `execute` return: the call failed (the error in `ErrC`), it succeeded
/// without a result set, or with one (the prelude then returns its `dbp_result`).
const FAILED: i32 = 1;
const NO_RESULT: i32 = 0;
const RESULT: i32 = 2;

/// Run `f`, turning a panic into an error the script raises; `fallback` is what the call
/// returns then.
#[inline(always)]
pub(crate) fn guarded<T>(ctx: *mut Ctx, fallback: T, f: impl FnOnce(&mut Ctx) -> T) -> T {
    // SAFETY: the prelude passes the pointer Rust handed it for this state, which outlives the
    // state; calls come from the state's own thread only.
    let ctx = unsafe { &mut *ctx };
    match catch_unwind(AssertUnwindSafe(|| f(&mut *ctx))) {
        Ok(v) => v,
        Err(p) => {
            let what = p
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            ctx.err.set(
                0,
                &format!("dbpress internal error in a sysbench call: {what}"),
            );
            fallback
        }
    }
}

#[inline(always)]
fn ordered(a: u32, b: u32) -> (u32, u32) {
    if b < a {
        (b, a)
    } else {
        (a, b)
    }
}

// The two draws of nearly every event, unguarded: neither can panic on ordered bounds (a
// range of at most 2^32 values), and the guard's landing pad cost ~16 instructions a call.
pub extern "C" fn rand_uniform(ctx: *mut Ctx, a: u32, b: u32) -> u32 {
    // SAFETY: as in `guarded`.
    let c = unsafe { &mut *ctx };
    let (a, b) = ordered(a, b);
    c.rng.uniform(a, b)
}

pub extern "C" fn rand_default(ctx: *mut Ctx, a: u32, b: u32) -> u32 {
    // SAFETY: as in `guarded`.
    let c = unsafe { &mut *ctx };
    let (a, b) = ordered(a, b);
    c.dists[0].sample(&mut c.rng, a, b)
}

pub extern "C" fn rand_gaussian(ctx: *mut Ctx, a: u32, b: u32) -> u32 {
    guarded(ctx, a, |c| {
        let (a, b) = ordered(a, b);
        c.dists[1].sample(&mut c.rng, a, b)
    })
}

pub extern "C" fn rand_special(ctx: *mut Ctx, a: u32, b: u32) -> u32 {
    guarded(ctx, a, |c| {
        let (a, b) = ordered(a, b);
        c.dists[2].sample(&mut c.rng, a, b)
    })
}

pub extern "C" fn rand_pareto(ctx: *mut Ctx, a: u32, b: u32) -> u32 {
    guarded(ctx, a, |c| {
        let (a, b) = ordered(a, b);
        c.dists[3].sample(&mut c.rng, a, b)
    })
}

pub extern "C" fn rand_uint64(ctx: *mut Ctx) -> u64 {
    guarded(ctx, 0, |c| c.rng.next_u64())
}

pub extern "C" fn rand_double(ctx: *mut Ctx) -> f64 {
    guarded(ctx, 0.0, |c| c.rng.uniform_double())
}

/// sysbench's `rand.string`: `#` a digit, `@` a letter, anything else itself; `n` bytes of
/// `fmt` into `out`.
pub extern "C" fn rand_str(ctx: *mut Ctx, fmt: *const c_char, n: u32, out: *mut c_char) {
    guarded(ctx, (), |c| {
        // SAFETY: the prelude passes a Lua string of at least `n` bytes and a buffer of at
        // least `n` bytes.
        let (fmt, out) = unsafe {
            (
                std::slice::from_raw_parts(fmt as *const u8, n as usize),
                std::slice::from_raw_parts_mut(out as *mut u8, n as usize),
            )
        };
        // A template is analysed once per text and kept (scripts use a handful).
        let t = match c.templates.iter().position(|(k, _)| k.as_slice() == fmt) {
            Some(i) => &c.templates[i].1,
            None => {
                c.templates.push((fmt.to_vec(), Template::new(fmt)));
                &c.templates.last().expect("just pushed").1
            }
        };
        t.fill(&mut c.rng, out);
    })
}

/// Some script state asked for a driver (`sysbench.sql.driver()`): the run used the
/// database, and its report has sysbench's SQL statistics.
pub static DRIVER_ASKED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// `sysbench.sql.driver()`.
pub extern "C" fn driver_asked(_ctx: *mut Ctx) {
    DRIVER_ASKED.store(true, std::sync::atomic::Ordering::Relaxed);
}

pub extern "C" fn connect(ctx: *mut Ctx) -> i32 {
    guarded(ctx, 1, |c| match c.host().and_then(|h| h.connect()) {
        Ok(()) => 0,
        Err(e) => c.fail(e),
    })
}

pub extern "C" fn prepare(ctx: *mut Ctx, sql: *const c_char, n: u32) -> *mut StmtC {
    guarded(ctx, std::ptr::null_mut(), |c| {
        // SAFETY: a Lua string of `n` bytes.
        let bytes = unsafe { std::slice::from_raw_parts(sql as *const u8, n as usize) };
        let sql = String::from_utf8_lossy(bytes);
        match c.host().and_then(|h| h.prepare(&sql)) {
            Ok(token) => {
                c.stmts.push(Box::new(StmtC {
                    token,
                    binds: std::ptr::null(),
                    n: 0,
                }));
                let s: &mut StmtC = c.stmts.last_mut().expect("just pushed");
                s as *mut StmtC
            }
            Err(e) => {
                c.fail(e);
                std::ptr::null_mut()
            }
        }
    })
}

pub extern "C" fn bind(ctx: *mut Ctx, st: *mut StmtC, binds: *const *const BindC, n: u32) -> i32 {
    guarded(ctx, 1, |_| {
        // SAFETY: a statement this state's `prepare` returned; the prelude keeps `binds` and
        // the buffers they point to alive on the statement's table.
        let st = unsafe { &mut *st };
        st.binds = binds;
        st.n = n;
        0
    })
}

pub extern "C" fn execute(ctx: *mut Ctx, st: *mut StmtC) -> i32 {
    guarded(ctx, 1, |c| {
        // SAFETY: as in `bind`.
        let st = unsafe { &*st };
        // The values on the stack in an array just large enough: setting up 16 values for a
        // one-parameter statement cost ~20 instructions per execute.
        let r = match st.n as usize {
            0..=4 => execute_inline::<4>(c, st),
            5..=16 => execute_inline::<16>(c, st),
            n => {
                let mut vals = vec![Value::Null; n];
                fill(st, &mut vals, &mut c.scratch)
                    .and_then(|()| lent(&mut c.host)?.execute(st.token, &vals))
            }
        };
        match r {
            Ok(QueryKind::Read) => {
                // Its rows were not kept: one result with nothing to fetch, as in sysbench 1.0.
                c.res[1].live = 1;
                RESULT
            }
            Ok(_) => NO_RESULT,
            Err(e) => c.fail(e),
        }
    })
}

/// `execute` of a statement of at most `N` parameters.
#[inline(always)]
fn execute_inline<const N: usize>(c: &mut Ctx, st: &StmtC) -> Result<QueryKind, DbError> {
    let n = st.n as usize;
    let mut vals = [Value::Null; N];
    fill(st, &mut vals[..n], &mut c.scratch)?;
    lent(&mut c.host)?.execute(st.token, &vals[..n])
}

/// The bound buffers as values. Doubles are sent as text (the `Value` of the session layer
/// has no float), formatted into `scratch`.
#[inline(always)]
fn fill<'a>(st: &StmtC, vals: &mut [Value<'a>], scratch: &'a mut Vec<u8>) -> Result<(), DbError> {
    let mut has_double = false;
    for (i, v) in vals.iter_mut().enumerate() {
        // SAFETY: `bind` was given `n` pointers to live `dbp_bind` structs.
        let b = unsafe { &**st.binds.add(i) };
        *v = if b.is_null != 0 {
            Value::Null
        } else {
            match b.ty {
                BIND_INT => Value::Int(b.i),
                BIND_STR => {
                    // SAFETY: the prelude's buffer of `max_len` bytes, `len` of them set.
                    Value::Str(unsafe {
                        std::slice::from_raw_parts(b.str, b.len.min(b.max_len) as usize)
                    })
                }
                BIND_DOUBLE => {
                    has_double = true;
                    Value::Null
                }
                t => {
                    return Err(DbError::new(
                        DbErrorKind::Input,
                        "",
                        format!("Unsupported argument type: {t}"),
                    ))
                }
            }
        };
    }
    if has_double {
        scratch.clear();
        let mut ends = Vec::new();
        for i in 0..vals.len() {
            // SAFETY: as above.
            let b = unsafe { &**st.binds.add(i) };
            if b.is_null == 0 && b.ty == BIND_DOUBLE {
                use std::io::Write;
                let start = scratch.len();
                let _ = write!(scratch, "{}", b.d);
                ends.push((i, start, scratch.len()));
            }
        }
        let scratch: &'a [u8] = scratch;
        for (i, s, e) in ends {
            vals[i] = Value::Str(&scratch[s..e]);
        }
    }
    Ok(())
}

/// `con:query`: its rows become the state's query result (the previous one freed), which the
/// prelude returns when the statement returned a result set.
pub extern "C" fn query(ctx: *mut Ctx, sql: *const c_char, n: u32) -> i32 {
    guarded(ctx, FAILED, |c| {
        // SAFETY: a Lua string of `n` bytes.
        let bytes = unsafe { std::slice::from_raw_parts(sql as *const u8, n as usize) };
        let sql = String::from_utf8_lossy(bytes);
        let r = lent(&mut c.host).and_then(|h| h.query(&sql, &mut c.rows));
        let res = &mut c.res[0];
        res.next = 0;
        match r {
            Ok(QueryKind::Read) => {
                res.nrows = c.rows.len() as u32;
                res.nfields = c.rows.columns() as u32;
                res.live = 1;
                RESULT
            }
            Ok(_) => {
                res.live = 0;
                NO_RESULT
            }
            Err(e) => {
                res.live = 0;
                c.fail(e)
            }
        }
    })
}

/// The state's query result (0) and execute result (1), at fixed addresses.
pub extern "C" fn result(ctx: *mut Ctx, i: u32) -> *mut ResC {
    // SAFETY: as in `guarded`; `i` is 0 or 1 (the prelude's two calls).
    unsafe { &mut (*ctx).res[i.min(1) as usize] as *mut ResC }
}

/// `rs:fetch_row()`: the query result's next row as `nfields` values pointing into the
/// state's buffers (valid until the next call), or NULL after the last row.
pub extern "C" fn fetch_row(ctx: *mut Ctx) -> *const ValC {
    guarded(ctx, std::ptr::null(), |c| {
        let res = &mut c.res[0];
        if res.live == 0 || res.next >= res.nrows {
            return std::ptr::null();
        }
        let (row, cols) = (res.next as usize, res.nfields as usize);
        res.next += 1;
        // Numbers (an engine that sends them binary) written out first, so the pointers into
        // `numbers` are taken once it no longer grows.
        c.numbers.clear();
        let mut spans: Vec<(u32, u32)> = Vec::new();
        for col in 0..cols {
            if c.rows.bytes(row, col).is_none() && !c.rows.is_null(row, col) {
                use std::io::Write;
                let start = c.numbers.len() as u32;
                let _ = write!(c.numbers, "{}", c.rows.int(row, col).unwrap_or(0));
                spans.push((start, c.numbers.len() as u32));
            }
        }
        c.row.clear();
        let mut numbers = spans.into_iter();
        for col in 0..cols {
            let v = if c.rows.is_null(row, col) {
                ValC {
                    ptr: std::ptr::null(),
                    len: 0,
                    null: 1,
                }
            } else if let Some(b) = c.rows.bytes(row, col) {
                ValC {
                    ptr: b.as_ptr(),
                    len: b.len() as u32,
                    null: 0,
                }
            } else {
                let (a, b) = numbers.next().unwrap_or((0, 0));
                ValC {
                    ptr: c.numbers[a as usize..].as_ptr(),
                    len: b - a,
                    null: 0,
                }
            };
            c.row.push(v);
        }
        c.row.as_ptr()
    })
}

/// `con:reconnect()`.
pub extern "C" fn reconnect(ctx: *mut Ctx) -> i32 {
    guarded(ctx, FAILED, |c| {
        match c.host().and_then(|h| h.reconnect()) {
            Ok(()) => 0,
            Err(e) => c.fail(e),
        }
    })
}

/// `thread_run`'s loop: the next event, 1 to run it, 0 when the run is over.
pub extern "C" fn next_event(ctx: *mut Ctx) -> i32 {
    guarded(ctx, 0, |c| match lent(&mut c.host) {
        Ok(h) => i32::from(h.next_event()),
        Err(_) => 0,
    })
}

/// `thread_run`'s loop: the event has ended.
pub extern "C" fn event_done(ctx: *mut Ctx) {
    guarded(ctx, (), |c| {
        if let Ok(h) = lent(&mut c.host) {
            h.event_done();
        }
    })
}

/// `thread_run`'s loop: the event has ended; the next, as `next_event`.
pub extern "C" fn event_step(ctx: *mut Ctx) -> i32 {
    guarded(ctx, 0, |c| match lent(&mut c.host) {
        Ok(h) => i32::from(h.event_step()),
        Err(_) => 0,
    })
}

pub extern "C" fn err(ctx: *mut Ctx) -> *mut ErrC {
    // SAFETY: as in `guarded`.
    unsafe { &mut (*ctx).err as *mut ErrC }
}

/// (name, address) of every entry point, for the prelude's `ffi.cast`s.
pub fn addresses() -> Vec<(&'static str, usize)> {
    type R2 = extern "C" fn(*mut Ctx, u32, u32) -> u32;
    vec![
        ("rand_uniform", rand_uniform as R2 as usize),
        ("rand_default", rand_default as R2 as usize),
        ("rand_gaussian", rand_gaussian as R2 as usize),
        ("rand_special", rand_special as R2 as usize),
        ("rand_pareto", rand_pareto as R2 as usize),
        (
            "rand_uint64",
            rand_uint64 as extern "C" fn(*mut Ctx) -> u64 as usize,
        ),
        (
            "rand_double",
            rand_double as extern "C" fn(*mut Ctx) -> f64 as usize,
        ),
        (
            "rand_str",
            rand_str as extern "C" fn(*mut Ctx, *const c_char, u32, *mut c_char) as usize,
        ),
        (
            "driver_asked",
            driver_asked as extern "C" fn(*mut Ctx) as usize,
        ),
        (
            "connect",
            connect as extern "C" fn(*mut Ctx) -> i32 as usize,
        ),
        (
            "prepare",
            prepare as extern "C" fn(*mut Ctx, *const c_char, u32) -> *mut StmtC as usize,
        ),
        (
            "bind",
            bind as extern "C" fn(*mut Ctx, *mut StmtC, *const *const BindC, u32) -> i32 as usize,
        ),
        (
            "execute",
            execute as extern "C" fn(*mut Ctx, *mut StmtC) -> i32 as usize,
        ),
        (
            "query",
            query as extern "C" fn(*mut Ctx, *const c_char, u32) -> i32 as usize,
        ),
        (
            "result",
            result as extern "C" fn(*mut Ctx, u32) -> *mut ResC as usize,
        ),
        (
            "fetch_row",
            fetch_row as extern "C" fn(*mut Ctx) -> *const ValC as usize,
        ),
        (
            "reconnect",
            reconnect as extern "C" fn(*mut Ctx) -> i32 as usize,
        ),
        (
            "next_event",
            next_event as extern "C" fn(*mut Ctx) -> i32 as usize,
        ),
        ("event_done", event_done as extern "C" fn(*mut Ctx) as usize),
        (
            "event_step",
            event_step as extern "C" fn(*mut Ctx) -> i32 as usize,
        ),
        ("err", err as extern "C" fn(*mut Ctx) -> *mut ErrC as usize),
    ]
}
