//! TPC-C's options, as typed keys: each name and the values it takes (their rows, with
//! defaults and help, are in `options.rs`).

dbpress_core::option_keys! {
    /// sysbench-tpcc's table sets (the same option name as OLTP's tables, another range).
    TABLES: IntOpt("tables", 1, 1000),
    WAREHOUSES: IntOpt("warehouses", 1, 100_000),
    MAX_TRIES: IntOpt("max-tries", 1, 1_000_000),
    ENABLE_PURGE: BoolOpt("enable-purge"),
    FORCE_PK: BoolOpt("force-pk"),
    USE_FK: BoolOpt("use-fk"),
    NO_CHECK: BoolOpt("no-check"),
    HOME_WAREHOUSE: TextOpt("home-warehouse"),
    TRX_LEVEL: TextOpt("trx-level"),
    THINK_TIME: TextOpt("think-time"),
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_key_is_in_the_option_table_as_its_kind() {
        dbpress_core::options::keys::check_in_table(&crate::registry::options(), super::ALL)
            .unwrap();
    }
}
