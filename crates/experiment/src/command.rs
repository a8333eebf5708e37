//! The dbpress command lines of a cell: its workload's words, the run (threads, time, warm-up
//! as each grammar spells them), the target's connection options, the plan's own options, and
//! where the result goes. Each runs in a dbpress process of its own, so a cell that fails or
//! crashes ends that cell only.

use crate::cells::Cell;
use crate::plan::{ExperimentPlan, WorkloadKind};
use std::path::Path;

/// The arguments (after the program) of one cell's run, its JSON result written to `output`.
pub fn run_args(plan: &ExperimentPlan, cell: &Cell, output: &Path) -> Vec<String> {
    let w = &plan.workloads[cell.workload];
    let target = &plan.targets[cell.target].args;
    let mut a: Vec<String> = Vec::new();
    match w.kind {
        WorkloadKind::Sysbench => {
            a.push(w.args[0].clone());
            a.push("run".into());
            a.extend_from_slice(&w.args[1..]);
            a.push(format!("--threads={}", cell.threads));
            a.push(format!("--time={}", plan.duration));
            if plan.warmup > 0 {
                a.push(format!("--warmup-time={}", plan.warmup));
            }
            a.push(format!("--report-interval={}", plan.report_interval));
        }
        WorkloadKind::Slap => {
            // mysqlslap runs its --iterations, not for a time.
            a.extend_from_slice(&w.args);
            a.push(format!("--concurrency={}", cell.threads));
        }
        WorkloadKind::Script => {
            a.push("script".into());
            a.push("run".into());
            a.extend_from_slice(&w.args[1..]);
            a.extend(["-c".into(), cell.threads.to_string()]);
            a.extend(["-T".into(), plan.duration.to_string()]);
        }
    }
    a.extend_from_slice(target);
    a.extend_from_slice(&plan.options);
    a.push(format!("--output={}", output.display()));
    a
}

/// A cell's run against the dry-run driver for one event, to check its command line (its
/// workload's options, the plan's `options`) before an experiment starts.
pub fn dry_run_args(plan: &ExperimentPlan, cell: &Cell, output: &Path) -> Vec<String> {
    let target_len = plan.targets[cell.target].args.len();
    let mut a = run_args(plan, cell, output);
    // The target's options sit between the workload's and the plan's: replaced by a dry run.
    let w = &plan.workloads[cell.workload];
    let head = match w.kind {
        WorkloadKind::Sysbench => w.args.len() + 1 + 3 + usize::from(plan.warmup > 0),
        WorkloadKind::Slap => w.args.len() + 1,
        WorkloadKind::Script => w.args.len() + 1 + 4,
    };
    a.splice(
        head..head + target_len,
        ["--mysql-dry-run".to_string(), "--events=1".to_string()],
    );
    a
}

/// A workload's prepare or cleanup (`words`) against a target.
pub fn setup_args(plan: &ExperimentPlan, target: usize, words: &[String]) -> Vec<String> {
    let mut a = words.to_vec();
    a.extend_from_slice(&plan.targets[target].args);
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_grammar_gets_threads_and_time_its_own_way() {
        let plan = ExperimentPlan::parse(
            Path::new("p.toml"),
            r#"
[run]
threads = [8]
duration = 30
warmup = 5
options = ["--percentile=99"]
[[target]]
name = "m"
options = ["--mysql-host=127.0.0.1"]
[[workload]]
name = "rw"
command = "oltp_read_write --tables=2"
[[workload]]
name = "s"
command = "slap --query='SELECT 1'"
[[workload]]
name = "pgb"
command = "script -b select-only"
"#,
        )
        .unwrap();
        let cell = |workload| Cell {
            target: 0,
            settings: 0,
            workload,
            threads: 8,
            repeat: 1,
        };
        let out = Path::new("/tmp/c.json");
        assert_eq!(
            run_args(&plan, &cell(0), out).join(" "),
            "oltp_read_write run --tables=2 --threads=8 --time=30 --warmup-time=5 --report-interval=1 --mysql-host=127.0.0.1 --percentile=99 --output=/tmp/c.json"
        );
        assert_eq!(
            run_args(&plan, &cell(1), out).join(" "),
            "slap --query=SELECT 1 --concurrency=8 --mysql-host=127.0.0.1 --percentile=99 --output=/tmp/c.json"
        );
        assert_eq!(
            run_args(&plan, &cell(2), out).join(" "),
            "script run -b select-only -c 8 -T 30 --mysql-host=127.0.0.1 --percentile=99 --output=/tmp/c.json"
        );
        assert_eq!(
            dry_run_args(&plan, &cell(0), out).join(" "),
            "oltp_read_write run --tables=2 --threads=8 --time=30 --warmup-time=5 --report-interval=1 --mysql-dry-run --events=1 --percentile=99 --output=/tmp/c.json"
        );
        assert_eq!(
            setup_args(&plan, 0, plan.workloads[0].prepare.as_ref().unwrap()).join(" "),
            "oltp_read_write prepare --tables=2 --mysql-host=127.0.0.1"
        );
    }
}
