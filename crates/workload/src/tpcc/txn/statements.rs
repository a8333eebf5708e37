//! The statements of the five transactions, prepared once per connection, per engine. Where
//! the engine has `UPDATE … RETURNING` (PostgreSQL, SQLite) a read that follows an update of the
//! same row is folded into it: one round trip instead of two, the same rows read and written
//! (clause 2.3.2 leaves the statements to the implementation). Item and stock reads take all of
//! an order's lines in one statement, padded to 15 keys by repeating one, so one statement
//! serves every order size.

use super::super::names::Names;
use dbpress_driver::SqlFamily;
use dbpress_driver::{Connection, DbResult, StmtHandle};

/// Statement kinds: the five transactions first (their whole time), then each statement.
pub const KIND_NAMES: [&str; 27] = [
    "new_order",
    "payment",
    "order_status",
    "delivery",
    "stock_level",
    "begin",
    "commit",
    "rollback",
    "no_customer_warehouse",
    "no_district",
    "no_district_update",
    "no_order_insert",
    "no_new_order_insert",
    "no_items",
    "no_stock_select",
    "no_stock_update",
    "no_lines_insert",
    "pay_warehouse",
    "pay_district",
    "customer_by_name",
    "customer",
    "pay_customer_update",
    "pay_history_insert",
    "os_last_order",
    "os_lines",
    "delivery_statement",
    "stock_level_query",
];

pub mod kind {
    pub const BEGIN: u8 = 5;
    pub const COMMIT: u8 = 6;
    pub const ROLLBACK: u8 = 7;
    pub const NO_CUSTOMER_WAREHOUSE: u8 = 8;
    pub const NO_DISTRICT: u8 = 9;
    pub const NO_DISTRICT_UPDATE: u8 = 10;
    pub const NO_ORDER_INSERT: u8 = 11;
    pub const NO_NEW_ORDER_INSERT: u8 = 12;
    pub const NO_ITEMS: u8 = 13;
    pub const NO_STOCK_SELECT: u8 = 14;
    pub const NO_STOCK_UPDATE: u8 = 15;
    pub const NO_LINES_INSERT: u8 = 16;
    pub const PAY_WAREHOUSE: u8 = 17;
    pub const PAY_DISTRICT: u8 = 18;
    pub const CUSTOMER_BY_NAME: u8 = 19;
    pub const CUSTOMER: u8 = 20;
    pub const PAY_CUSTOMER_UPDATE: u8 = 21;
    pub const PAY_HISTORY_INSERT: u8 = 22;
    pub const OS_LAST_ORDER: u8 = 23;
    pub const OS_LINES: u8 = 24;
    pub const DELIVERY: u8 = 25;
    pub const STOCK_LEVEL_READ: u8 = 26;
}

/// Lines of an order at most, and the keys every item and stock read carries.
pub const MAX_LINES: usize = 15;

