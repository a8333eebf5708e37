//! `RunConfig`: every value a run takes, checked once from the option values (errors name the
//! flag and the fix), with the target `resolve_driver` picks.

use crate::keys;
use crate::{mysql_target, pgsql_target, sqlite_target};
use dbpress_core::error::{failed, usage, Result};
use dbpress_core::options::table::Group;
use dbpress_core::options::OptionValues;
use dbpress_core::rand::{DistKind, DistParams};
use dbpress_driver::mysql::target::MysqlTarget;
use dbpress_driver::sqlite::SqliteTarget;
pub use dbpress_driver::PsMode;
use dbpress_pg::PgTarget;
/// The renderers own their format names (`dbpress_report::OutputFormat`); a run's config
/// holds the one --output-format named.
use dbpress_report::OutputFormat;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Arrival {
    Poisson,
    Uniform,
}

/// Which server error codes restart the event instead of failing the run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum IgnoreList {
    All,
    Codes(Vec<String>),
}

impl IgnoreList {
    pub fn contains(&self, code: &str) -> bool {
        match self {
            IgnoreList::All => true,
            IgnoreList::Codes(c) => c.iter().any(|x| x == code),
        }
    }

    /// Whether `e` restarts the event instead of failing the run: its code is listed, and it
    /// is the server's (an error in the workload's own input would fail the same way on every
    /// retry: never ignorable, even with "all"). The runner's retries and a Lua script's
    /// error classes both decide by this.
    pub fn restarts(&self, e: &dbpress_driver::DbError) -> bool {
        e.kind != dbpress_driver::DbErrorKind::Input && self.contains(&e.code)
    }
}

/// Where the benchmark's statements go.
#[derive(Clone, Debug)]
pub enum Target {
    Mysql(MysqlTarget),
    Pgsql(PgTarget),
    Sqlite(SqliteTarget),
    /// `--mysql-dry-run`: a driver that executes nothing, to measure dbpress's own cost.
    DryRun,
}

/// Every value a run takes, in small groups each with one concern: what the run does and for
/// how long ([`RunShape`]), what it prints and keeps ([`Reporting`]), what it reads from the
/// server beside the workload ([`Sampling`]), how it draws keys ([`KeyDraws`]) and where its
/// sessions go ([`ConnectionSettings`]).
#[derive(Clone, Debug)]
pub struct RunConfig {
    pub workload: String,
    pub command: Command,
    pub shape: RunShape,
    pub reporting: Reporting,
    pub sampling: Sampling,
    pub keys: KeyDraws,
    pub connection: ConnectionSettings,
    /// Every effective option (defaults included) with secrets removed, for the result file.
    /// Written once, never read back for a decision.
    pub echo: BTreeMap<String, String>,
}

/// How many sessions run, for how long, how fast and how the run ends.
#[derive(Clone, Copy, Debug)]
pub struct RunShape {
    pub threads: u32,
    /// Seconds; 0 = no limit.
    pub time: u64,
    /// 0 = no limit.
    pub events: u64,
    /// Events each thread runs at most (0 = no share): `dbpress slap`'s clients each run
    /// their share of --number-of-queries, as mysqlslap's do, instead of taking events from
    /// the common --events as they are free.
    pub events_per_thread: u64,
    pub warmup: u64,
    /// Events per second; None = closed loop.
    pub rate: Option<f64>,
    pub arrival: Arrival,
    /// `--latency-limit` in ns (pgbench's -L); None = off.
    pub latency_limit_ns: Option<u64>,
    /// `--forced-shutdown`: seconds after the end of --time to wait for events still running
    /// before ending the run without them; None = wait as long as they take.
    pub forced_shutdown: Option<f64>,
    /// `--thread-init-timeout`: seconds the set-up may take (0 = no limit).
    pub thread_init_timeout: u64,
    /// `--validate`: the test checks what it can (fileio's blocks).
    pub validate: bool,
}

