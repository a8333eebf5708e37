//! The real sysbench 1.0.20 as the reference the Lua tests compare dbpress with: whether it is
//! here, its flags for the test servers, and either tool run in a folder of the test's own.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

pub const SYSBENCH: &str = "/usr/bin/sysbench";
/// Where Debian's sysbench keeps its stock scripts.
pub const STOCK_DIR: &str = "/usr/share/sysbench";

/// Whether sysbench and its stock scripts are here to compare with (always in CI:
/// scripts/services.sh sysbench installs them); elsewhere the comparison is skipped with a
/// note.
pub fn have_sysbench() -> bool {
    let ci = std::env::var("CI").is_ok_and(|v| v == "true" || v == "1");
    let here = Path::new(SYSBENCH).exists() && Path::new(STOCK_DIR).exists();
    assert!(
        here || !ci,
        "sysbench missing: scripts/services.sh sysbench installs it"
    );
    if !here {
        eprintln!("SKIPPED the sysbench comparison: sysbench is not installed (scripts/services.sh sysbench)");
    }
    here
}

/// sysbench run with `args`, in the current folder.
pub fn sysbench(args: &[&str]) -> Output {
    Command::new(SYSBENCH)
        .args(args)
        .output()
        .expect("sysbench runs")
}

/// sysbench's flags for the test MariaDB (dbpress takes them as they are).
pub const SB_MYSQL: [&str; 4] = [
    "--mysql-socket=/run/mysqld/mysqld.sock",
    "--mysql-user=sbtest",
    "--mysql-password=sbtest",
    "--mysql-db=sbtest",
];

/// sysbench's flags for the test PostgreSQL (dbpress takes them as they are).
pub const SB_PGSQL: [&str; 5] = [
    "--db-driver=pgsql",
    "--pgsql-host=/var/run/postgresql",
    "--pgsql-user=sbtest",
    "--pgsql-password=sbtest",
    "--pgsql-db=sbtest",
];

/// The tool (dbpress or sysbench) run in `dir` with `args`, stdin given.
pub fn in_dir(tool: &str, dir: &Path, args: &[&str], stdin: Option<&str>) -> Output {
    in_dir_with(tool, dir, args, stdin, &[])
}

/// `in_dir` with variables added to the environment.
pub fn in_dir_with(
    tool: &str,
    dir: &Path,
    args: &[&str],
    stdin: Option<&str>,
    env: &[(&str, &str)],
) -> Output {
    let mut c = Command::new(tool);
    c.args(args).current_dir(dir);
    c.envs(env.iter().copied());
    c.stdin(if stdin.is_some() {
        Stdio::piped()
    } else {
        Stdio::null()
    });
    c.stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = c.spawn().expect("starts");
    if let Some(text) = stdin {
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
    }
    child.wait_with_output().unwrap()
}

/// `text` written to `dir/name`; its path.
pub fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// stdout's lines that start with one of `prefixes` (a script's own lines among the tool's).
pub fn lines_with(o: &Output, prefixes: &[&str]) -> Vec<String> {
    crate::common::stdout(o)
        .lines()
        .filter(|l| prefixes.iter().any(|p| l.starts_with(p)))
        .map(String::from)
        .collect()
}

/// A line with its numbers as `#` (random draws, rates and latencies differ run to run), to
/// compare its layout.
pub fn shape(text: &str) -> String {
    let mut o = String::new();
    let mut in_num = false;
    for ch in text.chars() {
        if ch.is_ascii_digit() || (in_num && ch == '.') {
            if !in_num {
                o.push('#');
                in_num = true;
            }
        } else {
            in_num = false;
            o.push(ch);
        }
    }
    o
}
