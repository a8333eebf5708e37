//! The network interface under the sessions: found from their socket, measured from
//! /proc/net/dev, and explained by the server's own byte counters.

use crate::common::*;

fn run(flags: &[&str], name: &str) -> (String, serde_json::Value) {
    let base = [
        "oltp_read_only",
        "run",
        "--table-size=1000",
        "--time=2",
        "--mysql-user=sbtest",
        "--mysql-password=sbtest",
        "--mysql-db=sbtest",
    ];
    run_to_json(&[&base[..], flags].concat(), name)
}

#[test]
fn the_loopback_carries_at_least_the_bytes_the_server_counted_and_a_socket_uses_no_interface() {
    let Some(_srv) = server("network") else {
        return;
    };
    let mut prepare = vec!["oltp_read_only", "prepare", "--table-size=1000"];
    prepare.extend_from_slice(CONN);
    assert!(dbpress(&prepare).status.success());

    let (text, r) = run(
        &["--mysql-host=127.0.0.1", "--mysql-port=3306"],
        "network-tcp",
    );
    let h = &r["host_usage"];
    let n = &h["network"];
    assert_eq!(n["interface"], "lo", "{h}");
    assert_eq!(n["loopback"], true);
    assert_eq!(n["address"], "127.0.0.1");
    // Over the loopback each byte is counted once sent and once received, so what it received
    // is both directions together: at least what the server wrote to and read from its client
    // sockets, plus TCP/IP headers (and whatever else used the loopback meanwhile).
    let c = &r["server_counters"]["deltas"];
    let server_bytes = c["Bytes_sent"].as_u64().unwrap() + c["Bytes_received"].as_u64().unwrap();
    let seconds = h["seconds"].as_f64().unwrap();
    let lo_bytes = n["io"]["rx_mib_s"].as_f64().unwrap() * seconds * 1024.0 * 1024.0;
    assert!(
        lo_bytes >= 0.9 * server_bytes as f64,
        "loopback {lo_bytes:.0} bytes, server {server_bytes}"
    );
    assert!(
        text.contains("Network (lo, the sessions' address 127.0.0.1;")
            && text.contains("both ways together"),
        "{text}"
    );

    // The Markdown summary carries the per-event figure, re-rendered from the saved result.
    let saved = scratch("network-md").join("r.json");
    std::fs::write(&saved, serde_json::to_string(&r).unwrap()).unwrap();
    let o = dbpress(&[
        "report",
        saved.to_str().unwrap(),
        "--output-format=markdown",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let per_event = lo_bytes / 1024.0 / r["summary"]["events"].as_f64().unwrap();
    assert!(
        stdout(&o).contains(&format!(
            "| network lo both ways, KiB per event | {per_event:.1} |"
        )),
        "{per_event:.1} in {}",
        stdout(&o)
    );

    let (text, r) = run(&["--mysql-socket", SOCKET], "network-socket");
    let h = &r["host_usage"];
    assert!(h.get("network").is_none(), "{h}");
    assert!(
        h["network_unavailable"]
            .as_str()
            .unwrap()
            .contains("Unix socket"),
        "{h}"
    );
    assert!(text.contains("Network: not used: the sessions go over a Unix socket"));

    let mut cleanup = vec!["oltp_read_only", "cleanup"];
    cleanup.extend_from_slice(CONN);
    assert!(dbpress(&cleanup).status.success());
}

/// `dbpress compare --metrics=net`: the network per event of each result, from its own
/// measurement, and the ratio that says what the compressed protocol saved.
#[test]
fn compare_sets_the_network_per_event_of_results_side_by_side() {
    let Some(_srv) = server("network-compare") else {
        return;
    };
    let mut prepare = vec!["oltp_read_only", "prepare", "--table-size=1000"];
    prepare.extend_from_slice(CONN);
    assert!(dbpress(&prepare).status.success());
    let tcp = ["--mysql-host=127.0.0.1", "--mysql-port=3306"];
    let dir = scratch("network-compare");
    let mut files = Vec::new();
    let mut own = Vec::new();
    for (name, extra) in [("plain", None), ("zlib", Some("--mysql-compression=on"))] {
        let (_, r) = run(&[&tcp[..], extra.as_slice()].concat(), name);
        let h = &r["host_usage"];
        let per_event = h["network"]["io"]["rx_mib_s"].as_f64().unwrap()
            * h["seconds"].as_f64().unwrap()
            * 1024.0
            / r["summary"]["events"].as_f64().unwrap();
        own.push(per_event);
        let f = dir.join(format!("{name}.json"));
        std::fs::write(&f, serde_json::to_string(&r).unwrap()).unwrap();
        files.push(f.to_str().unwrap().to_string());
    }
    let o = dbpress(&[
        "compare",
        &files[0],
        &files[1],
        "--metrics=net",
        "--output-format=json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let c: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_matches_schema(include_str!("../../docs/compare.schema.json"), &c);
    let cells = &c["rows"][0]["cells"];
    for (k, want) in own.iter().enumerate() {
        let got = cells[k]["net_kib_per_event"].as_f64().unwrap();
        assert!((got - want).abs() < 1e-6 * want, "{got} vs {want}");
    }
    // oltp_read_only's result sets are text that zlib halves.
    let ratio = cells[1]["vs_baseline"]["net_kib_per_event"]
        .as_f64()
        .unwrap();
    assert!(
        (ratio - own[1] / own[0]).abs() < 1e-6 && ratio < 0.8,
        "{ratio}"
    );
    let o = dbpress(&["compare", &files[0], &files[1], "--metrics=net"]);
    assert!(
        stdout(&o).contains("KiB through the sessions' network interface per event, both ways"),
        "{}",
        stdout(&o)
    );
    let mut cleanup = vec!["oltp_read_only", "cleanup"];
    cleanup.extend_from_slice(CONN);
    assert!(dbpress(&cleanup).status.success());
}
