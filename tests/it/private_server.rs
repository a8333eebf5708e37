//! A MariaDB or PostgreSQL of a test's own — its own data directory, port and socket — for
//! tests that kill, stop, lock or reconfigure a server, or make accounts: the shared test
//! servers are never touched (tests/it/shared_servers.rs checks it). Made with the machine's
//! `mariadb-install-db` and `mariadbd` (the packages scripts/services.sh installs), started
//! with `--skip-grant-tables` (any user logs in, no password) unless the test needs accounts
//! (`start_with_grants`), removed when dropped.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct PrivateMariadb {
    pub dir: PathBuf,
    pub port: u16,
    pub socket: PathBuf,
    child: Option<Child>,
    /// Started with the grant tables (accounts and passwords apply) instead of without them.
    grants: bool,
}

/// The test CA's server certificate and key (scripts/services.sh makes them), for a private
/// server that must also speak TLS.
const TEST_TLS_DIR: &str = "/etc/mysql/dbpress-tls";

fn free_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().port()
}

impl PrivateMariadb {
    /// A fresh server with an empty `sbtest` database, or None (after saying so) where the
    /// MariaDB binaries are missing outside CI.
    pub fn start(name: &str) -> Option<PrivateMariadb> {
        PrivateMariadb::start_as(name, false)
    }

    /// A fresh server that checks accounts, as a real one does: root logs in over the socket
    /// with no password (mariadb-install-db's "normal" root), other accounts as the test makes
    /// them; TLS with the test CA's certificate. For tests that create users or install
    /// authentication plugins.
    pub fn start_with_grants(name: &str) -> Option<PrivateMariadb> {
        PrivateMariadb::start_as(name, true)
    }

