use super::super::parse;
use super::super::workload::{ScriptWorkload, Tables};
use super::*;
use crate::test_sqlite::TestDb;
use crate::workload::Workload;

fn workload(name: &str, text: &str) -> ScriptWorkload {
    let script = parse::parse(name, text, 1).unwrap();
    let globals = HashMap::from([("rows".to_string(), Value::Int(3))]);
    ScriptWorkload::new(vec![script], globals).on_tables(Tables::Scripted { seed: 7 })
}

#[test]
fn a_users_prepare_and_cleanup_scripts_run_once_with_their_values_bound() {
    let db = TestDb::new("script-run-once");
    let ctx = db.ctx();
    let prepare = workload(
        "init.sql",
        "CREATE TABLE u (a INTEGER, b TEXT);\n\\set twice :rows * 2\nINSERT INTO u VALUES (:twice, 'x');\nINSERT INTO u VALUES (:scale, 'y');\n",
    );
    assert!(prepare.prepare(&ctx).unwrap().is_none());
    let mut conn = ctx.connect(0).unwrap();
    let rows = conn.query_rows("SELECT a, b FROM u ORDER BY b").unwrap();
    assert_eq!(
        rows,
        [
            [Some("6".to_string()), Some("x".to_string())],
            [Some("1".to_string()), Some("y".to_string())]
        ]
    );
    drop(conn);
    let e = prepare.prepare(&ctx).unwrap_err();
    assert!(
        e.message().starts_with("init.sql:1: server error "),
        "{}",
        e.message()
    );
    workload("drop.sql", "DROP TABLE u;\n")
        .cleanup(&ctx)
        .unwrap();
    assert!(db.tables().is_empty());
}
