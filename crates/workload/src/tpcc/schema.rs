//! The nine tables with the spec's names (clause 1.3; `orders` because ORDER is reserved, and
//! `new_order`, as go-tpc names it), per engine: their CREATE TABLEs, the secondary indexes the
//! transactions need, the optional foreign keys, and the bookkeeping table that says what was
//! loaded. Every statement is written with the spec's names and renamed per table set (`Names`).

use super::names::Names;
use dbpress_driver::SqlFamily;

/// A column of date and time, in the engine's type.
fn datetime(e: SqlFamily) -> &'static str {
    match e {
        SqlFamily::Mysql => "DATETIME",
        SqlFamily::Postgres => "TIMESTAMP",
        SqlFamily::Sqlite => "TEXT",
    }
}

/// Row locking on a read that precedes a write of the same row; SQLite's transaction already
/// holds the database's write lock (BEGIN IMMEDIATE).
pub fn for_update(e: SqlFamily) -> &'static str {
    match e {
        SqlFamily::Sqlite => "",
        _ => " FOR UPDATE",
    }
}

/// Clustered on the primary key: InnoDB always is; SQLite when WITHOUT ROWID.
fn table_suffix(e: SqlFamily, mysql_engine: &str) -> String {
    match e {
        SqlFamily::Mysql => format!(" ENGINE={mysql_engine}"),
        SqlFamily::Postgres => String::new(),
        SqlFamily::Sqlite => " WITHOUT ROWID".into(),
    }
}

/// The nine tables, loading order.
pub const TABLES: [&str; 9] = [
    "item",
    "warehouse",
    "district",
    "customer",
    "history",
    "orders",
    "new_order",
    "order_line",
    "stock",
];

/// The bookkeeping table: one row saying how many warehouses were loaded, with which NURand
/// constants, and whether the load finished.
/// Districts per warehouse (clause 1.2.1's cardinality).
pub const DISTRICTS_PER_WAREHOUSE: u32 = 10;

pub const META: &str = "tpcc_meta";

/// CREATE TABLE statements, primary keys included (loading in key order keeps them cheap);
/// `force_pk` gives HISTORY an auto-increment `id` key (sysbench-tpcc's --force_pk).
pub fn create_tables(
    e: SqlFamily,
    mysql_engine: &str,
    force_pk: bool,
    names: &Names,
) -> Vec<String> {
    let dt = datetime(e);
    let end = table_suffix(e, mysql_engine);
    let history_key = match (force_pk, e) {
        (false, _) => "",
        (true, SqlFamily::Mysql) => "id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, ",
        (true, SqlFamily::Postgres) => "id SERIAL PRIMARY KEY, ",
        (true, SqlFamily::Sqlite) => "id INTEGER PRIMARY KEY, ",
    };
    // History has no key in the spec; SQLite needs its rowid there.
    let history_end = match e {
        SqlFamily::Sqlite => String::new(),
        _ => end.clone(),
    };
    [
        format!(
            "CREATE TABLE item (i_id INT NOT NULL, i_im_id INT, i_name VARCHAR(24), \
             i_price DECIMAL(5,2), i_data VARCHAR(50), PRIMARY KEY (i_id)){end}"
        ),
        format!(
            "CREATE TABLE warehouse (w_id INT NOT NULL, w_name VARCHAR(10), \
             w_street_1 VARCHAR(20), w_street_2 VARCHAR(20), w_city VARCHAR(20), \
             w_state CHAR(2), w_zip CHAR(9), w_tax DECIMAL(4,4), w_ytd DECIMAL(12,2), \
             PRIMARY KEY (w_id)){end}"
        ),
        format!(
            "CREATE TABLE district (d_id INT NOT NULL, d_w_id INT NOT NULL, \
             d_name VARCHAR(10), d_street_1 VARCHAR(20), d_street_2 VARCHAR(20), \
             d_city VARCHAR(20), d_state CHAR(2), d_zip CHAR(9), d_tax DECIMAL(4,4), \
             d_ytd DECIMAL(12,2), d_next_o_id INT, PRIMARY KEY (d_w_id, d_id)){end}"
        ),
        format!(
            "CREATE TABLE customer (c_id INT NOT NULL, c_d_id INT NOT NULL, \
             c_w_id INT NOT NULL, c_first VARCHAR(16), c_middle CHAR(2), c_last VARCHAR(16), \
             c_street_1 VARCHAR(20), c_street_2 VARCHAR(20), c_city VARCHAR(20), \
             c_state CHAR(2), c_zip CHAR(9), c_phone CHAR(16), c_since {dt}, \
             c_credit CHAR(2), c_credit_lim DECIMAL(12,2), c_discount DECIMAL(4,4), \
             c_balance DECIMAL(12,2), c_ytd_payment DECIMAL(12,2), c_payment_cnt INT, \
             c_delivery_cnt INT, c_data VARCHAR(500), PRIMARY KEY (c_w_id, c_d_id, c_id)){end}"
        ),
        format!(
            "CREATE TABLE history ({history_key}h_c_id INT, h_c_d_id INT, h_c_w_id INT, h_d_id INT, \
             h_w_id INT, h_date {dt}, h_amount DECIMAL(6,2), h_data VARCHAR(24)){history_end}"
        ),
        format!(
            "CREATE TABLE orders (o_id INT NOT NULL, o_d_id INT NOT NULL, o_w_id INT NOT NULL, \
             o_c_id INT, o_entry_d {dt}, o_carrier_id INT, o_ol_cnt INT, o_all_local INT, \
             PRIMARY KEY (o_w_id, o_d_id, o_id)){end}"
        ),
        format!(
            "CREATE TABLE new_order (no_o_id INT NOT NULL, no_d_id INT NOT NULL, \
             no_w_id INT NOT NULL, PRIMARY KEY (no_w_id, no_d_id, no_o_id)){end}"
        ),
        format!(
            "CREATE TABLE order_line (ol_o_id INT NOT NULL, ol_d_id INT NOT NULL, \
             ol_w_id INT NOT NULL, ol_number INT NOT NULL, ol_i_id INT, ol_supply_w_id INT, \
             ol_delivery_d {dt}, ol_quantity INT, ol_amount DECIMAL(6,2), \
             ol_dist_info CHAR(24), PRIMARY KEY (ol_w_id, ol_d_id, ol_o_id, ol_number)){end}"
        ),
        format!(
            "CREATE TABLE stock (s_i_id INT NOT NULL, s_w_id INT NOT NULL, s_quantity INT, \
             s_dist_01 CHAR(24), s_dist_02 CHAR(24), s_dist_03 CHAR(24), s_dist_04 CHAR(24), \
             s_dist_05 CHAR(24), s_dist_06 CHAR(24), s_dist_07 CHAR(24), s_dist_08 CHAR(24), \
             s_dist_09 CHAR(24), s_dist_10 CHAR(24), s_ytd INT, s_order_cnt INT, \
             s_remote_cnt INT, s_data VARCHAR(50), PRIMARY KEY (s_w_id, s_i_id)){end}"
        ),
    ]
    .iter()
    .map(|sql| names.sql(sql))
    .collect()
}

