use super::*;
use dbpress_core::options::parse_bool;

fn args(s: &str) -> Vec<String> {
    s.split_whitespace().map(String::from).collect()
}

fn opts_of(s: &str) -> OptionValues {
    parse_workload(&args(s)).expect("parses").2
}

#[test]
fn sysbench_word_order_with_options_anywhere() {
    let (workload, command, opts) = parse_workload(&args(
        "--threads=4 oltp_read_write --time 5 run --table_size=99",
    ))
    .unwrap();
    assert_eq!(workload, "oltp_read_write");
    assert_eq!(command, Command::Run);
    assert_eq!(opts.get("threads"), "4");
    assert_eq!(opts.get("time"), "5");
    assert_eq!(opts.get("table-size"), "99");
}

#[test]
fn dashes_and_underscores_are_interchangeable() {
    let a = opts_of("oltp_point_select run --report_interval=1 --mysql_ignore_errors=all");
    let b = opts_of("oltp_point_select run --report-interval=1 --mysql-ignore-errors=all");
    assert_eq!(a, b);
    assert_eq!(a.get("report-interval"), "1");
}

#[test]
fn defaults_apply_when_not_given() {
    let o = opts_of("oltp_point_select run");
    assert_eq!(o.get("threads"), "1");
    assert_eq!(o.get("time"), "10");
    assert_eq!(o.get("mysql-ignore-errors"), "1213,1020,1205");
    assert_eq!(o.get("rand-type"), "uniform");
    assert!(!o.is_set("threads"));
}

#[test]
fn bare_boolean_means_on_and_explicit_values_are_kept() {
    assert_eq!(
        opts_of("oltp_point_select run --histogram").get("histogram"),
        "on"
    );
    assert_eq!(
        opts_of("oltp_point_select run --histogram off").get("histogram"),
        "off"
    );
    assert_eq!(
        opts_of("oltp_point_select run --histogram=0").get("histogram"),
        "0"
    );
    assert_eq!(
        opts_of("oltp_point_select --mysql-dry-run run").get("mysql-dry-run"),
        "on"
    );
    for (v, want) in [
        ("on", true),
        ("TRUE", true),
        ("1", true),
        ("off", false),
        ("false", false),
        ("0", false),
    ] {
        assert_eq!(parse_bool(v), Some(want), "{v}");
    }
    assert_eq!(parse_bool("maybe"), None);
}

#[test]
fn every_deprecated_rename_maps_to_its_new_option_with_a_notice() {
    let cases = [
        ("num-threads", "threads"),
        ("max-time", "time"),
        ("max-requests", "events"),
        ("tx-rate", "rate"),
        ("oltp-table-size", "table-size"),
        ("oltp-tables-count", "tables"),
        ("oltp-range-size", "range-size"),
        ("oltp-point-selects", "point-selects"),
        ("oltp-simple-ranges", "simple-ranges"),
        ("oltp-sum-ranges", "sum-ranges"),
        ("oltp-order-ranges", "order-ranges"),
        ("oltp-distinct-ranges", "distinct-ranges"),
        ("oltp-index-updates", "index-updates"),
        ("oltp-non-index-updates", "non-index-updates"),
        ("oltp-delete-inserts", "delete-inserts"),
        ("oltp-range-selects", "range-selects"),
        ("oltp-auto-inc", "auto-inc"),
        ("oltp-skip-trx", "skip-trx"),
        ("oltp-secondary", "secondary"),
        ("oltp-create-secondary", "create-secondary"),
        ("oltp-dist-type", "rand-type"),
        ("oltp-dist-iter", "rand-spec-iter"),
        ("oltp-dist-pct", "rand-spec-pct"),
        ("oltp-dist-res", "rand-spec-res"),
        ("mysql-table-engine", "mysql-storage-engine"),
        ("mysql-table-options", "create-table-options"),
    ];
    for (old, new) in cases {
        for spelling in [old.to_string(), old.replace('-', "_")] {
            let o = opts_of(&format!("oltp_read_write run --{spelling}=7"));
            assert_eq!(o.get(new), "7", "--{spelling} should set --{new}");
            assert_eq!(o.notices.len(), 1, "--{spelling} gives one notice");
            assert!(
                o.notices[0].contains(&format!("--{new}=7")),
                "{:?}",
                o.notices
            );
        }
    }
}

#[test]
fn oltp_read_only_and_write_only_expand_to_the_statement_counts() {
    let o = opts_of("oltp_read_write run --oltp-read-only=on");
    assert_eq!(o.get("index-updates"), "0");
    assert_eq!(o.get("non-index-updates"), "0");
    assert_eq!(o.get("delete-inserts"), "0");
    let o = opts_of("oltp_read_write run --oltp-write-only");
    assert_eq!(o.get("point-selects"), "0");
    assert_eq!(o.get("range-selects"), "off");
    let o = opts_of("oltp_read_write run --oltp-read-only=off");
    assert!(!o.is_set("index-updates"));
    assert!(o.notices.is_empty());
}

#[test]
fn test_option_names_the_workload_from_a_name_or_a_lua_path() {
    for t in [
        "--test=oltp_read_write",
        "--test=/usr/share/sysbench/oltp_read_write.lua",
        "--test oltp_read_write.lua",
    ] {
        let (workload, _, opts) =
            parse_workload(&args(&format!("{t} --num-threads=2 run"))).unwrap();
        assert_eq!(workload, "oltp_read_write", "{t}");
        assert_eq!(opts.get("threads"), "2");
        // --test's and --num-threads' deprecation, and how a script path was taken.
        let expected = 2 + usize::from(t.ends_with(".lua"));
        assert_eq!(opts.notices.len(), expected, "{:?}", opts.notices);
    }
}

