//! `dbpress tpcc` on every engine (SQLite always; MariaDB and PostgreSQL from
//! scripts/services.sh): the load passes all twelve consistency conditions, a run of more than
//! 2 000 transactions keeps the deck's mix, rolls back about 1% of New-Orders, and reports
//! counts the database itself confirms — committed New-Orders are the rise of sum(d_next_o_id),
//! Payments the new HISTORY rows, Deliveries the NEW-ORDER rows removed / 10 — and `check`
//! passes after it.

use crate::common::*;
use crate::engines::each_engine;

#[test]
fn tpcc_loads_runs_and_the_database_confirms_its_counts_on_every_engine() {
    each_engine("tpcc", |e| {
        let cleanup = dbpress(&e.args(&["tpcc", "cleanup"], &[]));
        assert!(cleanup.status.success(), "{}", stderr(&cleanup));
        let o = dbpress(&e.args(
            &["tpcc", "prepare"],
            &["--warehouses=2", "--threads=2", "--use-fk"],
        ));
        let out = stdout(&o);
        assert!(o.status.success(), "{}: {}{}", e.name, out, stderr(&o));
        for n in 1..=12 {
            assert!(
                out.contains(&format!("Condition {n:>2} holds")),
                "{}: condition {n} after the load: {out}",
                e.name
            );
        }
        assert_eq!(e.scalar("SELECT COUNT(*) FROM warehouse"), 2);
        assert_eq!(e.scalar("SELECT COUNT(*) FROM item"), 100_000);
        assert_eq!(e.scalar("SELECT COUNT(*) FROM stock"), 200_000);
        assert_eq!(e.scalar("SELECT COUNT(*) FROM customer"), 60_000);
        assert_eq!(e.scalar("SELECT COUNT(*) FROM new_order"), 18_000);

        let next_before = e.scalar("SELECT SUM(d_next_o_id) FROM district");
        let history_before = e.scalar("SELECT COUNT(*) FROM history");
        let new_orders_before = e.scalar("SELECT COUNT(*) FROM new_order");
        let (_, r) = run_to_json(
            // --time=0: the run ends at its 2 300th transaction however slow the machine (with
            // the default --time=10, SQLite on a loaded CI machine stopped at 1 636).
            &e.args(
                &["tpcc", "run"],
                &["--threads=4", "--events=2300", "--time=0"],
            ),
            &format!("tpcc-{}", e.name),
        );
        let t = &r["tpcc"];
        let count = |name: &str| {
            t["transactions"]
                .as_array()
                .unwrap()
                .iter()
                .find(|x| x["name"] == name)
                .unwrap()["count"]
                .as_i64()
                .unwrap()
        };
        let (no, pay, os, del, sl) = (
            count("new_order"),
            count("payment"),
            count("order_status"),
            count("delivery"),
            count("stock_level"),
        );
        let all = no + pay + os + del + sl;
        assert_eq!(all, 2300, "{}: {t}", e.name);
        assert_eq!(all, r["summary"]["events"].as_i64().unwrap());
        // The deck: 10/23, 10/23, 1/23 each, within one point.
        for (n, share) in [(no, 10.0), (pay, 10.0), (os, 1.0), (del, 1.0), (sl, 1.0)] {
            let pct = 100.0 * n as f64 / all as f64;
            let want = 100.0 * share / 23.0;
            assert!(
                (pct - want).abs() <= 1.0,
                "{}: {pct:.2}% vs {want:.2}%",
                e.name
            );
        }
        let rollbacks = t["new_order_rollbacks"].as_i64().unwrap();
        assert!(
            (1..=no * 3 / 100).contains(&rollbacks),
            "{}: {rollbacks} of {no} New-Orders rolled back",
            e.name
        );
        // What the database says happened.
        let committed = e.scalar("SELECT SUM(d_next_o_id) FROM district") - next_before;
        assert_eq!(
            committed,
            no - rollbacks,
            "{}: committed New-Orders",
            e.name
        );
        let payments = e.scalar("SELECT COUNT(*) FROM history") - history_before;
        assert_eq!(payments, pay, "{}: Payments", e.name);
        let skipped = t["delivery_skipped_districts"].as_i64().unwrap();
        let removed = new_orders_before + committed - e.scalar("SELECT COUNT(*) FROM new_order");
        assert_eq!(removed, 10 * del - skipped, "{}: Deliveries", e.name);
        // Stock counters started at 0 and move only with the run's committed order lines
        // (orders past the 3 000 loaded per district).
        let new_lines = "FROM order_line WHERE ol_o_id > 3000";
        assert_eq!(
            e.scalar("SELECT SUM(s_order_cnt) FROM stock"),
            e.scalar(&format!("SELECT COUNT(*) {new_lines}")),
            "{}: S_ORDER_CNT",
            e.name
        );
        assert_eq!(
            e.scalar("SELECT SUM(s_ytd) FROM stock"),
            e.scalar(&format!("SELECT SUM(ol_quantity) {new_lines}")),
            "{}: S_YTD",
            e.name
        );
        assert_eq!(
            e.scalar("SELECT SUM(s_remote_cnt) FROM stock"),
            e.scalar(&format!(
                "SELECT COUNT(*) {new_lines} AND ol_supply_w_id <> ol_w_id"
            )),
            "{}: S_REMOTE_CNT",
            e.name
        );
        // Two warehouses: some Payments are for a remote customer, some lines remote.
        assert!(t["payment_remote_pct"].as_f64().unwrap() > 5.0, "{t}");
        assert!(t["payment_by_name_pct"].as_f64().unwrap() > 45.0, "{t}");
        assert_eq!(r["intervals"].as_array().map(|i| i.is_empty()), Some(false));

        let o = dbpress(&e.args(&["tpcc", "check"], &[]));
        let out = stdout(&o);
        assert!(o.status.success(), "{}: {out}{}", e.name, stderr(&o));
        assert!(out.contains("Condition 11 skipped"), "{out}");
        assert!(!out.contains("FAILED"), "{out}");

        let o = dbpress(&e.args(&["tpcc", "cleanup"], &[]));
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(!e.table_exists("warehouse") && !e.table_exists("tpcc_meta"));
    });
}

