//! dbpress as tpcc_start (#42): invoked through a link named `tpcc_start` (or
//! `--compat=tpcc_start`), it reads tpcc_start's command line with its getopt, echoes each
//! option as tpcc_start does, and runs tpcc-mysql's own transactions (`tpcc::peer`) on its
//! tables, printing its text: the parameter block, `RAMP-UP TIME.`, `MEASURING START.`, one
//! line per interval, `STOPPING THREADS` and a dot per client, then its `<Raw Results>`,
//! `<Constraint Check>` and `<TpmC>`. Exit code 0, as tpcc_start's.

use super::getopt::{self, atoi};
use super::peer_report;
use crate::cli::parse_workload;
use crate::run;
use dbpress_config::to_driver::make_driver;
use dbpress_config::RunConfig;
use dbpress_core::error::Result;
use dbpress_core::signals::Signals;
use dbpress_workload::tpcc::peer::new_order_log::NewOrderLogs;
use dbpress_workload::tpcc::peer::TpccMysql;
use dbpress_workload::Context;

const BANNER: &str = "***************************************\n*** ###easy### TPC-C Load Generator ***\n***************************************\n";
const USAGE: &str = "Usage: tpcc_start -h server_host -P port -d database_name -u mysql_user -p mysql_password -w warehouses -c connections -r warmup_time -l running_time -i report_interval -f report_file -t trx_file\n";
/// tpcc_start's flags, each taking a value.
const FLAGS: &str = "hPduwcrlifmotpS01234";

/// What tpcc_start's line says, with its defaults.
struct Line {
    flags: Vec<(char, String)>,
    warehouses: i64,
    connections: i64,
    rampup: i64,
    measure: i64,
    interval: i64,
    limits: [i64; 5],
}

impl Line {
    fn get(&self, c: char) -> Option<&str> {
        self.flags
            .iter()
            .rev()
            .find(|(l, _)| *l == c)
            .map(|(_, v)| v.as_str())
    }
}

/// The option's echo line, as tpcc_start prints it when getopt gives it (a password starred:
/// dbpress prints none).
fn echo(c: char, v: &str) -> String {
    let shown = if c == 'p' && !v.is_empty() {
        "*****"
    } else {
        v
    };
    match c {
        'm' => format!("option m (multiple schemas) with value '{shown}'"),
        'o' => format!("option o (multiple schemas offset) with value '{shown}'"),
        'S' => format!("option S (socket) with value '{shown}'"),
        '0'..='4' => format!("option {c} (response time limit for transaction {c}) '{shown}'"),
        _ => format!("option {c} with value '{shown}'"),
    }
}

fn line(flags: Vec<(char, String)>) -> Line {
    let mut l = Line {
        flags,
        warehouses: 1,
        connections: 10,
        rampup: 10,
        measure: 20,
        interval: 10,
        limits: [5, 5, 5, 80, 20],
    };
    for (c, v) in l.flags.clone() {
        let n = atoi(&v);
        match c {
            'w' => l.warehouses = n,
            'c' => l.connections = n,
            'r' => l.rampup = n,
            'l' => l.measure = n,
            'i' => l.interval = n,
            '0'..='4' => l.limits[c as usize - '0' as usize] = n,
            _ => {}
        }
    }
    l
}

/// The parameter block, the password starred.
fn parameters(l: &Line) -> String {
    let pass = match l.get('p') {
        Some(p) if !p.is_empty() => "*****",
        _ => "",
    };
    let mut o = String::from("<Parameters>\n");
    if l.get('d') != Some("l") {
        o.push_str(&format!("     [server]: {}\n", l.get('h').unwrap_or("")));
        o.push_str(&format!("     [port]: {}\n", l.get('P').map_or(3306, atoi)));
    }
    o.push_str(&format!(
        "     [DBname]: {}\n",
        l.get('d').unwrap_or("tpcc")
    ));
    o.push_str(&format!("       [user]: {}\n", l.get('u').unwrap_or("")));
    o.push_str(&format!("       [pass]: {pass}\n"));
    o.push_str(&format!("  [warehouse]: {}\n", l.warehouses));
    o.push_str(&format!(" [connection]: {}\n", l.connections));
    o.push_str(&format!("     [rampup]: {} (sec.)\n", l.rampup));
    o.push_str(&format!("    [measure]: {} (sec.)\n", l.measure));
    o
}

/// Run as tpcc_start: `program` is argv[0] as typed (getopt's messages name it).
pub fn main(program: &str, args: &[String]) -> u8 {
    getopt::speak_as(program, args, speak, 1)
}

