use super::*;
use crate::cli::parse_workload;
use dbpress_config::Command;

fn first(s: &str) -> RunConfig {
    let args: Vec<String> = s.split_whitespace().map(String::from).collect();
    let (workload, _, opts) = parse_workload(&args).unwrap();
    RunConfig::from_options(&workload, Command::Run, &opts).unwrap()
}

fn argv(s: &str) -> Vec<String> {
    s.split_whitespace().map(String::from).collect()
}

#[test]
fn levels_never_reached_get_rows_per_engine_with_the_reason() {
    let cfg = first("oltp_point_select run --mysql-dry-run");
    let mut sweep = Sweep::new(&cfg, &argv("slap -c 1,2"), &[1, 2])
        .per_engine(vec![Some("innodb".into()), Some("memory".into())])
        .ending(Ending::Rounds { shown: true });
    sweep.missed(1, Some("innodb"), "no room");
    sweep.missed(2, Some("innodb"), "no room");
    assert_eq!(
        sweep.not_reached(),
        [
            (Some("memory".to_string()), 1),
            (Some("memory".to_string()), 2)
        ]
    );
    let doc = sweep.document(Some("SIGINT"));
    assert_eq!(
        (doc.kind.as_str(), doc.workload.as_str()),
        ("sweep", "oltp_point_select")
    );
    assert_eq!(doc.levels, [1, 2]);
    assert_eq!(doc.steps.len(), 2);
    assert_eq!(doc.steps[1].error.as_deref(), Some("no room"));
    let rows: Vec<(u32, Option<&str>, Option<&str>)> = doc
        .table
        .iter()
        .map(|r| (r.threads, r.engine.as_deref(), r.note.as_deref()))
        .collect();
    assert_eq!(rows.len(), 4);
    assert_eq!(
        rows[2..],
        [
            (
                1,
                Some("memory"),
                Some("not run: the sweep was interrupted by SIGINT")
            ),
            (
                2,
                Some("memory"),
                Some("not run: the sweep was interrupted by SIGINT")
            ),
        ]
    );
}

#[test]
fn a_thread_sweep_lists_the_levels_after_the_last_step() {
    let cfg = first("oltp_point_select run --mysql-dry-run");
    let mut sweep = Sweep::new(
        &cfg,
        &argv("oltp_point_select run --threads=1,2,4"),
        &[1, 2, 4],
    );
    sweep.missed(1, None, "refused");
    assert_eq!(sweep.not_reached(), [(None, 2), (None, 4)]);
    let doc = sweep.document(None);
    assert_eq!(
        doc.table[1].note.as_deref(),
        Some("not run: the sweep stopped at the forced shutdown")
    );
}

#[test]
fn nothing_that_ran_fails_the_sweep_in_its_own_words() {
    let steps = vec![Step {
        threads: 8,
        engine: None,
        result: None,
        error: Some("max_connections reached".into()),
    }];
    let e = levels_exit_code(&steps, None, false).unwrap_err();
    assert_eq!(
        e.message(),
        "no level of the sweep could run: max_connections reached"
    );
    let e = rounds_exit_code(&steps, None, false).unwrap_err();
    assert_eq!(e.message(), "no round could run: max_connections reached");
    assert_eq!(
        rounds_exit_code(&steps, Some("SIGINT"), false).unwrap(),
        130
    );
    assert_eq!(
        levels_exit_code(&steps, Some("SIGTERM"), false).unwrap(),
        143
    );
}
