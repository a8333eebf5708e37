//! Asking the conditions: the whole-database ones and then one unit per district, spread over
//! `--threads` connections (each query is one server thread's work), then one line per
//! condition in order, with its first offending key over all districts.

use super::conditions::{
    by_number, for_district, After, Condition, CONDITION_10_GIVEN_12, DISTRICT_ORDER, SCREENED,
    SCREEN_4_6_7, WHOLE_ORDER,
};
use crate::tpcc::names::Names;
use crate::tpcc::schema::DISTRICTS_PER_WAREHOUSE;
use crate::workload::{setup_error, Context};
use dbpress_core::error::{failed, Error, Result};
use dbpress_driver::Connection;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// One worker's piece of the check.
enum Unit {
    /// A whole-database condition of one table set.
    Whole { set: usize, number: u32 },
    /// Every district-scoped condition of one district of one set.
    District { set: usize, w: u32, d: u32 },
}

/// What one condition's queries found over every warehouse.
#[derive(Default)]
struct Found {
    /// Server time spent on it, summed over its queries.
    secs: f64,
    /// The first district where it failed ((0, 0) for a whole-database query) and its key.
    first: Option<((u32, u32), String)>,
    error: Option<Error>,
}

impl Found {
    fn record(&mut self, at: (u32, u32), r: Result<(Option<String>, f64)>) {
        match r {
            Ok((key, secs)) => {
                self.secs += secs;
                if let Some(key) = key {
                    if self.first.as_ref().is_none_or(|(first, _)| at < *first) {
                        self.first = Some((at, key));
                    }
                }
            }
            Err(e) => {
                if self.error.is_none() {
                    self.error = Some(e);
                }
            }
        }
    }
}

fn first_key(rows: &[Vec<Option<String>>], c: &Condition) -> Option<String> {
    rows.first().map(|r| {
        c.key
            .iter()
            .zip(r)
            .map(|(k, v)| format!("{k}={}", v.as_deref().unwrap_or("NULL")))
            .collect::<Vec<_>>()
            .join(", ")
    })
}

/// Ask one query; its first offending key and how long it took.
fn ask(conn: &mut dyn Connection, c: &Condition, sql: &str) -> Result<(Option<String>, f64)> {
    let t0 = std::time::Instant::now();
    conn.query_rows(sql)
        .map(|rows| (first_key(&rows, c), t0.elapsed().as_secs_f64()))
        .map_err(|e| setup_error(e, &format!("checking condition {}", c.number)))
}

/// Conditions 4, 6 and 7 of one district: the screen's pass (its time noted under 4), then
/// the own query of each one it flags, for the first key. Should that query find nothing, the
/// district itself is the key: the screen's word stands.
fn screen(
    conn: &mut dyn Connection,
    names: &Names,
    w: u32,
    d: u32,
    note: &dyn Fn(u32, Result<(Option<String>, f64)>),
) {
    let t0 = std::time::Instant::now();
    let flags = match conn.query_rows(&names.sql(&for_district(SCREEN_4_6_7, w, d))) {
        Ok(rows) => rows.into_iter().next().unwrap_or_default(),
        Err(e) => {
            let e = setup_error(e, "checking conditions 4, 6 and 7");
            return note(SCREENED[0], Err(e));
        }
    };
    note(SCREENED[0], Ok((None, t0.elapsed().as_secs_f64())));
    for (i, &number) in SCREENED.iter().enumerate() {
        let fails = flags
            .get(i)
            .cloned()
            .flatten()
            .is_some_and(|v| v.trim() != "0");
        if !fails {
            continue;
        }
        let c = by_number(number);
        let r = ask(conn, c, &names.sql(&c.sql_for(w, d))).map(|(key, secs)| {
            (
                Some(key.unwrap_or_else(|| format!("w_id={w}, d_id={d}"))),
                secs,
            )
        });
        note(number, r);
    }
}

fn applies(number: u32, after: After) -> bool {
    !(number == 11 && after == After::Run)
}