    fn start_as(name: &str, grants: bool) -> Option<PrivateMariadb> {
        let ci = std::env::var("CI").is_ok_and(|v| v == "true" || v == "1");
        let have = Command::new("mariadbd").arg("--version").output().is_ok();
        if !have {
            assert!(
                !ci,
                "{name}: mariadbd is not installed (scripts/services.sh installs it)"
            );
            eprintln!("SKIPPED {name}: mariadbd is not installed");
            return None;
        }
        let dir =
            std::env::temp_dir().join(format!("dbpress-private-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let data = dir.join("data");
        // A temporary directory of its own: a MariaDB starting removes the `#sql*` temporary
        // tables it finds in its tmpdir, and with /tmp shared it removed those of another
        // private server's mariadb-install-db running beside it (error 1017 there).
        std::fs::create_dir_all(dir.join("tmp")).unwrap();
        let o = Command::new("mariadb-install-db")
            .args([
                "--no-defaults",
                "--auth-root-authentication-method=normal",
                "--skip-test-db",
            ])
            .arg(format!("--datadir={}", data.display()))
            .arg(format!("--tmpdir={}", dir.join("tmp").display()))
            .arg("--user=root")
            .output()
            .expect("mariadb-install-db runs");
        assert!(
            o.status.success(),
            "mariadb-install-db: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let port = free_port();
        let socket = dir.join("mysqld.sock");
        let mut srv = PrivateMariadb {
            dir,
            port,
            socket,
            child: None,
            grants,
        };
        srv.launch(name);
        Some(srv)
    }

    /// Start mariadbd on this server's directory, port and socket, and wait until it answers
    /// (with the `sbtest` database there).
    fn launch(&mut self, name: &str) {
        let data = self.dir.join("data");
        let child = Command::new("mariadbd")
            .arg("--no-defaults")
            .arg(format!("--datadir={}", data.display()))
            .arg(format!("--socket={}", self.socket.display()))
            .arg(format!("--port={}", self.port))
            .arg("--bind-address=127.0.0.1")
            .arg(format!("--tmpdir={}", self.dir.join("tmp").display()))
            .arg(format!(
                "--pid-file={}",
                self.dir.join("mysqld.pid").display()
            ))
            .arg(format!(
                "--log-error={}",
                self.dir.join("error.log").display()
            ))
            .args(["--user=root", "--innodb-buffer-pool-size=32M"])
            .args(self.access_args())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("mariadbd starts");
        self.child = Some(child);
        let t0 = Instant::now();
        loop {
            if self.sql("CREATE DATABASE IF NOT EXISTS sbtest") {
                return;
            }
            if t0.elapsed() > Duration::from_secs(60) {
                let log = std::fs::read_to_string(self.dir.join("error.log")).unwrap_or_default();
                self.kill();
                panic!("{name}: the private MariaDB did not start in 60 s: {log}");
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    /// How accounts are checked: not at all, or by the grant tables with names taken as
    /// written (no DNS look-up of 127.0.0.1) and TLS with the test CA's server certificate.
    fn access_args(&self) -> Vec<String> {
        if !self.grants {
            return vec!["--skip-grant-tables".into()];
        }
        let mut a = vec!["--skip-name-resolve".to_string()];
        let tls = std::path::Path::new(TEST_TLS_DIR);
        if tls.join("server-key.pem").exists() {
            for (opt, file) in [
                ("ssl-ca", "ca.pem"),
                ("ssl-cert", "server-cert.pem"),
                ("ssl-key", "server-key.pem"),
            ] {
                a.push(format!("--{opt}={}", tls.join(file).display()));
            }
        }
        a
    }

    /// A clean restart: SHUTDOWN, wait for the process to end, start it again on the same
    /// data, port and socket.
    pub fn restart(&mut self) {
        assert!(self.sql("SHUTDOWN"), "SHUTDOWN");
        if let Some(mut c) = self.child.take() {
            let _ = c.wait();
        }
        self.launch("restart");
    }

    /// Run `sql` with the mariadb client on this server; whether it worked.
    pub fn sql(&self, sql: &str) -> bool {
        Command::new("mariadb")
            .args(["--no-defaults", "-uroot", "-S"])
            .arg(&self.socket)
            .args(["-e", sql])
            .output()
            // Kept off the test's output: while the server starts, "can't connect" is expected.
            .is_ok_and(|o| o.status.success())
    }

    /// The first value `sql` returns, read with the mariadb client; a failed query or no
    /// value fails the test (so two failed reads never compare equal).
    pub fn value(&self, sql: &str) -> String {
        let o = Command::new("mariadb")
            .args(["--no-defaults", "-uroot", "-N", "-B", "-S"])
            .arg(&self.socket)
            .args(["-e", sql])
            .output()
            .expect("the mariadb client runs");
        checked_value(sql, &o)
    }

    /// Kill every session in the `sbtest` database (dbpress's), as a server's administrator
    /// might; how many were killed.
    pub fn kill_sbtest_sessions(&self) -> usize {
        let ids = self.value(
            "SELECT COALESCE(GROUP_CONCAT(id), 'none') FROM information_schema.PROCESSLIST \
             WHERE db = 'sbtest' AND id <> CONNECTION_ID()",
        );
        if ids == "none" {
            return 0;
        }
        let ids: Vec<&str> = ids.split(',').collect();
        for id in &ids {
            // A session may have ended by itself meanwhile: that is not a failure.
            self.sql(&format!("KILL CONNECTION {id}"));
        }
        ids.len()
    }

    /// dbpress's options to reach it over its socket, in its `sbtest` database.
    pub fn socket_options(&self) -> Vec<String> {
        vec![
            format!("--mysql-socket={}", self.socket.display()),
            "--mysql-user=root".into(),
            "--mysql-db=sbtest".into(),
        ]
    }

    /// The server dies at once, as in a crash (SIGKILL).
    pub fn kill(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// The trimmed output of a client that ran `sql`: it must have succeeded and printed a value.
fn checked_value(sql: &str, o: &std::process::Output) -> String {
    let v = String::from_utf8_lossy(&o.stdout).trim().to_string();
    assert!(
        o.status.success() && !v.is_empty(),
        "{sql}: no value ({}): {}",
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
    v
}

impl Drop for PrivateMariadb {
    fn drop(&mut self) {
        self.kill();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A PostgreSQL of a test's own — its own data directory, port and socket directory — for
/// tests that reconfigure a server (ALTER SYSTEM), reset its statistics or end its sessions.
/// Made with the machine's `initdb` and started with `pg_ctl` as the `postgres` user
/// (PostgreSQL refuses to run as root), trust authentication; stopped and removed when dropped.
pub struct PrivatePostgres {
    pub dir: PathBuf,
    pub port: u16,
    bin: PathBuf,
}

/// Where a private PostgreSQL listens besides its socket.
#[derive(Clone, Copy, PartialEq)]
pub enum PgListen {
    /// The socket only.
    Socket,
    /// Also 127.0.0.1, without TLS (a fresh cluster's `ssl = off`): the server declines TLS.
    Plain,
    /// Also 127.0.0.1, TLS only: a self-signed certificate, and pg_hba.conf refuses plain TCP
    /// sessions (`hostnossl … reject`), so a session that is there is encrypted.
    TlsOnly,
}

impl PrivatePostgres {
    pub fn start(name: &str) -> Option<PrivatePostgres> {
        PrivatePostgres::start_listening(name, PgListen::Socket)
    }

    pub fn start_listening(name: &str, listen: PgListen) -> Option<PrivatePostgres> {
        let ci = std::env::var("CI").is_ok_and(|v| v == "true" || v == "1");
        let bin = std::fs::read_dir("/usr/lib/postgresql").ok().and_then(|d| {
            d.flatten()
                .map(|e| e.path().join("bin"))
                .find(|b| b.join("initdb").exists())
        });
        let root = unsafe { libc::geteuid() } == 0;
        let (Some(bin), true) = (bin, root) else {
            assert!(!ci, "{name}: a private PostgreSQL needs initdb (scripts/services.sh installs it) and root to run it as postgres");
            eprintln!("SKIPPED {name}: no initdb, or not root");
            return None;
        };
        let dir =
            std::env::temp_dir().join(format!("dbpress-private-pg-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let as_postgres = |args: &[&str]| {
            Command::new("runuser")
                .args(["-u", "postgres", "--"])
                .args(args)
                .output()
                .expect("runuser runs")
        };
        let o = Command::new("chown")
            .arg("postgres:")
            .arg(&dir)
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "chown: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let data = dir.join("data");
        let o = as_postgres(&[
            bin.join("initdb").to_str().unwrap(),
            "-D",
            data.to_str().unwrap(),
            "-A",
            "trust",
            "-U",
            "postgres",
            "--no-sync",
        ]);
        assert!(
            o.status.success(),
            "initdb: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let port = free_port();
        let mut opts = format!(
            "-p {port} -k {} -c fsync=off -c shared_buffers=16MB",
            dir.display()
        );
        match listen {
            PgListen::Socket => opts.push_str(" -c listen_addresses=''"),
            PgListen::Plain => opts.push_str(" -c listen_addresses=127.0.0.1"),
            PgListen::TlsOnly => {
                tls_only(&dir, &data, &as_postgres);
                opts.push_str(" -c listen_addresses=127.0.0.1 -c ssl=on");
            }
        }
        let o = as_postgres(&[
            bin.join("pg_ctl").to_str().unwrap(),
            "-D",
            data.to_str().unwrap(),
            "-o",
            &opts,
            "-l",
            dir.join("log").to_str().unwrap(),
            "-w",
            "-t",
            "60",
            "start",
        ]);
        let srv = PrivatePostgres { dir, port, bin };
        assert!(
            o.status.success(),
            "pg_ctl start: {}{}",
            String::from_utf8_lossy(&o.stderr),
            std::fs::read_to_string(srv.dir.join("log")).unwrap_or_default()
        );
        Some(srv)
    }

    /// psql as postgres on this server, running `sql` (stopping at its first error).
    fn psql(&self, sql: &str) -> std::process::Output {
        Command::new("runuser")
            .args(["-u", "postgres", "--", "psql", "-X", "-A", "-t", "-h"])
            .arg(&self.dir)
            .args(["-p", &self.port.to_string(), "-d", "postgres"])
            .args(["-v", "ON_ERROR_STOP=1", "-c", sql])
            .output()
            .expect("psql runs")
    }

    /// Run `sql` on this server; whether it worked.
    pub fn sql(&self, sql: &str) -> bool {
        self.psql(sql).status.success()
    }

    /// The first value `sql` returns, read with psql as postgres; a failed query or no value
    /// fails the test (so two failed reads never compare equal).
    pub fn value(&self, sql: &str) -> String {
        checked_value(sql, &self.psql(sql))
    }

    /// End every dbpress session (its workers and samplers, by application_name); how many.
    pub fn terminate_dbpress_sessions(&self) -> usize {
        self.value(
            "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity \
             WHERE application_name = 'dbpress'",
        )
        .parse()
        .unwrap()
    }

    /// dbpress's options to reach it over TCP on 127.0.0.1 (`PgListen::Plain` or `TlsOnly`)
    /// as postgres.
    pub fn tcp_options(&self) -> Vec<String> {
        vec![
            "--db-driver=pgsql".into(),
            "--pgsql-host=127.0.0.1".into(),
            format!("--pgsql-port={}", self.port),
            "--pgsql-user=postgres".into(),
            "--pgsql-db=postgres".into(),
        ]
    }

    /// dbpress's options to reach it over its socket as postgres.
    pub fn options(&self) -> Vec<String> {
        vec![
            format!("--pgsql-host={}", self.dir.display()),
            format!("--pgsql-port={}", self.port),
            "--pgsql-user=postgres".into(),
            "--pgsql-db=postgres".into(),
        ]
    }
}

/// Make `data` a TLS-only server over TCP: a self-signed certificate for 127.0.0.1 in the
/// data directory, and pg_hba.conf lines that let TCP sessions in only when encrypted.
fn tls_only(
    dir: &std::path::Path,
    data: &std::path::Path,
    as_postgres: &dyn Fn(&[&str]) -> std::process::Output,
) {
    let (key, cert) = (data.join("server.key"), data.join("server.crt"));
    let o = as_postgres(&[
        "openssl",
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-days",
        "1",
        "-subj",
        "/CN=127.0.0.1",
        "-keyout",
        key.to_str().unwrap(),
        "-out",
        cert.to_str().unwrap(),
    ]);
    assert!(
        o.status.success(),
        "openssl: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    // PostgreSQL refuses a key others can read.
    let o = as_postgres(&["chmod", "600", key.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let hba = "local all all trust\n\
               hostssl all all 127.0.0.1/32 trust\n\
               hostnossl all all 127.0.0.1/32 reject\n";
    let path = dir.join("pg_hba.conf");
    std::fs::write(&path, hba).unwrap();
    let o = as_postgres(&[
        "cp",
        path.to_str().unwrap(),
        data.join("pg_hba.conf").to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

impl Drop for PrivatePostgres {
    fn drop(&mut self) {
        let _ = Command::new("runuser")
            .args(["-u", "postgres", "--"])
            .arg(self.bin.join("pg_ctl"))
            .arg("-D")
            .arg(self.dir.join("data"))
            .args(["-m", "immediate", "-w", "stop"])
            .output();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
