//! The order of fileio's requests, which every thread takes from one plan: the sequential
//! modes walk the files block by block from the first (and around again), the random ones
//! draw a file and a block in it; a combined random test keeps reads to writes at
//! `--file-rw-ratio`; after each `--file-fsync-freq` requests of a test that writes, every
//! file is synced, one request a file.

use dbpress_core::rand::Rng;
use std::sync::Mutex;

#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Mode {
    SeqWr,
    SeqRewr,
    SeqRd,
    RndRd,
    RndWr,
    RndRw,
}

impl Mode {
    pub fn named(name: &str) -> Option<Mode> {
        Some(match name {
            "seqwr" => Mode::SeqWr,
            "seqrewr" => Mode::SeqRewr,
            "seqrd" => Mode::SeqRd,
            "rndrd" => Mode::RndRd,
            "rndwr" => Mode::RndWr,
            "rndrw" => Mode::RndRw,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Mode::SeqWr => "seqwr",
            Mode::SeqRewr => "seqrewr",
            Mode::SeqRd => "seqrd",
            Mode::RndRd => "rndrd",
            Mode::RndWr => "rndwr",
            Mode::RndRw => "rndrw",
        }
    }

    /// sysbench's line naming the test.
    pub fn doing(self) -> &'static str {
        match self {
            Mode::SeqWr => "Doing sequential write (creation) test",
            Mode::SeqRewr => "Doing sequential rewrite test",
            Mode::SeqRd => "Doing sequential read test",
            Mode::RndRd => "Doing random read test",
            Mode::RndWr => "Doing random write test",
            Mode::RndRw => "Doing random r/w test",
        }
    }

    pub fn random(self) -> bool {
        matches!(self, Mode::RndRd | Mode::RndWr | Mode::RndRw)
    }

    pub fn writes(self) -> bool {
        !matches!(self, Mode::SeqRd | Mode::RndRd)
    }
}

#[derive(Clone, Copy, PartialEq, Debug)]
pub enum Op {
    Read,
    Write,
    Sync,
}

/// One request: what, on which file, where and how many bytes (0 for a sync).
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Request {
    pub op: Op,
    pub file: usize,
    pub offset: u64,
    pub len: u64,
}

/// What the plan is made of.
#[derive(Clone, Copy)]
pub struct Shape {
    pub mode: Mode,
    pub files: usize,
    pub file_size: u64,
    pub block: u64,
    /// Blocks a sequential request may merge (`--file-merged-requests`; 0 or 1: one block).
    pub merged: u64,
    pub fsync_freq: u64,
    pub rw_ratio: f64,
}

pub struct Plan {
    shape: Shape,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    /// The sequential modes' next block.
    file: usize,
    offset: u64,
    /// IO requests handed out, for the periodic syncs.
    requests: u64,
    /// Files left to sync in the current round (the next is `files - left`).
    syncs_left: usize,
    reads: u64,
    writes: u64,
}

impl Plan {
    pub fn new(shape: Shape) -> Plan {
        Plan {
            shape,
            state: Mutex::new(State::default()),
        }
    }

    /// The next request; `rng` draws a random test's file and block.
    pub fn next(&self, rng: &mut Rng) -> Request {
        let s = &self.shape;
        let mut st = self.state.lock().unwrap_or_else(|p| p.into_inner());
        if st.syncs_left > 0 {
            let file = s.files - st.syncs_left;
            st.syncs_left -= 1;
            return Request {
                op: Op::Sync,
                file,
                offset: 0,
                len: 0,
            };
        }
        let r = if s.mode.random() {
            let blocks = (s.file_size / s.block).max(1);
            let file = rng.uniform(0, s.files as u32 - 1) as usize;
            let block = rng.next_u64() % blocks;
            let op = match s.mode {
                Mode::RndRd => Op::Read,
                Mode::RndWr => Op::Write,
                // Reads while they are behind the ratio to writes, else a write.
                _ if (st.reads as f64) < s.rw_ratio * st.writes as f64 => Op::Read,
                _ => Op::Write,
            };
            let offset = block * s.block;
            Request {
                op,
                file,
                offset,
                // A file smaller than a block is read and written whole, never past its end.
                len: s.block.min(s.file_size - offset),
            }
        } else {
            let len = (s.block * s.merged.max(1)).min(s.file_size - st.offset);
            let r = Request {
                op: if s.mode.writes() { Op::Write } else { Op::Read },
                file: st.file,
                offset: st.offset,
                len,
            };
            st.offset += len;
            if st.offset >= s.file_size {
                st.offset = 0;
                st.file = (st.file + 1) % s.files;
            }
            r
        };
        match r.op {
            Op::Read => st.reads += 1,
            _ => st.writes += 1,
        }
        st.requests += 1;
        if s.fsync_freq > 0 && s.mode.writes() && st.requests % s.fsync_freq == 0 {
            st.syncs_left = s.files;
        }
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(mode: Mode) -> Shape {
        Shape {
            mode,
            files: 2,
            file_size: 4 * 16,
            block: 16,
            merged: 0,
            fsync_freq: 3,
            rw_ratio: 1.5,
        }
    }

    #[test]
    fn a_sequential_plan_walks_the_files_in_order_and_syncs_each_after_every_few_requests() {
        let plan = Plan::new(shape(Mode::SeqWr));
        let mut rng = Rng::new(1, 0);
        let got: Vec<(Op, usize, u64)> = (0..12)
            .map(|_| plan.next(&mut rng))
            .map(|r| (r.op, r.file, r.offset))
            .collect();
        use Op::*;
        let want = vec![
            (Write, 0, 0),
            (Write, 0, 16),
            (Write, 0, 32),
            (Sync, 0, 0),
            (Sync, 1, 0),
            (Write, 0, 48),
            (Write, 1, 0),
            (Write, 1, 16),
            (Sync, 0, 0),
            (Sync, 1, 0),
            (Write, 1, 32),
            (Write, 1, 48),
        ];
        assert_eq!(got, want);
        // Around again after the last block of the last file; a read test never syncs.
        let plan = Plan::new(shape(Mode::SeqRd));
        let offsets: Vec<(usize, u64)> = (0..9)
            .map(|_| plan.next(&mut rng))
            .map(|r| (r.file, r.offset))
            .collect();
        assert_eq!(offsets[8], (0, 0));
        assert!(offsets.iter().all(|&(f, o)| f < 2 && o < 64));
    }

    #[test]
    fn a_random_request_on_a_file_smaller_than_a_block_stays_inside_it() {
        let plan = Plan::new(Shape {
            file_size: 10,
            ..shape(Mode::RndRw)
        });
        let mut rng = Rng::new(3, 0);
        for _ in 0..50 {
            let r = plan.next(&mut rng);
            assert!(r.op == Op::Sync || (r.offset == 0 && r.len == 10), "{r:?}");
        }
    }

    #[test]
    fn a_combined_random_plan_keeps_reads_to_writes_at_the_ratio_within_the_files() {
        let plan = Plan::new(Shape {
            fsync_freq: 0,
            ..shape(Mode::RndRw)
        });
        let mut rng = Rng::new(7, 0);
        let (mut reads, mut writes) = (0, 0);
        for _ in 0..1000 {
            let r = plan.next(&mut rng);
            assert!(r.file < 2 && r.offset < 64 && r.offset % 16 == 0, "{r:?}");
            match r.op {
                Op::Read => reads += 1,
                Op::Write => writes += 1,
                Op::Sync => panic!("no syncs asked"),
            }
        }
        assert_eq!((reads, writes), (600, 400));
    }
}