impl RunShape {
    /// How the run stops, in the header's and the result's words.
    pub fn stop_condition(&self) -> String {
        match (self.time, self.events) {
            (0, 0) => "none (--time=0 --events=0: runs until interrupted, Ctrl-C)".into(),
            (t, 0) => format!("time ({t}s)"),
            (0, e) => format!("events ({e})"),
            (t, e) => format!("time ({t}s) or events ({e}), whichever comes first"),
        }
    }
}

/// What the run prints as it goes and what it keeps at the end.
#[derive(Clone, Debug)]
pub struct Reporting {
    /// Seconds between printed interval lines; 0 = none printed (1 s intervals are still kept).
    pub interval: u64,
    pub percentile: u32,
    pub histogram: bool,
    /// `--report-checkpoints`: seconds since the start of measurement, ascending, distinct.
    pub checkpoints: Vec<u64>,
    pub format: OutputFormat,
    pub file: Option<String>,
    /// `--store`: the results store to keep the run in, if any.
    pub store: Option<std::path::PathBuf>,
    /// `--tag key=value`s, kept with the run in the store.
    pub tags: Vec<(String, String)>,
}

/// What the run reads from the server beside the workload's own statements.
#[derive(Clone, Debug)]
pub struct Sampling {
    /// `--server-waits`: sample the server's view of the sessions during the run.
    pub waits: bool,
    /// `--server-status`: None when off, else the figures added to the engine's own set.
    pub status: Option<Vec<(String, dbpress_driver::status::StatusKind)>>,
}

/// How the workload draws its keys.
#[derive(Clone, Debug)]
pub struct KeyDraws {
    pub dist: DistParams,
    /// The seed actually used (drawn from the clock when --rand-seed=0), printed so runs repeat.
    pub seed: u64,
    pub seed_from_time: bool,
}

/// Where the sessions go, how they send statements and which server errors they ride out.
#[derive(Clone, Debug)]
pub struct ConnectionSettings {
    pub target: Target,
    pub ps_mode: PsMode,
    pub ignore: IgnoreList,
    /// Whose spelling the target was given in, so connection errors name what the user typed.
    pub flags: ConnectionFlags,
    /// The connection options in effect that were not defaults, as sysbench-style options
    /// (" --mysql-host=db1 --mysql-password=***"), so a suggested command reaches the same
    /// server; passwords are never shown.
    pub args: String,
}

/// What a sysbench-style command line asks of a workload.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    Prepare,
    Run,
    Cleanup,
    Check,
    Prewarm,
}

impl Command {
    pub fn parse(s: &str) -> Option<Command> {
        Some(match s {
            "prepare" => Command::Prepare,
            "run" => Command::Run,
            "cleanup" => Command::Cleanup,
            "check" => Command::Check,
            // sysbench master renamed prewarm to warmup; both work.
            "prewarm" | "warmup" => Command::Prewarm,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Command::Prepare => "prepare",
            Command::Run => "run",
            Command::Cleanup => "cleanup",
            Command::Check => "check",
            Command::Prewarm => "prewarm",
        }
    }
}

/// The grammar a target was written in: sysbench's `--mysql-*`/`--pgsql-*` options, a `--db`
/// URL, mysqlslap's flags (`dbpress slap`) or pgbench's `-h -p -U DBNAME` (`dbpress script`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConnectionFlags {
    Sysbench,
    Url,
    Mysqlslap,
    Pgbench,
}

/// `--report-checkpoints=10,20`: whole seconds after the start, at most 256 of them as in
/// sysbench.
fn checkpoints(raw: &str) -> Result<Vec<u64>> {
    let mut out = Vec::new();
    for part in raw.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        match part.parse::<u64>() {
            Ok(n) if n > 0 => out.push(n),
            _ => {
                return Err(dbpress_core::personality::refused(
                    format!("Invalid value for --report-checkpoints: '{raw}'"),
                    || {
                        format!("invalid checkpoint '{part}' in --report-checkpoints={raw}: use whole seconds after the start, like 60,120")
                    },
                ))
            }
        }
    }
    if out.len() > 256 {
        return Err(usage(format!(
            "--report-checkpoints lists {} checkpoints: at most 256",
            out.len()
        )));
    }
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

