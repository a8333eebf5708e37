//! tpcc-mysql's load (dbpress as tpcc_load, #42): one session with tpcc_load's settings, its
//! eleven prepared single-row INSERTs, its commit points and its progress text, so the server
//! does tpcc_load's work — a COM_STMT_EXECUTE per row, the same COMMITs — into tpcc-mysql's
//! tables (created beforehand by its create_table.sql). The rows are clause 4.3's, made as
//! `dbpress tpcc prepare` makes them (`tpcc::rows`); tpcc-mysql's own draw gives half its
//! customers bad credit where the spec gives a tenth, a difference in the data dbpress does
//! not copy (docs/GUIDE.md, "As tpcc_load").
//!
//! tpcc_load tries a failed unit (the items, a warehouse, a district's customers or orders)
//! again forever, whatever failed; dbpress tries again only what can pass the next time (a
//! deadlock or a lock wait), and stops on anything else with tpcc_load's error line.

use super::super::gen::{self, CConstants};
use super::super::rows::{RowGen, CUSTOMERS, FIRST_NEW_ORDER, ITEMS};
use dbpress_core::rand::Rng;
use dbpress_driver::{Connection, DbError, DbErrorKind, DbResult, RowBatch, StmtHandle, Value};

/// What tpcc_load sets first on its session.
const SESSION: [&str; 3] = [
    "SET autocommit=0",
    "SET UNIQUE_CHECKS=0",
    "SET FOREIGN_KEY_CHECKS=0",
];

/// tpcc_load's statements in the order it prepares them, each with the columns of the row
/// (as `RowGen` makes it) that its text gives as literals instead of binding: bit i skips
/// column i.
const INSERTS: [(&str, u32); 11] = [
    ("INSERT INTO item values(?,?,?,?,?)", 0),
    ("INSERT INTO warehouse values(?,?,?,?,?,?,?,?,?)", 0),
    // S_YTD, S_ORDER_CNT, S_REMOTE_CNT
    (
        "INSERT INTO stock values(?,?,?,?,?,?,?,?,?,?,?,?,?,0,0,0,?)",
        0b111 << 13,
    ),
    ("INSERT INTO district values(?,?,?,?,?,?,?,?,?,?,?)", 0),
    // C_YTD_PAYMENT, C_PAYMENT_CNT, C_DELIVERY_CNT
    (
        "INSERT INTO customer values(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?, 10.0, 1, 0,?)",
        0b111 << 17,
    ),
    ("INSERT INTO history values(?,?,?,?,?,?,?,?)", 0),
    // O_CARRIER_ID (NULL), O_ALL_LOCAL
    (
        "INSERT INTO orders values(?,?,?,?,?,NULL,?, 1)",
        1 << 5 | 1 << 7,
    ),
    ("INSERT INTO new_orders values(?,?,?)", 0),
    ("INSERT INTO orders values(?,?,?,?,?,?,?, 1)", 1 << 7),
    // OL_DELIVERY_D (NULL)
    (
        "INSERT INTO order_line values(?,?,?,?,?,?, NULL,?,?,?)",
        1 << 6,
    ),
    ("INSERT INTO order_line values(?,?,?,?,?,?,?,?,?,?)", 0),
];
const ITEM: usize = 0;
const WAREHOUSE: usize = 1;
const STOCK: usize = 2;
const DISTRICT: usize = 3;
const CUSTOMER: usize = 4;
const HISTORY: usize = 5;
const NEW_ORDER_ROW: usize = 6;
const NEW_ORDERS: usize = 7;
const DELIVERED_ORDER: usize = 8;
const NEW_ORDER_LINE: usize = 9;
const DELIVERED_LINE: usize = 10;

/// A failed unit is tried again this often at most (tpcc_load has no limit).
const MAX_RETRIES: u32 = 100;

/// What tpcc_load's line asks for: one part (`-l`) for warehouses `min..=max`, or everything
/// for warehouses 1..=`warehouses`.
#[derive(Clone, Copy, Debug)]
pub enum LoadPlan {
    All { warehouses: u32 },
    Part { part: i64, min: u32, max: u32 },
}

/// How a load ended early: the error it stopped on (its line is printed already).
pub struct LoadStopped(pub DbError);

