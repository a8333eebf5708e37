//! MySQL's compressed protocol (--mysql-compression) against the test MariaDB: the server runs
//! exactly the statements it runs without compression, and its own byte counters show the
//! compression happened.

use crate::common::*;

const EVENTS: u64 = 200;

/// Run oltp_read_only (prepared with 1 000 rows) with `flags` and return stdout and the result.
fn read_only(flags: &[&str], name: &str) -> (String, serde_json::Value) {
    let events = format!("--events={EVENTS}");
    let base = [
        "oltp_read_only",
        "run",
        "--table-size=1000",
        "--time=0",
        &events,
        "--mysql-user=sbtest",
        "--mysql-password=sbtest",
        "--mysql-db=sbtest",
    ];
    run_to_json(&[&base[..], flags].concat(), name)
}

fn delta(r: &serde_json::Value, counter: &str) -> u64 {
    r["server_counters"]["deltas"][counter]
        .as_u64()
        .unwrap_or_else(|| panic!("no {counter} in {}", r["server_counters"]))
}

#[test]
fn compressed_sessions_run_the_same_statements_and_the_server_sends_fewer_bytes() {
    let Some(_srv) = server("compression") else {
        return;
    };
    let mut prepare = vec!["oltp_read_only", "prepare", "--table-size=1000"];
    prepare.extend_from_slice(CONN);
    let o = dbpress(&prepare);
    assert!(o.status.success(), "{}", stderr(&o));

    let socket = ["--mysql-socket", SOCKET];
    let (plain_text, plain) = read_only(&socket, "compression-off");
    let (zlib_text, zlib) = read_only(
        &[&socket[..], &["--mysql-compression=on"]].concat(),
        "compression-on",
    );
    assert!(!plain_text.contains("compressed"), "{plain_text}");
    assert!(
        zlib_text.contains("db 'sbtest', compressed protocol (zlib) (MariaDB"),
        "{zlib_text}"
    );
    for r in [&plain, &zlib] {
        assert_eq!(r["summary"]["errors"], 0);
        assert_eq!(delta(r, "Com_select"), 14 * EVENTS);
        assert_eq!(delta(r, "Com_begin"), EVENTS);
        assert_eq!(delta(r, "Com_commit"), EVENTS);
    }
    // Four range selects of 100 rows of digit strings per event: the server's own count of the
    // bytes it wrote to the sockets falls by about half (measured 37.5 KB to 20.3 KB per event).
    let (sent_plain, sent_zlib) = (delta(&plain, "Bytes_sent"), delta(&zlib, "Bytes_sent"));
    assert!(
        (sent_zlib as f64) < 0.75 * sent_plain as f64,
        "Bytes_sent compressed {sent_zlib}, plain {sent_plain}"
    );
    assert!(
        zlib_text.contains("Bytes_sent"),
        "the counter table lists the network bytes: {zlib_text}"
    );

    // Compressed inside TLS over TCP, statements as text: still the same statements.
    let (text, r) = read_only(
        &[
            "--mysql-host=127.0.0.1",
            "--mysql-port=3306",
            "--mysql-ssl=required",
            "--mysql-compression=on",
            "--db-ps-mode=disable",
        ],
        "compression-tls",
    );
    assert!(
        text.contains("compressed protocol (zlib), TLS required, encrypted with TLS"),
        "{text}"
    );
    assert_eq!(delta(&r, "Com_select"), 14 * EVENTS);
    assert!(delta(&r, "Bytes_sent") < sent_plain);

    let mut cleanup = vec!["oltp_read_only", "cleanup"];
    cleanup.extend_from_slice(CONN);
    assert!(dbpress(&cleanup).status.success());
}

#[test]
fn compression_algorithms_dbpress_does_not_speak_are_refused_before_connecting() {
    let o = dbpress(&[
        "oltp_point_select",
        "run",
        "--mysql-host=127.0.0.1",
        "--mysql-port=1",
        "--mysql-compression=on",
        "--mysql-compression-algorithms=zstd",
    ]);
    assert_fails_with(
        &o,
        2,
        "--mysql-compression-algorithms=zstd leaves no algorithm",
    );
    let o = dbpress(&[
        "oltp_point_select",
        "run",
        "--mysql-host=127.0.0.1",
        "--mysql-port=1",
        "--mysql-compression-algorithms=lz4",
    ]);
    assert_fails_with(&o, 2, "unknown compression algorithm 'lz4'");
    let o = dbpress(&["slap", "--db=sqlite::memory:", "-C", "--query=SELECT 1"]);
    assert_fails_with(&o, 2, "-C/--compress compresses MySQL's protocol");
}
