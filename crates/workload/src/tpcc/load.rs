//! `tpcc prepare`: the population of clause 4.3, generated in the client and sent by each
//! engine's bulk path (prepared multi-row INSERTs on MySQL, COPY on PostgreSQL, prepared INSERTs
//! in one transaction per table and warehouse on SQLite), in primary-key order. ITEM is one unit
//! of work and each warehouse another; `--threads` connections take units until none is left.
//! Secondary indexes (and `--use-fk`'s keys) come after the data. The bookkeeping row says
//! "loading" until everything is in, so `check` and `run` can name an interrupted load.

use super::gen::{self, CConstants};
use super::names::Names;
use super::rows::{RowGen, FIRST_NEW_ORDER, ITEMS};
use super::schema::{self, META};
use super::Tpcc;
use crate::load_progress::LoadProgress;
use crate::workload::setup_error;
use crate::workload::Context;
use dbpress_core::error::{environment, Error, Result};
use dbpress_core::rand::Rng;
use dbpress_core::signals::{self, Signals};
use dbpress_driver::SqlFamily;
use dbpress_driver::{Connection, DbResult, RowBatch};
use dbpress_measure::host::Sampler;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;

/// Rows per warehouse besides ORDER-LINE's (which are drawn: ≈ 300 000).
const ROWS_PER_WAREHOUSE_ESTIMATE: u64 = 1 + 10 + 100_000 + 30_000 * 3 + 9_000 + 300_000;

pub fn prepare(w: &Tpcc, ctx: &Context<'_>) -> Result<Option<dbpress_measure::host::HostUsage>> {
    let engine = ctx.driver.dialect().family;
    let mut probe = ctx.connect(0)?;
    let dry = ctx.driver.dialect().executes_nothing;
    let host = Sampler::started_for(ctx.driver, probe.as_mut());
    let sets = Names::all(w.sets);
    if !dry && super::check::tables_present(probe.as_mut(), &sets)? {
        return Err(environment(format!(
            "TPC-C tables already exist in this database: run `{} cleanup` first, or choose another database with {}",
            ctx.invocation,
            ctx.driver.hints().database
        )));
    }
    let warehouses = w.warehouses;
    let mut rng = Rng::new(w.seed, 0x7C_C0);
    let c_load = CConstants::draw(&mut rng);
    let n_sets = sets.len() as u64;
    dbpress_core::notice!(
        "Creating the TPC-C tables for {warehouses} warehouse(s){} ({} rows, about {} MB)...",
        if n_sets > 1 {
            format!(" in each of {n_sets} table sets")
        } else {
            String::new()
        },
        n_sets * (u64::from(ITEMS) + u64::from(warehouses) * ROWS_PER_WAREHOUSE_ESTIMATE),
        n_sets * (70 * u64::from(warehouses) + 8)
    );
    let run = |conn: &mut dyn Connection, sql: &str, what: &str| -> Result<()> {
        conn.query(sql)
            .map(|_| ())
            .map_err(|e| setup_error(e, what))
    };
    // The bookkeeping table first: cleanup drops only tables it vouches for.
    run(probe.as_mut(), &schema::create_meta(), "creating tpcc_meta")?;
    run(
        probe.as_mut(),
        &format!(
            "INSERT INTO {META} VALUES ({warehouses}, {}, {}, {}, 'loading', '{}', {})",
            c_load.c_last,
            c_load.c_id,
            c_load.ol_i_id,
            gen::now_unix(),
            w.sets.unwrap_or(0)
        ),
        "writing tpcc_meta",
    )?;
    for names in &sets {
        for sql in schema::create_tables(engine, &w.mysql_engine, w.force_pk, names) {
            run(probe.as_mut(), &sql, "creating a TPC-C table")?;
        }
    }

    let signals = Signals::install();
    let progress = LoadProgress::estimated(
        n_sets * (u64::from(ITEMS) + u64::from(warehouses) * ROWS_PER_WAREHOUSE_ESTIMATE),
    );
    // Per set, unit 0 is ITEM and unit w the warehouse w; sets follow each other.
    let units = (warehouses + 1) * sets.len() as u32;
    let next_unit = AtomicU32::new(0);
    let done_units = AtomicU32::new(0);
    let path: Mutex<Option<&'static str>> = Mutex::new(None);
    let loaded_at = gen::now_unix();
    let threads = ctx.threads.min(units).max(1) as usize;
    let loaded = crate::crew::crew(ctx, threads, Some(&signals), |_, conn, stopped| {
        while !stopped() {
            let claimed = next_unit.fetch_add(1, Ordering::Relaxed);
            if claimed >= units {
                break;
            }
            let names = &sets[(claimed / (warehouses + 1)) as usize];
            let unit = claimed % (warehouses + 1);
            let mut rng = Rng::new(w.seed, 0x1_0000 + u64::from(claimed));
            let mut l = Loader {
                conn: &mut *conn,
                rows: RowGen::new(&mut rng, loaded_at, c_load),
                progress: &progress,
                signals: &signals,
                names,
            };
            let how = if unit == 0 {
                progress.say(&format!("Loading ITEM (100000 rows){}...", names.label()));
                l.items()
            } else {
                progress.say(&format!("Loading warehouse {unit}{}...", names.label()));
                l.warehouse(unit)
            }
            .map_err(|e| setup_error(e, &format!("loading unit {unit}")))?;
            path.lock()
                .unwrap_or_else(|p| p.into_inner())
                .get_or_insert(how);
            done_units.fetch_add(1, Ordering::Relaxed);
        }
        Ok(())
    });
    if let Err(e) = loaded {
        progress.stopped();
        return Err(e);
    }
    if let Some(sig) = signals.caught() {
        let rows = progress.stopped();
        return Err(Error::Interrupted(
            format!(
                "prepare interrupted by {sig}: {} of {} units (ITEM and each warehouse) loaded, {rows} rows; the tables are marked as loading: run `{} cleanup` before preparing again",
                done_units.load(Ordering::Relaxed),
                units,
                ctx.invocation
            ),
            signals::exit_code(sig),
        ));
    }
    let how = path
        .into_inner()
        .unwrap_or_else(|p| p.into_inner())
        .unwrap_or("no rows");
    progress.finish(how);

    let mut conn = ctx.connect(0)?;
    for names in &sets {
        finish_set(w, conn.as_mut(), engine, names, dry)?;
    }
    run(
        conn.as_mut(),
        &format!("UPDATE {META} SET state = 'ready'"),
        "marking the load done",
    )?;
    drop(conn);
    let usage = host.finish_now();
    if w.no_check || dry {
        return Ok(usage);
    }
    dbpress_core::notice!("Checking the consistency conditions (--no-check skips this)...");
    super::check::run_checks(ctx, super::check::After::Load, w.warehouses, &sets)?;
    Ok(usage)
}