/// Run the conditions that apply to the districts of `warehouses` warehouses of each set, then
/// print one line each in order; fails naming every condition that does not hold and its first
/// offending key.
pub fn run_checks(ctx: &Context<'_>, after: After, warehouses: u32, sets: &[Names]) -> Result<()> {
    let mut units = Vec::new();
    for set in 0..sets.len() {
        units.extend(
            WHOLE_ORDER
                .iter()
                .map(|&number| Unit::Whole { set, number }),
        );
    }
    for set in 0..sets.len() {
        for w in 1..=warehouses {
            units.extend((1..=DISTRICTS_PER_WAREHOUSE).map(|d| Unit::District { set, w, d }));
        }
    }
    // found[set][number - 1]
    let found: Vec<Vec<Mutex<Found>>> = sets
        .iter()
        .map(|_| (0..12).map(|_| Mutex::new(Found::default())).collect())
        .collect();
    let next = AtomicUsize::new(0);
    let workers = (ctx.threads as usize).clamp(1, units.len().max(1));
    let note = |set: usize, number: u32, at: (u32, u32), r: Result<(Option<String>, f64)>| {
        found[set][number as usize - 1]
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .record(at, r);
    };
    // A condition that fails or errs is noted and the others go on: every line is printed.
    // Only a session that cannot connect stops the check (the crew returns its error).
    crate::crew::crew(ctx, workers, None, |_, conn, _| {
        while let Some(unit) = units.get(next.fetch_add(1, Ordering::Relaxed)) {
            match *unit {
                Unit::Whole { set, number } => {
                    let c = by_number(number);
                    // 10 is asked the quick way; the long way follows where 12 fails.
                    let sql = if number == 10 {
                        CONDITION_10_GIVEN_12
                    } else {
                        c.sql
                    };
                    let r = ask(conn, c, &sets[set].sql(sql));
                    note(set, number, (0, 0), r);
                }
                Unit::District { set, w, d } => {
                    screen(conn, &sets[set], w, d, &|n, r| note(set, n, (w, d), r));
                    for &number in DISTRICT_ORDER.iter().filter(|&&n| applies(n, after)) {
                        let c = by_number(number);
                        let r = ask(conn, c, &sets[set].sql(&c.sql_for(w, d)));
                        note(set, number, (w, d), r);
                    }
                }
            }
        }
        Ok(())
    })?;
    report(ctx, after, sets, found)
}

/// The time a condition's "holds" line shows: the screen's pass is noted under its first.
fn took(number: u32, secs: f64) -> String {
    match SCREENED.iter().position(|&n| n == number) {
        Some(0) => format!(
            "{secs:.2}s, one pass with {} and {}",
            SCREENED[1], SCREENED[2]
        ),
        Some(_) => format!("in {}'s pass", SCREENED[0]),
        None => format!("{secs:.2}s"),
    }
}

/// One line per condition and set; condition 10 asked in full where 12 failed.
fn report(
    ctx: &Context<'_>,
    after: After,
    sets: &[Names],
    found: Vec<Vec<Mutex<Found>>>,
) -> Result<()> {
    let mut conn = None;
    let mut failures = Vec::new();
    for (names, found) in sets.iter().zip(found) {
        if sets.len() > 1 {
            dbpress_core::outln!("Table set {}:", names.number());
        }
        let mut found: Vec<Found> = found
            .into_iter()
            .map(|m| m.into_inner().unwrap_or_else(|p| p.into_inner()))
            .collect();
        let twelve_holds = found[11].error.is_none() && found[11].first.is_none();
        for (i, f) in found.iter_mut().enumerate() {
            let c = by_number(i as u32 + 1);
            if !applies(c.number, after) {
                dbpress_core::outln!("Condition 11 skipped: {}", c.says);
                continue;
            }
            if let Some(e) = f.error.take() {
                return Err(e);
            }
            if c.number == 10 && !twelve_holds {
                let conn: &mut Box<dyn Connection> = match &mut conn {
                    Some(c) => c,
                    None => conn.insert(ctx.connect(0)?),
                };
                *f = Found::default();
                f.record((0, 0), ask(conn.as_mut(), c, &names.sql(c.sql)));
                if let Some(e) = f.error.take() {
                    return Err(e);
                }
            }
            match &f.first {
                None => dbpress_core::outln!(
                    "Condition {:>2} holds ({}): {}",
                    c.number,
                    took(c.number, f.secs),
                    c.says
                ),
                Some((_, key)) => {
                    dbpress_core::outln!(
                        "Condition {:>2} FAILED: {} (first at {key})",
                        c.number,
                        c.says
                    );
                    failures.push(format!("{}{} at {key}", c.number, names.label()));
                }
            }
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failed(format!(
            "TPC-C consistency check failed: condition {}",
            failures.join("; condition ")
        )))
    }
}
