use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::{Mutex, MutexGuard};

pub const SOCKET: &str = "/run/mysqld/mysqld.sock";

pub fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_dbpress")
}

pub fn dbpress(args: &[&str]) -> Output {
    Command::new(bin())
        .args(args)
        .output()
        .expect("dbpress runs")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A scratch directory unique to this test.
pub fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("dbpress-it-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Server tests share global counters and table names, so they run one at a time.
static SERVER_LOCK: Mutex<()> = Mutex::new(());

pub struct Server {
    _guard: MutexGuard<'static, ()>,
    pub conn: mysql::Conn,
}

/// Connection flags for dbpress to reach the test server over the socket.
pub const CONN: &[&str] = &[
    "--mysql-socket",
    SOCKET,
    "--mysql-user=sbtest",
    "--mysql-password=sbtest",
    "--mysql-db=sbtest",
];

pub fn server(test: &str) -> Option<Server> {
    let guard = SERVER_LOCK.lock().unwrap_or_else(|p| p.into_inner());
    let opts = mysql::OptsBuilder::new()
        .socket(Some(SOCKET))
        .user(Some("sbtest"))
        .pass(Some("sbtest"))
        .db_name(Some("sbtest"))
        .prefer_socket(false);
    match mysql::Conn::new(opts) {
        Ok(mut conn) => {
            // Start from a clean schema: drop what earlier (failed) tests may have left.
            use mysql::prelude::Queryable;
            let tables: Vec<String> = conn.query("SHOW TABLES LIKE 'sbtest%'").unwrap();
            for t in tables {
                conn.query_drop(format!("DROP TABLE `{t}`")).unwrap();
            }
            Some(Server {
                _guard: guard,
                conn,
            })
        }
        Err(e) => {
            if std::env::var("CI").is_ok_and(|v| v == "true" || v == "1") {
                panic!("{test}: MariaDB is required in CI but unreachable at {SOCKET}: {e}");
            }
            eprintln!("SKIPPED {test}: MariaDB not reachable at {SOCKET} ({e}); start it with scripts/services.sh");
            None
        }
    }
}

/// Another session on the test MariaDB as sbtest over the socket, beside dbpress's (a lock
/// holder, a second writer).
pub fn sbtest_session() -> mysql::Conn {
    mysql::Conn::new(
        mysql::OptsBuilder::new()
            .socket(Some(SOCKET))
            .user(Some("sbtest"))
            .pass(Some("sbtest"))
            .db_name(Some("sbtest")),
    )
    .unwrap()
}

impl Server {
    /// Global Com_* counters.
    pub fn com(&mut self) -> std::collections::HashMap<String, u64> {
        use mysql::prelude::Queryable;
        let rows: Vec<(String, String)> = self
            .conn
            .query("SHOW GLOBAL STATUS LIKE 'Com\\_%'")
            .unwrap();
        rows.into_iter()
            .map(|(k, v)| (k, v.parse().unwrap_or(0)))
            .collect()
    }

    /// The rows of `table`, or None when it does not exist.
    pub fn count_rows(&mut self, table: &str) -> Option<i64> {
        use mysql::prelude::Queryable;
        self.conn
            .query_first::<i64, _>(format!("SELECT COUNT(*) FROM `{table}`"))
            .ok()
            .flatten()
    }

    pub fn tables(&mut self) -> Vec<String> {
        use mysql::prelude::Queryable;
        self.conn.query("SHOW TABLES LIKE 'sbtest%'").unwrap()
    }

    /// The tables of the sbtest database whose names match the LIKE `pattern`, sorted.
    pub fn tables_like(&mut self, pattern: &str) -> Vec<String> {
        use mysql::prelude::Queryable;
        let mut t: Vec<String> = self
            .conn
            .query(format!("SHOW TABLES LIKE '{pattern}'"))
            .unwrap();
        t.sort();
        t
    }
}

/// Run dbpress with `args` writing its result to a scratch file named after `name`; the run
/// must succeed and its result validate against the schema. Returns stdout and the result.
pub fn run_to_json(args: &[&str], name: &str) -> (String, serde_json::Value) {
    let out = scratch(name).join("r.json");
    let mut a = args.to_vec();
    a.extend_from_slice(&["--output", out.to_str().unwrap()]);
    let o = dbpress(&a);
    assert!(o.status.success(), "{}", stderr(&o));
    let r = json(&out);
    crate::export::assert_valid(&r);
    (stdout(&o), r)
}

pub fn json(path: &std::path::Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// A failure is one line on stderr, with no panic or backtrace.
pub fn assert_one_clean_line(o: &Output) {
    let err = stderr(o);
    let errors: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with("dbpress: error:"))
        .collect();
    assert_eq!(errors.len(), 1, "expected one error line, got: {err}");
    assert!(
        !err.contains("panicked") && !err.contains("RUST_BACKTRACE"),
        "{err}"
    );
}

/// dbpress stopped with exit `code` and one clean error line containing `want`.
pub fn assert_fails_with(o: &Output, code: i32, want: &str) {
    assert_eq!(o.status.code(), Some(code), "{}", stderr(o));
    assert_one_clean_line(o);
    assert!(
        stderr(o).contains(want),
        "wanted {want:?} in: {}",
        stderr(o)
    );
}

/// dbpress started with its output captured, to be signalled while it runs.
pub fn spawn(args: &[&str]) -> std::process::Child {
    Command::new(bin())
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("dbpress starts")
}

/// Send `signal` to a dbpress this test started.
pub fn send_signal(child: &std::process::Child, signal: i32) {
    // SAFETY: kill(2) on our own child's pid.
    unsafe { libc::kill(child.id() as i32, signal) };
}

/// Send `signal` to a dbpress this test started and wait until one of its threads has taken it
/// (the process's pending set, ShdPnd in /proc/PID/status, no longer holds it), so a signal
/// sent next arrives second: two signals pending at once are delivered lowest number first,
/// and two threads may handle two signals in either order.
pub fn send_signal_and_wait_taken(child: &std::process::Child, signal: i32) {
    send_signal(child, signal);
    let status = format!("/proc/{}/status", child.id());
    let bit = 1u64 << (signal - 1);
    let t0 = std::time::Instant::now();
    while t0.elapsed() < std::time::Duration::from_secs(10) {
        let pending = std::fs::read_to_string(&status)
            .ok()
            .and_then(|s| {
                let line = s.lines().find(|l| l.starts_with("ShdPnd:"))?;
                u64::from_str_radix(line.split_whitespace().nth(1)?, 16).ok()
            })
            .unwrap_or(0);
        if pending & bit == 0 {
            // Taken off the pending set as its handler is entered: a margin for the handler's
            // few instructions on a thread the scheduler may pause right there.
            std::thread::sleep(std::time::Duration::from_millis(100));
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    panic!("signal {signal} was still pending after 10 s");
}

/// Send `signal` to a dbpress from `spawn` and wait for its output.
pub fn signal_and_wait(child: std::process::Child, signal: i32) -> Output {
    send_signal(&child, signal);
    child.wait_with_output().unwrap()
}

/// Panic with every violation when `doc` does not match the JSON Schema `schema` (its text).
pub fn assert_matches_schema(schema: &str, doc: &serde_json::Value) {
    let schema: serde_json::Value = serde_json::from_str(schema).unwrap();
    let v = jsonschema::validator_for(&schema).expect("schema compiles");
    let errors: Vec<String> = v
        .iter_errors(doc)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "document does not match its schema: {errors:#?}"
    );
}

/// Read a spawned dbpress's stdout until a line containing `marker` (so a test can act at a
/// known point of the run, however long the set-up took); returns the reader, to read the
/// rest, and what was read so far.
pub fn stdout_until(
    child: &mut std::process::Child,
    marker: &str,
) -> (std::io::BufReader<std::process::ChildStdout>, String) {
    use std::io::BufRead;
    let mut reader = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut text = String::new();
    while !text.contains(marker) {
        assert!(reader.read_line(&mut text).unwrap() > 0, "{text}");
    }
    (reader, text)
}

/// The next line of a spawned dbpress's stdout (after `stdout_until`), also added to `text`;
/// its end fails the test.
pub fn next_line(
    reader: &mut std::io::BufReader<std::process::ChildStdout>,
    text: &mut String,
) -> String {
    use std::io::BufRead;
    let mut line = String::new();
    assert!(reader.read_line(&mut line).unwrap() > 0, "{text}");
    text.push_str(&line);
    line
}

/// Read the rest of a spawned dbpress's stdout after `stdout_until` and wait for it: its
/// output (stdout taken out) and all its stdout, `text` first.
pub fn finish(
    child: std::process::Child,
    mut reader: std::io::BufReader<std::process::ChildStdout>,
    mut text: String,
) -> (Output, String) {
    use std::io::Read;
    reader.read_to_string(&mut text).unwrap();
    (child.wait_with_output().unwrap(), text)
}

/// Borrowed arguments for `dbpress`/`spawn` from owned ones.
pub fn strs(args: &[String]) -> Vec<&str> {
    args.iter().map(String::as_str).collect()
}

/// The name /proc/diskstats gives the device holding `path`'s file system, if it lists one
/// (not for tmpfs or overlay).
pub fn disk_of(path: &std::path::Path) -> Option<String> {
    use std::os::unix::fs::MetadataExt;
    let dev = std::fs::metadata(path).ok()?.dev();
    let (major, minor) = (libc::major(dev).to_string(), libc::minor(dev).to_string());
    std::fs::read_to_string("/proc/diskstats")
        .ok()?
        .lines()
        .find_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f.len() > 2 && f[0] == major && f[1] == minor).then(|| f[2].to_string())
        })
}