#[test]
fn a_sysbench_script_path_in_place_of_the_workload_names_the_built_in_one() {
    for w in [
        "/usr/share/sysbench/oltp_read_write.lua",
        "./oltp_read_write.lua",
        "oltp_read_write.lua",
    ] {
        let (workload, _, opts) = parse_workload(&args(&format!("{w} --threads=2 run"))).unwrap();
        assert_eq!(workload, "oltp_read_write", "{w}");
        // One notice: how the script was taken (the stock file's hash, or no such file here).
        assert_eq!(opts.notices.len(), 1, "{w}: {:?}", opts.notices);
        assert!(
            opts.notices[0].contains("running dbpress's built-in oltp_read_write"),
            "{w}: {:?}",
            opts.notices
        );
    }
    for w in [
        "/home/me/my_test.lua run",
        "--test=/home/me/my_test.lua run",
    ] {
        // A script that is not there: one line naming it (one that is runs in Lua, #41).
        let e = parse_workload(&args(w)).unwrap_err().to_string();
        assert!(
            e.contains("cannot find the Lua script '/home/me/my_test.lua'"),
            "{w}: {e}"
        );
    }
}

#[test]
fn top_level_words() {
    let words = |s: &str| match parse(&args(s)).unwrap() {
        Invocation::Words { words, .. } => words,
        other => panic!("{s}: {other:?}"),
    };
    assert_eq!(words("list"), ["list"]);
    assert_eq!(parse(&args("--version")).unwrap(), Invocation::Version);
    assert_eq!(parse(&args("")).unwrap(), Invocation::Help);
    assert_eq!(words("help oltp_read_write"), ["help", "oltp_read_write"]);
    assert_eq!(words("--histogram report r.json"), ["report", "r.json"]);
    assert_eq!(
        workload_call(&words("oltp_read_write help")).unwrap(),
        WorkloadCall::Help("oltp_read_write".into())
    );
}

#[test]
fn mistakes_get_one_line_with_the_fix() {
    let parse = |a: &[String]| parse_workload(a);
    let e = parse(&args("oltp_read_write run --thread=4")).unwrap_err();
    assert_eq!(
        e.message(),
        "unknown option --thread: did you mean --threads?"
    );
    assert_eq!(e.exit_code(), 2);
    let e = parse(&args("oltp_read_write go")).unwrap_err();
    assert!(e.message().contains("unknown command 'go'"), "{e}");
    let e = parse(&args("oltp_read_write")).unwrap_err();
    assert!(e.message().contains("no command given"), "{e}");
    let e = parse(&args("run")).unwrap_err();
    assert_eq!(
        e.message(),
        "'run' is a command, not a workload: the workload comes first, `dbpress <workload> run` (workloads: `dbpress list`)"
    );
    let e = parse(&args("check oltp_delete --tables=2")).unwrap_err();
    assert!(e.message().contains("`dbpress oltp_delete check`"), "{e}");
    let e = parse(&args("oltp_read_write run --time")).unwrap_err();
    assert_eq!(e.message(), "option --time needs a value: --time=VALUE");
    let e = parse(&args("oltp_read_write run extra")).unwrap_err();
    assert!(e.message().contains("unexpected argument 'extra'"), "{e}");
    let e = parse(&args("oltp_read_write run --oltp-read-only=maybe")).unwrap_err();
    assert!(e.message().contains("use on/off"), "{e}");
    assert!(!e.message().contains('\n'));
}

#[test]
fn sysbench_options_dbpress_has_no_use_for_are_accepted_with_a_notice() {
    let o = opts_of(
        "oltp_point_select run --thread-stack-size=64K --debug --validate=off --db-debug=on --luajit-cmd=off --mysql-debug",
    );
    // --validate is fileio's (its blocks' checksums), an option like any other.
    assert_eq!(o.notices.len(), 5, "{:?}", o.notices);
    assert!(
        o.notices[0].starts_with("--thread-stack-size=64K has no effect in dbpress: dbpress sizes")
    );
    // A bare boolean flag reads as on.
    assert!(o
        .notices
        .iter()
        .any(|n| n.starts_with("--debug=on has no effect")));
}

#[test]
fn a_config_file_gives_options_the_command_line_overrides() {
    let dir = std::env::temp_dir().join(format!("dbpress-config-file-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bench.cfg");
    std::fs::write(
        &file,
        "# sysbench --config-file: name=value, no dashes\n\
         threads=8\n\
         table_size = 5000   # a comment after the value\n\
         mysql-host=\"db.example\"\n\
         histogram\n\
         \n\
         time=30\n",
    )
    .unwrap();
    let o = opts_of(&format!(
        "oltp_read_write run --config-file={} --time=5",
        file.display()
    ));
    assert_eq!(o.get("threads"), "8");
    assert_eq!(o.get("table-size"), "5000");
    assert_eq!(o.get("mysql-host"), "db.example");
    assert_eq!(o.get("histogram"), "on");
    assert_eq!(o.get("time"), "5", "the command line wins over the file");

    let missing = dir.join("missing.cfg");
    let e = parse(&args(&format!(
        "oltp_read_write run --config-file {}",
        missing.display()
    )))
    .unwrap_err();
    assert!(
        e.message()
            .starts_with(&format!("cannot read --config-file {}", missing.display())),
        "{}",
        e.message()
    );
    std::fs::write(&file, "threads=2\nbogus_option=1\n").unwrap();
    let e = parse(&args(&format!(
        "oltp_read_write run --config-file={}",
        file.display()
    )))
    .unwrap_err();
    assert!(
        e.message().contains("unknown option --bogus_option"),
        "{}",
        e.message()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
