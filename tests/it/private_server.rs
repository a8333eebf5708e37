//! A MariaDB of a test's own — its own data directory, port and socket — for tests that kill,
//! stop or reconfigure a server: the shared test servers are never touched. Made with the
//! machine's `mariadb-install-db` and `mariadbd` (the packages scripts/services.sh installs),
//! started with `--skip-grant-tables` (any user logs in, no password), removed when dropped.

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct PrivateMariadb {
    pub dir: PathBuf,
    pub port: u16,
    pub socket: PathBuf,
    child: Option<Child>,
}

fn free_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().port()
}

impl PrivateMariadb {
    /// A fresh server with an empty `sbtest` database, or None (after saying so) where the
    /// MariaDB binaries are missing outside CI.
    pub fn start(name: &str) -> Option<PrivateMariadb> {
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
        let o = Command::new("mariadb-install-db")
            .args([
                "--no-defaults",
                "--auth-root-authentication-method=normal",
                "--skip-test-db",
            ])
            .arg(format!("--datadir={}", data.display()))
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
            .arg(format!(
                "--pid-file={}",
                self.dir.join("mysqld.pid").display()
            ))
            .arg(format!(
                "--log-error={}",
                self.dir.join("error.log").display()
            ))
            .args([
                "--user=root",
                "--skip-grant-tables",
                "--innodb-buffer-pool-size=32M",
            ])
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

    /// The first value `sql` returns, read with the mariadb client ("" when none).
    pub fn value(&self, sql: &str) -> String {
        let o = Command::new("mariadb")
            .args(["--no-defaults", "-uroot", "-N", "-B", "-S"])
            .arg(&self.socket)
            .args(["-e", sql])
            .output()
            .expect("the mariadb client runs");
        String::from_utf8_lossy(&o.stdout).trim().to_string()
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

impl Drop for PrivateMariadb {
    fn drop(&mut self) {
        self.kill();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// A PostgreSQL of a test's own — its own data directory, port and socket directory — for
/// tests that reconfigure a server (ALTER SYSTEM). Made with the machine's `initdb` and started
/// with `pg_ctl` as the `postgres` user (PostgreSQL refuses to run as root), trust
/// authentication on its socket only; stopped and removed when dropped.
pub struct PrivatePostgres {
    pub dir: PathBuf,
    pub port: u16,
    bin: PathBuf,
}

impl PrivatePostgres {
    pub fn start(name: &str) -> Option<PrivatePostgres> {
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
        let opts = format!(
            "-p {port} -k {} -c listen_addresses='' -c fsync=off -c shared_buffers=16MB",
            dir.display()
        );
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

    /// The first value `sql` returns, read with psql as postgres.
    pub fn value(&self, sql: &str) -> String {
        let o = Command::new("runuser")
            .args(["-u", "postgres", "--", "psql", "-X", "-A", "-t", "-h"])
            .arg(&self.dir)
            .args(["-p", &self.port.to_string(), "-d", "postgres", "-c", sql])
            .output()
            .expect("psql runs");
        String::from_utf8_lossy(&o.stdout).trim().to_string()
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