/// After a set's rows: its secondary indexes, `--use-fk`'s keys, fresh statistics.
fn finish_set(
    w: &Tpcc,
    conn: &mut dyn Connection,
    engine: SqlFamily,
    names: &Names,
    dry: bool,
) -> Result<()> {
    let run = |conn: &mut dyn Connection, sql: &str, what: &str| -> Result<()> {
        conn.query(sql)
            .map(|_| ())
            .map_err(|e| setup_error(e, what))
    };
    for sql in schema::create_indexes(names) {
        dbpress_core::notice!("{sql}...");
        run(conn, &sql, "creating an index")?;
    }
    if w.use_fk {
        if engine == SqlFamily::Sqlite {
            dbpress_core::notice!(
                "--use-fk: SQLite cannot add a foreign key to an existing table; none added"
            );
        } else {
            dbpress_core::notice!(
                "Adding the ten foreign keys of clause 1.3 (--use-fk){}...",
                names.label()
            );
            for sql in schema::create_foreign_keys(names) {
                run(conn, &sql, "adding a foreign key")?;
            }
        }
    }
    match engine {
        SqlFamily::Postgres => {
            for t in schema::TABLES {
                run(
                    conn,
                    &names.sql(&format!("VACUUM ANALYZE {t}")),
                    "VACUUM ANALYZE",
                )?;
            }
        }
        SqlFamily::Sqlite => run(conn, "ANALYZE", "ANALYZE")?,
        SqlFamily::Mysql if !dry => {
            let list = names.sql(&schema::TABLES.join(", "));
            let _ = conn.query_rows(&format!("ANALYZE TABLE {list}"));
        }
        SqlFamily::Mysql => {}
    }
    Ok(())
}

/// One connection's generator of rows.
struct Loader<'a> {
    conn: &'a mut dyn Connection,
    rows: RowGen<'a>,
    progress: &'a LoadProgress,
    signals: &'a Signals,
    names: &'a Names,
}