/// `--forced-shutdown` as sysbench reads it: `off`, seconds (`10`), a percentage of --time
/// (`5%`), or empty (a bare flag) for 5% of --time. Like sysbench, it only bounds a --time run.
fn forced_shutdown(raw: &str, time: u64) -> Result<Option<f64>> {
    let raw = raw.trim();
    if raw.eq_ignore_ascii_case("off") || time == 0 {
        return Ok(None);
    }
    let bad = || {
        dbpress_core::personality::refused(
            format!("Invalid value for --forced-shutdown: '{raw}'"),
            || {
                format!("invalid value '{raw}' for --forced-shutdown: use seconds after --time (10), a percentage of --time (5%), or off")
            },
        )
    };
    let (number, percent) = match raw.strip_suffix('%') {
        _ if raw.is_empty() => ("5", true),
        Some(n) => (n, true),
        None => (raw, false),
    };
    let v: f64 = number.trim().parse().map_err(|_| bad())?;
    if !v.is_finite() || !(0.0..=1e7).contains(&v) {
        return Err(bad());
    }
    Ok(Some(if percent { time as f64 * v / 100.0 } else { v }))
}

/// `--OPTION`'s text (`option` is its name) as the list it gives.
pub fn ignore_list(raw: &str, option: &str) -> Result<IgnoreList> {
    let raw = raw.trim();
    if raw.eq_ignore_ascii_case("all") {
        return Ok(IgnoreList::All);
    }
    let mut codes = Vec::new();
    // A code in the wrong form could never match an error, and the run would stop on the error
    // the user meant to ignore: MySQL codes are numbers, SQLSTATEs five letters or digits.
    let well_formed = |part: &str| match option {
        "mysql-ignore-errors" => part.chars().all(|c| c.is_ascii_digit()),
        "pgsql-ignore-errors" => part.len() == 5 && part.chars().all(|c| c.is_ascii_alphanumeric()),
        _ => part.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'),
    };
    for part in raw.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        if !well_formed(part) {
            return Err(usage(format!(
                "invalid error code '{part}' in --{option}: use codes like {} or \"all\"",
                dbpress_core::options::table::find(option).map_or("", |s| s.default)
            )));
        }
        codes.push(part.to_ascii_uppercase());
    }
    Ok(IgnoreList::Codes(codes))
}

/// The engines dbpress drives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    Mysql,
    Pgsql,
    Sqlite,
}

impl Engine {
    /// The SQL the engine speaks, for what is spelled per engine before a driver is made.
    pub fn family(self) -> dbpress_driver::SqlFamily {
        match self {
            Engine::Mysql => dbpress_driver::SqlFamily::Mysql,
            Engine::Pgsql => dbpress_driver::SqlFamily::Postgres,
            Engine::Sqlite => dbpress_driver::SqlFamily::Sqlite,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Engine::Mysql => "mysql",
            Engine::Pgsql => "pgsql",
            Engine::Sqlite => "sqlite",
        }
    }

    /// The engine `--db-driver` names (any case), if any.
    pub fn named(s: &str) -> Option<Engine> {
        Engine::parse(&s.to_ascii_lowercase())
    }

    fn parse(s: &str) -> Option<Engine> {
        match s {
            "mysql" | "mariadb" => Some(Engine::Mysql),
            "pgsql" | "postgres" | "postgresql" => Some(Engine::Pgsql),
            "sqlite" | "sqlite3" => Some(Engine::Sqlite),
            _ => None,
        }
    }
}

/// The path of a `sqlite:PATH` or `sqlite://PATH` URL.
fn sqlite_url_path(url: &str) -> Option<&str> {
    let rest = url.strip_prefix("sqlite:")?;
    Some(rest.strip_prefix("//").unwrap_or(rest))
}

