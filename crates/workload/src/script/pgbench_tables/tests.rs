use super::*;
use crate::test_sqlite::TestDb;

#[test]
fn prepare_makes_the_four_tables_at_the_scale_and_cleanup_drops_them() {
    let db = TestDb::new("pgbench-tables");
    let ctx = db.ctx();
    let tables = PgbenchTables {
        scale: 2,
        no_vacuum: true,
    };
    tables.prepare(&ctx).unwrap();
    assert_eq!(
        db.tables(),
        [
            "pgbench_accounts",
            "pgbench_branches",
            "pgbench_history",
            "pgbench_tellers"
        ]
    );
    assert_eq!(scale(&ctx).unwrap(), 2);
    let mut conn = ctx.connect(0).unwrap();
    let count = |conn: &mut dyn Connection, t: &str| {
        conn.query_rows(&format!("SELECT COUNT(*), MAX(bid) FROM {t}"))
            .unwrap()[0]
            .clone()
    };
    assert_eq!(
        count(conn.as_mut(), "pgbench_accounts"),
        [Some("200000".to_string()), Some("2".to_string())]
    );
    assert_eq!(
        count(conn.as_mut(), "pgbench_tellers"),
        [Some("20".to_string()), Some("2".to_string())]
    );
    drop(conn);
    // A second prepare would mix two loads.
    let e = tables.prepare(&ctx).unwrap_err();
    assert_eq!(
        e.message(),
        "table 'pgbench_history' already exists: run `dbpress script cleanup` with the same options first"
    );
    cleanup(&ctx).unwrap();
    assert!(db.tables().is_empty(), "{:?}", db.tables());
    let e = scale(&ctx).unwrap_err();
    assert!(e
        .message()
        .starts_with("cannot read the scale from pgbench_branches"));
}