impl Loader<'_> {
    /// Send `rows` rows made by `row(n, gen, batch)` into `table`.
    fn table(
        &mut self,
        table: &str,
        columns: &str,
        rows: u64,
        mut row: impl FnMut(u64, &mut RowGen<'_>, &mut RowBatch),
    ) -> DbResult<&'static str> {
        let mut n = 0u64;
        let (gen, progress, signals) = (&mut self.rows, self.progress, self.signals);
        let table = self.names.sql(table);
        self.conn.bulk_load(&table, columns, &mut |batch| {
            let before = n;
            while n < rows && !batch.is_full() {
                row(n, gen, batch);
                n += 1;
            }
            progress.add(n - before);
            // A signal ends the table early; the load reports what it did not finish.
            n < rows && signals.caught().is_none()
        })
    }

    fn items(&mut self) -> DbResult<&'static str> {
        self.table(
            "item",
            "i_id,i_im_id,i_name,i_price,i_data",
            u64::from(ITEMS),
            |n, g, b| g.item(b, n as u32 + 1),
        )
    }

    fn warehouse(&mut self, w: u32) -> DbResult<&'static str> {
        let how = self.table(
            "warehouse",
            "w_id,w_name,w_street_1,w_street_2,w_city,w_state,w_zip,w_tax,w_ytd",
            1,
            |_, g, b| g.warehouse(b, w),
        )?;
        self.table(
            "district",
            "d_id,d_w_id,d_name,d_street_1,d_street_2,d_city,d_state,d_zip,d_tax,d_ytd,d_next_o_id",
            10,
            |n, g, b| g.district(b, n as u32 + 1, w),
        )?;
        self.table(
            "stock",
            "s_i_id,s_w_id,s_quantity,s_dist_01,s_dist_02,s_dist_03,s_dist_04,s_dist_05,\
             s_dist_06,s_dist_07,s_dist_08,s_dist_09,s_dist_10,s_ytd,s_order_cnt,s_remote_cnt,s_data",
            u64::from(ITEMS),
            |n, g, b| g.stock(b, n as u32 + 1, w),
        )?;
        // District by district, customer by customer (key order).
        let split = |n: u64| ((n / 3000) as u32 + 1, (n % 3000) as u32 + 1);
        self.table(
            "customer",
            "c_id,c_d_id,c_w_id,c_first,c_middle,c_last,c_street_1,c_street_2,c_city,c_state,\
             c_zip,c_phone,c_since,c_credit,c_credit_lim,c_discount,c_balance,c_ytd_payment,\
             c_payment_cnt,c_delivery_cnt,c_data",
            30_000,
            |n, g, b| {
                let (d, c) = split(n);
                g.customer(b, c, d, w)
            },
        )?;
        self.table(
            "history",
            "h_c_id,h_c_d_id,h_c_w_id,h_d_id,h_w_id,h_date,h_amount,h_data",
            30_000,
            |n, g, b| {
                let (d, c) = split(n);
                g.history(b, c, d, w)
            },
        )?;
        // Each district's orders: customers in a random permutation, 5..=15 lines each.
        let mut orders: Vec<(u16, u8)> = Vec::with_capacity(30_000);
        for _ in 0..10 {
            for c in self.rows.customer_permutation() {
                orders.push((c, self.rows.line_count() as u8));
            }
        }
        let orders = &orders;
        self.table(
            "orders",
            "o_id,o_d_id,o_w_id,o_c_id,o_entry_d,o_carrier_id,o_ol_cnt,o_all_local",
            30_000,
            |n, g, b| {
                let (d, o) = split(n);
                let (c, lines) = orders[n as usize];
                g.order(b, o, d, w, u32::from(c), u32::from(lines))
            },
        )?;
        self.table("new_order", "no_o_id,no_d_id,no_w_id", 9_000, |n, g, b| {
            g.new_order(
                b,
                (n % 900) as u32 + FIRST_NEW_ORDER,
                (n / 900) as u32 + 1,
                w,
            )
        })?;
        let total_lines: u64 = orders.iter().map(|&(_, l)| u64::from(l)).sum();
        // (order index, line) walking the orders in key order.
        let (mut at, mut line) = (0usize, 1u8);
        self.table(
            "order_line",
            "ol_o_id,ol_d_id,ol_w_id,ol_number,ol_i_id,ol_supply_w_id,ol_delivery_d,\
             ol_quantity,ol_amount,ol_dist_info",
            total_lines,
            |_, g, b| {
                let (d, o) = split(at as u64);
                g.order_line(b, o, d, w, u32::from(line));
                if line == orders[at].1 {
                    at += 1;
                    line = 1;
                } else {
                    line += 1;
                }
            },
        )?;
        Ok(how)
    }
}

/// `cleanup`: drop the nine tables and the bookkeeping table, nothing else.
pub fn cleanup(ctx: &Context<'_>) -> Result<()> {
    let mut conn = ctx.connect(0)?;
    let dry = ctx.driver.dialect().executes_nothing;
    let meta = if dry {
        None
    } else {
        super::check::meta(conn.as_mut())?
    };
    if !dry && meta.is_none() {
        if super::check::tables_present(conn.as_mut(), &Names::all(Some(1)))?
            || super::check::tables_present(conn.as_mut(), &Names::all(None))?
        {
            return Err(environment(format!(
                "TPC-C tables exist here but no {META} table says dbpress created them: dbpress drops only what it loaded; drop them yourself if they are not needed"
            )));
        }
        dbpress_core::notice!("No TPC-C tables here: nothing to clean up");
        return Ok(());
    }
    let sets = Names::all(meta.and_then(|m| (m.sets > 0).then_some(m.sets)));
    for names in &sets {
        for sql in schema::drop_tables(names) {
            dbpress_core::notice!("{sql}");
            conn.query(&sql)
                .map_err(|e| setup_error(e, "dropping a TPC-C table"))?;
        }
    }
    let sql = schema::drop_meta();
    dbpress_core::notice!("{sql}");
    conn.query(&sql)
        .map_err(|e| setup_error(e, "dropping a TPC-C table"))?;
    Ok(())
}
