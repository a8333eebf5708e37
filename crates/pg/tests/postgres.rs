//! dbpress-pg on its own against the test PostgreSQL that scripts/services.sh starts: logins
//! over the socket directory and over TCP, prepared and text statements classified as sysbench
//! does, COPY, server errors with their SQLSTATEs and kinds. Nothing of dbpress above this
//! crate is used. With CI=true an unreachable server fails the tests; otherwise they say
//! SKIPPED.

use dbpress_pg::{PgSslMode, PgTarget, PgWire, PLAIN_FIXES};
use dbpress_session::{Connection, DbErrorKind, QueryKind, RowBatch, Secret, Value};

fn target(host: &str, password: &str) -> PgTarget {
    PgTarget {
        host: host.into(),
        port: 5432,
        user: "sbtest".into(),
        password: Secret::new(password.into()),
        db: "sbtest".into(),
        ssl: PgSslMode::Disable,
        ssl_root_cert: None,
        client_cert: None,
        schema: None,
        options: None,
        connect_timeout: Some(std::time::Duration::from_secs(10)),
        application_name: dbpress_pg::RUN_APPLICATION,
        fixes: &PLAIN_FIXES,
    }
}

/// A session as sbtest, or None (after saying so) where no server runs outside CI.
fn open(test: &str, host: &str, text_mode: bool) -> Option<PgWire> {
    match PgWire::open(&target(host, "sbtest"), None, text_mode) {
        Ok(c) => Some(c),
        Err(e) if e.kind == DbErrorKind::Unreachable || e.code == "08006" => {
            if std::env::var("CI").is_ok_and(|v| v == "true" || v == "1") {
                panic!("{test}: PostgreSQL is required in CI but unreachable: {e}");
            }
            eprintln!(
                "SKIPPED {test}: PostgreSQL not reachable ({e}); start it with scripts/services.sh"
            );
            None
        }
        Err(e) => panic!("{test}: {e}"),
    }
}

const SOCKET_DIR: &str = "/var/run/postgresql";

#[test]
fn statements_prepare_execute_and_count_as_sysbench_counts_them() {
    for text_mode in [false, true] {
        let Some(mut c) = open("statements", SOCKET_DIR, text_mode) else {
            return;
        };
        let create = "CREATE TEMPORARY TABLE t (id INT PRIMARY KEY, c VARCHAR(10))";
        assert_eq!(c.query(create).unwrap(), QueryKind::Other);
        let insert = c.prepare("INSERT INTO t VALUES (?, ?)").unwrap();
        for (id, text) in [(1, "a"), (2, "it's")] {
            let kind = c.execute(insert, &[Value::Int(id), Value::Str(text.as_bytes())]);
            assert_eq!(kind.unwrap(), QueryKind::Write, "text mode {text_mode}");
        }
        let select = c.prepare("SELECT c FROM t WHERE id = ?").unwrap();
        assert_eq!(
            c.execute(select, &[Value::Int(2)]).unwrap(),
            QueryKind::Read
        );
        let update = c.prepare("UPDATE t SET c = 'x' WHERE id = ?").unwrap();
        assert_eq!(
            c.execute(update, &[Value::Int(99)]).unwrap(),
            QueryKind::Other
        );
        assert_eq!(
            c.query_rows("SELECT id, c FROM t ORDER BY id").unwrap(),
            [
                [Some("1".to_string()), Some("a".to_string())],
                [Some("2".to_string()), Some("it's".to_string())]
            ]
        );
        let pid = c.query_rows("SELECT pg_backend_pid()").unwrap()[0][0].clone();
        assert_eq!(c.session_id().map(|i| i.to_string()), pid);
    }
}

#[test]
fn bulk_loads_go_through_copy() {
    let Some(mut c) = open("copy", SOCKET_DIR, false) else {
        return;
    };
    c.query("CREATE TEMPORARY TABLE t (id INT PRIMARY KEY, c VARCHAR(20))")
        .unwrap();
    // The server's own count of the statements that filled t: a statement-level trigger fires
    // once for a COPY, once per statement for INSERTs (2 500 rows are three multi-row INSERTs
    // of a text load).
    c.query("CREATE TEMPORARY TABLE statements (n INT)")
        .unwrap();
    c.query("INSERT INTO statements VALUES (0)").unwrap();
    c.query(
        "CREATE FUNCTION pg_temp.count_statement() RETURNS trigger LANGUAGE plpgsql AS \
         $$BEGIN UPDATE statements SET n = n + 1; RETURN NULL; END$$",
    )
    .unwrap();
    c.query(
        "CREATE TRIGGER counted AFTER INSERT ON t FOR EACH STATEMENT \
         EXECUTE FUNCTION pg_temp.count_statement()",
    )
    .unwrap();
    let mut next = 0;
    let path = c
        .bulk_load("t", "id, c", &mut |b: &mut RowBatch| {
            while next < 2500 && !b.is_full() {
                next += 1;
                b.int(next);
                b.str(b"tab\there");
            }
            next < 2500
        })
        .unwrap();
    assert!(path.contains("COPY"), "{path}");
    let statements = c.query_rows("SELECT n FROM statements").unwrap();
    assert_eq!(statements[0][0].as_deref(), Some("1"), "one COPY filled t");
    let rows = c.query_rows("SELECT count(*), min(c) FROM t").unwrap();
    assert_eq!(rows[0][0].as_deref(), Some("2500"));
    assert_eq!(rows[0][1].as_deref(), Some("tab\there"));
}

