//! dbpress-mysql on its own against the test MariaDB that scripts/services.sh starts: logins
//! over the socket and over TCP, prepared and text statements classified as sysbench does,
//! server errors with their numbers and kinds. Nothing of dbpress above this crate is used.
//! With CI=true an unreachable server fails the tests; otherwise they say SKIPPED.

use dbpress_mysql::{OpenError, Transport, WireConn, WireOpts, PLAIN_FIXES};
use dbpress_session::{Connection, DbErrorKind, QueryKind, Secret, Value};

const SOCKET: &str = "/run/mysqld/mysqld.sock";

fn opts(transport: Transport, password: &str) -> WireOpts {
    WireOpts {
        transport,
        user: "sbtest".into(),
        password: Secret::new(password.into()),
        db: "sbtest".into(),
        tls: None,
        compress: false,
        connect_timeout: Some(std::time::Duration::from_secs(10)),
        fixes: &PLAIN_FIXES,
        server_public_key: None,
        get_server_public_key: false,
    }
}

fn socket() -> Transport {
    Transport::Socket(SOCKET.into())
}

/// A session as sbtest, or None (after saying so) where no server runs outside CI.
fn open(test: &str, transport: Transport) -> Option<WireConn> {
    match WireConn::open(&opts(transport, "sbtest"), false) {
        Ok(c) => Some(c),
        Err(OpenError::Db(e)) if e.kind == DbErrorKind::Unreachable => {
            if std::env::var("CI").is_ok_and(|v| v == "true" || v == "1") {
                panic!("{test}: MariaDB is required in CI but unreachable: {e}");
            }
            eprintln!(
                "SKIPPED {test}: MariaDB not reachable ({e}); start it with scripts/services.sh"
            );
            None
        }
        Err(OpenError::Db(e)) => panic!("{test}: {e}"),
        Err(OpenError::Unsupported(why)) => panic!("{test}: {why}"),
    }
}

#[test]
fn statements_prepare_execute_and_count_as_sysbench_counts_them() {
    let Some(mut c) = open("statements", socket()) else {
        return;
    };
    let create = "CREATE TEMPORARY TABLE t (id INT PRIMARY KEY, c VARCHAR(10))";
    assert_eq!(c.query(create).unwrap(), QueryKind::Other);
    let insert = c.prepare("INSERT INTO t VALUES (?, ?)").unwrap();
    for (id, text) in [(1, "a"), (2, "it's")] {
        let kind = c.execute(insert, &[Value::Int(id), Value::Str(text.as_bytes())]);
        assert_eq!(kind.unwrap(), QueryKind::Write);
    }
    let select = c.prepare("SELECT c FROM t WHERE id = ?").unwrap();
    assert_eq!(
        c.execute(select, &[Value::Int(2)]).unwrap(),
        QueryKind::Read
    );
    // A write that changed no row is "other", as sysbench files it.
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
    // The session's id is the server's for it.
    let id = c.query_rows("SELECT CONNECTION_ID()").unwrap()[0][0].clone();
    assert_eq!(c.session_id().map(|i| i.to_string()), id);
}

#[test]
fn text_mode_sends_values_escaped_for_the_sessions_sql_mode() {
    let Some(_) = open("text mode", socket()) else {
        return;
    };
    let mut c = WireConn::open(&opts(socket(), "sbtest"), true)
        .ok()
        .unwrap();
    c.query("CREATE TEMPORARY TABLE t (id INT PRIMARY KEY, c VARCHAR(20))")
        .unwrap();
    let insert = c.prepare("INSERT INTO t VALUES (?, ?)").unwrap();
    let tricky = b"a'b\\c";
    c.execute(insert, &[Value::Int(1), Value::Str(tricky)])
        .unwrap();
    let rows = c.query_rows("SELECT c FROM t").unwrap();
    assert_eq!(rows[0][0].as_deref(), Some("a'b\\c"));
}

