//! The option table: every option's name, kind, default, help and secrecy, the deprecated
//! spellings and the sysbench options that do nothing here. Core holds the general, driver and
//! output rows (`GENERAL`); a workload's rows live beside their reader in the workload crate, and
//! a `Table` puts them together. One table drives parsing, `dbpress help <workload>` and the
//! config echo in results.
//!
//! Where the assembled table lives: the workload crate's registry builds it
//! (`dbpress_workload::registry::options()`), and the binary installs it here once, first thing
//! (`install`). The values read from a command line carry the table they were read with
//! (`OptionValues::table`), so their defaults and the echo come from the same rows. Installing
//! once rather than handing the table down: its readers without values in hand (the report's
//! comparison, the study's target options, `OptionValues::default()`, redaction) sit in crates
//! that cannot or should not depend on the workload crate, and they all see the same table.
//! Rows a Lua script declares at run time (#41): `Table::declare` adds them to a table (names
//! already there are ignored, as sysbench ignores a script's defaults for built-in options),
//! and the binary installs that table before it reads the rest of the command line.

use std::sync::RwLock;

/// How an option's value is parsed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// on/off/true/false/1/0; a bare `--flag` means on.
    Bool,
    Int,
    Float,
    Str,
    /// Comma-separated.
    List,
}

/// Which `help` section an option belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Group {
    General,
    Rand,
    Db,
    Mysql,
    Pgsql,
    Sqlite,
    Output,
    /// A workload's own options, under this title (`OLTP workload options`).
    Workload(&'static str),
}