pub struct Statements {
    pub engine: SqlFamily,
    /// The table set these statements name.
    pub names: Names,
    pub begin_write: &'static str,
    pub begin_read: &'static str,
    /// New-Order
    pub customer_warehouse: StmtHandle,
    /// PostgreSQL/SQLite: UPDATE … RETURNING d_next_o_id - 1, d_tax. MySQL: SELECT … FOR UPDATE.
    pub district_next: StmtHandle,
    /// MySQL only: the increment after the locking read.
    pub district_bump: Option<StmtHandle>,
    pub order_insert: StmtHandle,
    pub new_order_insert: StmtHandle,
    pub items: StmtHandle,
    pub stock: StmtHandle,
    /// Every stock row of an order in one UPDATE: `STOCK_UPDATE_PARAMS` parameters, see
    /// `stock_update_sql`.
    pub stock_update: StmtHandle,
    /// Multi-row INSERTs of n lines, prepared when first needed (index n − 1).
    pub lines_insert: [Option<StmtHandle>; MAX_LINES],
    /// Payment. With RETURNING the read is in the update.
    pub warehouse_pay: StmtHandle,
    pub warehouse_read: Option<StmtHandle>,
    pub district_pay: StmtHandle,
    pub district_read: Option<StmtHandle>,
    pub customer_ids_by_name: StmtHandle,
    pub customer_for_payment: StmtHandle,
    pub customer_data: StmtHandle,
    pub customer_pay: StmtHandle,
    pub customer_pay_bc: StmtHandle,
    pub history_insert: StmtHandle,
    /// Order-Status
    pub customer_by_name: StmtHandle,
    pub customer_by_id: StmtHandle,
    pub last_order: StmtHandle,
    pub order_lines: StmtHandle,
    /// Delivery
    pub oldest_new_order: StmtHandle,
    pub new_order_delete: StmtHandle,
    /// With RETURNING: UPDATE orders … RETURNING o_c_id; MySQL: the update, then a read.
    pub order_carrier: StmtHandle,
    pub order_customer: Option<StmtHandle>,
    /// With RETURNING: UPDATE order_line … RETURNING ol_amount (summed here); MySQL: the
    /// update, then SELECT SUM.
    pub lines_deliver: StmtHandle,
    pub lines_sum: Option<StmtHandle>,
    pub customer_deliver: StmtHandle,
    /// Stock-Level
    pub district_next_read: StmtHandle,
    pub low_stock: StmtHandle,
}

/// Parameters of the stock UPDATE: per key (padded to `MAX_LINES`), PostgreSQL's VALUES row
/// (w, i, quantity, ytd, orders, remote) or the CASE branches' (key, value) × 4 and the key pair.
pub fn stock_update_params(engine: SqlFamily) -> usize {
    match engine {
        SqlFamily::Postgres => 6 * MAX_LINES,
        _ => (4 * 2 + 2) * MAX_LINES,
    }
}

/// One UPDATE for all of an order's stock rows, so an order costs the server one statement
/// where ten per-line UPDATEs cost ten. PostgreSQL joins a VALUES list; MySQL (whose VALUES
/// rows are recent) and SQLite pick each column's value with a CASE on the row's key
/// (s_w_id × 1 000 000 + s_i_id: item ids stay below a million). A key padded in twice carries
/// the same values, so either match gives the same row.
fn stock_update_sql(engine: SqlFamily, stock_keys: &str) -> String {
    if engine == SqlFamily::Postgres {
        let first = "(CAST(? AS INT), CAST(? AS INT), CAST(? AS INT), CAST(? AS INT), CAST(? AS INT), CAST(? AS INT))";
        let rest = vec!["(?, ?, ?, ?, ?, ?)"; MAX_LINES - 1].join(", ");
        return format!(
            "UPDATE stock SET s_quantity = v.q, s_ytd = s_ytd + v.y, s_order_cnt = s_order_cnt + v.c, s_remote_cnt = s_remote_cnt + v.r FROM (VALUES {first}, {rest}) AS v (w, i, q, y, c, r) WHERE s_w_id = v.w AND s_i_id = v.i"
        );
    }
    let case = || {
        format!(
            "CASE s_w_id * 1000000 + s_i_id {} END",
            vec!["WHEN ? THEN ?"; MAX_LINES].join(" ")
        )
    };
    format!(
        "UPDATE stock SET s_quantity = {}, s_ytd = s_ytd + {}, s_order_cnt = s_order_cnt + {}, s_remote_cnt = s_remote_cnt + {} WHERE {stock_keys}",
        case(),
        case(),
        case(),
        case()
    )
}

fn placeholders(n: usize, each: &str) -> String {
    vec![each; n].join(", ")
}