#[test]
fn server_errors_keep_their_sqlstate_and_kind() {
    let Some(mut c) = open("errors", SOCKET_DIR, false) else {
        return;
    };
    let e = c.query("SELEC 1").unwrap_err();
    assert_eq!(
        (e.kind, e.code.as_str()),
        (DbErrorKind::BadStatement, "42601")
    );
    let e = c.query("SELECT * FROM dbpress_no_such_table").unwrap_err();
    assert_eq!(
        (e.kind, e.code.as_str()),
        (DbErrorKind::NoSuchTable, "42P01")
    );
    c.query("CREATE TEMPORARY TABLE t (id INT PRIMARY KEY)")
        .unwrap();
    c.query("INSERT INTO t VALUES (1)").unwrap();
    let e = c.query("INSERT INTO t VALUES (1)").unwrap_err();
    assert_eq!(
        (e.kind, e.code.as_str()),
        (DbErrorKind::DuplicateKey, "23505")
    );
    assert_eq!(c.query("SELECT 1").unwrap(), QueryKind::Read);
}

#[test]
fn tcp_logins_work_and_a_wrong_password_is_refused_as_auth() {
    let Some(mut c) = open("tcp", "127.0.0.1", false) else {
        return;
    };
    assert_eq!(c.query("SELECT 1").unwrap(), QueryKind::Read);
    let e = PgWire::open(&target("127.0.0.1", "not-the-password"), None, false)
        .err()
        .expect("a wrong password logged in");
    assert_eq!((e.kind, e.code.as_str()), (DbErrorKind::Auth, "28P01"));
    assert!(!e.message.contains("not-the-password"), "{e}");
}

/// TPC-C reads what the server answers: prepared (text-format results) and text statements
/// give the rows typed, decimals exact, NULLs as NULL.
#[test]
fn result_rows_come_back_in_both_modes() {
    for text_mode in [false, true] {
        let Some(mut c) = open("result_rows", SOCKET_DIR, text_mode) else {
            return;
        };
        c.query(
            "CREATE TEMPORARY TABLE r (id SMALLINT, amt DECIMAL(12,2), tax DECIMAL(4,4), \
             name VARCHAR(16), d TIMESTAMP, big BIGINT)",
        )
        .unwrap();
        c.query(
            "INSERT INTO r VALUES (-3, -10.00, 0.1234, 'BARBAR', now(), 9000000000), \
             (7, 4999.99, 0.0000, NULL, NULL, -1)",
        )
        .unwrap();
        let stmt = c
            .prepare("SELECT id, amt, tax, name, d, big FROM r WHERE id <> ? ORDER BY id")
            .unwrap();
        let mut rows = dbpress_session::ResultRows::new();
        for _ in 0..2 {
            let kind = c.execute_rows(stmt, &[Value::Int(0)], &mut rows).unwrap();
            assert_eq!(kind, QueryKind::Read);
            assert_eq!(
                (rows.len(), rows.columns()),
                (2, 6),
                "text mode {text_mode}"
            );
            assert_eq!(rows.int(0, 0), Some(-3));
            assert_eq!(rows.scaled(0, 1, 2), Some(-1000));
            assert_eq!(rows.scaled(0, 2, 4), Some(1234));
            assert_eq!(rows.bytes(0, 3), Some(&b"BARBAR"[..]));
            assert!(!rows.is_null(0, 4));
            assert_eq!(rows.int(0, 5), Some(9_000_000_000));
            assert_eq!(rows.scaled(1, 1, 2), Some(499_999));
            assert!(rows.is_null(1, 3) && rows.is_null(1, 4));
        }
        let update = c
            .prepare("UPDATE r SET amt = amt + ? WHERE id = ?")
            .unwrap();
        let kind = c
            .execute_rows(update, &[Value::Str(b"0.01"), Value::Int(7)], &mut rows)
            .unwrap();
        assert_eq!((kind, rows.len()), (QueryKind::Write, 0));
        let one = c.prepare("SELECT amt FROM r WHERE id = ?").unwrap();
        c.execute_rows(one, &[Value::Int(7)], &mut rows).unwrap();
        assert_eq!(rows.scaled(0, 0, 2), Some(500_000));
        c.execute_rows(one, &[Value::Int(99)], &mut rows).unwrap();
        assert!(rows.is_empty());
        c.query("DROP TABLE r").unwrap();
    }
}
