use crate::common::*;

pub fn assert_valid(doc: &serde_json::Value) {
    assert_matches_schema(include_str!("../../docs/compare.schema.json"), doc);
}

fn dry_result(dir: &std::path::Path, name: &str, extra: &[&str]) -> String {
    let out = dir.join(format!("{name}.json"));
    let mut args = vec!["oltp_read_only", "run", "--mysql-dry-run", "--time=0"];
    args.extend_from_slice(extra);
    let out_arg = format!("--output={}", out.display());
    args.push(&out_arg);
    let o = dbpress(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    out.to_str().unwrap().to_string()
}

/// A sweep, a single run at one of its levels and a run at another: rows are the union of the
/// levels, each figure is the file's own and each ratio is the figure over the baseline's; the
/// options that differed are listed, the output file and a randomly drawn seed are not.
#[test]
fn results_side_by_side_with_ratios_and_what_differed() {
    let dir = scratch("compare-dry");
    let base = dry_result(&dir, "base", &["--threads=1,2", "--events=3000"]);
    let one = dry_result(
        &dir,
        "one",
        &["--threads=2", "--events=2000", "--range-size=50"],
    );
    let four = dry_result(&dir, "four", &["--threads=4", "--events=2000"]);
    let out = dir.join("cmp.json");
    let o = dbpress(&[
        "compare",
        &base,
        &one,
        &four,
        "--metrics=qps,tps,p99,err",
        &format!("--output={}", out.display()),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let c = json(&out);
    assert_valid(&c);
    let labels: Vec<&str> = c["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["label"].as_str().unwrap())
        .collect();
    assert_eq!(labels, ["base", "one", "four"]);
    let rows = c["rows"].as_array().unwrap();
    let threads: Vec<u64> = rows
        .iter()
        .map(|r| r["threads"].as_u64().unwrap())
        .collect();
    assert_eq!(threads, [1, 2, 4]);
    // Level 2: in the baseline's sweep and in `one`; the ratio is one's QPS over base's.
    let sweep = json(std::path::Path::new(&base));
    let base_qps = sweep["table"][1]["qps"].as_f64().unwrap();
    let single = json(std::path::Path::new(&one));
    let one_qps = single["summary"]["qps"].as_f64().unwrap();
    let cell = &rows[1]["cells"][1];
    assert_eq!(cell["qps"].as_f64().unwrap(), one_qps);
    let ratio = cell["vs_baseline"]["qps"].as_f64().unwrap();
    assert!((ratio - one_qps / base_qps).abs() < 1e-9, "{ratio}");
    assert_eq!(
        rows[1]["cells"][0]["vs_baseline"]["qps"],
        serde_json::Value::Null
    );
    // Levels a result did not run are empty cells, and have no ratio.
    assert_eq!(rows[0]["cells"][1], serde_json::Value::Null);
    assert_eq!(rows[2]["cells"][0], serde_json::Value::Null);
    assert_eq!(
        rows[2]["cells"][2]["vs_baseline"]["qps"],
        serde_json::Value::Null
    );
    let diffs: Vec<String> = c["differences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            format!(
                "{} {}: {} -> {}",
                d["run"].as_str().unwrap(),
                d["what"].as_str().unwrap(),
                d["baseline"].as_str().unwrap_or("?"),
                d["value"].as_str().unwrap_or("?")
            )
        })
        .collect();
    assert_eq!(
        diffs,
        [
            "one option --events: 3000 -> 2000",
            "one option --range-size: 100 -> 50",
            "four option --events: 3000 -> 2000",
        ]
    );
    // The text: the list of differences, one table per metric asked for, ratios beside.
    assert!(
        text.contains("    one   option --range-size: 100 → 50\n"),
        "{text}"
    );
    for title in [
        "QPS (higher is better):",
        "TPS (higher is better):",
        "p99 latency, ms (lower is better):",
        "ignored errors per second:",
    ] {
        assert!(text.contains(title), "{title}\n{text}");
    }
    assert!(!text.contains("p95 latency"), "{text}");
    let qps_table = &text[text.find("QPS (higher").unwrap()..];
    let line2 = qps_table
        .lines()
        .find(|l| l.trim_start().starts_with("2 "))
        .unwrap();
    assert!(
        line2.contains(&format!("{one_qps:.2}")) && line2.contains(&format!("{ratio:.3}")),
        "{line2}"
    );
    // The same comparison as JSON on stdout is the file's.
    let o = dbpress(&["compare", &base, &one, &four, "--output-format=json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let on_stdout: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(on_stdout, c);
}

#[test]
fn compare_bad_input_is_one_clear_line() {
    let dir = scratch("compare-bad");
    let base = dry_result(&dir, "base", &["--events=100"]);
    let o = dbpress(&["compare", &base]);
    assert_fails_with(&o, 2, "dbpress compare needs two or more result files");
    let o = dbpress(&["compare", &base, "missing.json"]);
    assert_fails_with(&o, 2, "cannot read result file missing.json");
    let o = dbpress(&["compare", &base, &base, "--metrics=qps,p90"]);
    assert_fails_with(&o, 2, "unknown metric 'p90' in --metrics=qps,p90");
    let o = dbpress(&["compare", &base, &base, "--threads=4"]);
    assert_fails_with(&o, 2, "unknown option '--threads=4' for dbpress compare");
    let cmp = dir.join("cmp.json");
    let o = dbpress(&[
        "compare",
        &base,
        &base,
        &format!("--output={}", cmp.display()),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = dbpress(&["report", cmp.to_str().unwrap()]);
    assert_fails_with(&o, 2, "is a dbpress comparison, not a result");
    let not_json = dir.join("notes.txt");
    std::fs::write(&not_json, "QPS went up\n").unwrap();
    let o = dbpress(&["compare", &base, not_json.to_str().unwrap()]);
    assert_fails_with(&o, 2, "is not a dbpress JSON result");
}

/// Results of two engines: the settings only one of them records (SQLite's journal mode
/// against nothing for the dry run) are not listed one by one; the server line says it.
#[test]
fn another_engine_is_named_once_not_setting_by_setting() {
    let dir = scratch("compare-engines");
    let db = format!("--sqlite-path={}", dir.join("c.db").display());
    let o = dbpress(&["oltp_point_select", "prepare", &db, "--table-size=1000"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let sqlite = dir.join("sqlite.json");
    let o = dbpress(&[
        "oltp_point_select",
        "run",
        &db,
        "--table-size=1000",
        "--time=0",
        "--events=500",
        &format!("--output={}", sqlite.display()),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let recorded = json(&sqlite)["environment"]["server"]["variables"]
        .as_object()
        .unwrap()
        .len();
    assert!(recorded > 0, "SQLite records its settings");
    let dry = dry_result(&dir, "dry", &["--table-size=1000", "--events=500"]);
    let o = dbpress(&[
        "compare",
        sqlite.to_str().unwrap(),
        &dry,
        "--output-format=json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let c: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let what: Vec<&str> = c["differences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["what"].as_str().unwrap())
        .collect();
    assert!(what.contains(&"server"), "{what:?}");
    assert!(
        !what.iter().any(|w| w.starts_with("server variable")),
        "{what:?}"
    );
}

/// A sweep none of whose levels ran (every level refused by the server's max_connections)
/// recorded nothing of how it ran: the comparison says so in one line instead of listing every
/// fact of the baseline as "(not recorded)".
#[test]
fn a_result_with_no_level_run_is_one_line_of_differences() {
    let dir = scratch("compare-nothing-ran");
    // Such a sweep document: a real one with its levels' results taken out, as a sweep whose
    // levels the server refused writes it (what fails at every level stops a sweep before it
    // writes anything).
    let swept = dry_result(&dir, "swept", &["--threads=1,2", "--events=500"]);
    let mut doc = json(std::path::Path::new(&swept));
    let refused = "the server refused 2 of the 2 connections: max_connections=1 reached";
    for step in doc["steps"].as_array_mut().unwrap() {
        step["result"] = serde_json::Value::Null;
        step["error"] = refused.into();
    }
    for row in doc["table"].as_array_mut().unwrap() {
        let row = row.as_object_mut().unwrap();
        for k in [
            "tps",
            "qps",
            "p95_ms",
            "p99_ms",
            "errors_per_s",
            "ratio_to_best",
        ] {
            row.insert(k.into(), serde_json::Value::Null);
        }
        row.insert("error".into(), refused.into());
        row.remove("cpu");
        row.remove("disk");
    }
    let empty = dir.join("empty.json");
    std::fs::write(&empty, doc.to_string()).unwrap();
    let dry = dry_result(&dir, "dry", &["--events=500"]);
    let o = dbpress(&["compare", &dry, empty.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains(
            "What differs from the baseline besides the figures:\n    empty  no level ran, so nothing of how it ran was recorded (see the notes)\n\n"
        ),
        "{text}"
    );
    assert!(!text.contains("(not recorded)"), "{text}");
    let o = dbpress(&[
        "compare",
        &dry,
        empty.to_str().unwrap(),
        "--output-format=json",
    ]);
    let c: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_valid(&c);
    assert_eq!(c["differences"].as_array().unwrap().len(), 1, "{c}");
}

/// A seed given in a `--config-file` is a seed the user chose: two results run with different
/// ones differ, and say so, like seeds typed on the command line. (The comparison used to look
/// for `--rand-seed` on the command line only, and took such seeds for random ones.) A sweep's
/// levels all run with one seed, and its options keep what the user gave.
#[test]
fn a_seed_from_a_config_file_is_compared_and_a_sweep_keeps_one_seed() {
    let dir = scratch("compare-config-seed");
    let mut files = Vec::new();
    for seed in [7, 8] {
        let conf = dir.join(format!("seed{seed}.conf"));
        std::fs::write(&conf, format!("rand-seed={seed}\n")).unwrap();
        files.push(dry_result(
            &dir,
            &format!("s{seed}"),
            &[
                "--threads=1,2",
                "--events=200",
                &format!("--config-file={}", conf.display()),
            ],
        ));
    }
    let sweep = json(std::path::Path::new(&files[0]));
    for step in sweep["steps"].as_array().unwrap() {
        assert_eq!(
            step["result"]["run"]["seed"], 7,
            "{}",
            step["result"]["run"]
        );
        assert_eq!(step["result"]["config"]["rand-seed"], "7");
    }
    let o = dbpress(&["compare", &files[0], &files[1]]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("    s8  option --rand-seed: 7 → 8\n"),
        "{}",
        stdout(&o)
    );
    // Seeds drawn at random: each level's is the sweep's one, the options say 0, and two such
    // results do not differ by their seeds.
    let a = dry_result(&dir, "r1", &["--threads=1,2", "--events=200"]);
    let b = dry_result(&dir, "r2", &["--threads=1,2", "--events=200"]);
    let steps = json(std::path::Path::new(&a))["steps"].clone();
    assert_eq!(
        steps[0]["result"]["run"]["seed"],
        steps[1]["result"]["run"]["seed"]
    );
    assert_eq!(steps[1]["result"]["config"]["rand-seed"], "0");
    let o = dbpress(&["compare", &a, &b]);
    assert!(!stdout(&o).contains("rand-seed"), "{}", stdout(&o));
}

/// Repeated runs as one column (`NAME=a.json,b.json,c.json`): each figure is the median of the
/// group's runs with their range beside it, the ratio is of medians and is marked when the two
/// ranges overlap, and a run of the group that did not run like the others is named.
#[test]
fn repeated_runs_are_compared_as_medians_with_their_spread() {
    let dir = scratch("compare-groups");
    let run = |name: &str, extra: &[&str]| {
        let mut a = vec!["--threads=1,2", "--events=3000"];
        a.extend_from_slice(extra);
        dry_result(&dir, name, &a)
    };
    let a: Vec<String> = ["a1", "a2", "a3"].iter().map(|n| run(n, &[])).collect();
    let b: Vec<String> = vec![
        run("b1", &["--point-selects=12"]),
        run("b2", &["--point-selects=12"]),
        run("b3", &["--point-selects=12", "--table-size=5000"]),
    ];
    let before = format!("before={}", a.join(","));
    let after = format!("after={}", b.join(","));
    let o = dbpress(&["compare", &before, &after, "--output-format=json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let c: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_valid(&c);
    assert_eq!(c["runs"][0]["label"], "before");
    assert_eq!(c["runs"][1]["files"].as_array().unwrap().len(), 3);
    // The medians and ranges are the files' own figures.
    let qps_at = |files: &[String], level: usize| -> Vec<f64> {
        files
            .iter()
            .map(|f| {
                json(std::path::Path::new(f))["table"][level]["qps"]
                    .as_f64()
                    .unwrap()
            })
            .collect()
    };
    for (level, row) in c["rows"].as_array().unwrap().iter().enumerate() {
        for (k, files) in [&a, &b].into_iter().enumerate() {
            let mut v = qps_at(files, level);
            v.sort_by(f64::total_cmp);
            let cell = &row["cells"][k];
            assert_eq!(cell["runs"], 3);
            assert_eq!(cell["qps"].as_f64(), Some(v[1]), "{cell}");
            assert_eq!(cell["ranges"]["qps"][0].as_f64(), Some(v[0]));
            assert_eq!(cell["ranges"]["qps"][1].as_f64(), Some(v[2]));
        }
        let ratio = row["cells"][1]["vs_baseline"]["qps"].as_f64().unwrap();
        let median = |k: usize| row["cells"][k]["qps"].as_f64().unwrap();
        assert!((ratio - median(1) / median(0)).abs() < 1e-12);
    }
    // Between the groups the intended change; inside the second, the run that differed.
    let diffs: Vec<String> = c["differences"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            format!(
                "{}: {}",
                d["run"].as_str().unwrap(),
                d["what"].as_str().unwrap()
            )
        })
        .collect();
    assert!(
        diffs.contains(&"after: option --point-selects".to_string()),
        "{diffs:?}"
    );
    assert!(
        diffs.contains(&format!("after ({}): option --table-size", b[2])),
        "{diffs:?}"
    );
    assert_eq!(diffs.len(), 2, "{diffs:?}");
    // The text marks a ratio whose ranges overlap, exactly when they do.
    let o = dbpress(&["compare", &before, &after, "--metrics=qps"]);
    let text = stdout(&o);
    assert!(text.contains("(3 runs: "), "{text}");
    for row in c["rows"].as_array().unwrap() {
        let r = |k: usize, i: usize| row["cells"][k]["ranges"]["qps"][i].as_f64().unwrap();
        let overlap = r(1, 0) <= r(0, 1) && r(0, 0) <= r(1, 1);
        let ratio = row["cells"][1]["vs_baseline"]["qps"].as_f64().unwrap();
        let shown = format!("{ratio:.3}~");
        assert_eq!(text.contains(&shown), overlap, "{shown}\n{text}");
    }
    assert!(text.contains("(medians of the runs, ± half their range in percent of the median"));
    // A group's name must come with files.
    let o = dbpress(&["compare", "before=", &a[0]]);
    assert_fails_with(
        &o,
        2,
        "'before=' is neither a file nor a group: name repeated runs as NAME=a.json,b.json",
    );
}

/// Two server versions are one difference, the `server` line, not also a `server variable
/// version` line repeating it.
#[test]
fn a_server_version_is_listed_once() {
    let dir = scratch("compare-version");
    let mut files = Vec::new();
    for (name, version) in [("old", "10.6.1-MariaDB"), ("new", "10.11.19-MariaDB")] {
        let f = dry_result(&dir, name, &["--events=100"]);
        let mut r = json(std::path::Path::new(&f));
        r["environment"]["server"]["product"] = "MariaDB".into();
        r["environment"]["server"]["version"] = version.into();
        r["environment"]["server"]["variables"]["version"] = version.into();
        std::fs::write(&f, serde_json::to_string(&r).unwrap()).unwrap();
        files.push(f);
    }
    let o = dbpress(&["compare", &files[0], &files[1]]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains("    new  server: MariaDB 10.6.1-MariaDB → MariaDB 10.11.19-MariaDB\n"),
        "{text}"
    );
    assert!(!text.contains("server variable version"), "{text}");
}

/// A result from a dbpress that did not have an option yet, against one that ran with the
/// option at its default: not a difference (it listed "option --latency-limit: (not recorded)
/// → 0" for every option added since). An option set away from its default still is.
#[test]
fn an_option_one_result_predates_is_no_difference_at_its_default() {
    let dir = scratch("compare-new-option");
    let new = dry_result(&dir, "new", &["--events=500"]);
    let mut doc = json(std::path::Path::new(&new));
    let config = doc["config"].as_object_mut().unwrap();
    assert_eq!(config.remove("latency-limit"), Some("0".into()));
    assert!(config.remove("server-waits").is_some());
    let old = dir.join("old.json");
    std::fs::write(&old, doc.to_string()).unwrap();
    let o = dbpress(&["compare", old.to_str().unwrap(), &new]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        !text.contains("latency-limit") && !text.contains("server-waits"),
        "{text}"
    );
    let limited = dry_result(&dir, "limited", &["--events=500", "--latency-limit=5"]);
    let o = dbpress(&["compare", old.to_str().unwrap(), &limited]);
    assert!(
        stdout(&o).contains("option --latency-limit: (not recorded) → 5"),
        "{}",
        stdout(&o)
    );
}