impl Statements {
    pub fn prepare(
        conn: &mut dyn Connection,
        engine: SqlFamily,
        names: &Names,
    ) -> DbResult<Statements> {
        let fu = super::super::schema::for_update(engine);
        let returning = engine != SqlFamily::Mysql;
        let mut p = |sql: &str| conn.prepare(&names.sql(sql));
        let customer_warehouse = p("SELECT c_discount, c_last, c_credit, w_tax FROM customer, warehouse WHERE w_id = ? AND c_w_id = w_id AND c_d_id = ? AND c_id = ?")?;
        let (district_next, district_bump) = if returning {
            (
                p("UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = ? AND d_id = ? RETURNING d_next_o_id - 1, d_tax")?,
                None,
            )
        } else {
            (
                p(&format!("SELECT d_next_o_id, d_tax FROM district WHERE d_w_id = ? AND d_id = ?{fu}"))?,
                Some(p("UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = ? AND d_id = ?")?),
            )
        };
        let order_insert = p("INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_ol_cnt, o_all_local) VALUES (?, ?, ?, ?, ?, ?, ?)")?;
        let new_order_insert =
            p("INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES (?, ?, ?)")?;
        let items = p(&format!(
            "SELECT i_id, i_price, i_name, i_data FROM item WHERE i_id IN ({})",
            placeholders(MAX_LINES, "?")
        ))?;
        let stock_keys = match engine {
            // Row values with a list are recent in SQLite: an OR of pairs reads the same rows.
            SqlFamily::Sqlite => vec!["(s_w_id = ? AND s_i_id = ?)"; MAX_LINES].join(" OR "),
            _ => format!(
                "(s_w_id, s_i_id) IN ({})",
                placeholders(MAX_LINES, "(?, ?)")
            ),
        };
        let stock = p(&format!(
            "SELECT s_w_id, s_i_id, s_quantity, s_data, s_dist_01, s_dist_02, s_dist_03, s_dist_04, s_dist_05, s_dist_06, s_dist_07, s_dist_08, s_dist_09, s_dist_10 FROM stock WHERE {stock_keys}{fu}"
        ))?;
        let stock_update = p(&stock_update_sql(engine, &stock_keys))?;

        let (warehouse_pay, warehouse_read) = if returning {
            (p("UPDATE warehouse SET w_ytd = w_ytd + ? WHERE w_id = ? RETURNING w_name, w_street_1, w_street_2, w_city, w_state, w_zip")?, None)
        } else {
            (
                p("UPDATE warehouse SET w_ytd = w_ytd + ? WHERE w_id = ?")?,
                Some(p("SELECT w_name, w_street_1, w_street_2, w_city, w_state, w_zip FROM warehouse WHERE w_id = ?")?),
            )
        };
        let (district_pay, district_read) = if returning {
            (p("UPDATE district SET d_ytd = d_ytd + ? WHERE d_w_id = ? AND d_id = ? RETURNING d_name, d_street_1, d_street_2, d_city, d_state, d_zip")?, None)
        } else {
            (
                p("UPDATE district SET d_ytd = d_ytd + ? WHERE d_w_id = ? AND d_id = ?")?,
                Some(p("SELECT d_name, d_street_1, d_street_2, d_city, d_state, d_zip FROM district WHERE d_w_id = ? AND d_id = ?")?),
            )
        };
        let customer_ids_by_name = p("SELECT c_id FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_last = ? ORDER BY c_first")?;
        let customer_for_payment = p(&format!("SELECT c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, c_phone, c_credit, c_credit_lim, c_discount, c_balance, c_since FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?{fu}"))?;
        let customer_data =
            p("SELECT c_data FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?")?;
        let customer_pay = p("UPDATE customer SET c_balance = c_balance - ?, c_ytd_payment = c_ytd_payment + ?, c_payment_cnt = c_payment_cnt + 1 WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?")?;
        let customer_pay_bc = p("UPDATE customer SET c_balance = c_balance - ?, c_ytd_payment = c_ytd_payment + ?, c_payment_cnt = c_payment_cnt + 1, c_data = ? WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?")?;
        let history_insert = p("INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")?;

        let customer_by_name = p("SELECT c_id, c_balance, c_first, c_middle, c_last FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_last = ? ORDER BY c_first")?;
        let customer_by_id = p("SELECT c_balance, c_first, c_middle, c_last FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?")?;
        let last_order = p("SELECT o_id, o_entry_d, o_carrier_id FROM orders WHERE o_w_id = ? AND o_d_id = ? AND o_c_id = ? ORDER BY o_id DESC LIMIT 1")?;
        let order_lines = p("SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d FROM order_line WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?")?;

        let oldest_new_order = p(&format!("SELECT no_o_id FROM new_order WHERE no_w_id = ? AND no_d_id = ? ORDER BY no_o_id LIMIT 1{fu}"))?;
        let new_order_delete =
            p("DELETE FROM new_order WHERE no_w_id = ? AND no_d_id = ? AND no_o_id = ?")?;
        let (order_carrier, order_customer) = if returning {
            (p("UPDATE orders SET o_carrier_id = ? WHERE o_w_id = ? AND o_d_id = ? AND o_id = ? RETURNING o_c_id")?, None)
        } else {
            (
                p("UPDATE orders SET o_carrier_id = ? WHERE o_w_id = ? AND o_d_id = ? AND o_id = ?")?,
                Some(p("SELECT o_c_id FROM orders WHERE o_w_id = ? AND o_d_id = ? AND o_id = ?")?),
            )
        };
        let (lines_deliver, lines_sum) = if returning {
            (p("UPDATE order_line SET ol_delivery_d = ? WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ? RETURNING ol_amount")?, None)
        } else {
            (
                p("UPDATE order_line SET ol_delivery_d = ? WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?")?,
                Some(p("SELECT SUM(ol_amount) FROM order_line WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?")?),
            )
        };
        let customer_deliver = p("UPDATE customer SET c_balance = c_balance + ?, c_delivery_cnt = c_delivery_cnt + 1 WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?")?;

        let district_next_read =
            p("SELECT d_next_o_id FROM district WHERE d_w_id = ? AND d_id = ?")?;
        let low_stock = p("SELECT COUNT(DISTINCT s_i_id) FROM order_line, stock WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id < ? AND ol_o_id >= ? AND s_w_id = ? AND s_i_id = ol_i_id AND s_quantity < ?")?;
        Ok(Statements {
            engine,
            names: names.clone(),
            begin_write: if engine == SqlFamily::Sqlite {
                "BEGIN IMMEDIATE"
            } else {
                "BEGIN"
            },
            begin_read: "BEGIN",
            customer_warehouse,
            district_next,
            district_bump,
            order_insert,
            new_order_insert,
            items,
            stock,
            stock_update,
            lines_insert: [None; MAX_LINES],
            warehouse_pay,
            warehouse_read,
            district_pay,
            district_read,
            customer_ids_by_name,
            customer_for_payment,
            customer_data,
            customer_pay,
            customer_pay_bc,
            history_insert,
            customer_by_name,
            customer_by_id,
            last_order,
            order_lines,
            oldest_new_order,
            new_order_delete,
            order_carrier,
            order_customer,
            lines_deliver,
            lines_sum,
            customer_deliver,
            district_next_read,
            low_stock,
        })
    }

    /// The INSERT of `n` order lines, prepared on first use.
    pub fn lines_insert(&mut self, conn: &mut dyn Connection, n: usize) -> DbResult<StmtHandle> {
        if let Some(s) = self.lines_insert[n - 1] {
            return Ok(s);
        }
        let sql = format!(
            "INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_dist_info) VALUES {}",
            placeholders(n, "(?, ?, ?, ?, ?, ?, ?, ?, ?)")
        );
        let s = conn.prepare(&self.names.sql(&sql))?;
        self.lines_insert[n - 1] = Some(s);
        Ok(s)
    }
}
