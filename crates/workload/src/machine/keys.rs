//! The tests of the machine's options, as typed keys (their rows are in `options.rs`).

dbpress_core::option_keys! {
    CPU_MAX_PRIME: IntOpt("cpu-max-prime", 3, 1_000_000_000),
    MEMORY_BLOCK_SIZE: TextOpt("memory-block-size"),
    MEMORY_TOTAL_SIZE: TextOpt("memory-total-size"),
    MEMORY_SCOPE: TextOpt("memory-scope"),
    MEMORY_HUGETLB: BoolOpt("memory-hugetlb"),
    MEMORY_OPER: TextOpt("memory-oper"),
    MEMORY_ACCESS_MODE: TextOpt("memory-access-mode"),
    FILE_NUM: IntOpt("file-num", 1, 1_000_000),
    FILE_BLOCK_SIZE: IntOpt("file-block-size", 1, 1 << 30),
    FILE_TOTAL_SIZE: TextOpt("file-total-size"),
    FILE_TEST_MODE: TextOpt("file-test-mode"),
    FILE_IO_MODE: TextOpt("file-io-mode"),
    FILE_ASYNC_BACKLOG: IntOpt("file-async-backlog", 1, 1_000_000),
    FILE_EXTRA_FLAGS: TextOpt("file-extra-flags"),
    FILE_FSYNC_FREQ: IntOpt("file-fsync-freq", 0, u32::MAX as u64),
    FILE_FSYNC_ALL: BoolOpt("file-fsync-all"),
    FILE_FSYNC_END: BoolOpt("file-fsync-end"),
    FILE_FSYNC_MODE: TextOpt("file-fsync-mode"),
    FILE_MERGED_REQUESTS: IntOpt("file-merged-requests", 0, 1_000_000),
    FILE_RW_RATIO: FloatOpt("file-rw-ratio", 0.0, 1e9),
    THREAD_YIELDS: IntOpt("thread-yields", 0, u32::MAX as u64),
    THREAD_LOCKS: IntOpt("thread-locks", 1, 1_000_000),
    MUTEX_NUM: IntOpt("mutex-num", 1, 10_000_000),
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
