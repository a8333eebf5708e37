//! tpcc-mysql's 35 statements, word for word, prepared on every session in its order (S0–S34;
//! S13 and S20 are the same text prepared twice, as tpcc-mysql prepares them), so the server
//! counts what it counts for tpcc-mysql: a COM_STMT_PREPARE each per session, a
//! COM_STMT_EXECUTE and the statement's own Com_* per execution.

use dbpress_driver::{Connection, DbResult, StmtHandle};

/// The statements' texts, in tpcc-mysql's order.
pub const SQL: [&str; 35] = [
    // New-Order
    "SELECT c_discount, c_last, c_credit, w_tax FROM customer, warehouse WHERE w_id = ? AND c_w_id = w_id AND c_d_id = ? AND c_id = ?",
    "SELECT d_next_o_id, d_tax FROM district WHERE d_id = ? AND d_w_id = ? FOR UPDATE",
    "UPDATE district SET d_next_o_id = ? + 1 WHERE d_id = ? AND d_w_id = ?",
    "INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_ol_cnt, o_all_local) VALUES(?, ?, ?, ?, ?, ?, ?)",
    "INSERT INTO new_orders (no_o_id, no_d_id, no_w_id) VALUES (?,?,?)",
    "SELECT i_price, i_name, i_data FROM item WHERE i_id = ?",
    "SELECT s_quantity, s_data, s_dist_01, s_dist_02, s_dist_03, s_dist_04, s_dist_05, s_dist_06, s_dist_07, s_dist_08, s_dist_09, s_dist_10 FROM stock WHERE s_i_id = ? AND s_w_id = ? FOR UPDATE",
    "UPDATE stock SET s_quantity = ? WHERE s_i_id = ? AND s_w_id = ?",
    "INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_dist_info) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
    // Payment
    "UPDATE warehouse SET w_ytd = w_ytd + ? WHERE w_id = ?",
    "SELECT w_street_1, w_street_2, w_city, w_state, w_zip, w_name FROM warehouse WHERE w_id = ?",
    "UPDATE district SET d_ytd = d_ytd + ? WHERE d_w_id = ? AND d_id = ?",
    "SELECT d_street_1, d_street_2, d_city, d_state, d_zip, d_name FROM district WHERE d_w_id = ? AND d_id = ?",
    "SELECT count(c_id) FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_last = ?",
    "SELECT c_id FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_last = ? ORDER BY c_first",
    "SELECT c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, c_phone, c_credit, c_credit_lim, c_discount, c_balance, c_since FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ? FOR UPDATE",
    "SELECT c_data FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?",
    "UPDATE customer SET c_balance = ?, c_data = ? WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?",
    "UPDATE customer SET c_balance = ? WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?",
    "INSERT INTO history(h_c_d_id, h_c_w_id, h_c_id, h_d_id, h_w_id, h_date, h_amount, h_data) VALUES(?, ?, ?, ?, ?, ?, ?, ?)",
    // Order-Status
    "SELECT count(c_id) FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_last = ?",
    "SELECT c_balance, c_first, c_middle, c_last FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_last = ? ORDER BY c_first",
    "SELECT c_balance, c_first, c_middle, c_last FROM customer WHERE c_w_id = ? AND c_d_id = ? AND c_id = ?",
    "SELECT o_id, o_entry_d, COALESCE(o_carrier_id,0) FROM orders WHERE o_w_id = ? AND o_d_id = ? AND o_c_id = ? AND o_id = (SELECT MAX(o_id) FROM orders WHERE o_w_id = ? AND o_d_id = ? AND o_c_id = ?)",
    "SELECT ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_delivery_d FROM order_line WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id = ?",
    // Delivery
    "SELECT COALESCE(MIN(no_o_id),0) FROM new_orders WHERE no_d_id = ? AND no_w_id = ?",
    "DELETE FROM new_orders WHERE no_o_id = ? AND no_d_id = ? AND no_w_id = ?",
    "SELECT o_c_id FROM orders WHERE o_id = ? AND o_d_id = ? AND o_w_id = ?",
    "UPDATE orders SET o_carrier_id = ? WHERE o_id = ? AND o_d_id = ? AND o_w_id = ?",
    "UPDATE order_line SET ol_delivery_d = ? WHERE ol_o_id = ? AND ol_d_id = ? AND ol_w_id = ?",
    "SELECT SUM(ol_amount) FROM order_line WHERE ol_o_id = ? AND ol_d_id = ? AND ol_w_id = ?",
    "UPDATE customer SET c_balance = c_balance + ? , c_delivery_cnt = c_delivery_cnt + 1 WHERE c_id = ? AND c_d_id = ? AND c_w_id = ?",
    // Stock-Level
    "SELECT d_next_o_id FROM district WHERE d_id = ? AND d_w_id = ?",
    "SELECT DISTINCT ol_i_id FROM order_line WHERE ol_w_id = ? AND ol_d_id = ? AND ol_o_id < ? AND ol_o_id >= (? - 20)",
    "SELECT count(*) FROM stock WHERE s_w_id = ? AND s_i_id = ? AND s_quantity < ?",
];

/// Statement kinds: the five transactions (their whole time), COMMIT and ROLLBACK, then S0–S34.
pub const KIND_NAMES: [&str; 42] = [
    "New-Order",
    "Payment",
    "Order-Status",
    "Delivery",
    "Stock-Level",
    "COMMIT",
    "ROLLBACK",
    "S0 customer, warehouse",
    "S1 district for update",
    "S2 district next order",
    "S3 orders insert",
    "S4 new_orders insert",
    "S5 item",
    "S6 stock for update",
    "S7 stock update",
    "S8 order_line insert",
    "S9 warehouse ytd",
    "S10 warehouse",
    "S11 district ytd",
    "S12 district",
    "S13 customers by name, count",
    "S14 customers by name",
    "S15 customer for update",
    "S16 customer data",
    "S17 customer balance, data",
    "S18 customer balance",
    "S19 history insert",
    "S20 customers by name, count",
    "S21 customers by name",
    "S22 customer",
    "S23 last order",
    "S24 order lines",
    "S25 oldest new order",
    "S26 new_orders delete",
    "S27 order's customer",
    "S28 orders carrier",
    "S29 order_line delivered",
    "S30 order's amount",
    "S31 customer delivered",
    "S32 district next order",
    "S33 recent items",
    "S34 stock below",
];

pub const COMMIT: u8 = 5;
pub const ROLLBACK: u8 = 6;

/// Statement `s`'s kind.
pub const fn kind(s: usize) -> u8 {
    7 + s as u8
}

/// One session's prepared statements, S0–S34.
pub struct PeerStatements(pub [StmtHandle; 35]);

impl PeerStatements {
    pub fn prepare(conn: &mut dyn Connection) -> DbResult<PeerStatements> {
        let mut out = [StmtHandle(0); 35];
        for (h, sql) in out.iter_mut().zip(SQL) {
            *h = conn.prepare(sql)?;
        }
        Ok(PeerStatements(out))
    }
}
