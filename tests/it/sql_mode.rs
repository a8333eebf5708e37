//! Issue 47 (L2): text mode escapes values for the session's sql_mode. On a server whose
//! sql_mode has NO_BACKSLASH_ESCAPES a backslash is an ordinary character, and a value escaped
//! the MySQL way would be stored with an extra backslash (or break the statement). The shared
//! server keeps the default mode; this one is the test's own.

use crate::private_server::PrivateMariadb;
use dbpress_mysql::{Transport, WireConn, WireOpts, PLAIN_FIXES};
use dbpress_session::{Connection, Secret, Value};

#[test]
fn issue_47_text_mode_escapes_for_a_server_without_backslash_escapes() {
    let Some(srv) = PrivateMariadb::start("no-backslash-escapes") else {
        return;
    };
    assert!(srv.sql("SET GLOBAL sql_mode = CONCAT(@@sql_mode, ',NO_BACKSLASH_ESCAPES')"));
    let opts = WireOpts {
        transport: Transport::Socket(srv.socket.clone()),
        user: "root".into(),
        password: Secret::new(String::new()),
        db: "sbtest".into(),
        tls: None,
        compress: false,
        connect_timeout: Some(std::time::Duration::from_secs(10)),
        fixes: &PLAIN_FIXES,
        server_public_key: None,
        get_server_public_key: false,
    };
    let mut c = WireConn::open(&opts, true)
        .ok()
        .expect("a text-mode session");
    let mode = c.query_rows("SELECT @@SESSION.sql_mode").unwrap();
    assert!(
        mode[0][0]
            .as_deref()
            .unwrap_or("")
            .contains("NO_BACKSLASH_ESCAPES"),
        "{mode:?}"
    );
    c.query("CREATE TABLE t (id INT PRIMARY KEY, c VARCHAR(20))")
        .unwrap();
    let insert = c.prepare("INSERT INTO t VALUES (?, ?)").unwrap();
    c.execute(insert, &[Value::Int(1), Value::Str(b"a'b\\c")])
        .unwrap();
    let rows = c.query_rows("SELECT c FROM t").unwrap();
    assert_eq!(rows[0][0].as_deref(), Some("a'b\\c"));
}