/// Which engine to use: `--db`'s scheme, else `--db-driver`, else the driver whose options were
/// given, else embedded SQLite (the zero-setup default; the bool says it was chosen that way).
pub fn resolve_driver(opts: &OptionValues) -> Result<(Engine, bool)> {
    let given = opts
        .given(keys::DB_DRIVER)
        .then(|| opts.text(keys::DB_DRIVER).to_ascii_lowercase());
    let explicit = match &given {
        Some(d) => Some(Engine::parse(d).ok_or_else(|| {
            usage(format!(
                "unknown --db-driver '{d}': use mysql, pgsql or sqlite (or --mysql-dry-run to execute nothing)"
            ))
        })?),
        None => None,
    };
    let url = opts.text(keys::DB);
    if !url.is_empty() {
        let scheme = url
            .split(':')
            .next()
            .unwrap_or_default()
            .to_ascii_lowercase();
        let from_url = Engine::parse(&scheme).ok_or_else(|| {
            usage(format!(
                "unsupported --db URL scheme '{scheme}': use mysql://user@host:port/db, postgres://user@host:port/db or sqlite:PATH"
            ))
        })?;
        if let Some(d) = explicit.filter(|d| *d != from_url) {
            return Err(usage(format!(
                "--db is a {} URL but --db-driver={}: drop one of them",
                from_url.name(),
                d.name()
            )));
        }
        return Ok((from_url, false));
    }
    if let Some(d) = explicit {
        return Ok((d, false));
    }
    let mut named: Vec<(Engine, &'static str)> = Vec::new();
    for (name, _) in opts.explicit() {
        for d in [Engine::Mysql, Engine::Pgsql, Engine::Sqlite] {
            let prefix = format!("{}-", d.name());
            if name.starts_with(&prefix) && !named.iter().any(|(n, _)| *n == d) {
                named.push((d, name));
            }
        }
    }
    match named.as_slice() {
        [] => Ok((Engine::Sqlite, true)),
        [(d, _)] => Ok((*d, false)),
        [(_, a), (_, b), ..] => Err(usage(format!(
            "options of two drivers given (--{a} and --{b}): choose one with --db-driver"
        ))),
    }
}

/// `--server-status`: on (the engine's set), off, or names to add to it.
fn server_status(v: &str) -> Result<Option<Vec<(String, dbpress_driver::status::StatusKind)>>> {
    match dbpress_core::options::parse_bool(v) {
        Some(true) => return Ok(Some(Vec::new())),
        Some(false) => return Ok(None),
        None => {}
    }
    let mut extra = Vec::new();
    for item in v.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (name, kind) = dbpress_driver::status::parse_extra(item);
        if dbpress_driver::settings::check_name(&name).is_err() {
            return Err(usage(format!(
                "--server-status={v}: '{item}' is not a status name (letters, digits and _; NAME/s for a counter per second), or give on/off"
            )));
        }
        extra.push((name, kind));
    }
    Ok(Some(extra))
}

/// The file name `--store` alone means.
pub const DEFAULT_STORE: &str = "dbpress-results.db";

/// `--tag key=value`s.
pub type Tags = Vec<(String, String)>;

/// `--store` (a path, or on/off) and the `--tag key=value`s (one per line, as the scan joins
/// repeated ones).
pub fn store_and_tags(opts: &OptionValues) -> Result<(Option<std::path::PathBuf>, Tags)> {
    let store = match opts.text(keys::STORE) {
        "" => None,
        v => match dbpress_core::options::parse_bool(v) {
            Some(false) => None,
            Some(true) => Some(std::path::PathBuf::from(DEFAULT_STORE)),
            None => Some(std::path::PathBuf::from(v)),
        },
    };
    let mut tags = Vec::new();
    for t in opts.text(keys::TAG).lines().filter(|t| !t.is_empty()) {
        match t.split_once('=') {
            Some((k, v)) if !k.trim().is_empty() => {
                tags.push((k.trim().to_string(), v.trim().to_string()))
            }
            _ => {
                return Err(usage(format!(
                    "--tag={t}: a tag is key=value, such as --tag os=centos7"
                )))
            }
        }
    }
    if !tags.is_empty() && store.is_none() {
        return Err(usage(
            "--tag is kept with the run in the results store: add --store (./dbpress-results.db) or --store=PATH",
        ));
    }
    Ok((store, tags))
}