#[test]
fn server_errors_keep_their_number_and_kind() {
    let Some(mut c) = open("errors", socket()) else {
        return;
    };
    let e = c.query("SELEC 1").unwrap_err();
    assert_eq!(
        (e.kind, e.code.as_str()),
        (DbErrorKind::BadStatement, "1064")
    );
    let e = c.query("SELECT * FROM dbpress_no_such_table").unwrap_err();
    assert_eq!(
        (e.kind, e.code.as_str()),
        (DbErrorKind::NoSuchTable, "1146")
    );
    c.query("CREATE TEMPORARY TABLE t (id INT PRIMARY KEY)")
        .unwrap();
    c.query("INSERT INTO t VALUES (1)").unwrap();
    let e = c.query("INSERT INTO t VALUES (1)").unwrap_err();
    assert_eq!(
        (e.kind, e.code.as_str()),
        (DbErrorKind::DuplicateKey, "1062")
    );
    // The session is still usable after each.
    assert_eq!(c.query("SELECT 1").unwrap(), QueryKind::Read);
}

#[test]
fn tcp_logins_work_and_a_wrong_password_is_refused_as_auth() {
    let tcp = || Transport::Tcp {
        host: "127.0.0.1".into(),
        port: 3306,
    };
    let Some(mut c) = open("tcp", tcp()) else {
        return;
    };
    assert_eq!(c.query("SELECT 1").unwrap(), QueryKind::Read);
    match WireConn::open(&opts(tcp(), "not-the-password"), false) {
        Err(OpenError::Db(e)) => {
            assert_eq!((e.kind, e.code.as_str()), (DbErrorKind::Auth, "1045"));
            assert!(!e.message.contains("not-the-password"), "{e}");
        }
        Ok(_) => panic!("a wrong password logged in"),
        Err(OpenError::Unsupported(why)) => panic!("{why}"),
    }
}

/// TPC-C reads what the server answers: prepared (binary protocol) and text results come back
/// typed, decimals exact, NULLs as NULL, on a second execute too (when MariaDB leaves the
/// metadata out).
#[test]
fn result_rows_come_back_typed_in_both_protocols() {
    let Some(mut c) = open("result_rows", socket()) else {
        return;
    };
    c.query(
        "CREATE TEMPORARY TABLE r (id SMALLINT, amt DECIMAL(12,2), tax DECIMAL(4,4), \
         name VARCHAR(16), d DATETIME, u TINYINT UNSIGNED, big BIGINT)",
    )
    .unwrap();
    c.query(
        "INSERT INTO r VALUES (-3, -10.00, 0.1234, 'BARBAR', NOW(), 250, 9000000000), \
         (7, 4999.99, 0.0000, NULL, NULL, 1, -1)",
    )
    .unwrap();
    let sql = "SELECT id, amt, tax, name, d, u, big FROM r WHERE id <> ? ORDER BY id";
    let binary = c.prepare(sql).unwrap();
    let text = c.prepare_text(sql).unwrap();
    let mut rows = dbpress_session::ResultRows::new();
    for stmt in [binary, binary, text] {
        let kind = c.execute_rows(stmt, &[Value::Int(0)], &mut rows).unwrap();
        assert_eq!(kind, QueryKind::Read);
        assert_eq!((rows.len(), rows.columns()), (2, 7));
        assert_eq!(rows.int(0, 0), Some(-3));
        assert_eq!(rows.scaled(0, 1, 2), Some(-1000));
        assert_eq!(rows.scaled(0, 2, 4), Some(1234));
        assert_eq!(rows.bytes(0, 3), Some(&b"BARBAR"[..]));
        assert!(!rows.is_null(0, 4));
        assert_eq!(rows.int(0, 5), Some(250));
        assert_eq!(rows.int(0, 6), Some(9_000_000_000));
        assert_eq!(rows.scaled(1, 1, 2), Some(499_999));
        assert!(rows.is_null(1, 3) && rows.is_null(1, 4));
        assert_eq!(rows.int(1, 6), Some(-1));
    }
    // A statement without rows leaves none, and says what it did.
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
}
