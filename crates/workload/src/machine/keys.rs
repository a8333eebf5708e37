//! The tests of the machine's options, as typed keys (their rows are in `options.rs`).

dbpress_core::option_keys! {
    CPU_MAX_PRIME: IntOpt("cpu-max-prime", 3, 1_000_000_000),
    MEMORY_BLOCK_SIZE: TextOpt("memory-block-size"),
    MEMORY_TOTAL_SIZE: TextOpt("memory-total-size"),
    MEMORY_SCOPE: TextOpt("memory-scope"),
    MEMORY_HUGETLB: BoolOpt("memory-hugetlb"),
    MEMORY_OPER: TextOpt("memory-oper"),
    MEMORY_ACCESS_MODE: TextOpt("memory-access-mode"),
    THREAD_YIELDS: IntOpt("thread-yields", 0, u32::MAX as u64),
    THREAD_LOCKS: IntOpt("thread-locks", 1, 1_000_000),
    MUTEX_NUM: IntOpt("mutex-num", 1, 100_000_000),
    MUTEX_LOCKS: IntOpt("mutex-locks", 0, u32::MAX as u64),
    MUTEX_LOOPS: IntOpt("mutex-loops", 0, u32::MAX as u64),
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_key_is_in_the_option_table_as_its_kind() {
        dbpress_core::options::keys::check_in_table(&crate::registry::options(), super::ALL)
            .unwrap();
    }
}