/// Writes the device under `path` has completed since boot (/proc/diskstats' eighth field),
/// when /proc/diskstats lists that device.
pub fn device_writes(path: &std::path::Path) -> Option<u64> {
    let device = disk_of(path)?;
    std::fs::read_to_string("/proc/diskstats")
        .ok()?
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .find(|f| f.len() > 7 && f[2] == device)?[7]
        .parse()
        .ok()
}

/// Run `f` and return what it returned with the writes the device under `path` completed
/// meanwhile, counted by the test itself (None where /proc/diskstats lists no device).
pub fn with_device_writes<T>(path: &std::path::Path, f: impl FnOnce() -> T) -> (T, Option<u64>) {
    let before = device_writes(path);
    let out = f();
    let after = device_writes(path);
    (out, before.zip(after).map(|(b, a)| a - b))
}

/// A run's disk figures, checked against what the test knows independently: the device is the
/// one under `data` (when /proc/diskstats lists one), every full interval has its own figures,
/// the device completed at least as many writes as the server asked for syncs (each sync of
/// new data reaches the device as at least one write), and no more than the test itself saw
/// it complete around the whole run (`seen`, from `with_device_writes`). Returns the device's
/// writes.
pub fn assert_disk_under(
    r: &serde_json::Value,
    data: &std::path::Path,
    syncs: u64,
    seen: Option<u64>,
) -> f64 {
    let h = &r["host_usage"];
    let Some(device) = disk_of(data) else {
        // Said, so that a run on tmpfs or overlayfs does not look like a checked disk.
        eprintln!(
            "NOTE: {} is on a file system /proc/diskstats lists no device for: only the reason \
             dbpress gives is checked, not its disk figures",
            data.display()
        );
        assert!(h["disk_unavailable"].is_string(), "{h}");
        assert!(
            seen.is_none(),
            "the test found a device dbpress did not: {h}"
        );
        return 0.0;
    };
    let d = &h["disk"];
    assert_eq!(d["device"].as_str(), Some(device.as_str()), "{h}");
    let canonical = std::fs::canonicalize(data).unwrap();
    assert_eq!(d["path"].as_str(), canonical.to_str(), "{h}");
    for i in r["intervals"].as_array().unwrap() {
        if i["closing"] != true {
            assert!(i["disk"]["busy"].as_f64().is_some(), "{i}");
        }
    }
    let writes = d["io"]["writes_s"].as_f64().unwrap() * h["seconds"].as_f64().unwrap();
    let seen = seen.expect("the test counts the writes of the device it found");
    assert!(
        writes >= syncs as f64 && syncs > 0,
        "{writes} device writes for {syncs} server syncs: {h}"
    );
    // dbpress's window lies inside the test's, and the counters only grow (the product of a
    // rounded rate and a duration may pass the count by a fraction of one write).
    assert!(
        writes <= seen as f64 + 1.0,
        "{writes} device writes, the test saw {seen} around the whole run: {h}"
    );
    writes
}

