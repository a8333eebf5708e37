//! Issue 42: dbpress invoked as tpcc_load (a link named `tpcc_load`) beside tpcc-mysql's own
//! tpcc_load (built by scripts/tpcc-mysql.sh into target/peers): the same text for refused
//! lines and for loads into tpcc-mysql's tables (made by its create_table.sql), the same
//! statements as the server counts them, the same rows per table.

use crate::common::{numbers_as_n, peer_link, run_in, scratch, server, stderr, stdout, Server};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Output;

const OURS: &str = "tpcc_as_tpcc_load";
const THEIRS: &str = "tpcc_as_tpcc_load_peer";
const TABLES: [&str; 9] = [
    "warehouse",
    "district",
    "customer",
    "history",
    "new_orders",
    "orders",
    "order_line",
    "item",
    "stock",
];
/// The server's counters a load moves, compared between the two programs.
const COUNTERS: [&str; 7] = [
    "Com_stmt_prepare",
    "Com_stmt_execute",
    "Com_stmt_close",
    "Com_insert",
    "Com_commit",
    "Com_rollback",
    "Com_set_option",
];

fn peer_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("target/peers/tpcc-mysql")
}

/// tpcc-mysql's tpcc_load, where scripts/tpcc-mysql.sh could build it.
fn peer() -> Option<PathBuf> {
    let p = peer_dir().join("tpcc_load");
    if p.exists() {
        return Some(p);
    }
    eprintln!("NOTE: no {}: scripts/tpcc-mysql.sh builds it where tpcc-mysql's source is kept; only dbpress's side is checked", p.display());
    None
}

/// Every number as `N`, the program's path as `PROGRAM`, the database names as `DB`, and the
/// password's two lines as dbpress prints them (it stars the password tpcc_load shows).
fn masked(text: &str, program: &Path) -> String {
    let t = text
        .replace(&program.display().to_string(), "PROGRAM")
        .replace(THEIRS, "DB")
        .replace(OURS, "DB")
        .replace(
            "option p with value 'sbtest'",
            "option p with value '*****'",
        )
        .replace("[pass]: sbtest", "[pass]: *****");
    numbers_as_n(&t)
}

#[test]
fn issue_42_as_tpcc_load_refused_lines_are_its_text() {
    let dir = scratch("as-tpcc-load-lines");
    let l = peer_link(&dir, "tpcc_load");
    let banner = "*************************************\n*** TPCC-mysql Data Loader        ***\n*************************************\n";
    let usage = "Usage: tpcc_load -h server_host -P port -d database_name -u mysql_user -p mysql_password -w warehouses -l part -m min_wh -n max_wh\n* [part]: 1=ITEMS 2=WAREHOUSE 3=CUSTOMER 4=ORDERS\n";
    let o = run_in(&l, &dir, &["-x"]);
    assert_eq!(stdout(&o), format!("{banner}{usage}"));
    assert_eq!(
        stderr(&o),
        format!("{}: invalid option -- 'x'\n", l.display())
    );
    assert_eq!(o.status.code(), Some(0));
    let o = run_in(&l, &dir, &["-h", "127.0.0.1", "-w"]);
    assert_eq!(
        stdout(&o),
        format!("{banner}option h with value '127.0.0.1'\n{usage}")
    );
    assert_eq!(
        stderr(&o),
        format!("{}: option requires an argument -- 'w'\n", l.display())
    );
    // No -d: tpcc_load reads garbage there; dbpress names what is missing, in one line.
    let o = run_in(&l, &dir, &["-h", "127.0.0.1", "-w", "1"]);
    assert_eq!(o.status.code(), Some(255));
    assert!(stdout(&o).ends_with("  [warehouse]: 1\n"), "{}", stdout(&o));
    assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
    assert!(stderr(&o).contains("no -d: "), "{}", stderr(&o));
    let Some(peer) = peer() else { return };
    for args in [
        &["-x"][..],
        &["--help"],
        &["-h", "127.0.0.1", "-P", "3306", "-w"],
        &["-h", "127.0.0.1", "-Z", "-w", "1"],
        // A word that is no option, and a server that is not there: the client library's line.
        &[
            "-h",
            "127.0.0.1",
            "-P",
            "1",
            "-d",
            "x",
            "-u",
            "u",
            "-p",
            "sbtest",
            "-w",
            "1",
            "extra",
        ],
    ] {
        let (theirs, ours) = (run_in(&peer, &dir, args), run_in(&l, &dir, args));
        assert_eq!(
            masked(&stdout(&ours), &l),
            masked(&stdout(&theirs), &peer),
            "{args:?}"
        );
        assert_eq!(
            masked(&stderr(&ours), &l),
            masked(&stderr(&theirs), &peer),
            "{args:?}"
        );
        assert_eq!(ours.status.code(), theirs.status.code(), "{args:?}");
    }
}