impl Group {
    pub fn title(self) -> &'static str {
        match self {
            Group::General => "General options",
            Group::Rand => "Pseudo-Random Numbers Generator options",
            Group::Db => "General database options",
            Group::Mysql => "MySQL driver options (mysql)",
            Group::Pgsql => "PostgreSQL driver options (pgsql)",
            Group::Sqlite => "SQLite driver options (sqlite)",
            Group::Output => "Result options (dbpress)",
            Group::Workload(title) => title,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Spec {
    /// Canonical name, with dashes.
    pub name: &'static str,
    pub kind: Kind,
    /// Default as text; "" for none.
    pub default: &'static str,
    pub help: &'static str,
    pub group: Group,
    /// Never echoed anywhere (passwords).
    pub secret: bool,
    /// A bare `--name` means on, and a following on/off or number is its value (`--think-time`).
    pub bare_on: bool,
}

impl Spec {
    /// A row: name, kind, default ("" for none), help section, help text.
    pub const fn new(
        name: &'static str,
        kind: Kind,
        default: &'static str,
        group: Group,
        help: &'static str,
    ) -> Spec {
        Spec {
            name,
            kind,
            default,
            help,
            group,
            secret: false,
            bare_on: false,
        }
    }

    /// The same row, whose bare `--name` means on.
    pub const fn bare_on(self) -> Spec {
        Spec {
            bare_on: true,
            ..self
        }
    }
}

const fn o(
    name: &'static str,
    kind: Kind,
    default: &'static str,
    group: Group,
    help: &'static str,
) -> Spec {
    Spec::new(name, kind, default, group, help)
}

use Group::*;
use Kind::*;

/// The options every command takes: general, random numbers, database and drivers, results.
#[rustfmt::skip]
pub static GENERAL: &[Spec] = &[
    o("threads", Int, "1", General, "number of threads (one connection each)"),
    o("events", Int, "0", General, "limit for total number of events (0 = no limit)"),
    o("time", Int, "10", General, "limit for total execution time in seconds (0 = no limit)"),
    o("warmup-time", Int, "0", General, "run events for this many seconds before measuring; excluded from all figures"),
    o("rate", Float, "0", General, "target average events per second, open loop (0 = closed loop)"),
    o("rate-arrival", Str, "poisson", General, "arrival process under --rate: poisson or uniform"),
    o("server-status", List, "on", General, "read the server's status once a second (SHOW GLOBAL STATUS; pg_stat_database, pg_stat_bgwriter, …) into each interval: on (each engine's set), off, or more names to add, NAME for a level, NAME/s for a counter per second"),
    o("server-waits", Bool, "on", General, "sample what the server says each session is doing (pg_stat_activity, SHOW PROCESSLIST) every 100 ms of the run and report the wait events' shares"),
    o("latency-limit", Float, "0", General, "ms: count events slower than this (from their intended start under --rate) and, under --rate, skip those already this late when due, as pgbench's -L (0 = off)"),
    o("report-interval", Int, "0", General, "periodically report intermediate statistics every N seconds (0 = off)"),
    o("report-checkpoints", List, "", General, "print sysbench's full report at these seconds since the start, each covering the time since the previous one, and count anew (e.g. 60,120)"),
    o("verbosity", Int, "3", General, "what to print: 0 errors only, 1-2 also warnings on stderr, 3 also the header, lines and report, 4-5 also the end of the run"),
    o("validate", Bool, "off", General, "check what the test can check (sysbench's --validate): fileio's blocks carry a CRC-32 and their offset, written and verified on read"),
    o("thread-init-timeout", Int, "30", General, "seconds the run may take to check its tables, connect its threads and prepare their statements before giving up with exit code 2 (0 = no limit)"),
    o("forced-shutdown", Str, "off", General, "seconds to wait after --time for events still running before ending the run without them (N, N% of --time, bare = 5%, or off)"),
    o("percentile", Int, "95", General, "percentile to report in the sysbench block and interval lines (1-100; 0 turns percentiles off, as in sysbench)"),
    o("histogram", Bool, "off", General, "print latency histogram in report"),
    o("lua", Bool, "off", General, "run a .lua script given by path as written, in embedded LuaJIT, even when it is one of sysbench's stock scripts (which otherwise run as dbpress's built-in workload of that name)"),
    o("rand-type", Str, "uniform", Rand, "random numbers distribution {uniform, gaussian, special, pareto, zipfian}"),
    o("rand-seed", Int, "0", Rand, "seed for random number generator (0 = from current time)"),
    o("rand-spec-iter", Int, "12", Rand, "number of iterations for the special and gaussian distributions"),
    o("rand-spec-pct", Float, "1", Rand, "percentage of the range treated as 'special' (special distribution)"),
    o("rand-spec-res", Float, "75", Rand, "percentage of 'special' values to use (special distribution)"),
    o("rand-pareto-h", Float, "0.2", Rand, "parameter h for the pareto distribution"),
    o("rand-zipfian-exp", Float, "0.8", Rand, "shape parameter (theta) for the zipfian distribution"),
    o("db-driver", Str, "", Db, "database driver {mysql, pgsql, sqlite}; default: the one whose options are given, else embedded sqlite"),
    o("db-ps-mode", Str, "auto", Db, "prepared statements usage mode {auto, disable}"),
    o("db", Str, "", Db, "target as a URL: mysql://user[:password]@host[:port]/db[?socket=/path], postgres://..., sqlite:PATH"),
    o("mysql-host", List, "localhost", Mysql, "MySQL server host (localhost without a port means the Unix socket)"),
    o("mysql-port", List, "3306", Mysql, "MySQL server port"),
    o("mysql-socket", List, "", Mysql, "MySQL socket"),
    o("mysql-user", Str, "sbtest", Mysql, "MySQL user"),
    Spec { secret: true,
    ..o("mysql-password", Str, "", Mysql, "MySQL password (also MYSQL_PWD or [client] password in ~/.my.cnf)") },
    o("mysql-db", Str, "sbtest", Mysql, "MySQL database name"),
    o("mysql-ssl", Str, "off", Mysql, "TLS mode {off, on, disabled, preferred, required, verify_ca, verify_identity}"),
    o("mysql-ssl-ca", Str, "", Mysql, "CA certificate file for verify_ca / verify_identity"),
    o("mysql-ssl-cert", Str, "", Mysql, "client certificate (PEM) presented over TLS, for accounts that REQUIRE X509"),
    o("mysql-ssl-key", Str, "", Mysql, "private key (PEM) of --mysql-ssl-cert"),
    o("mysql-ssl-cipher", Str, "", Mysql, "TLS cipher suites to offer, ':'-separated, OpenSSL's names (ECDHE-RSA-AES128-GCM-SHA256, TLS_CHACHA20_POLY1305_SHA256, ...); empty = rustls's defaults"),
    o("mysql-connect-timeout", Float, "10", Mysql, "seconds connecting may take, then each step of the handshake (greeting, TLS, login); 0 = no limit; also connect_timeout= in a --db URL"),
    o("mysql-server-public-key-path", Str, "", Mysql, "the server's RSA public key (PEM, a copy of its public_key.pem): encrypts the password when caching_sha2_password or sha256_password needs it over plain TCP"),
    o("mysql-get-server-public-key", Bool, "off", Mysql, "ask the server for its RSA public key when caching_sha2_password needs the password over plain TCP (trust it only on a network you trust)"),
    o("mysql-compression", Bool, "off", Mysql, "compressed client/server protocol (zlib), as over a slow or metered network"),
    o("mysql-compression-algorithms", List, "zlib", Mysql, "compression algorithms the client may use; dbpress speaks zlib"),
    o("mysql-ignore-errors", List, "1213,1020,1205", Mysql, "list of errors to ignore, or \"all\"; empty = none"),
    o("mysql-dry-run", Bool, "off", Mysql, "dry run: all client calls succeed without executing anything"),
    o("pgsql-host", Str, "localhost", Pgsql, "PostgreSQL server host, or a socket directory (/var/run/postgresql); also PGHOST"),
    o("pgsql-port", Int, "5432", Pgsql, "PostgreSQL server port; also PGPORT"),
    o("pgsql-user", Str, "sbtest", Pgsql, "PostgreSQL user; also PGUSER"),
    Spec { secret: true,
    ..o("pgsql-password", Str, "", Pgsql, "PostgreSQL password (also PGPASSWORD or ~/.pgpass)") },
    o("pgsql-db", Str, "sbtest", Pgsql, "PostgreSQL database name; also PGDATABASE"),
    o("pgsql-schema", Str, "", Pgsql, "schema to work in (search_path); empty = the server's default"),
    o("pgsql-sslmode", Str, "prefer", Pgsql, "TLS mode {disable, allow, prefer, require, verify-ca, verify-full}; also PGSSLMODE"),
    o("pgsql-connect-timeout", Float, "10", Pgsql, "seconds connecting may take, then each step of the handshake (TLS, startup, authentication); 0 = no limit; also PGCONNECT_TIMEOUT and connect_timeout= in a --db URL"),
    o("pgsql-sslrootcert", Str, "", Pgsql, "CA certificate file for verify-ca / verify-full"),
    o("pgsql-sslcert", Str, "", Pgsql, "client certificate (PEM) for cert authentication; also PGSSLCERT, else ~/.postgresql/postgresql.crt"),
    o("pgsql-sslkey", Str, "", Pgsql, "private key (PEM) of the client certificate; also PGSSLKEY, else ~/.postgresql/postgresql.key"),
    o("pgsql-ignore-errors", List, "40P01,40001,23505", Pgsql, "SQLSTATEs to ignore (count and retry the event), or \"all\"; empty = none"),
    o("sqlite-path", Str, "dbpress.sqlite", Sqlite, "SQLite database file (created if missing)"),
    o("sqlite-journal-mode", Str, "wal", Sqlite, "journal mode {wal, delete, truncate, persist, memory, off}"),
    o("sqlite-synchronous", Str, "full", Sqlite, "fsync policy {off, normal, full, extra} (SQLite's default: full)"),
    o("sqlite-busy-timeout", Int, "10000", Sqlite, "milliseconds a connection waits for a lock before SQLITE_BUSY"),
    o("sqlite-write-queue", Bool, "on", Sqlite, "this run's connections queue for SQLite's write lock (no starving writer); off = SQLite's busy handler alone"),
    o("sqlite-ignore-errors", List, "SQLITE_BUSY,SQLITE_LOCKED", Sqlite, "errors to ignore (count and retry the event), or \"all\"; empty = none"),
    o("output-format", Str, "text", Output, "result format on stdout {text, json, csv (one row per interval; per level in a sweep), markdown}"),
    o("store", Str, "", Output, "also keep the run in a results store (SQLite): --store for ./dbpress-results.db, --store=PATH for another; `dbpress results list` shows them"),
    o("tag", Str, "", Output, "a tag key=value kept with the run in the store (--tag may be given several times); `dbpress results list --tag key=value` selects by it"),
    o("output", Str, "", Output, "also write the result to this file: JSON (what report and compare read), or CSV, Markdown or HTML when its name ends in .csv, .md or .html"),
    o("report-csv", Bool, "off", Output, "intervals as CSV rows (sysbench-tpcc's --report_csv; same as --output-format=csv)"),
];

/// Whether `name` is one of dbpress's own result options (`--output`, `--store`, …), which
/// keep dbpress's reading under a peer's personality.
pub fn is_dbpress_own(name: &str) -> bool {
    GENERAL
        .iter()
        .any(|s| s.name == name && s.group == Group::Output)
}

/// The general deprecated spellings (a workload's own are beside its rows).
pub static GENERAL_ALIASES: &[(&str, Alias)] = &[
    ("num-threads", Alias::Rename("threads")),
    ("max-time", Alias::Rename("time")),
    ("max-requests", Alias::Rename("events")),
    ("tx-rate", Alias::Rename("rate")),
    ("oltp-dist-type", Alias::Rename("rand-type")),
    ("oltp-dist-iter", Alias::Rename("rand-spec-iter")),
    ("oltp-dist-pct", Alias::Rename("rand-spec-pct")),
    ("oltp-dist-res", Alias::Rename("rand-spec-res")),
];

/// Option rows and deprecated spellings put together: core's general ones and each workload's,
/// plus rows declared at run time. Every row is `'static` (a run-time row's text is leaked, once
/// per process), so values can be keyed by a row's name.
#[derive(Clone, Debug)]
pub struct Table {
    rows: Vec<&'static [Spec]>,
    aliases: Vec<&'static [(&'static str, Alias)]>,
}

