//! The OLTP workloads' options, as typed keys: each name and the values it takes (their rows,
//! with defaults and help, are in `options.rs`).

dbpress_core::option_keys! {
    /// The statements of each kind an event sends (0 to 1 000 000 each).
    POINT_SELECTS: IntOpt("point-selects", 0, 1_000_000),
    SIMPLE_RANGES: IntOpt("simple-ranges", 0, 1_000_000),
    SUM_RANGES: IntOpt("sum-ranges", 0, 1_000_000),
    ORDER_RANGES: IntOpt("order-ranges", 0, 1_000_000),
    DISTINCT_RANGES: IntOpt("distinct-ranges", 0, 1_000_000),
    INDEX_UPDATES: IntOpt("index-updates", 0, 1_000_000),
    NON_INDEX_UPDATES: IntOpt("non-index-updates", 0, 1_000_000),
    DELETE_INSERTS: IntOpt("delete-inserts", 0, 1_000_000),
    DELTA: IntOpt("delta", 0, 1_000_000),
    RANDOM_POINTS: IntOpt("random-points", 1, 65_535),
    NUMBER_OF_RANGES: IntOpt("number-of-ranges", 1, 30_000),
    RECONNECT: IntOpt("reconnect", 0, u64::MAX),
    TABLES: IntOpt("tables", 1, 100_000),
    TABLE_SIZE: IntOpt("table-size", 1, (u32::MAX / 2) as u64),
    RANGE_SIZE: IntOpt("range-size", 1, 1_000_000),
    RANGE_SELECTS: BoolOpt("range-selects"),
    SKIP_TRX: BoolOpt("skip-trx"),
    AUTO_INC: BoolOpt("auto-inc"),
    SECONDARY: BoolOpt("secondary"),
    CREATE_SECONDARY: BoolOpt("create-secondary"),
    PREPARE_FAST: BoolOpt("prepare-fast"),
    NO_VACUUM: BoolOpt("no-vacuum"),
    OLTP_TEST_MODE: TextOpt("oltp-test-mode"),
    REINSERT_ID: TextOpt("reinsert-id"),
    CREATE_TABLE_OPTIONS: TextOpt("create-table-options"),
    /// Read by the workloads that create tables (OLTP, TPC-C).
    MYSQL_STORAGE_ENGINE: TextOpt("mysql-storage-engine"),
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_key_is_in_the_option_table_as_its_kind() {
        dbpress_core::options::keys::check_in_table(&crate::registry::options(), super::ALL)
            .unwrap();
    }
}