/// An empty database `db` with tpcc-mysql's tables, from its create_table.sql.
fn empty_tables(srv: &mut Server, db: &str) {
    use mysql::prelude::Queryable;
    let ddl = std::fs::read_to_string(peer_dir().join("create_table.sql")).unwrap();
    srv.conn
        .query_drop(format!(
            "DROP DATABASE IF EXISTS {db}; CREATE DATABASE {db}; USE {db}"
        ))
        .unwrap();
    srv.conn.query_drop(ddl).unwrap();
    srv.conn.query_drop("USE sbtest").unwrap();
}

/// Run `program` with tpcc_load's line for `db` and `more`; its output and what the server
/// counted meanwhile.
fn load(
    srv: &mut Server,
    program: &Path,
    dir: &Path,
    db: &str,
    more: &[&str],
) -> (Output, HashMap<String, u64>) {
    let line = [
        "-h",
        "127.0.0.1",
        "-P",
        "3306",
        "-d",
        db,
        "-u",
        "sbtest",
        "-p",
        "sbtest",
    ];
    let args: Vec<&str> = line.iter().chain(more).copied().collect();
    let before = srv.com();
    let o = run_in(program, dir, &args);
    let after = srv.com();
    let delta = COUNTERS
        .iter()
        .map(|k| (k.to_string(), after[*k] - before[*k]))
        .collect();
    (o, delta)
}

fn rows(srv: &mut Server, db: &str) -> Vec<i64> {
    TABLES
        .iter()
        .map(|t| srv.count_rows(&format!("{db}`.`{t}")).unwrap())
        .collect()
}

