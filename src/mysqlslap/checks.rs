//! What mysqlslap refuses once its line is read, in its words, and the line as `dbpress slap`
//! reads it (the options by name, dbpress's own passed on) for the rounds.

use super::getopt::Read;
use crate::slap::args::SlapArgs;
use dbpress_config::to_driver::make_driver;
use dbpress_core::error::Result;
use dbpress_driver::Driver;

/// mysqlslap's default schema, which it makes and drops.
const DEFAULT_SCHEMA: &str = "mysqlslap";

/// The line for `dbpress slap`'s reader.
pub struct SlapLine {
    pub given: Vec<(String, String)>,
    pub pass: Vec<String>,
    /// mysqlslap's `-i`, which may be 0 (a block of zeros, as mysqlslap prints).
    pub iterations: u32,
    pub schema: String,
}

/// Options mysqlslap takes that would change the server's work in a way dbpress does not do
/// yet, or that name files it does not read: refused, with what to use.
const NOT_DONE: &[(&str, &str)] = &[
    (
        "detach",
        "drop --detach (dbpress keeps each client's session for the round)",
    ),
    (
        "init-command",
        "put the statement in --pre-query, or in the server's init_connect",
    ),
    ("ssl-capath", "give the CA file itself with --ssl-ca=FILE"),
    ("ssl-crl", "drop it: dbpress checks no revocation lists"),
    ("ssl-crlpath", "drop it: dbpress checks no revocation lists"),
    (
        "tls-version",
        "drop it: dbpress speaks TLS 1.2 and 1.3 and takes the newest the server has",
    ),
    (
        "login-path",
        "give -u/-p/-h/-P/-S, or --defaults-file=FILE holding them",
    ),
];

/// mysqlslap's own refusals of the options read, in its order (before it asks for a password
/// or counts its arguments); the line to print (exit code 1).
pub fn refusal(program: &str, r: &Read) -> Option<String> {
    let on = |n: &str| r.get(n) == Some("TRUE");
    let auto = on("auto-generate-sql");
    if auto && (r.get("query").is_some() || r.get("create").is_some()) {
        return Some(format!(
            "{program}: Can't use --auto-generate-sql when create and query strings are specified!"
        ));
    }
    let guid = on("auto-generate-sql-guid-primary");
    let autoinc = on("auto-generate-sql-add-autoincrement");
    if auto && guid && autoinc {
        return Some(format!("{program}: Either auto-generate-sql-guid-primary or auto-generate-sql-add-autoincrement can be used!"));
    }
    let load = r.get("auto-generate-sql-load-type").unwrap_or("mixed");
    // (An update test without a key updates every row, as mysqlslap's does.)
    if auto && !guid && !autoinc && load == "key" {
        return Some(format!(
            "{program}: Can't perform key test without a primary key!"
        ));
    }
    // A value that names something on disk is read as a file: a directory is refused.
    for (option, what) in [
        ("create", "Create file"),
        ("query", "User query supplied file"),
        ("pre-query", "User query supplied file"),
        ("post-query", "User query supplied file"),
    ] {
        let named = r.get(option).map(std::path::Path::new);
        if named.is_some_and(|p| p.exists() && !p.is_file()) {
            return Some(format!("{program}: {what} was not a regular file"));
        }
    }
    // (mysqlslap's own words, its `n` included.)
    let csv = r
        .get("csv")
        .filter(|f| !f.is_empty() && !f.starts_with('-'));
    if let Some(file) = csv.filter(|f| !csv_opens(f)) {
        return Some(format!("{program}: Could not open csv file: {file}n"));
    }
    None
}

/// Whether the `--csv` file can be opened to append (mysqlslap opens it before any round).
fn csv_opens(file: &str) -> bool {
    let existed = std::path::Path::new(file).exists();
    let opened = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(file)
        .is_ok();
    if opened && !existed {
        // Made only to see; the run makes it again when it writes.
        let _ = std::fs::remove_file(file);
    }
    opened
}

/// dbpress's refusals of what it does not do as mysqlslap would, then the line for the
/// rounds; Err is the line to print (exit code 1).
pub fn slap_line(program: &str, r: &Read) -> std::result::Result<SlapLine, String> {
    let on = |n: &str| r.get(n) == Some("TRUE");
    let auto = on("auto-generate-sql");
    let load = r.get("auto-generate-sql-load-type").unwrap_or("mixed");
    if auto && !["mixed", "update", "write", "key", "read"].contains(&load) {
        // mysqlslap runs no query at all for it and prints a block.
        return Err(format!("{program}: unknown --auto-generate-sql-load-type '{load}': use mixed, update, write, key or read"));
    }
    if !auto && r.get("query").is_none() {
        // mysqlslap connects its clients and runs nothing.
        return Err(format!("{program}: nothing to run: give the queries with --query=SQL (or a file), or --auto-generate-sql"));
    }
    if let Some(c) = r.get("concurrency") {
        let fine = c
            .split(',')
            .all(|n| n.trim().parse::<u32>().is_ok_and(|n| n > 0));
        if !fine {
            // mysqlslap hangs on a count of 0 (and reads `x` as 0).
            return Err(format!(
                "{program}: --concurrency={c}: give client counts of 1 or more, e.g. -c 8,32,64"
            ));
        }
    }
    // --only-print connects nowhere: what dbpress does not do on a connection is no matter.
    let connects = !on("only-print");
    for (name, instead) in NOT_DONE.iter().filter(|_| connects) {
        if r.get(name).is_some_and(|v| v != "0" && !v.is_empty()) {
            return Err(format!(
                "{program}: --{name} is not supported by dbpress as mysqlslap: {instead}"
            ));
        }
    }
    Ok(line(r, auto))
}

/// The options for `dbpress slap`'s reader: -a's shaping options only with -a (mysqlslap
/// ignores them without it), the schema named, MySQL as the engine, dbpress's server
/// sampling off (it would add statements to the server's counts).
fn line(r: &Read, auto: bool) -> SlapLine {
    let mut given: Vec<(String, String)> = r
        .values
        .iter()
        .filter(|(n, _)| {
            auto || !(n.starts_with("auto-generate-sql")
                || n.starts_with("number-") && *n != "number-of-queries")
        })
        .map(|(n, v)| (n.to_string(), v.clone()))
        .collect();
    let schema = r.get("create-schema").unwrap_or(DEFAULT_SCHEMA).to_string();
    given.push(("create-schema".into(), schema.clone()));
    // The option files are read already, into `values`.
    given.push(("no-defaults".into(), "TRUE".into()));
    let iterations = r
        .get("iterations")
        .map_or(1, |i| i.parse().unwrap_or(u32::MAX));
    given.push(("iterations".into(), iterations.max(1).to_string()));
    let mut pass = r.dbpress.clone();
    pass.extend(
        [
            "--db-driver=mysql",
            "--server-status=off",
            "--server-waits=off",
        ]
        .map(String::from),
    );
    SlapLine {
        given,
        pass,
        iterations,
        schema,
    }
}

/// A driver for mysqlslap's main session, which connects without a database (the schema may
/// not be there yet).
pub fn main_session_driver(a: &SlapArgs) -> Result<Box<dyn Driver>> {
    let mut opts = a.opts.clone();
    opts.set("mysql-db", "");
    let cfg = crate::sweep::first_config("slap", &opts, 1)?;
    make_driver(&cfg)
}
