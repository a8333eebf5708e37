//! sysbench's own C functions, with its signatures and names, for scripts that call them
//! through `ffi.C` (sysbench-lua.md §1.7, §3.4 (a)): the binary exports every `sb_*` symbol
//! (its build.rs), and `prelude/sysbench_ffi.lua` declares them. They take no state, so each
//! finds its state's context in the thread-local `lend` sets; the prelude's own wrappers call
//! the `ctx`-taking entry points below through cast pointers instead (`addresses`).
//!
//! Also here: what the 1.1 superset adds to `sysbench.rand` (unique, zipfian, varstring) and
//! the histogram's entry points.

use crate::ffi::{self, guarded};
use crate::histogram::Histogram;
use crate::host::{current, lent, Ctx};
use dbpress_core::rand::{DistKind, DistParams, Distribution, Rng, UniqueSequence};
use std::cell::RefCell;
use std::ffi::CStr;
use std::os::raw::{c_char, c_int};
use std::sync::OnceLock;

thread_local! {
    /// A context for calls made outside any call into a state (a script's top level).
    static SPARE: RefCell<Option<Box<Ctx>>> = const { RefCell::new(None) };
    /// `sysbench.rand.zipfian`'s distribution, at --rand-zipfian-exp (`rand_zipf_exp`).
    static ZIPF: RefCell<Distribution> = RefCell::new(zipf(DistParams::default().zipfian_exp));
    /// What the script counted itself (`sb_counter_inc`), for `sb_counter_val`.
    static COUNTED: RefCell<[u64; 8]> = const { RefCell::new([0; 8]) };
}

/// `rand.unique()`'s sequence: one for the process, so values never repeat across threads.
static UNIQUE: OnceLock<UniqueSequence> = OnceLock::new();

/// The context of the state this thread is in a call into, or this thread's spare.
#[inline(always)]
fn ctx() -> *mut Ctx {
    let c = current();
    if c.is_null() {
        spare()
    } else {
        c
    }
}

#[cold]
fn spare() -> *mut Ctx {
    SPARE.with(|s| {
        let mut s = s.borrow_mut();
        let c = s.get_or_insert_with(|| Ctx::new(Rng::new(0, 0), &DistParams::default()));
        // The box lives as long as the thread; nothing else borrows it.
        &mut **c as *mut Ctx
    })
}

fn zipf(exponent: f64) -> Distribution {
    Distribution::new(&DistParams {
        kind: DistKind::Zipfian,
        zipfian_exp: exponent,
        ..DistParams::default()
    })
}

// --- the event loop of a script's own `thread_run` (sysbench-lua.md §1.5) ---

/// Claim the next event: false when the run is over (or outside a run's loop).
#[no_mangle]
pub extern "C" fn sb_more_events(_tid: c_int) -> bool {
    ffi::next_event(ctx()) != 0
}

/// The claimed event starts now.
#[no_mangle]
pub extern "C" fn sb_event_start(_tid: c_int) {
    guarded(ctx(), (), |c| {
        if let Ok(h) = lent(&mut c.host) {
            h.event_start();
        }
    })
}

/// The event ended: recorded with its statements.
#[no_mangle]
pub extern "C" fn sb_event_stop(_tid: c_int) {
    ffi::event_done(ctx())
}

// --- counters ---

/// `SB_CNT_*` counted by the script: into the event's counts (read/write/other) or its errors.
#[no_mangle]
pub extern "C" fn sb_counter_inc(_tid: c_int, counter: c_int) {
    guarded(ctx(), (), |c| {
        COUNTED.with(|k| {
            if let Some(n) = k.borrow_mut().get_mut(counter as usize) {
                *n += 1;
            }
        });
        if let Ok(h) = lent(&mut c.host) {
            h.count(counter);
        }
    })
}

/// How many of `counter` this thread's script counted itself (`sb_counter_inc`); dbpress's own
/// counts of statements and events are in its reports, not here.
#[no_mangle]
pub extern "C" fn sb_counter_val(_tid: c_int, counter: c_int) -> u64 {
    COUNTED.with(|k| k.borrow().get(counter as usize).copied().unwrap_or(0))
}

// --- random numbers: the state's stream, as `sysbench.rand` draws them ---

#[no_mangle]
pub extern "C" fn sb_rand_default(a: u32, b: u32) -> u32 {
    ffi::rand_default(ctx(), a, b)
}

#[no_mangle]
pub extern "C" fn sb_rand_uniform(a: u32, b: u32) -> u32 {
    ffi::rand_uniform(ctx(), a, b)
}

#[no_mangle]
pub extern "C" fn sb_rand_gaussian(a: u32, b: u32) -> u32 {
    ffi::rand_gaussian(ctx(), a, b)
}

#[no_mangle]
pub extern "C" fn sb_rand_special(a: u32, b: u32) -> u32 {
    ffi::rand_special(ctx(), a, b)
}

#[no_mangle]
pub extern "C" fn sb_rand_pareto(a: u32, b: u32) -> u32 {
    ffi::rand_pareto(ctx(), a, b)
}

#[no_mangle]
pub extern "C" fn sb_rand_uniform_uint64() -> u64 {
    ffi::rand_uint64(ctx())
}

#[no_mangle]
pub extern "C" fn sb_rand_uniform_double() -> f64 {
    ffi::rand_double(ctx())
}

/// `fmt`'s length of bytes into `buf` (no terminating NUL).
#[no_mangle]
pub extern "C" fn sb_rand_str(fmt: *const c_char, buf: *mut c_char) {
    if fmt.is_null() || buf.is_null() {
        return;
    }
    // SAFETY: sysbench's contract: `fmt` is a C string, `buf` holds as many bytes.
    let n = unsafe { CStr::from_ptr(fmt) }.to_bytes().len();
    ffi::rand_str(ctx(), fmt, n as u32, buf)
}