/// The number of points of the first line of the chart whose title starts with `title` on an
/// HTML page.
pub fn chart_points(html: &str, title: &str) -> usize {
    let chart = &html[html
        .find(title)
        .unwrap_or_else(|| panic!("no chart {title:?}"))..];
    let points = &chart[chart.find("points=\"").expect("a line") + 8..];
    points[..points.find('"').unwrap()].split(' ').count()
}

/// The number of steps of the first line of the chart whose title starts with `title` on an
/// HTML page: per-interval values are drawn as steps over each interval's span, two points at
/// one height each (asserted).
pub fn chart_steps(html: &str, title: &str) -> usize {
    let chart = &html[html
        .find(title)
        .unwrap_or_else(|| panic!("no chart {title:?}"))..];
    let points = &chart[chart.find("points=\"").expect("a line") + 8..];
    let points: Vec<&str> = points[..points.find('"').unwrap()].split(' ').collect();
    assert_eq!(points.len() % 2, 0, "{points:?}");
    for step in points.chunks(2) {
        let y = |p: &str| p.split_once(',').unwrap().1.to_string();
        assert_eq!(y(step[0]), y(step[1]), "a step is level: {points:?}");
    }
    points.len() / 2
}

/// Each interval's server-wait observations (`waits`, summed over its events), for the
/// intervals that had samples; asserts they add up to the run's `server_waits` observations.
pub fn interval_waits_adding_up(r: &serde_json::Value) -> Vec<u64> {
    let per_interval: Vec<u64> = r["intervals"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|i| i["waits"].as_object())
        .map(|m| m.values().map(|v| v.as_u64().unwrap()).sum())
        .collect();
    let observed: u64 = r["server_waits"]["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["observations"].as_u64().unwrap())
        .sum();
    assert_eq!(
        per_interval.iter().sum::<u64>(),
        observed,
        "{}",
        r["intervals"]
    );
    per_interval
}

/// A link named `name` in `dir` to the dbpress binary: dbpress invoked as a peer tool.
pub fn peer_link(dir: &std::path::Path, name: &str) -> std::path::PathBuf {
    let link = dir.join(name);
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(bin(), &link).unwrap();
    link
}

/// `program` with `args` in `dir`, stdin empty (a peer that would prompt reads nothing).
pub fn run_in(program: &std::path::Path, dir: &std::path::Path, args: &[&str]) -> Output {
    std::process::Command::new(program)
        .args(args)
        .current_dir(dir)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("runs")
}

/// `text` with every number (digits, and a decimal point inside them) as `N`: peers' texts
/// compared around their figures.
pub fn numbers_as_n(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_number = false;
    for c in text.chars() {
        let digit = c.is_ascii_digit() || (in_number && c == '.');
        if digit && !in_number {
            out.push('N');
        } else if !digit {
            out.push(c);
        }
        in_number = digit;
    }
    out
}
