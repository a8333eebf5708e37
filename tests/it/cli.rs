use crate::common::*;

#[test]
fn version_prints_name_and_version() {
    let o = dbpress(&["--version"]);
    assert!(o.status.success());
    assert_eq!(
        stdout(&o).trim(),
        format!("dbpress {}", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn list_names_every_workload_with_a_description() {
    let o = dbpress(&["list"]);
    assert!(o.status.success());
    let out = stdout(&o);
    for w in [
        "oltp_point_select",
        "oltp_read_write",
        "oltp_read_only",
        "oltp_write_only",
        "oltp_update_index",
        "oltp_update_non_index",
        "oltp_delete",
        "oltp_insert",
        "select_random_points",
        "select_random_ranges",
        "bulk_insert",
        "oltp",
    ] {
        let line = out
            .lines()
            .find(|l| l.trim_start().starts_with(w))
            .unwrap_or_else(|| panic!("{w} missing: {out}"));
        assert!(line.len() > w.len() + 10, "{w} has no description");
    }
    // The descriptions start in one column, after the longest name and two spaces.
    let starts: Vec<usize> = out
        .lines()
        .map(|l| {
            let name_end = 2 + l.trim_start().find(' ').unwrap();
            name_end + l[name_end..].len() - l[name_end..].trim_start().len()
        })
        .collect();
    assert!(starts.iter().all(|s| *s == starts[0]), "{out}");
    assert_eq!(starts[0], 2 + "oltp_update_non_index".len() + 2, "{out}");
}

#[test]
fn help_for_a_workload_lists_options_with_defaults() {
    let o = dbpress(&["help", "oltp_read_write"]);
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(out.starts_with("oltp_read_write options:"), "{out}");
    for needle in [
        "--table-size=N",
        "[10000]",
        "--point-selects=N",
        "--skip-trx[=on|off]",
        "--mysql-ignore-errors",
        "[1213,1020,1205]",
    ] {
        assert!(out.contains(needle), "missing {needle}");
    }
    // sysbench's spelling works too.
    let o2 = dbpress(&["oltp_read_write", "help"]);
    assert_eq!(stdout(&o2), out);
}

#[test]
fn bad_input_exits_2_with_one_line() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["oltp_read_write", "run", "--treads=4"],
            "did you mean --threads?",
        ),
        (
            &["oltp_read_write", "run", "--threads=abc"],
            "invalid value 'abc' for --threads",
        ),
        (
            &["oltp_read_write", "run", "--rand-type=normal"],
            "invalid value 'normal' for --rand-type",
        ),
        (&["oltp_read_write", "launch"], "unknown command 'launch'"),
        (
            &["oltp_read_write", "run", "--db-driver=oracle"],
            "unknown --db-driver 'oracle'",
        ),
        (
            &["report", "/nonexistent/result.json"],
            "cannot read result file",
        ),
    ];
    for (args, want) in cases {
        let o = dbpress(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(want), "{args:?}: {}", stderr(&o));
        assert_one_clean_line(&o);
    }
    // A name that is no workload, file or module: sysbench's line and exit code (#41).
    let o = dbpress(&["nosuch_workload", "run"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("Cannot find benchmark 'nosuch_workload'"),
        "{}",
        stderr(&o)
    );
    assert_one_clean_line(&o);
}

#[test]
fn deprecated_options_print_a_notice_and_work() {
    let o = dbpress(&[
        "--test=oltp_point_select",
        "--num-threads=2",
        "--max-requests=100",
        "--max-time=0",
        "--mysql-dry-run",
        "run",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("--num-threads is deprecated, using --threads=2"),
        "{err}"
    );
    assert!(
        err.contains("--max-requests is deprecated, using --events=100"),
        "{err}"
    );
    assert!(stdout(&o).contains("total number of events:              100"));
}
