//! The grid of a plan — targets × settings sets × workloads × thread levels × repeats — and the
//! order its cells run in.

use crate::plan::{ExperimentPlan, Order};

/// One run of the experiment: indexes into the plan's lists, a thread level and a repeat (from 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cell {
    pub target: usize,
    pub settings: usize,
    pub workload: usize,
    pub threads: u32,
    pub repeat: u32,
}

impl Cell {
    /// The cell's key in the results store.
    pub fn key(&self, plan: &ExperimentPlan, generation: i64) -> dbpress_store::CellKey {
        dbpress_store::CellKey {
            experiment: plan.name.clone(),
            generation,
            target: plan.targets[self.target].name.clone(),
            settings: plan.settings[self.settings].name.clone(),
            workload: plan.workloads[self.workload].name.clone(),
            threads: self.threads,
            repeat: self.repeat,
        }
    }

    /// "maria · double1 · write · 4 threads · repeat 2"
    pub fn describe(&self, plan: &ExperimentPlan) -> String {
        format!(
            "{} · {} · {} · {} thread{} · repeat {}",
            plan.targets[self.target].name,
            plan.settings[self.settings].name,
            plan.workloads[self.workload].name,
            self.threads,
            if self.threads == 1 { "" } else { "s" },
            self.repeat
        )
    }
}

/// Every cell of the plan, in the order they run.
pub fn cells(plan: &ExperimentPlan) -> Vec<Cell> {
    let mut once = Vec::new();
    for target in 0..plan.targets.len() {
        for settings in 0..plan.settings.len() {
            for workload in 0..plan.workloads.len() {
                for &threads in &plan.threads {
                    once.push(Cell {
                        target,
                        settings,
                        workload,
                        threads,
                        repeat: 0,
                    });
                }
            }
        }
    }
    let with = |c: &Cell, repeat| Cell { repeat, ..*c };
    let repeats = 1..=plan.repeats;
    match plan.order {
        Order::Interleaved => repeats
            .flat_map(|r| once.iter().map(move |c| with(c, r)))
            .collect(),
        Order::Sequential => once
            .iter()
            .flat_map(|c| repeats.clone().map(move |r| with(c, r)))
            .collect(),
        Order::Shuffled => {
            let mut all: Vec<Cell> = once
                .iter()
                .flat_map(|c| repeats.clone().map(move |r| with(c, r)))
                .collect();
            shuffle(&mut all, plan.seed);
            all
        }
    }
}

/// Fisher–Yates with SplitMix64: the same seed gives the same order on every machine.
fn shuffle<T>(v: &mut [T], seed: u64) {
    let mut state = seed;
    let mut next = || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    for i in (1..v.len()).rev() {
        let j = (next() % (i as u64 + 1)) as usize;
        v.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn plan(order: &str) -> ExperimentPlan {
        let text = format!(
            r#"
[run]
threads = [1, 2]
repeats = 2
order = "{order}"
seed = 7
[[target]]
name = "a"
db = "sqlite:a.db"
[[settings]]
name = "s1"
[[settings]]
name = "s2"
[[workload]]
name = "w"
command = "oltp_point_select"
"#
        );
        ExperimentPlan::parse(Path::new("p.toml"), &text).unwrap()
    }

    #[test]
    fn interleaved_runs_every_cell_once_before_any_twice() {
        let p = plan("interleaved");
        let c = cells(&p);
        assert_eq!(c.len(), 8);
        assert!(c[..4].iter().all(|c| c.repeat == 1));
        assert!(c[4..].iter().all(|c| c.repeat == 2));
        assert_eq!(c[0].describe(&p), "a · s1 · w · 1 thread · repeat 1");
    }

    #[test]
    fn sequential_runs_a_cells_repeats_together_and_shuffled_is_a_seeded_permutation() {
        let c = cells(&plan("sequential"));
        assert_eq!((c[0].repeat, c[1].repeat), (1, 2));
        assert_eq!(c[0].threads, c[1].threads);
        let s1 = cells(&plan("shuffled"));
        let s2 = cells(&plan("shuffled"));
        assert_eq!(s1, s2);
        let mut sorted = s1.clone();
        sorted.sort_by_key(|c| (c.settings, c.threads, c.repeat));
        let mut all = c.clone();
        all.sort_by_key(|c| (c.settings, c.threads, c.repeat));
        assert_eq!(sorted, all);
        assert_ne!(s1, c);
    }
}