/// tpcc_load's work on `conn`, its text written through `say`. The session is set up and the
/// statements prepared before its `TPCC Data Load Started...`.
pub fn load(
    conn: &mut dyn Connection,
    plan: LoadPlan,
    seed: u64,
    say: &mut dyn FnMut(&str),
) -> Result<(), LoadStopped> {
    let stmts = setup(conn).map_err(|e| stop(say, e))?;
    let mut rng = Rng::new(seed, 0x7C_C1);
    let c = CConstants::draw(&mut rng);
    let mut l = Loader {
        conn,
        stmts,
        rows: RowGen::new(&mut rng, gen::now_unix(), c),
        batch: RowBatch::new(21, 1, usize::MAX),
        say,
    };
    (l.say)("TPCC Data Load Started...\n");
    let outcome = match plan {
        LoadPlan::All { warehouses } => l.all(warehouses),
        LoadPlan::Part { part, min, max } => l.part(part, min, max),
    };
    if let Err(LoadStopped(e)) = outcome {
        let _ = l.conn.query("ROLLBACK");
        return Err(LoadStopped(e));
    }
    (l.say)("\n...DATA LOADING COMPLETED SUCCESSFULLY.\n");
    l.commit().map_err(|e| stop(l.say, e))?;
    l.conn.close_statements().map_err(|e| stop(l.say, e))
}

/// tpcc_load's session settings and prepared statements.
fn setup(conn: &mut dyn Connection) -> DbResult<Vec<StmtHandle>> {
    for sql in SESSION {
        conn.query(sql)?;
    }
    INSERTS.iter().map(|(sql, _)| conn.prepare(sql)).collect()
}

/// tpcc_load's error line (an empty line, then `errno, SQLSTATE, message`).
fn error_line(e: &DbError) -> String {
    let state = e.sqlstate.map_or_else(
        || "HY000".to_string(),
        |s| String::from_utf8_lossy(&s).into_owned(),
    );
    format!("\n{}, {state}, {}\n", e.code, e.message)
}

fn stop(say: &mut dyn FnMut(&str), e: DbError) -> LoadStopped {
    say(&error_line(&e));
    LoadStopped(e)
}

struct Loader<'a, 'r> {
    conn: &'a mut dyn Connection,
    stmts: Vec<StmtHandle>,
    rows: RowGen<'r>,
    /// One row at a time.
    batch: RowBatch,
    say: &'a mut dyn FnMut(&str),
}

impl Loader<'_, '_> {
    fn all(&mut self, warehouses: u32) -> Result<(), LoadStopped> {
        self.items()?;
        self.warehouses(1, warehouses)?;
        self.customers(1, warehouses)?;
        self.orders(1, warehouses)
    }

    fn part(&mut self, part: i64, min: u32, max: u32) -> Result<(), LoadStopped> {
        match part {
            1 => self.items(),
            2 => self.warehouses(min, max),
            3 => self.customers(min, max),
            4 => self.orders(min, max),
            _ => {
                (self.say)("Unknown part_no\n1:ITEMS 2:WAREHOUSE 3:CUSTOMER 4:ORDERS\n");
                Ok(())
            }
        }
    }

    fn items(&mut self) -> Result<(), LoadStopped> {
        (self.say)("Loading Item \n");
        self.unit("Retrying ...", |l| {
            for i in 1..=ITEMS {
                l.insert(ITEM, |g, b| g.item(b, i))?;
                l.progress(i, 100, 5000);
            }
            l.commit()
        })?;
        (self.say)("Item Done. \n");
        Ok(())
    }

    fn warehouses(&mut self, min: u32, max: u32) -> Result<(), LoadStopped> {
        (self.say)("Loading Warehouse \n");
        for w in min..=max {
            self.unit("Retrying ....", |l| {
                l.insert(WAREHOUSE, |g, b| g.warehouse(b, w))?;
                (l.say)(&format!("Loading Stock Wid={w}\n"));
                for i in 1..=ITEMS {
                    l.insert(STOCK, |g, b| g.stock(b, i, w))?;
                    l.progress(i, 100, 5000);
                }
                (l.say)(" Stock Done.\nLoading District\n");
                for d in 1..=10 {
                    l.insert(DISTRICT, |g, b| g.district(b, d, w))?;
                }
                l.commit()
            })?;
        }
        Ok(())
    }

    fn customers(&mut self, min: u32, max: u32) -> Result<(), LoadStopped> {
        for w in min..=max {
            for d in 1..=10 {
                self.unit("Retrying ...", |l| {
                    (l.say)(&format!("Loading Customer for DID={d}, WID={w}\n"));
                    for c in 1..=CUSTOMERS {
                        l.insert(CUSTOMER, |g, b| g.customer(b, c, d, w))?;
                        l.insert(HISTORY, |g, b| g.history(b, c, d, w))?;
                        l.progress(c, 100, 1000);
                    }
                    l.commit()?;
                    (l.say)("Customer Done.\n");
                    Ok(())
                })?;
            }
        }
        self.commit().map_err(|e| stop(self.say, e))
    }

