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
        fixes: &PLAIN_FIXES,
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
