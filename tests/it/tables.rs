use crate::common::*;
use std::collections::HashMap;

/// A CSV document as (header, rows of named cells). dbpress quotes only cells with commas,
/// quotes or line breaks, and none of the cells read here have any.
fn parse_csv(text: &str) -> (Vec<String>, Vec<HashMap<String, String>>) {
    let mut lines = text.lines();
    let head: Vec<String> = lines
        .next()
        .expect("a header line")
        .split(',')
        .map(str::to_string)
        .collect();
    let rows = lines
        .map(|l| {
            let cells: Vec<&str> = l.split(',').collect();
            assert_eq!(cells.len(), head.len(), "row as wide as the header: {l}");
            head.iter()
                .cloned()
                .zip(cells.into_iter().map(str::to_string))
                .collect()
        })
        .collect();
    (head, rows)
}

fn f(row: &HashMap<String, String>, col: &str) -> f64 {
    row[col]
        .parse()
        .unwrap_or_else(|_| panic!("{col} is a number: {row:?}"))
}

/// A run on SQLite with --output-format=csv: stdout is the CSV alone (the progress goes to
/// stderr), one row per interval of the JSON result written beside it, and each row's rates
/// multiply back to the interval's own counts.
#[test]
fn run_csv_has_one_row_per_interval_that_adds_up_to_the_summary() {
    let dir = scratch("tables-sqlite");
    let db = format!("--db=sqlite:{}", dir.join("t.sqlite").display());
    let o = dbpress(&["oltp_read_write", "prepare", &db, "--table-size=1000"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = dir.join("r.json");
    let o = dbpress(&[
        "oltp_read_write",
        "run",
        &db,
        "--table-size=1000",
        "--threads=2",
        "--time=3",
        "--percentile=99",
        "--output-format=csv",
        &format!("--output={}", out.display()),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("Threads started!"));
    let r = json(&out);
    let intervals = r["intervals"].as_array().unwrap();
    let (head, rows) = parse_csv(&stdout(&o));
    assert_eq!(head[0], "time_s");
    assert!(head.contains(&"latency_p99_ms".to_string()));
    assert_eq!(rows.len(), intervals.len());
    assert!(rows.len() >= 3, "a 3 s run has 3 full intervals");
    let mut events = 0.0;
    for (row, i) in rows.iter().zip(intervals) {
        let secs = i["duration_s"].as_f64().unwrap();
        let n = i["events"].as_f64().unwrap();
        // Rates are written with 2 decimals: back to counts within half a hundredth a second.
        assert!(
            (f(row, "tps") * secs - n).abs() <= 0.005 * secs + 1e-9,
            "{row:?}"
        );
        let queries = i["reads"].as_f64().unwrap()
            + i["writes"].as_f64().unwrap()
            + i["other"].as_f64().unwrap();
        assert!((f(row, "qps") * secs - queries).abs() <= 0.005 * secs + 1e-9);
        assert_eq!(
            row["closing"],
            if i["closing"].as_bool().unwrap() {
                "1"
            } else {
                "0"
            }
        );
        assert_eq!(
            row["latency_p99_ms"],
            format!("{:.3}", i["latency_pct_ms"].as_f64().unwrap())
        );
        // Not under --rate: the schedule's columns are empty, not 0.
        assert_eq!(row["lag_ms"], "");
        events += f(row, "tps") * secs;
    }
    let total = r["summary"]["events"].as_f64().unwrap();
    assert!((events - total).abs() < 1.0, "{events} vs {total}");

    // `report` writes the same CSV from the file alone.
    let rep = dbpress(&["report", out.to_str().unwrap(), "--output-format=csv"]);
    assert!(rep.status.success(), "{}", stderr(&rep));
    assert_eq!(stdout(&rep), stdout(&o));
}

/// A run as Markdown: the command that made it (password masked), the figures and one row per
/// statement kind with the counts of the JSON result.
#[test]
fn report_markdown_has_the_command_and_the_statement_table() {
    let dir = scratch("tables-md");
    let out = dir.join("r.json");
    let o = dbpress(&[
        "oltp_read_write",
        "run",
        "--mysql-dry-run",
        "--time=0",
        "--events=500",
        "--mysql-password=hunter2",
        &format!("--output={}", out.display()),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rep = dbpress(&["report", out.to_str().unwrap(), "--output-format=markdown"]);
    assert!(rep.status.success(), "{}", stderr(&rep));
    let md = stdout(&rep);
    assert!(!md.contains("hunter2"), "password leaked: {md}");
    assert!(
        md.contains("```sh\ndbpress oltp_read_write run --mysql-dry-run --time=0 --events=500"),
        "{md}"
    );
    assert!(md.contains("| transactions per second (TPS) |"), "{md}");
    let r = json(&out);
    assert!(md.contains("| event | 500 | 0 |"), "{md}");
    for st in r["statements"].as_array().unwrap() {
        let row = format!("| {} | {} | 0 |", st["name"].as_str().unwrap(), st["count"]);
        assert!(md.contains(&row), "no row {row} in {md}");
    }
    // Every table line has as many cells as its header.
    for block in md.split("\n\n").filter(|b| b.starts_with('|')) {
        let widths: Vec<usize> = block
            .lines()
            .map(|l| l.replace("\\|", "").matches('|').count())
            .collect();
        assert!(widths.iter().all(|w| *w == widths[0]), "{block}");
    }
}

/// A sweep and a comparison as CSV: one row per level, one row per (level, result), the
/// ratio column the result's QPS over the baseline's at the same level.
#[test]
fn sweep_and_compare_csv_have_a_row_per_level_and_result() {
    let dir = scratch("tables-sweep");
    let sweep = |name: &str| {
        let out = dir.join(format!("{name}.json"));
        let o = dbpress(&[
            "oltp_point_select",
            "run",
            "--mysql-dry-run",
            "--time=0",
            "--events=2000",
            "--threads=1,2",
            "--output-format=csv",
            &format!("--output={}", out.display()),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        (out, stdout(&o))
    };
    let (a, a_csv) = sweep("a");
    let (b, _) = sweep("b");
    let (head, rows) = parse_csv(&a_csv);
    assert_eq!(head[..3], ["threads", "tps", "qps"]);
    let table = json(&a)["table"].as_array().unwrap().clone();
    assert_eq!(rows.len(), 2);
    for (row, t) in rows.iter().zip(&table) {
        assert_eq!(row["threads"], t["threads"].to_string());
        assert_eq!(row["qps"], format!("{:.2}", t["qps"].as_f64().unwrap()));
    }

    let o = dbpress(&[
        "compare",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--output-format=csv",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let (_, rows) = parse_csv(&stdout(&o));
    let keys: Vec<(String, String, String)> = rows
        .iter()
        .map(|r| {
            (
                r["threads"].clone(),
                r["result"].clone(),
                r["baseline"].clone(),
            )
        })
        .collect();
    let k = |t: &str, r: &str, b: &str| (t.to_string(), r.to_string(), b.to_string());
    assert_eq!(
        keys,
        [
            k("1", "a", "1"),
            k("1", "b", "0"),
            k("2", "a", "1"),
            k("2", "b", "0")
        ]
    );
    for pair in rows.chunks(2) {
        assert_eq!(pair[0]["qps_vs_baseline"], "");
        let ratio = f(&pair[1], "qps") / f(&pair[0], "qps");
        assert!((f(&pair[1], "qps_vs_baseline") - ratio).abs() < 1e-3);
    }

    let o = dbpress(&[
        "compare",
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        "--output-format=markdown",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let md = stdout(&o);
    assert!(md.contains("| threads | a | b | vs base |"), "{md}");
    assert!(md.contains("**QPS (higher is better)**"), "{md}");
}

#[test]
fn unknown_output_format_is_one_clear_line() {
    let o = dbpress(&[
        "oltp_point_select",
        "run",
        "--mysql-dry-run",
        "--output-format=xml",
    ]);
    assert_fails_with(&o, 2, "csv, markdown");
    let o = dbpress(&["report", "nothing.json", "--output-format=xml"]);
    assert_fails_with(&o, 2, "csv, markdown, html");
}

/// `--output=FILE` writes the format FILE's extension names: CSV, Markdown, HTML, else JSON.
#[test]
fn output_file_format_follows_its_extension() {
    let dir = scratch("tables-ext");
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    for (name, starts) in [
        ("r.csv", "time_s,duration_s,"),
        ("r.md", "### dbpress oltp_point_select: 1 threads"),
        ("r.HTML", "<!DOCTYPE html>"),
        ("r.json", "{"),
        ("r.out", "{"),
    ] {
        let o = dbpress(&[
            "oltp_point_select",
            "run",
            "--mysql-dry-run",
            "--time=0",
            "--events=200",
            &format!("--output={}", path(name)),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let text = std::fs::read_to_string(path(name)).unwrap();
        assert!(
            text.starts_with(starts),
            "{name}: {}",
            &text[..text.len().min(200)]
        );
    }
    let o = dbpress(&[
        "compare",
        &path("r.json"),
        &path("r.out"),
        &format!("--output={}", path("c.csv")),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(path("c.csv")).unwrap();
    assert!(text.starts_with("threads,result,baseline,"), "{text}");
    assert_eq!(text.lines().count(), 3, "{text}");
    // Those files are for reading: report says which file to give it instead.
    let o = dbpress(&["report", &path("r.csv")]);
    assert_fails_with(
        &o,
        2,
        "re-render or compare the JSON result, written with --output=FILE.json",
    );
}