    fn orders(&mut self, min: u32, max: u32) -> Result<(), LoadStopped> {
        for w in min..=max {
            for d in 1..=10 {
                self.unit("Retrying ...", |l| {
                    (l.say)(&format!("Loading Orders for D={d}, W= {w}\n"));
                    let customers = l.rows.customer_permutation();
                    for (o, c) in (1..=CUSTOMERS).zip(customers) {
                        l.order(o, d, w, u32::from(c))?;
                        l.progress(o, 100, 1000);
                    }
                    l.commit()?;
                    (l.say)("Orders Done.\n");
                    Ok(())
                })?;
            }
        }
        self.commit().map_err(|e| stop(self.say, e))
    }

    /// Order `o` with its NEW-ORDER row (undelivered ones) and its lines.
    fn order(&mut self, o: u32, d: u32, w: u32, c: u32) -> DbResult<()> {
        let lines = self.rows.line_count();
        let delivered = o < FIRST_NEW_ORDER;
        let order = if delivered {
            DELIVERED_ORDER
        } else {
            NEW_ORDER_ROW
        };
        self.insert(order, |g, b| g.order(b, o, d, w, c, lines))?;
        if !delivered {
            self.insert(NEW_ORDERS, |g, b| g.new_order(b, o, d, w))?;
        }
        let line = if delivered {
            DELIVERED_LINE
        } else {
            NEW_ORDER_LINE
        };
        for n in 1..=lines {
            self.insert(line, |g, b| g.order_line(b, o, d, w, n))?;
        }
        Ok(())
    }

    /// Run `body` (a unit of work ending in its COMMIT), and again after a deadlock or a lock
    /// wait, saying `retrying` as tpcc_load does; any other error stops the load.
    fn unit(
        &mut self,
        retrying: &str,
        mut body: impl FnMut(&mut Self) -> DbResult<()>,
    ) -> Result<(), LoadStopped> {
        let mut tries = 0;
        loop {
            let Err(e) = body(self) else { return Ok(()) };
            (self.say)(&error_line(&e));
            let passing = matches!(e.kind, DbErrorKind::Deadlock | DbErrorKind::LockTimeout);
            if !passing || tries == MAX_RETRIES {
                return Err(LoadStopped(e));
            }
            tries += 1;
            (self.say)(&format!("{retrying}\n"));
            self.conn.query("ROLLBACK").map_err(|e| stop(self.say, e))?;
        }
    }

    /// One row made by `row`, sent by statement `s` with its literal columns left out.
    fn insert(
        &mut self,
        s: usize,
        row: impl FnOnce(&mut RowGen<'_>, &mut RowBatch),
    ) -> DbResult<()> {
        self.batch.clear();
        row(&mut self.rows, &mut self.batch);
        let skip = INSERTS[s].1;
        // A row's values stay on the stack (at most CUSTOMER's 21).
        let params: smallvec::SmallVec<[Value<'_>; 21]> = self
            .batch
            .values()
            .enumerate()
            .filter(|(i, _)| skip & (1 << i) == 0)
            .map(|(_, v)| v)
            .collect();
        self.conn.execute(self.stmts[s], &params).map(|_| ())
    }

    fn commit(&mut self) -> DbResult<()> {
        self.conn.query("COMMIT").map(|_| ())
    }

    /// tpcc_load's progress: a dot every `dot` rows, the count and a new line every `line`.
    fn progress(&mut self, n: u32, dot: u32, line: u32) {
        if n % dot == 0 {
            (self.say)(".");
        }
        if n % line == 0 {
            (self.say)(&format!(" {n}\n"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_statement_binds_what_its_text_leaves_open() {
        // (placeholders, columns RowGen makes for its table)
        let columns = [5, 9, 17, 11, 21, 8, 8, 3, 8, 10, 10];
        for ((sql, skip), cols) in INSERTS.iter().zip(columns) {
            assert_eq!(
                sql.matches('?').count() as u32,
                cols - skip.count_ones(),
                "{sql}"
            );
        }
    }

    #[test]
    fn rows_are_what_each_statement_expects() {
        let mut rng = Rng::new(1, 2);
        let mut g = RowGen::new(&mut rng, 0, CConstants::draw(&mut Rng::new(1, 3)));
        let mut b = RowBatch::new(21, 1, usize::MAX);
        let mut cols = |f: &mut dyn FnMut(&mut RowGen<'_>, &mut RowBatch)| {
            b.clear();
            f(&mut g, &mut b);
            b.values().count()
        };
        assert_eq!(cols(&mut |g, b| g.item(b, 1)), 5);
        assert_eq!(cols(&mut |g, b| g.stock(b, 1, 1)), 17);
        assert_eq!(cols(&mut |g, b| g.customer(b, 1, 1, 1)), 21);
        assert_eq!(cols(&mut |g, b| g.order(b, 1, 1, 1, 1, 5)), 8);
        assert_eq!(cols(&mut |g, b| g.order_line(b, 3000, 1, 1, 1)), 10);
    }
}