/// Parts 1 (ITEM) and 3 (CUSTOMER, HISTORY) of warehouse 1, then a whole load of 0 warehouses
/// (ITEM again, after emptying it): the same text, exit code and Com_* counts as tpcc_load's,
/// and the same rows. Part 4 (ORDERS) is checked on dbpress's side alone: its rows are drawn.
#[test]
fn issue_42_as_tpcc_load_loads_with_tpcc_loads_statements_and_text() {
    let Some(mut srv) = server("as_tpcc_load_loads") else {
        return;
    };
    let Some(peer) = peer() else { return };
    let dir = scratch("as-tpcc-load-loads");
    let l = peer_link(&dir, "tpcc_load");
    for db in [OURS, THEIRS] {
        empty_tables(&mut srv, db);
    }
    let parts: [&[&str]; 2] = [
        &["-w", "1", "-l", "1", "-m", "1", "-n", "1"],
        &["-w", "1", "-l", "3", "-m", "1", "-n", "1"],
    ];
    for more in parts {
        let (ours, our_counts) = load(&mut srv, &l, &dir, OURS, more);
        let (theirs, their_counts) = load(&mut srv, &peer, &dir, THEIRS, more);
        assert_eq!(ours.status.code(), Some(0), "{}", stderr(&ours));
        assert_eq!(
            masked(&stdout(&ours), &l),
            masked(&stdout(&theirs), &peer),
            "{more:?}"
        );
        assert_eq!(stderr(&ours), stderr(&theirs), "{more:?}");
        assert_eq!(our_counts, their_counts, "{more:?}");
        assert!(
            !stdout(&ours).contains("option p with value 'sbtest'")
                && !stdout(&ours).contains("[pass]: sbtest"),
            "no password in {}",
            stdout(&ours)
        );
    }
    assert_eq!(rows(&mut srv, OURS), rows(&mut srv, THEIRS));
    assert_eq!(
        rows(&mut srv, OURS),
        [0, 0, 30_000, 30_000, 0, 0, 0, 100_000, 0]
    );

    // A whole load (no -l) of 0 warehouses loads ITEM and says every part's heading.
    use mysql::prelude::Queryable;
    for db in [OURS, THEIRS] {
        srv.conn.query_drop(format!("TRUNCATE {db}.item")).unwrap();
    }
    let (ours, our_counts) = load(&mut srv, &l, &dir, OURS, &["-w", "0"]);
    let (theirs, their_counts) = load(&mut srv, &peer, &dir, THEIRS, &["-w", "0"]);
    assert_eq!(masked(&stdout(&ours), &l), masked(&stdout(&theirs), &peer));
    assert_eq!(ours.status.code(), theirs.status.code());
    assert_eq!(our_counts, their_counts);

    // Rows that are there already: tpcc_load tries again forever; dbpress prints its error
    // line once, says why it stops in one line, and exits as tpcc_load does when it cannot go on.
    let (again, counts) = load(
        &mut srv,
        &l,
        &dir,
        OURS,
        &["-w", "1", "-l", "1", "-m", "1", "-n", "1"],
    );
    assert_eq!(again.status.code(), Some(255));
    assert!(
        stdout(&again)
            .ends_with("Loading Item \n\n1062, 23000, Duplicate entry '1' for key 'PRIMARY'\n"),
        "{}",
        stdout(&again)
    );
    assert_eq!(stderr(&again).lines().count(), 1, "{}", stderr(&again));
    assert!(
        stderr(&again).contains("loaded already"),
        "{}",
        stderr(&again)
    );
    assert_eq!((counts["Com_rollback"], counts["Com_commit"]), (1, 0));

    // Part 4 on dbpress's side: each order's lines, NEW-ORDER rows for the undelivered, a
    // COMMIT per district and one after them, a COM_STMT_EXECUTE per row.
    let (ours, counts) = load(
        &mut srv,
        &l,
        &dir,
        OURS,
        &["-w", "1", "-l", "4", "-m", "1", "-n", "1"],
    );
    assert_eq!(ours.status.code(), Some(0), "{}", stderr(&ours));
    let r = rows(&mut srv, OURS);
    let (new_orders, orders, lines) = (r[4], r[5], r[6]);
    assert_eq!((new_orders, orders), (9_000, 30_000));
    let sum: i64 = srv
        .conn
        .query_first(format!("SELECT SUM(o_ol_cnt) FROM {OURS}.orders"))
        .unwrap()
        .unwrap();
    assert_eq!(lines, sum);
    let undelivered: (i64, i64, i64) = srv
        .conn
        .query_first(format!(
            "SELECT SUM(o_carrier_id IS NULL), SUM(o_carrier_id IS NULL AND o_id > 2100), \
             (SELECT COUNT(*) FROM {OURS}.order_line WHERE (ol_delivery_d IS NULL) <> (ol_o_id > 2100)) \
             FROM {OURS}.orders"
        ))
        .unwrap()
        .unwrap();
    assert_eq!(undelivered, (9_000, 9_000, 0));
    assert_eq!(
        counts["Com_stmt_execute"],
        (new_orders + orders + lines) as u64
    );
    assert_eq!(counts["Com_commit"], 12);
    assert!(stdout(&ours).contains("Loading Orders for D=10, W= 1\n.......... 1000\n.......... 2000\n.......... 3000\nOrders Done.\n\n...DATA LOADING COMPLETED SUCCESSFULLY.\n"));
    for db in [OURS, THEIRS] {
        srv.conn.query_drop(format!("DROP DATABASE {db}")).unwrap();
    }
}