#[test]
fn tpcc_runs_in_a_dry_run() {
    let o = dbpress(&[
        "tpcc",
        "run",
        "--mysql-dry-run",
        "--events=500",
        "--output-format=json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let r: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(r["summary"]["events"], 500);
    assert!(r["tpcc"]["tpmc"].as_u64().unwrap() > 0);
}

/// One pass of the deck on one terminal with keying and think times at 1/200 of the spec's: the
/// keying times alone (10 x 18 s + 10 x 3 s + 3 x 2 s) / 200 = 1.08 s pass before the run ends,
/// and none of the pauses is in any transaction's latency.
#[test]
fn tpcc_think_time_pauses_between_transactions_outside_their_latency() {
    let o = dbpress(&[
        "tpcc",
        "run",
        "--mysql-dry-run",
        "--events=23",
        "--think-time=0.005",
        "--output-format=json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let r: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let total = r["summary"]["total_time_s"].as_f64().unwrap();
    let keying = (10.0 * 18.0 + 10.0 * 3.0 + 3.0 * 2.0) * 0.005;
    assert!(total >= keying, "{total} s < the keying times' {keying} s");
    let in_transactions: f64 = r["tpcc"]["transactions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["count"].as_f64().unwrap() * t["avg_ms"].as_f64().unwrap() / 1000.0)
        .sum();
    assert!(
        in_transactions <= total - keying,
        "transactions took {in_transactions} s of {total} s: the pauses were timed"
    );
    assert_eq!(r["tpcc"]["think_time"], 0.005);
    let counts: Vec<u64> = r["tpcc"]["transactions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["count"].as_u64().unwrap())
        .collect();
    assert_eq!(counts, [10, 10, 1, 1, 1]);
    // Paced twice over is refused.
    let o = dbpress(&["tpcc", "run", "--mysql-dry-run", "--think-time", "--rate=5"]);
    assert_fails_with(&o, 2, "--think-time and --rate both pace the terminals");
}

#[test]
fn tpcc_names_a_missing_or_interrupted_load_and_drops_only_what_it_loaded() {
    let dir = scratch("tpcc-missing");
    let db = format!("--db=sqlite:{}", dir.join("t.sqlite").display());
    let o = dbpress(&["tpcc", "run", &db, "--events=10"]);
    assert_fails_with(
        &o,
        2,
        "no TPC-C tables here: run `dbpress tpcc --db=sqlite:",
    );
    let o = dbpress(&["tpcc", "check", &db]);
    assert_fails_with(&o, 2, " prepare` first");

    // A load that never finished says so.
    let c = rusqlite::Connection::open(dir.join("t.sqlite")).unwrap();
    c.execute_batch(
        "CREATE TABLE tpcc_meta (warehouses INT, c_last INT, c_id INT, ol_i_id INT, state TEXT, loaded_at TEXT, sets INT);
         INSERT INTO tpcc_meta VALUES (3, 1, 2, 3, 'loading', '0', 0);",
    )
    .unwrap();
    let o = dbpress(&["tpcc", "run", &db, "--events=10"]);
    assert_fails_with(&o, 2, "did not finish");
    let o = dbpress(&["tpcc", "check", &db]);
    assert_fails_with(&o, 2, "did not finish");

    // A `warehouse` table nobody vouches for is left alone.
    c.execute_batch("DROP TABLE tpcc_meta; CREATE TABLE warehouse (w_id INT);")
        .unwrap();
    let o = dbpress(&["tpcc", "cleanup", &db]);
    assert_fails_with(&o, 2, "drops only what it loaded");
    let n: i64 = c
        .query_row(
            "SELECT COUNT(*) FROM sqlite_master WHERE name = 'warehouse'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(n, 1);
}

/// tpcc-mysql's two command lines, pasted: the load, a part that has nothing left to do, and a
/// run that ends with tpcc_start's blocks, whose response-time check compares like with like.
#[test]
fn pasted_tpcc_mysql_lines_load_run_and_print_its_blocks() {
    let Some(_srv) = server("tpcc_mysql") else {
        return;
    };
    let conn = [
        "-h",
        "127.0.0.1",
        "-P",
        "3306",
        "-d",
        "sbtest",
        "-u",
        "sbtest",
        "-p",
        "sbtest",
    ];
    let with = |head: &str, tail: &[&str]| {
        let mut a = vec![head];
        a.extend_from_slice(&conn);
        a.extend_from_slice(tail);
        dbpress(&a)
    };
    let o = dbpress(&[
        "tpcc",
        "cleanup",
        "--mysql-socket",
        SOCKET,
        "--mysql-user=sbtest",
        "--mysql-password=sbtest",
        "--mysql-db=sbtest",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = with("tpcc-load", &["-w", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("Condition 12 holds"), "{}", stdout(&o));
    let o = with("tpcc-load", &["-w", "1", "-l", "3", "-m", "1", "-n", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("nothing to do"), "{}", stdout(&o));

    let o = with(
        "tpcc-start",
        &["-w", "1", "-c", "2", "-r", "1", "-l", "3", "-i", "1"],
    );
    let out = stdout(&o);
    assert!(o.status.success(), "{out}{}", stderr(&o));
    for block in [
        "<Raw Results>",
        "<Raw Results2(sum ver.)>",
        "<Constraint Check>",
        "<TpmC>",
    ] {
        assert!(out.contains(block), "{block} missing: {out}");
    }
    assert!(out.contains("      New-Order: 100.00%  [OK]"), "{out}");
    assert!(!out.contains("[NG]"), "{out}");
    let tm_tpmc: f64 = out
        .lines()
        .find(|l| l.trim_end().ends_with("TpmC") && l.split_whitespace().count() == 2)
        .and_then(|l| l.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no TpmC line: {out}"));
    let dbpress_tpmc: f64 = out
        .lines()
        .find_map(|l| l.trim().strip_prefix("tpmC: "))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no tpmC line: {out}"));
    assert!(
        tm_tpmc > 0.0 && (tm_tpmc - dbpress_tpmc).abs() <= 1.0,
        "{tm_tpmc} vs {dbpress_tpmc}"
    );
    // Its warehouses are drawn per transaction, as tpcc_start draws them.
    assert!(out.contains("a random warehouse per transaction"), "{out}");

    let o = with("tpcc-start", &["-w", "1", "-x", "1"]);
    assert_fails_with(&o, 2, "unknown flag -x");
    let o = dbpress(&[
        "tpcc",
        "cleanup",
        "--mysql-socket",
        SOCKET,
        "--mysql-user=sbtest",
        "--mysql-password=sbtest",
        "--mysql-db=sbtest",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// sysbench-tpcc's options: `--tables=2` builds two numbered table sets (`warehouse1`,
/// `warehouse2`, …, its naming), runs use both, `check` and `cleanup` cover both; `--trx_level`
/// and `--force_pk` are taken, `--enable_purge` is refused in one line.
#[test]
fn sysbench_tpcc_table_sets_and_options_on_every_engine() {
    each_engine("tpcc_sets", |e| {
        let cleanup = dbpress(&e.args(&["tpcc", "cleanup"], &[]));
        assert!(cleanup.status.success(), "{}", stderr(&cleanup));
        let o = dbpress(&e.args(
            &["tpcc", "prepare"],
            &[
                "--scale=1",
                "--tables=2",
                "--threads=2",
                "--force_pk=1",
                "--use_fk=0",
            ],
        ));
        assert!(
            o.status.success(),
            "{}: {}{}",
            e.name,
            stdout(&o),
            stderr(&o)
        );
        for set in ["1", "2"] {
            assert_eq!(e.scalar(&format!("SELECT COUNT(*) FROM warehouse{set}")), 1);
            assert_eq!(
                e.scalar(&format!("SELECT COUNT(*) FROM item{set}")),
                100_000
            );
            // --force_pk: HISTORY has an id key filled by the server.
            assert_eq!(
                e.scalar(&format!("SELECT COUNT(DISTINCT id) FROM history{set}")),
                30_000
            );
        }
        assert!(
            !e.table_exists("warehouse"),
            "{}: no unnumbered set",
            e.name
        );
        let next_o_ids = |e: &mut crate::engines::Engine| -> Vec<i64> {
            (1..=2)
                .map(|s| e.scalar(&format!("SELECT SUM(d_next_o_id) FROM district{s}")))
                .collect()
        };
        let before = next_o_ids(e);
        let trx = if e.name == "sqlite" {
            "--trx_level=SER"
        } else {
            "--trx_level=RC"
        };
        let (_, r) = run_to_json(
            &e.args(
                &["tpcc", "run"],
                &[
                    "--tables=2",
                    "--threads=2",
                    "--events=400",
                    "--home-warehouse=random",
                    trx,
                ],
            ),
            &format!("tpcc-sets-{}", e.name),
        );
        let t = &r["tpcc"];
        let no = t["transactions"][0]["count"].as_i64().unwrap();
        let committed = no - t["new_order_rollbacks"].as_i64().unwrap();
        let rises: Vec<i64> = next_o_ids(e)
            .iter()
            .zip(&before)
            .map(|(a, b)| a - b)
            .collect();
        assert_eq!(rises.iter().sum::<i64>(), committed, "{}", e.name);
        assert!(
            rises.iter().all(|&r| r > 0),
            "{}: both sets took New-Orders: {rises:?}",
            e.name
        );
        let o = dbpress(&e.args(&["tpcc", "check"], &[]));
        let out = stdout(&o);
        assert!(o.status.success(), "{}: {out}{}", e.name, stderr(&o));
        assert!(out.contains("Table set 2"), "{out}");
        let o = dbpress(&e.args(&["tpcc", "run"], &["--tables=3", "--events=10"]));
        assert_fails_with(
            &o,
            2,
            "--tables=3 asks for 3 table set(s) but 2 were prepared",
        );
        let o = dbpress(&e.args(&["tpcc", "run"], &["--tables=2", "--enable_purge=yes"]));
        assert_fails_with(&o, 2, "purge");
        let o = dbpress(&e.args(&["tpcc", "cleanup"], &[]));
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(!e.table_exists("warehouse2") && !e.table_exists("tpcc_meta"));
    });
}

/// Another tool's checker agrees: go-tpc's `check` (built by scripts/go-tpc.sh) passes on a
/// database that dbpress loaded and ran, since the tables have the spec's names and columns.
#[test]
fn go_tpc_check_passes_on_a_database_dbpress_loaded_and_ran() {
    let go_tpc = std::env::var("DBPRESS_GO_TPC").unwrap_or_else(|_| {
        concat!(env!("CARGO_MANIFEST_DIR"), "/target/peers/go-tpc").to_string()
    });
    if !std::path::Path::new(&go_tpc).exists() {
        if std::env::var("CI").is_ok_and(|v| v == "true" || v == "1") {
            panic!("go-tpc is required in CI: scripts/go-tpc.sh builds it into {go_tpc}");
        }
        eprintln!("SKIPPED go_tpc_check: no {go_tpc}; build it with scripts/go-tpc.sh");
        return;
    }
    let Some(_srv) = server("go_tpc_check") else {
        return;
    };
    let conn = [
        "--mysql-host=127.0.0.1",
        "--mysql-port=3306",
        "--mysql-user=sbtest",
        "--mysql-password=sbtest",
        "--mysql-db=sbtest",
    ];
    let with = |head: &[&str], tail: &[&str]| {
        let mut a = head.to_vec();
        a.extend_from_slice(&conn);
        a.extend_from_slice(tail);
        dbpress(&a)
    };
    let o = with(&["tpcc", "cleanup"], &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    // --use-fk adds HISTORY's indexes, which go-tpc's per-customer checks need to be quick.
    let o = with(
        &["tpcc", "prepare"],
        &["--warehouses=1", "--use-fk", "--no-check"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let o = with(&["tpcc", "run"], &["--threads=2", "--events=500"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = std::process::Command::new(&go_tpc)
        .args([
            "tpcc",
            "-H",
            "127.0.0.1",
            "-P",
            "3306",
            "-U",
            "sbtest",
            "-p",
            "sbtest",
            "-D",
            "sbtest",
            "--warehouses",
            "1",
            "check",
        ])
        .output()
        .expect("go-tpc runs");
    let out = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(o.status.success(), "go-tpc check failed: {out}");
    assert!(!out.to_lowercase().contains("fail"), "{out}");
    let o = with(&["tpcc", "cleanup"], &[]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// `check` names the condition that fails and its first offending key; condition 10, checked
/// through 12 when 12 holds, is checked in full when 12 does not.
#[test]
fn check_names_each_broken_condition_and_its_first_key() {
    let dir = scratch("tpcc-broken");
    let db = format!("--db=sqlite:{}", dir.join("t.sqlite").display());
    let o = dbpress(&["tpcc", "prepare", &db, "--threads=2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let c = rusqlite::Connection::open(dir.join("t.sqlite")).unwrap();
    // A payment recorded in C_YTD_PAYMENT alone: 12 breaks, 10 still holds.
    c.execute_batch(
        "UPDATE customer SET c_ytd_payment = c_ytd_payment + 1 WHERE c_d_id = 3 AND c_id = 7",
    )
    .unwrap();
    let o = dbpress(&["tpcc", "check", &db, "--threads=2"]);
    let out = stdout(&o);
    assert_fails_with(&o, 1, "condition 12 at w_id=1, d_id=3, c_id=7");
    assert!(out.contains("Condition 10 holds"), "{out}");
    // A balance changed alone: both break, at the same customer.
    c.execute_batch(
        "UPDATE customer SET c_ytd_payment = c_ytd_payment - 1 WHERE c_d_id = 3 AND c_id = 7;
         UPDATE customer SET c_balance = c_balance + 5 WHERE c_d_id = 2 AND c_id = 9;",
    )
    .unwrap();
    let o = dbpress(&["tpcc", "check", &db]);
    assert_fails_with(
        &o,
        1,
        "condition 10 at w_id=1, d_id=2, c_id=9; condition 12 at w_id=1, d_id=2, c_id=9",
    );
    // A gap in NEW-ORDER.
    c.execute_batch(
        "UPDATE customer SET c_balance = c_balance - 5 WHERE c_d_id = 2 AND c_id = 9;
         DELETE FROM new_order WHERE no_d_id = 4 AND no_o_id = 2500;",
    )
    .unwrap();
    let o = dbpress(&["tpcc", "check", &db]);
    let out = stdout(&o);
    assert!(out.contains("Condition  3 FAILED"), "{out}");
    assert!(
        stderr(&o).contains("condition 3 at w_id=1, d_id=4"),
        "{}",
        stderr(&o)
    );
    // Order lines gone from two districts: 4 and 6 break, each named at the lower district
    // (the screen that asks 4, 6 and 7 in one pass flags them; their own queries find the key).
    // A delivered line marked undelivered breaks 7.
    c.execute_batch(
        "INSERT INTO new_order VALUES (2500, 4, 1);
         DELETE FROM order_line WHERE ol_d_id = 9 AND ol_o_id = 300 AND ol_number = 1;
         DELETE FROM order_line WHERE ol_d_id = 2 AND ol_o_id = 700 AND ol_number = 1;
         UPDATE order_line SET ol_delivery_d = NULL WHERE ol_d_id = 5 AND ol_o_id = 10 AND ol_number = 2;",
    )
    .unwrap();
    let o = dbpress(&["tpcc", "check", &db, "--threads=2"]);
    let (out, err) = (stdout(&o), stderr(&o));
    assert!(out.contains("Condition  3 holds"), "{out}");
    for broken in [
        "condition 4 at w_id=1, d_id=2;",
        "condition 6 at w_id=1, d_id=2, o_id=700;",
        "condition 7 at w_id=1, d_id=5, o_id=10",
    ] {
        assert!(err.contains(broken), "{broken} not in {err}");
    }
    assert!(out.contains("Condition  5 holds"), "{out}");
}