/// The explicitly set options that say which server a session reaches and how, each as
/// ` --name=value` (shell-quoted where needed; a password as ***).
fn target_args(opts: &OptionValues) -> String {
    use dbpress_core::options::table::Group;
    let mut out = String::new();
    // In the option table's order: host, port, socket, user, password, database, TLS…
    for spec in opts.table().rows() {
        let name = spec.name;
        if !opts.is_set(name) {
            continue;
        }
        let value = opts.get(name);
        let connection = matches!(
            spec.group,
            Group::Db | Group::Mysql | Group::Pgsql | Group::Sqlite
        ) && !name.ends_with("ignore-errors")
            && name != "db-ps-mode";
        if !connection {
            continue;
        }
        let value = if spec.secret {
            "***".to_string()
        } else if name == "db" {
            crate::mysql_target::redact_url(value)
        } else {
            value.to_string()
        };
        let plain = !value.is_empty()
            && value
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_./:,@=+%*".contains(c));
        if plain {
            out.push_str(&format!(" --{name}={value}"));
        } else {
            out.push_str(&format!(" '--{name}={}'", value.replace('\'', "'\\''")));
        }
    }
    out
}

impl RunConfig {
    /// `dbpress WORD` with the connection options in use: the start of a command line a
    /// message suggests (cleanup, prepare), which must reach the same server.
    pub fn invocation(&self, word: &str) -> String {
        format!("dbpress {word}{}", self.connection.args)
    }

    pub fn from_options(
        workload: &str,
        command: Command,
        opts: &OptionValues,
    ) -> Result<RunConfig> {
        let threads = opts.int(keys::THREADS)? as u32;
        Self::with_threads(workload, command, opts, threads)
    }

    /// The configuration of one level of a sweep: the options as given (where --threads is a
    /// list), run with `threads` sessions, and the result's copy of the options saying so.
    pub fn at_threads(
        workload: &str,
        command: Command,
        opts: &OptionValues,
        threads: u32,
    ) -> Result<RunConfig> {
        let mut cfg = Self::with_threads(workload, command, opts, threads)?;
        cfg.echo
            .insert(keys::THREADS.name.into(), threads.to_string());
        Ok(cfg)
    }

