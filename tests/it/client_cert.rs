//! Client certificates: MariaDB accounts that REQUIRE X509 and PostgreSQL's `cert`
//! authentication log in with --mysql-ssl-cert/--mysql-ssl-key and --pgsql-sslcert/--pgsql-sslkey
//! (scripts/services.sh makes the test CA, the certificate and the sbtest_x509 accounts).

use crate::common::*;
use crate::engines::{pg_server, PG_CONN};
use std::process::{Command, Output};

const TLS_DIR: &str = "/etc/mysql/dbpress-tls";

/// The test client certificate and key, or None (skipped; a failure in CI) when missing.
fn test_cert(test: &str) -> Option<(String, String)> {
    let cert = format!("{TLS_DIR}/client-cert.pem");
    let key = format!("{TLS_DIR}/client-key.pem");
    if std::path::Path::new(&cert).exists() && std::path::Path::new(&key).exists() {
        return Some((cert, key));
    }
    if std::env::var("CI").is_ok_and(|v| v == "true" || v == "1") {
        panic!("{test}: {cert} missing: scripts/services.sh makes it");
    }
    eprintln!("SKIPPED {test}: {cert} missing; run scripts/services.sh");
    None
}

/// dbpress with `home` as HOME, so no ~/.my.cnf or ~/.postgresql/ of the machine's plays in.
fn dbpress_at_home(args: &[&str], home: &std::path::Path) -> Output {
    Command::new(bin())
        .args(args)
        .env("HOME", home)
        .env_remove("PGSSLCERT")
        .env_remove("PGSSLKEY")
        .output()
        .unwrap()
}

#[test]
fn issue_2_an_account_that_requires_x509_logs_in_with_a_client_certificate() {
    let Some(_srv) = server("x509") else { return };
    let Some((cert, key)) = test_cert("x509") else {
        return;
    };
    let home = scratch("x509-home");
    let mut prepare = vec!["oltp_point_select", "prepare", "--table-size=100"];
    prepare.extend_from_slice(CONN);
    assert!(dbpress(&prepare).status.success());
    let run = [
        "oltp_point_select",
        "run",
        "--table-size=100",
        "--time=0",
        "--events=50",
        "--mysql-host=127.0.0.1",
        "--mysql-port=3306",
        "--mysql-user=sbtest_x509",
        "--mysql-password=sbtest",
        "--mysql-ssl=required",
    ];
    // Without a certificate the server refuses the account.
    let o = dbpress_at_home(&run, &home);
    assert_fails_with(&o, 2, "authentication failed (server error 1045");
    assert!(stderr(&o).contains("an account that REQUIREs SSL or X509 is refused this way too"));
    let (cert_flag, key_flag) = (
        format!("--mysql-ssl-cert={cert}"),
        format!("--mysql-ssl-key={key}"),
    );
    let o = dbpress_at_home(&[&run[..], &[&cert_flag, &key_flag]].concat(), &home);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.contains(&format!(
            "as 'sbtest_x509' db 'sbtest', TLS required, client certificate {cert}, encrypted with TLS"
        )),
        "{text}"
    );
    assert!(
        text.contains("transactions:                        50"),
        "{text}"
    );
    let mut cleanup = vec!["oltp_point_select", "cleanup"];
    cleanup.extend_from_slice(CONN);
    assert!(dbpress(&cleanup).status.success());
}