#[no_mangle]
pub extern "C" fn sb_rand_unique() -> u32 {
    rand_unique(ctx())
}

#[no_mangle]
pub extern "C" fn sb_rand_zipfian(a: u32, b: u32) -> u32 {
    rand_zipfian(ctx(), a, b)
}

#[no_mangle]
pub extern "C" fn sb_rand_varstr(buf: *mut c_char, min_len: u32, max_len: u32) -> u32 {
    rand_varstr(ctx(), buf, min_len, max_len)
}

/// The next value of the process's non-repeating sequence, seeded by the first state that
/// asks from its own stream (so from the run's seed).
pub extern "C" fn rand_unique(ctx: *mut Ctx) -> u32 {
    guarded(ctx, 0, |c| {
        UNIQUE
            .get_or_init(|| UniqueSequence::new(c.rng.next_u64()))
            .next()
    })
}

/// Zipfian over [a, b] at the exponent `rand_zipf_exp` set.
pub extern "C" fn rand_zipfian(ctx: *mut Ctx, a: u32, b: u32) -> u32 {
    guarded(ctx, a, |c| {
        let (a, b) = if b < a { (b, a) } else { (a, b) };
        ZIPF.with(|z| z.borrow().sample(&mut c.rng, a, b))
    })
}

/// The prelude sets --rand-zipfian-exp for this thread's states as it loads.
pub extern "C" fn rand_zipf_exp(exponent: f64) {
    ZIPF.with(|z| *z.borrow_mut() = zipf(exponent));
}

/// A length uniform in [min_len, max_len], then that many characters from '0' to 'z', into
/// `buf` (which holds `max_len`); returns the length.
pub extern "C" fn rand_varstr(ctx: *mut Ctx, buf: *mut c_char, min_len: u32, max_len: u32) -> u32 {
    if buf.is_null() || max_len == 0 {
        return 0;
    }
    guarded(ctx, 0, |c| {
        let n = c.rng.uniform(min_len.min(max_len), max_len);
        // SAFETY: the caller's buffer holds `max_len` ≥ `n` bytes.
        let out = unsafe { std::slice::from_raw_parts_mut(buf as *mut u8, n as usize) };
        for b in out {
            *b = c.rng.uniform(u32::from(b'0'), u32::from(b'z')) as u8;
        }
        n
    })
}

// --- histograms ---

/// A histogram, or null when `size` < 2 or a bound is not positive (the prelude says which).
#[no_mangle]
pub extern "C" fn sb_histogram_new(size: usize, min: f64, max: f64) -> *mut Histogram {
    match Histogram::new(size, min, max) {
        Some(h) => Box::into_raw(Box::new(h)),
        None => std::ptr::null_mut(),
    }
}

#[no_mangle]
pub extern "C" fn sb_histogram_update(h: *mut Histogram, value: f64) {
    // SAFETY: a histogram `sb_histogram_new` made and `sb_histogram_delete` has not freed.
    if let Some(h) = unsafe { h.as_mut() } {
        h.update(value);
    }
}

/// To stdout, after whatever C's stdio holds (Lua's `print` writes there).
#[no_mangle]
pub extern "C" fn sb_histogram_print(h: *mut Histogram) {
    use std::io::Write;
    // SAFETY: as in `sb_histogram_update`.
    let Some(h) = (unsafe { h.as_mut() }) else {
        return;
    };
    extern "C" {
        fn fflush(stream: *mut std::ffi::c_void) -> c_int;
    }
    // SAFETY: fflush(NULL) flushes every open output stream.
    unsafe { fflush(std::ptr::null_mut()) };
    let text = h.text().trim_end_matches('\0');
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}

#[no_mangle]
pub extern "C" fn sb_histogram_delete(h: *mut Histogram) {
    if !h.is_null() {
        // SAFETY: made by `sb_histogram_new`, freed once (the prelude's finaliser).
        drop(unsafe { Box::from_raw(h) });
    }
}

/// The rendering `h:print()` writes through Lua's `io.write`, NUL-terminated; valid until the
/// next call on `h`.
pub extern "C" fn histogram_text(h: *mut Histogram) -> *const c_char {
    // SAFETY: as in `sb_histogram_update`.
    match unsafe { h.as_mut() } {
        Some(h) => h.text().as_ptr() as *const c_char,
        None => c"".as_ptr(),
    }
}

/// (name, address) of the entry points the prelude casts (beside `ffi::addresses`).
pub fn addresses() -> Vec<(&'static str, usize)> {
    vec![
        (
            "rand_unique",
            rand_unique as extern "C" fn(*mut Ctx) -> u32 as usize,
        ),
        (
            "rand_zipfian",
            rand_zipfian as extern "C" fn(*mut Ctx, u32, u32) -> u32 as usize,
        ),
        (
            "rand_zipf_exp",
            rand_zipf_exp as extern "C" fn(f64) as usize,
        ),
        (
            "rand_varstr",
            rand_varstr as extern "C" fn(*mut Ctx, *mut c_char, u32, u32) -> u32 as usize,
        ),
        (
            "hist_new",
            sb_histogram_new as extern "C" fn(usize, f64, f64) -> *mut Histogram as usize,
        ),
        (
            "hist_update",
            sb_histogram_update as extern "C" fn(*mut Histogram, f64) as usize,
        ),
        (
            "hist_text",
            histogram_text as extern "C" fn(*mut Histogram) -> *const c_char as usize,
        ),
        (
            "hist_delete",
            sb_histogram_delete as extern "C" fn(*mut Histogram) as usize,
        ),
    ]
}
