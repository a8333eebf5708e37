use super::*;
use crate::test_sqlite::TestDb;

fn strings(s: &[&str]) -> Vec<String> {
    s.iter().map(|x| x.to_string()).collect()
}

#[test]
fn a_round_drops_what_it_created_and_keeps_what_was_there() {
    let db = TestDb::new("slap-round");
    let ctx = db.ctx();
    let mut conn = ctx.connect(0).unwrap();
    conn.query("CREATE TABLE mine (a int)").unwrap();
    let mut t = SlapTables {
        create: strings(&[
            "CREATE TABLE made (a int)",
            "INSERT INTO made VALUES (1)",
            "CREATE TABLE IF NOT EXISTS mine (a int)",
        ]),
        pre: strings(&["INSERT INTO made VALUES (2)"]),
        post: strings(&["INSERT INTO mine VALUES (3)"]),
        ..SlapTables::default()
    };
    let mut out = Vec::new();
    t.set_up(conn.as_mut(), &ctx, None, &mut out).unwrap();
    drop(conn);
    assert_eq!(String::from_utf8(out).unwrap(), "");
    assert_eq!(db.tables(), ["made", "mine"]);
    assert_eq!(
        t.left_behind_note(),
        "; drop the tables it created (made) if they are still there"
    );
    let mut between = 0;
    t.tear_down(&ctx, || between += 1).unwrap();
    assert_eq!(between, 1);
    assert_eq!(db.tables(), ["mine"]);
    let mut conn = ctx.connect(0).unwrap();
    let rows = conn.query_rows("SELECT COUNT(*) FROM mine").unwrap();
    assert_eq!(rows[0][0].as_deref(), Some("1"), "--post-query ran");
}

#[test]
fn tables_all_there_are_used_and_a_failed_create_takes_back_what_it_made() {
    let db = TestDb::new("slap-failed");
    let ctx = db.ctx();
    let mut conn = ctx.connect(0).unwrap();
    conn.query("CREATE TABLE kept (a int)").unwrap();
    let mut t = SlapTables {
        create: strings(&["CREATE TABLE kept (a int)"]),
        ..SlapTables::default()
    };
    let mut out = Vec::new();
    t.set_up(conn.as_mut(), &ctx, None, &mut out).unwrap();
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "Tables of --create already exist (kept): using them as they are.\n"
    );
    assert_eq!(t.left_behind_note(), "");
    let mut t = SlapTables {
        create: strings(&["CREATE TABLE first (a int)", "CREATE TABLE broken (a int"]),
        ..SlapTables::default()
    };
    let e = match t.set_up(conn.as_mut(), &ctx, None, &mut std::io::sink()) {
        Err(SetUpFailed::Run(e)) => e,
        other => panic!("{other:?}"),
    };
    assert!(
        e.message()
            .starts_with("--create statement failed: server error "),
        "{}",
        e.message()
    );
    drop(conn);
    assert_eq!(db.tables(), ["kept"]);
}

#[test]
fn a_generated_t1_never_overwrites_one_the_run_did_not_make() {
    let db = TestDb::new("slap-t1");
    let ctx = db.ctx();
    let mut conn = ctx.connect(0).unwrap();
    conn.query("CREATE TABLE t1 (a int)").unwrap();
    let mut t = SlapTables {
        create: strings(&["CREATE TABLE t1 (id int)"]),
        generated: true,
        ..SlapTables::default()
    };
    match t.set_up(conn.as_mut(), &ctx, None, &mut std::io::sink()) {
        Err(SetUpFailed::Run(e)) => {
            assert!(e.message().starts_with("a table named t1 already exists"))
        }
        other => panic!("{other:?}"),
    }
    drop(conn);
    assert_eq!(db.tables(), ["t1"]);
}

#[test]
fn only_create_table_statements_get_the_engine() {
    let t = SlapTables {
        create: strings(&[
            "CREATE TABLE t (a int)  ",
            "create temporary table u (a int)",
            "INSERT INTO t VALUES (1)",
            "CREATE INDEX i ON t (a)",
        ]),
        ..SlapTables::default()
    };
    let e = StorageEngine {
        name: "memory".into(),
        option: None,
    };
    assert_eq!(
        t.create_for(Some(&e)),
        [
            "CREATE TABLE t (a int) ENGINE = memory",
            "create temporary table u (a int) ENGINE = memory",
            "INSERT INTO t VALUES (1)",
            "CREATE INDEX i ON t (a)",
        ]
    );
    assert_eq!(t.create_for(None), t.create);
    assert_eq!(
        e.header_line(),
        "Storage engine: memory (--engine: `ENGINE = memory` appended to each CREATE TABLE)"
    );
}

#[test]
fn created_tables_are_found_in_create_statements() {
    let s = strings(&[
        "CREATE TABLE seckill (id int primary key, num int)",
        "create table if not exists `shop`.`orders`(id int)",
        "INSERT INTO seckill VALUES (1, 100)",
    ]);
    assert_eq!(created_tables(&s), vec!["seckill", "orders"]);
}