/// `sets`: 0 for the spec's names, N for sysbench-tpcc's `--tables=N`.
pub fn create_meta() -> String {
    format!(
        "CREATE TABLE {META} (warehouses INT NOT NULL, c_last INT NOT NULL, c_id INT NOT NULL, \
         ol_i_id INT NOT NULL, state VARCHAR(16) NOT NULL, loaded_at VARCHAR(32), sets INT NOT NULL)"
    )
}

/// The secondary indexes Payment and Order-Status need (by last name; a customer's latest
/// order), built after the data.
pub fn create_indexes(names: &Names) -> Vec<String> {
    [
        "CREATE INDEX idx_customer ON customer (c_w_id, c_d_id, c_last, c_first)",
        "CREATE INDEX idx_orders ON orders (o_w_id, o_d_id, o_c_id, o_id)",
    ]
    .iter()
    .map(|sql| names.sql(sql))
    .collect()
}

/// The ten foreign keys of clause 1.3 and the indexes their child columns need, for
/// `--use-fk` (MySQL and PostgreSQL; SQLite cannot add a constraint to a table).
pub fn create_foreign_keys(names: &Names) -> Vec<String> {
    let fk = |name: &str, t: &str, cols: &str, parent: &str, pcols: &str| {
        format!("ALTER TABLE {t} ADD CONSTRAINT {name} FOREIGN KEY ({cols}) REFERENCES {parent} ({pcols})")
    };
    vec![
        "CREATE INDEX ifkey_stock_2 ON stock (s_i_id)".into(),
        "CREATE INDEX ifkey_order_line_2 ON order_line (ol_supply_w_id, ol_i_id)".into(),
        "CREATE INDEX ifkey_history_1 ON history (h_c_w_id, h_c_d_id, h_c_id)".into(),
        "CREATE INDEX ifkey_history_2 ON history (h_w_id, h_d_id)".into(),
        fk("fkey_district_1", "district", "d_w_id", "warehouse", "w_id"),
        fk(
            "fkey_customer_1",
            "customer",
            "c_w_id, c_d_id",
            "district",
            "d_w_id, d_id",
        ),
        fk(
            "fkey_history_1",
            "history",
            "h_c_w_id, h_c_d_id, h_c_id",
            "customer",
            "c_w_id, c_d_id, c_id",
        ),
        fk(
            "fkey_history_2",
            "history",
            "h_w_id, h_d_id",
            "district",
            "d_w_id, d_id",
        ),
        fk(
            "fkey_new_order_1",
            "new_order",
            "no_w_id, no_d_id, no_o_id",
            "orders",
            "o_w_id, o_d_id, o_id",
        ),
        fk(
            "fkey_orders_1",
            "orders",
            "o_w_id, o_d_id, o_c_id",
            "customer",
            "c_w_id, c_d_id, c_id",
        ),
        fk(
            "fkey_order_line_1",
            "order_line",
            "ol_w_id, ol_d_id, ol_o_id",
            "orders",
            "o_w_id, o_d_id, o_id",
        ),
        fk(
            "fkey_order_line_2",
            "order_line",
            "ol_supply_w_id, ol_i_id",
            "stock",
            "s_w_id, s_i_id",
        ),
        fk("fkey_stock_1", "stock", "s_w_id", "warehouse", "w_id"),
        fk("fkey_stock_2", "stock", "s_i_id", "item", "i_id"),
    ]
    .iter()
    .map(|sql| names.sql(sql))
    .collect()
}

/// DROP statements of a set's tables, children first so foreign keys never stand in the way
/// (the bookkeeping table goes with the last set: `drop_meta`).
pub fn drop_tables(names: &Names) -> Vec<String> {
    let order: Vec<&str> = vec![
        "new_order",
        "order_line",
        "history",
        "orders",
        "customer",
        "district",
        "stock",
        "item",
        "warehouse",
    ];
    order
        .into_iter()
        .map(|t| names.sql(&format!("DROP TABLE IF EXISTS {t}")))
        .collect()
}

pub fn drop_meta() -> String {
    format!("DROP TABLE IF EXISTS {META}")
}
