//! The tests of the machine's options, as typed keys (their rows are in `options.rs`).

dbpress_core::option_keys! {
    CPU_MAX_PRIME: IntOpt("cpu-max-prime", 3, 1_000_000_000),
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_key_is_in_the_option_table_as_its_kind() {
        dbpress_core::options::keys::check_in_table(&crate::registry::options(), super::ALL)
            .unwrap();
    }
}