fn speak(program: &str, args: &[String]) -> Result<u8> {
    let Some((extras, args, flags)) =
        getopt::banner_and_line(program, args, BANNER, USAGE, FLAGS, echo)
    else {
        return Ok(0);
    };
    let args = &args[..];
    let l = line(flags);
    dbpress_core::out!("{}", parameters(&l));
    if l.get('m').is_some() {
        return Err(dbpress_core::error::usage(
            "-m (several schemas <db>_0..) is not supported as tpcc_start yet: run one tpcc_start per schema with -d",
        ));
    }
    let interval = l.interval.max(1);
    let ticks = l.measure.max(0) / interval;
    let measured = ticks * interval;
    let limits_s = l.limits.map(|x| {
        if x > 1000 {
            x as f64 / 1000.0
        } else {
            x as f64
        }
    });
    dbpress_core::out!("\nRAMP-UP TIME.({} sec.)\n", l.rampup);
    // tpcc_start opens its -f/-t files before its clients start (and ignores one it cannot).
    let (logs, refused) = NewOrderLogs::create(l.get('f'), l.get('t'));
    for line in refused {
        eprintln!("{program}: {line}");
    }
    let w = TpccMysql::new(l.warehouses.max(1) as u32, seed(), limits_s).with_logs(logs);
    let figures = std::sync::Arc::clone(&w.figures);
    let ran = run_clients(&l, &w, measured, interval, args, &extras);
    w.logs.flush();
    if ran.is_ok() {
        // A dot per client, each ended after its transaction in progress (the run waited).
        let dots = ".".repeat(l.connections.max(1) as usize);
        dbpress_core::out!("\nSTOPPING THREADS{dots}");
    }
    if let Err(e) = ran {
        // tpcc_start's clients that cannot connect say so (each its `error at thread_main`
        // and the client library's `errno, SQLSTATE, message` on stderr) and the report
        // follows, empty.
        for _ in 0..l.connections.max(0) {
            dbpress_core::outln!("error at thread_main");
        }
        let _ = std::io::Write::flush(&mut dbpress_core::out::Stdout);
        match e {
            Failure::Connect(db) => {
                let db = dbpress_driver::mysql::libmariadb_words::connect_failure(&db);
                let state = db.sqlstate.map_or_else(
                    || "HY000".into(),
                    |s| String::from_utf8_lossy(&s).into_owned(),
                );
                for _ in 0..l.connections.max(0) {
                    eprintln!("{}, {state}, {}", db.code, db.message);
                }
            }
            Failure::Other(e) => eprintln!("{}", e.message()),
        }
        dbpress_core::out!("\nMEASURING START.\n\n");
        for t in 1..=ticks {
            dbpress_core::outln!("{:4}, trx: 0, 95%: 0.000, 99%: 0.000, max_rt: 0.000, 0|0.000, 0|0.000, 0|0.000, 0|0.000", t * interval);
        }
        dbpress_core::out!("\nSTOPPING THREADS");
    }
    dbpress_core::out!("\n{}", peer_report::report(&figures, &l.limits, measured));
    Ok(0)
}

/// Why the clients did not run.
enum Failure {
    /// A session could not be opened: the server's (or the client's) error.
    Connect(dbpress_driver::DbError),
    Other(dbpress_core::error::Error),
}

impl From<dbpress_core::error::Error> for Failure {
    fn from(e: dbpress_core::error::Error) -> Failure {
        Failure::Other(e)
    }
}

/// The clients' run: dbpress's TPC-C configuration from the line, tpcc-mysql's workload.
fn run_clients(
    l: &Line,
    w: &TpccMysql,
    measured: i64,
    interval: i64,
    args: &[String],
    extras: &[String],
) -> std::result::Result<(), Failure> {
    let mut words = vec!["tpcc".to_string(), "run".to_string()];
    words.extend(super::flags::connection(&l.flags, "tpcc"));
    words.extend([
        format!("--warehouses={}", l.warehouses.max(1)),
        format!("--threads={}", l.connections.max(1)),
        format!("--warmup-time={}", l.rampup.max(0)),
        format!("--time={}", measured.max(1)),
        format!("--report-interval={interval}"),
        "--db-driver=mysql".into(),
        "--server-status=off".into(),
        "--server-waits=off".into(),
    ]);
    words.extend(extras.iter().cloned());
    let (workload, command, opts) = parse_workload(&words)?;
    let cfg = RunConfig::from_options(&workload, command, &opts)?;
    let driver = make_driver(&cfg)?;
    // A session first, as each of tpcc_start's clients opens one: its failure is theirs.
    drop(driver.connect(0).map_err(Failure::Connect)?);
    let ctx = Context {
        driver: driver.as_ref(),
        threads: cfg.shape.threads,
        dist: &cfg.keys.dist,
        invocation: cfg.invocation("tpcc_start"),
    };
    let signals = Signals::install();
    let argv: Vec<String> = std::iter::once("tpcc_start".to_string())
        .chain(super::flags::hide_password(args))
        .collect();
    let m = run::measure(&cfg, w, &ctx, &argv, &mut std::io::sink(), &signals, &|m| {
        run::exit_forced(&cfg, &m, driver.hints(), w)
    })?;
    if let Some(path) = &cfg.reporting.file {
        dbpress_report::write_run(path, &m.result)?;
    }
    if let Some(store) = &cfg.reporting.store {
        crate::store_option::save(store, &cfg.reporting.tags, &[&m.result], None)?;
    }
    Ok(())
}

/// tpcc_start seeds its random numbers from /dev/urandom: each run draws others.
pub(super) fn seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_read_as_atoi_reads_them() {
        assert_eq!(
            echo('0', "50"),
            "option 0 (response time limit for transaction 0) '50'"
        );
        assert_eq!(echo('p', "secret"), "option p with value '*****'");
        assert_eq!(echo('S', "/s"), "option S (socket) with value '/s'");
    }
}