#[test]
fn issue_4_postgresql_cert_authentication_logs_in_with_a_client_certificate() {
    let Some((_guard, _pg)) = pg_server("pg_cert") else {
        return;
    };
    let Some((cert, key)) = test_cert("pg_cert") else {
        return;
    };
    let home = scratch("pg-cert-home");
    let mut prepare = vec!["oltp_point_select", "prepare", "--table-size=100"];
    prepare.extend_from_slice(PG_CONN);
    let o = dbpress(&prepare);
    assert!(o.status.success(), "{}", stderr(&o));
    let run = [
        "oltp_point_select",
        "run",
        "--table-size=100",
        "--time=0",
        "--events=50",
        "--pgsql-host=127.0.0.1",
        "--pgsql-user=sbtest_x509",
        "--pgsql-db=sbtest",
        "--pgsql-sslmode=require",
    ];
    let o = dbpress_at_home(&run, &home);
    assert_fails_with(&o, 2, "connection requires a valid client certificate");
    let (cert_flag, key_flag) = (
        format!("--pgsql-sslcert={cert}"),
        format!("--pgsql-sslkey={key}"),
    );
    let o = dbpress_at_home(&[&run[..], &[&cert_flag, &key_flag]].concat(), &home);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains(&format!(
            "user sbtest_x509, database sbtest, sslmode=require, client certificate {cert}, encrypted with TLS"
        )),
        "{}",
        stdout(&o)
    );
    // libpq's default files are presented too, as libpq does.
    std::fs::create_dir_all(home.join(".postgresql")).unwrap();
    std::fs::copy(&cert, home.join(".postgresql/postgresql.crt")).unwrap();
    std::fs::copy(&key, home.join(".postgresql/postgresql.key")).unwrap();
    let o = dbpress_at_home(&run, &home);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("client certificate ")
            && stdout(&o).contains(".postgresql/postgresql.crt"),
        "{}",
        stdout(&o)
    );
    let mut cleanup = vec!["oltp_point_select", "cleanup"];
    cleanup.extend_from_slice(PG_CONN);
    assert!(dbpress(&cleanup).status.success());
}

#[test]
fn client_certificate_options_are_checked_before_connecting() {
    let dir = scratch("cert-options");
    let cert = dir.join("cert.pem");
    std::fs::write(
        &cert,
        "-----BEGIN CERTIFICATE-----\nMAA=\n-----END CERTIFICATE-----\n",
    )
    .unwrap();
    let cert = cert.to_str().unwrap();
    let cert_flag = format!("--mysql-ssl-cert={cert}");
    // Port 1: nothing listens there, so a check that did not come first would say so instead.
    let tcp = [
        "oltp_point_select",
        "run",
        "--mysql-host=127.0.0.1",
        "--mysql-port=1",
        "--mysql-ssl=required",
    ];
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec![cert_flag.clone()],
            "--mysql-ssl-cert needs its private key: add --mysql-ssl-key=FILE",
        ),
        (
            vec!["--mysql-ssl-key=/nonexistent/key.pem".into()],
            "--mysql-ssl-key needs the certificate it belongs to",
        ),
        (
            vec![
                "--mysql-ssl-cert=/nonexistent/cert.pem".into(),
                format!("--mysql-ssl-key={cert}"),
            ],
            "--mysql-ssl-cert file /nonexistent/cert.pem does not exist",
        ),
        (
            vec![cert_flag.clone(), format!("--mysql-ssl-key={cert}")],
            "cannot read a private key from --mysql-ssl-key",
        ),
    ];
    for (extra, want) in cases {
        let mut a: Vec<&str> = tcp.to_vec();
        a.extend(extra.iter().map(String::as_str));
        assert_fails_with(&dbpress(&a), 2, want);
    }
    let key_flag = format!("--mysql-ssl-key={cert}");
    let o = dbpress(&[
        "oltp_point_select",
        "run",
        "--mysql-host=127.0.0.1",
        "--mysql-port=1",
        &cert_flag,
        &key_flag,
    ]);
    assert_fails_with(
        &o,
        2,
        "--mysql-ssl-cert is presented over TLS, which is off",
    );
    let (pg_cert, pg_key) = (
        format!("--pgsql-sslcert={cert}"),
        format!("--pgsql-sslkey={cert}"),
    );
    let o = dbpress(&[
        "oltp_point_select",
        "run",
        "--pgsql-host=127.0.0.1",
        "--pgsql-port=1",
        "--pgsql-sslmode=disable",
        &pg_cert,
        &pg_key,
    ]);
    assert_fails_with(&o, 2, "which --pgsql-sslmode=disable turns off");
}