    fn with_threads(
        workload: &str,
        command: Command,
        opts: &OptionValues,
        threads: u32,
    ) -> Result<RunConfig> {
        let time = opts.int(keys::TIME)?;
        let events = opts.int(keys::EVENTS)?;
        let warmup = opts.int(keys::WARMUP_TIME)?;
        let rate = opts.float(keys::RATE).map_err(|e| rate_refused(opts, e))?;
        let latency_limit_ms = opts.float(keys::LATENCY_LIMIT)?;
        let arrival = opts.choice(keys::RATE_ARRIVAL, "poisson, uniform", |s| match s {
            "poisson" => Some(Arrival::Poisson),
            "uniform" => Some(Arrival::Uniform),
            _ => None,
        })?;
        let report_interval = opts.int(keys::REPORT_INTERVAL)?;
        let forced_shutdown = forced_shutdown(opts.text(keys::FORCED_SHUTDOWN), time)?;
        let thread_init_timeout = opts.int(keys::THREAD_INIT_TIMEOUT)?;
        let checkpoints = checkpoints(opts.text(keys::REPORT_CHECKPOINTS))?;
        let percentile = opts.int(keys::PERCENTILE)? as u32;
        let histogram = opts.flag(keys::HISTOGRAM)?;
        if histogram && percentile == 0 {
            return Err(usage(
                "--histogram needs latency statistics, which --percentile=0 turns off: drop one of them",
            ));
        }
        let dist = DistParams {
            kind: opts
                .choice(keys::RAND_TYPE, DistKind::NAMES, DistKind::parse)
                .map_err(|e| {
                    let given = opts.text(keys::RAND_TYPE);
                    match dbpress_core::personality::is_sysbench() {
                        true => failed(format!("Invalid random numbers distribution: {given}.")),
                        false => e,
                    }
                })?,
            spec_iter: opts.int(keys::RAND_SPEC_ITER)? as u32,
            spec_pct: opts.float(keys::RAND_SPEC_PCT)?,
            spec_res: opts.float(keys::RAND_SPEC_RES)?,
            pareto_h: opts.float(keys::RAND_PARETO_H)?,
            zipfian_exp: opts.float(keys::RAND_ZIPFIAN_EXP)?,
        };
        let seed_opt = opts.int(keys::RAND_SEED)?;
        let (seed, seed_from_time) = if seed_opt == 0 {
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos() as u64)
                .unwrap_or(1);
            (nanos | 1, true)
        } else {
            (seed_opt, false)
        };
        let ps_mode = opts.choice(keys::DB_PS_MODE, "auto, disable", |s| match s {
            "auto" => Some(PsMode::Auto),
            "disable" => Some(PsMode::Disable),
            _ => None,
        })?;
        let mut output_format = opts.choice(
            keys::OUTPUT_FORMAT,
            OutputFormat::NAMES,
            OutputFormat::parse,
        )?;
        // sysbench-tpcc's --report_csv=yes: the intervals as CSV rows — dbpress's own option
        // (the built-in tpcc's), not a Lua script's that declares report_csv itself.
        let ours = opts
            .table()
            .find(keys::REPORT_CSV.name)
            .is_some_and(|s| s.group == Group::Output);
        if ours && opts.flag(keys::REPORT_CSV)? {
            output_format = OutputFormat::Csv;
        }
        let output_file = Some(opts.text(keys::OUTPUT).to_string()).filter(|s| !s.is_empty());
        if let Some(path) = &output_file {
            dbpress_core::result_file::check_writable(path)?;
        }

        let (driver, implicit) = resolve_driver(opts)?;
        let dry_run = opts.flag(keys::MYSQL_DRY_RUN)?;
        let url = opts.text(keys::DB);
        let target = match driver {
            Engine::Mysql if dry_run => Target::DryRun,
            Engine::Mysql => Target::Mysql(mysql_target::from_options(opts)?),
            Engine::Sqlite => Target::Sqlite(sqlite_target::from_options(
                opts,
                sqlite_url_path(url),
                implicit,
            )?),
            Engine::Pgsql => Target::Pgsql(pgsql_target::from_options(opts)?),
        };
        let ignore_option = format!("{}-ignore-errors", driver.name());
        let ignore = ignore_list(opts.get(&ignore_option), &ignore_option)?;

        // Every option of the table the values were read with, workloads' included.
        let mut echo: BTreeMap<String, String> = opts
            .table()
            .rows()
            .filter(|s| !s.secret)
            .map(|s| (s.name.to_string(), opts.get(s.name).to_string()))
            .collect();
        // The driver that ran, whether given or inferred.
        echo.insert("db-driver".into(), driver.name().into());
        if let Some(tags) = echo.get_mut("tag") {
            *tags = tags.replace('\n', ",");
        }
        let target_args = target_args(opts);
        let (store, tags) = store_and_tags(opts)?;

        Ok(RunConfig {
            workload: workload.to_string(),
            command,
            shape: RunShape {
                threads,
                time,
                events,
                events_per_thread: 0,
                warmup,
                rate: (rate > 0.0).then_some(rate),
                arrival,
                latency_limit_ns: (latency_limit_ms > 0.0)
                    .then_some((latency_limit_ms * 1e6) as u64),
                forced_shutdown,
                thread_init_timeout,
                validate: opts.flag(keys::VALIDATE)?,
            },
            reporting: Reporting {
                interval: report_interval,
                percentile,
                histogram,
                checkpoints,
                format: output_format,
                file: output_file,
                store,
                tags,
            },
            sampling: Sampling {
                waits: opts.flag(keys::SERVER_WAITS)?,
                status: server_status(opts.text(keys::SERVER_STATUS))?,
            },
            keys: KeyDraws {
                dist,
                seed,
                seed_from_time,
            },
            connection: ConnectionSettings {
                target,
                ps_mode,
                ignore,
                flags: if opts.text(keys::DB).is_empty() {
                    ConnectionFlags::Sysbench
                } else {
                    ConnectionFlags::Url
                },
                args: target_args,
            },
            echo,
        })
    }
}