impl Table {
    /// Core's rows alone: the general, driver and output options.
    pub fn general() -> Table {
        Table {
            rows: vec![GENERAL],
            aliases: vec![GENERAL_ALIASES],
        }
    }

    /// Core's rows without dbpress's own result options named in `names`, which a Lua script
    /// declaring options of those names takes over: sysbench-tpcc's `--report_csv` is the
    /// script's, not dbpress's CSV switch. sysbench's own options stay dbpress's (a script's
    /// default for one is ignored, as under sysbench).
    pub fn general_yielding(names: &[&str]) -> Table {
        let rows: Vec<Spec> = GENERAL
            .iter()
            .filter(|s| !(s.group == Group::Output && names.contains(&s.name)))
            .cloned()
            .collect();
        Table {
            rows: vec![Box::leak(rows.into_boxed_slice())],
            aliases: vec![GENERAL_ALIASES],
        }
    }

    /// This table and a part's rows and deprecated spellings (a workload's `OPTIONS`, `ALIASES`).
    pub fn with(
        mut self,
        rows: &'static [Spec],
        aliases: &'static [(&'static str, Alias)],
    ) -> Table {
        self.rows.push(rows);
        self.aliases.push(aliases);
        self
    }

    /// Rows made at run time (a Lua script's `sysbench.cmdline.options`, #41) added; a row whose
    /// name the table has already is left out, as sysbench ignores a script's default for a
    /// built-in option. The rows live as long as the process (a script declares them once).
    pub fn declare(&mut self, rows: Vec<Spec>) {
        let new: Vec<Spec> = rows
            .into_iter()
            .filter(|r| self.find(r.name).is_none())
            .collect();
        if !new.is_empty() {
            self.rows.push(Box::leak(new.into_boxed_slice()));
        }
    }

    /// Every row, core's first, in the order they were given.
    pub fn rows(&self) -> impl Iterator<Item = &'static Spec> + '_ {
        self.rows.iter().flat_map(|part| part.iter())
    }

    pub fn find(&self, name: &str) -> Option<&'static Spec> {
        self.rows().find(|s| s.name == name)
    }

    /// The deprecated spelling `name`, if it is one.
    pub fn alias(&self, name: &str) -> Option<&'static Alias> {
        self.aliases
            .iter()
            .flat_map(|part| part.iter())
            .find(|(n, _)| *n == name)
            .map(|(_, a)| a)
    }
}

