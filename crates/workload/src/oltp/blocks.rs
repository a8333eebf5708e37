//! Which rows each prepare thread loads next.
//!
//! Tables are cut into blocks of rows; a thread keeps to one table while it has blocks left and
//! then takes a table nobody is loading, so with at least as many tables as threads each table is
//! loaded by one session, as sysbench does: two sessions inserting into one table contend for its
//! B-tree's latches and pages. Only when every table already has a loader does a free thread
//! help the table with the most rows left, so `--threads` still speeds up a prepare of fewer
//! tables than threads.

use std::sync::Mutex;

/// Rows per unit of loading work.
pub const BLOCK_ROWS: u32 = 50_000;

/// One block of rows to load: table `t`, ids `first..=last`, the block's index in the table
/// (which seeds its rows, so any number of threads makes the same data).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Block {
    pub t: u32,
    pub first: u32,
    pub last: u32,
    pub index: u32,
}

struct Table {
    rows: u32,
    /// Blocks handed out so far.
    claimed: u32,
    blocks: u32,
    /// Threads whose current table this is.
    loaders: u32,
}

pub struct BlockQueue {
    tables: Mutex<Vec<Table>>,
}

impl BlockQueue {
    /// Tables 1..=`tables` of `rows` rows each.
    pub fn new(tables: u32, rows: u32) -> BlockQueue {
        BlockQueue {
            tables: Mutex::new(
                (0..tables)
                    .map(|_| Table {
                        rows,
                        claimed: 0,
                        blocks: rows.div_ceil(BLOCK_ROWS),
                        loaders: 0,
                    })
                    .collect(),
            ),
        }
    }

    /// How many blocks table `t` has.
    pub fn blocks_in(&self, t: u32) -> u32 {
        self.lock()[t as usize - 1].blocks
    }

    /// The next block for a thread whose last block was from table `current` (None at first);
    /// None when every block is handed out.
    pub fn claim(&self, current: Option<u32>) -> Option<Block> {
        let mut tables = self.lock();
        let left = |t: &Table| t.blocks - t.claimed;
        let t = match current.filter(|&c| left(&tables[c as usize - 1]) > 0) {
            Some(c) => c as usize - 1,
            None => {
                let free = tables.iter().position(|t| left(t) > 0 && t.loaders == 0);
                let busiest = || {
                    (0..tables.len())
                        .filter(|&i| left(&tables[i]) > 0)
                        .max_by_key(|&i| (left(&tables[i]), std::cmp::Reverse(i)))
                };
                let next = free.or_else(busiest);
                if let Some(c) = current {
                    let old = &mut tables[c as usize - 1].loaders;
                    *old = old.saturating_sub(1);
                }
                let next = next?;
                tables[next].loaders += 1;
                next
            }
        };
        let table = &mut tables[t];
        let index = table.claimed;
        table.claimed += 1;
        let first = index * BLOCK_ROWS + 1;
        Some(Block {
            t: t as u32 + 1,
            first,
            last: first.saturating_add(BLOCK_ROWS - 1).min(table.rows),
            index,
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Table>> {
        self.tables.lock().unwrap_or_else(|p| p.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Run `threads` claimers in turn until the queue is empty; the tables each one loaded.
    fn tables_per_thread(q: &BlockQueue, threads: usize) -> Vec<Vec<u32>> {
        let mut current = vec![None; threads];
        let mut seen = vec![Vec::new(); threads];
        let mut done = vec![false; threads];
        while done.iter().any(|d| !d) {
            for i in 0..threads {
                if done[i] {
                    continue;
                }
                match q.claim(current[i]) {
                    Some(b) => {
                        current[i] = Some(b.t);
                        if seen[i].last() != Some(&b.t) {
                            seen[i].push(b.t);
                        }
                    }
                    // A thread stops at its first None, as prepare's do.
                    None => done[i] = true,
                }
            }
        }
        seen
    }

    #[test]
    fn with_enough_tables_each_table_has_one_loader() {
        let q = BlockQueue::new(8, 250_000);
        let seen = tables_per_thread(&q, 2);
        assert_eq!(seen, vec![vec![1, 3, 5, 7], vec![2, 4, 6, 8]]);
    }

    #[test]
    fn with_fewer_tables_than_threads_they_share_a_table() {
        let q = BlockQueue::new(1, 200_000);
        let seen = tables_per_thread(&q, 3);
        assert_eq!(seen, vec![vec![1], vec![1], vec![1]]);
    }

    #[test]
    fn every_row_is_handed_out_once_in_blocks() {
        let q = BlockQueue::new(3, 120_001);
        let mut got = Vec::new();
        let mut current = None;
        while let Some(b) = q.claim(current) {
            current = Some(b.t);
            got.push(b);
        }
        for t in 1..=3 {
            let mut mine: Vec<_> = got.iter().filter(|b| b.t == t).collect();
            mine.sort_by_key(|b| b.first);
            assert_eq!(mine.len() as u32, q.blocks_in(t));
            assert_eq!(mine[0].first, 1);
            assert_eq!(mine.last().unwrap().last, 120_001);
            for (i, w) in mine.windows(2).enumerate() {
                assert_eq!(w[0].last + 1, w[1].first);
                assert_eq!(w[0].index as usize, i);
            }
        }
    }

    #[test]
    fn an_empty_table_has_no_blocks() {
        let q = BlockQueue::new(2, 0);
        assert_eq!(q.blocks_in(1), 0);
        assert_eq!(q.claim(None), None);
    }
}