/// A rate above dbpress's bound: sysbench takes it and stops when its event queue fills, which
/// it does at once at such rates; dbpress refuses it before the run, in sysbench's words under
/// its personality.
fn rate_refused(opts: &OptionValues, e: dbpress_core::error::Error) -> dbpress_core::error::Error {
    let high = opts
        .get(keys::RATE.name)
        .trim()
        .parse::<f64>()
        .is_ok_and(|r| r > 1e9);
    if high && dbpress_core::personality::is_sysbench() {
        return dbpress_core::error::failed(
            "The event queue is full. This means the worker threads are unable to keep up with the specified event generation rate",
        );
    }
    e
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_args::parse_workload;

    fn config(s: &str) -> Result<RunConfig> {
        let args: Vec<String> = s.split_whitespace().map(String::from).collect();
        let (workload, command, opts) = parse_workload(&args)?;
        RunConfig::from_options(&workload, command, &opts)
    }

    #[test]
    fn values_are_validated_with_the_flag_named() {
        let e = config("oltp_point_select run --threads=0 --mysql-dry-run").unwrap_err();
        assert_eq!(
            e.message(),
            "invalid value '0' for --threads: expected a whole number from 1 to 100000"
        );
        let e = config("oltp_point_select run --rand-type=normal --mysql-dry-run").unwrap_err();
        assert!(e
            .message()
            .contains("use one of uniform, gaussian, special, pareto, zipfian"));
        let e = config("oltp_point_select run --rate=fast --mysql-dry-run").unwrap_err();
        assert!(e.message().starts_with("invalid value 'fast' for --rate"));
        let e = config("oltp_point_select run --db-driver=oracle").unwrap_err();
        assert!(e.message().contains("unknown --db-driver 'oracle'"));
        let e =
            config("oltp_point_select run --histogram --percentile=0 --mysql-dry-run").unwrap_err();
        assert!(e.message().contains("--percentile=0"));
    }

    #[test]
    fn forced_shutdown_takes_seconds_a_share_of_time_or_off_and_only_bounds_a_time_run() {
        let f = |s: &str| {
            config(&format!("oltp_point_select run --mysql-dry-run {s}"))
                .map(|c| c.shape.forced_shutdown)
        };
        assert_eq!(f("--time=60").unwrap(), None);
        assert_eq!(f("--time=60 --forced-shutdown=off").unwrap(), None);
        assert_eq!(f("--time=60 --forced-shutdown=10").unwrap(), Some(10.0));
        assert_eq!(f("--time=60 --forced-shutdown=10%").unwrap(), Some(6.0));
        // A bare flag is 5% of --time, as in sysbench; a value may follow after a space.
        assert_eq!(f("--time=60 --forced-shutdown").unwrap(), Some(3.0));
        assert_eq!(f("--forced-shutdown --time=60").unwrap(), Some(3.0));
        assert_eq!(f("--time=60 --forced-shutdown 2").unwrap(), Some(2.0));
        // Without a time limit there is no end for it to follow.
        assert_eq!(f("--time=0 --events=10 --forced-shutdown=5").unwrap(), None);
        let e = f("--time=60 --forced-shutdown=soon").unwrap_err();
        assert_eq!(
            e.message(),
            "invalid value 'soon' for --forced-shutdown: use seconds after --time (10), a percentage of --time (5%), or off"
        );
        assert!(f("--time=60 --forced-shutdown=-1").is_err());
    }

    #[test]
    fn driver_comes_from_url_flag_or_options_else_sqlite() {
        let d = |s: &str| config(s).map(|c| c.echo["db-driver"].clone());
        assert_eq!(d("oltp_point_select run").unwrap(), "sqlite");
        assert!(matches!(
            config("oltp_point_select run").unwrap().connection.target,
            Target::Sqlite(ref t) if t.implicit && t.path.to_str() == Some("dbpress.sqlite")
        ));
        assert_eq!(
            d("oltp_point_select run --mysql-host=127.0.0.1").unwrap(),
            "mysql"
        );
        assert_eq!(
            d("oltp_point_select run --pgsql-port=5433").unwrap(),
            "pgsql"
        );
        assert_eq!(
            d("oltp_point_select run --db=postgres://u@h/db").unwrap(),
            "pgsql"
        );
        assert_eq!(
            d("oltp_point_select run --db=sqlite:/tmp/x.db").unwrap(),
            "sqlite"
        );
        assert_eq!(
            d("oltp_point_select run --db-driver=pgsql").unwrap(),
            "pgsql"
        );
        let e = config("oltp_point_select run --mysql-host=a --pgsql-host=b").unwrap_err();
        assert!(e.message().contains("choose one with --db-driver"));
        let e = config("oltp_point_select run --db=sqlite:x --db-driver=mysql").unwrap_err();
        assert!(e.message().contains("drop one of them"));
        // Each driver reads its own ignore list.
        let c = config("oltp_point_select run --db-driver=pgsql").unwrap();
        assert!(c.connection.ignore.contains("40P01") && !c.connection.ignore.contains("1213"));
        let c = config("oltp_point_select run").unwrap();
        assert!(c.connection.ignore.contains("SQLITE_BUSY"));
    }

    #[test]
    fn ignore_errors_list_forms() {
        let c = config("oltp_point_select run --mysql-dry-run").unwrap();
        assert!(
            c.connection.ignore.contains("1213")
                && c.connection.ignore.contains("1205")
                && !c.connection.ignore.contains("1062")
        );
        let c = config("oltp_point_select run --mysql-dry-run --mysql-ignore-errors=all").unwrap();
        assert!(c.connection.ignore.contains("1062"));
        let c = config("oltp_point_select run --mysql-dry-run --mysql-ignore-errors=").unwrap();
        assert!(!c.connection.ignore.contains("1213"));
    }

    #[test]
    fn an_ignore_code_that_could_never_match_is_refused() {
        for bad in [
            "--mysql-dry-run --mysql-ignore-errors=1213,ER_LOCK_DEADLOCK",
            "--mysql-dry-run --mysql-ignore-errors=40P01",
            "--db-driver=pgsql --pgsql-ignore-errors=40P01,1213",
            "--db-driver=pgsql --pgsql-ignore-errors=deadlock",
        ] {
            let e = config(&format!("oltp_point_select run {bad}"))
                .err()
                .unwrap_or_else(|| panic!("{bad}: accepted"))
                .to_string();
            assert!(e.contains("invalid error code"), "{bad}: {e}");
        }
        let c =
            config("oltp_point_select run --db-driver=pgsql --pgsql-ignore-errors=40p01").unwrap();
        assert!(
            c.connection.ignore.contains("40P01"),
            "SQLSTATEs are case-insensitive"
        );
    }

    #[test]
    fn seed_zero_draws_one_and_records_it() {
        let c = config("oltp_point_select run --mysql-dry-run").unwrap();
        assert!(c.keys.seed_from_time && c.keys.seed != 0);
        let c = config("oltp_point_select run --mysql-dry-run --rand-seed=42").unwrap();
        assert!(!c.keys.seed_from_time);
        assert_eq!(c.keys.seed, 42);
    }

    #[test]
    fn echo_never_holds_the_password() {
        let c = config("oltp_point_select run --mysql-dry-run --mysql-password=hunter2").unwrap();
        assert!(c.echo.values().all(|v| !v.contains("hunter2")));
        assert!(!c.echo.contains_key("mysql-password"));
    }
}