/// The table installed for the process; core's rows alone until the binary installs its own.
static INSTALLED: RwLock<Option<Table>> = RwLock::new(None);

/// Make `table` the process's option table: what `installed`, `find` and `rows` read.
pub fn install(table: Table) {
    *INSTALLED.write().unwrap_or_else(|e| e.into_inner()) = Some(table);
}

/// The process's option table: the one installed, else core's rows alone.
pub fn installed() -> Table {
    INSTALLED
        .read()
        .unwrap_or_else(|e| e.into_inner())
        .clone()
        .unwrap_or_else(Table::general)
}

/// The row `name` of the installed table.
pub fn find(name: &str) -> Option<&'static Spec> {
    installed().find(name)
}

/// Every row of the installed table.
pub fn rows() -> Vec<&'static Spec> {
    installed().rows().collect()
}

/// A deprecated spelling and what it becomes.
#[derive(Debug)]
pub enum Alias {
    /// Same value, new name.
    Rename(&'static str),
    /// A boolean switch that, when on, sets several options (sysbench 0.5's --oltp-read-only).
    Expand(&'static [(&'static str, &'static str)]),
}

/// sysbench options that do nothing in dbpress, with their value's shape and why: accepted
/// with a one-line notice so pasted commands run.
pub fn inert(name: &str) -> Option<(Kind, &'static str)> {
    Some(match name {
        "thread-stack-size" => (Str, "dbpress sizes its worker threads' stacks itself"),
        "luajit-cmd" => (Str, "dbpress runs no Lua"),
        "db-debug" => (Bool, "per-statement latency and errors are always in dbpress's report"),
        "mysql-debug" => (Bool, "dbpress has no client library to trace; per-statement latency and errors are in its report"),
        "debug" => (Bool, "per-thread events and time are under Threads fairness and in the JSON result"),
        _ => return None,
    })
}
