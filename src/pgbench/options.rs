//! pgbench 15's options, read left to right as pgbench reads them: each value checked when it
//! is seen, scripts loaded and parsed when `-b`/`-f` is seen, `-b list` and `--show-script`
//! answering there and then. What it gives is a [`Line`]; or how pgbench would end.

use super::getopt::{self, Spec};
use super::values::{atof, atoi, int_in, weighted};
use dbpress_workload::script::builtin;
use dbpress_workload::script::parse::{self, Command, Script};

/// Which mode an option belongs to (pgbench refuses mixing them).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Init,
    Bench,
    Common,
}

macro_rules! opt {
    ($short:expr, $long:expr, $value:expr, $key:expr) => {
        Spec {
            short: $short,
            long: $long,
            takes_value: $value,
            key: $key,
        }
    };
}

/// Every option of pgbench 15, as getopt_long is given them.
pub const SPECS: &[Spec] = &[
    opt!(Some('b'), Some("builtin"), true, "b"),
    opt!(Some('c'), Some("client"), true, "c"),
    opt!(Some('C'), Some("connect"), false, "C"),
    opt!(Some('d'), Some("debug"), false, "d"),
    opt!(Some('D'), Some("define"), true, "D"),
    opt!(Some('f'), Some("file"), true, "f"),
    opt!(Some('F'), Some("fillfactor"), true, "F"),
    opt!(Some('h'), Some("host"), true, "h"),
    opt!(Some('i'), Some("initialize"), false, "i"),
    opt!(Some('I'), Some("init-steps"), true, "I"),
    opt!(Some('j'), Some("jobs"), true, "j"),
    opt!(Some('l'), Some("log"), false, "l"),
    opt!(Some('L'), Some("latency-limit"), true, "L"),
    opt!(Some('n'), Some("no-vacuum"), false, "n"),
    opt!(Some('p'), Some("port"), true, "p"),
    opt!(Some('P'), Some("progress"), true, "P"),
    opt!(Some('M'), Some("protocol"), true, "M"),
    opt!(Some('q'), Some("quiet"), false, "q"),
    opt!(Some('r'), Some("report-per-command"), false, "r"),
    opt!(None, Some("report-latencies"), false, "r"),
    opt!(Some('R'), Some("rate"), true, "R"),
    opt!(Some('s'), Some("scale"), true, "s"),
    opt!(Some('S'), Some("select-only"), false, "S"),
    opt!(Some('N'), Some("skip-some-updates"), false, "N"),
    opt!(Some('t'), Some("transactions"), true, "t"),
    opt!(Some('T'), Some("time"), true, "T"),
    opt!(Some('U'), Some("username"), true, "U"),
    opt!(Some('v'), Some("vacuum-all"), false, "v"),
    opt!(None, Some("unlogged-tables"), false, "unlogged-tables"),
    opt!(None, Some("sampling-rate"), true, "sampling-rate"),
    opt!(None, Some("aggregate-interval"), true, "aggregate-interval"),
    opt!(
        None,
        Some("progress-timestamp"),
        false,
        "progress-timestamp"
    ),
    opt!(None, Some("tablespace"), true, "tablespace"),
    opt!(None, Some("index-tablespace"), true, "index-tablespace"),
    opt!(None, Some("foreign-keys"), false, "foreign-keys"),
    opt!(None, Some("random-seed"), true, "random-seed"),
    opt!(None, Some("show-script"), true, "show-script"),
    opt!(None, Some("partitions"), true, "partitions"),
    opt!(None, Some("partition-method"), true, "partition-method"),
    opt!(None, Some("failures-detailed"), false, "failures-detailed"),
    opt!(None, Some("log-prefix"), true, "log-prefix"),
    opt!(None, Some("max-tries"), true, "max-tries"),
    opt!(None, Some("verbose-errors"), false, "verbose-errors"),
];

/// pgbench 17's options: `-d` names the database (`--dbname`), debugging is `--debug` alone,
/// and `--exit-on-abort` (16) is new; in getopt_long's order, which its ambiguity messages
/// follow.
fn specs_17() -> Vec<Spec> {
    let mut specs: Vec<Spec> = SPECS
        .iter()
        .map(|s| match s.key {
            "d" => opt!(Some('d'), Some("dbname"), true, "dbname"),
            _ => *s,
        })
        .collect();
    specs.push(opt!(None, Some("debug"), false, "d"));
    specs.push(opt!(None, Some("exit-on-abort"), false, "exit-on-abort"));
    specs
}

/// The options of the pgbench release spoken as.
fn specs() -> std::borrow::Cow<'static, [Spec]> {
    match dbpress_core::personality::pgbench_major() {
        17 => std::borrow::Cow::Owned(specs_17()),
        _ => std::borrow::Cow::Borrowed(SPECS),
    }
}

fn mode_of(key: &str) -> Mode {
    match key {
        "i" | "d" | "h" | "p" | "U" | "n" | "s" | "dbname" => Mode::Common,
        "I" | "F" | "q" | "unlogged-tables" | "tablespace" | "index-tablespace"
        | "foreign-keys" | "partitions" | "partition-method" => Mode::Init,
        _ => Mode::Bench,
    }
}

/// pgbench's -M.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Simple,
    Extended,
    Prepared,
}

impl Protocol {
    pub fn name(self) -> &'static str {
        match self {
            Protocol::Simple => "simple",
            Protocol::Extended => "extended",
            Protocol::Prepared => "prepared",
        }
    }
}

/// A pgbench command line, read and checked.
#[derive(Default)]
pub struct Line {
    pub initialize: bool,
    pub init_steps: Option<String>,
    pub fillfactor: Option<i64>,
    pub no_vacuum: bool,
    pub quiet: bool,
    pub scale: Option<i64>,
    pub foreign_keys: bool,
    pub unlogged_tables: bool,
    pub tablespace: Option<String>,
    pub index_tablespace: Option<String>,
    pub partitions: Option<i64>,
    pub partition_method: Option<String>,
    /// Each script: how pgbench names it, parsed, with its weight.
    pub scripts: Vec<Script>,
    pub clients: Option<i64>,
    pub connect: bool,
    pub defines: Vec<(String, String)>,
    pub jobs: Option<i64>,
    pub log: bool,
    pub latency_limit_ms: Option<f64>,
    pub protocol: Option<Protocol>,
    pub progress_s: Option<i64>,
    pub per_command: bool,
    pub rate: Option<f64>,
    pub transactions: Option<i64>,
    pub time_s: Option<i64>,
    pub vacuum_all: bool,
    pub aggregate_interval: Option<i64>,
    pub failures_detailed: bool,
    pub log_prefix: Option<String>,
    pub max_tries: Option<i64>,
    pub progress_timestamp: bool,
    pub random_seed: Option<String>,
    pub sampling_rate: Option<f64>,
    pub verbose_errors: bool,
    pub debug: bool,
    pub host: Option<String>,
    pub port: Option<String>,
    pub user: Option<String>,
    pub dbname: Option<String>,
    /// pgbench 16's `--exit-on-abort`: the run ends when a client aborts.
    pub exit_on_abort: bool,
    init_option: bool,
    bench_option: bool,
}

/// How reading the line ended early: text for stderr (pgbench's lines, whole) and the code.
pub struct Stop {
    pub stderr: String,
    pub code: u8,
}

fn error(message: impl AsRef<str>) -> Stop {
    Stop {
        stderr: format!("pgbench: error: {}\n", message.as_ref()),
        code: 1,
    }
}

/// `-b list`'s text (and what follows a bad built-in name).
pub fn builtin_list() -> String {
    let mut s = String::from("Available builtin scripts:\n");
    for (name, desc) in builtin::DESCRIPTIONS {
        s.push_str(&format!("{name:>15}: {desc}\n"));
    }
    s.push('\n');
    s
}

/// The built-in script a name or prefix of one names.
pub fn find_builtin(name: &str) -> Result<&'static str, Stop> {
    let found: Vec<&str> = builtin::DESCRIPTIONS
        .iter()
        .map(|(n, _)| *n)
        .filter(|n| n.starts_with(name))
        .collect();
    let message = match found.len() {
        1 => return Ok(found[0]),
        0 => format!("no builtin script found for name \"{name}\""),
        n => format!("ambiguous builtin name: {n} builtin scripts found for prefix \"{name}\""),
    };
    let mut stop = error(message);
    stop.stderr.push_str(&builtin_list());
    Err(stop)
}

fn script_error(text: String) -> Stop {
    error(text)
}

/// Read `args` (without argv[0]); `program` is argv[0] as typed, for getopt's messages.
pub fn read(program: &str, args: &[String]) -> Result<Line, Stop> {
    let mut line = Line::default();
    let operands = getopt::parse(program, args, &specs(), |seen| {
        match mode_of(seen.key) {
            Mode::Init => line.init_option = true,
            Mode::Bench => line.bench_option = true,
            Mode::Common => {}
        }
        line.take(seen.key, seen.value.unwrap_or_default())
    })
    .map_err(|stopped| match stopped {
        getopt::Stopped::Getopt(m) => Stop {
            stderr: format!("{m}\npgbench: hint: Try \"pgbench --help\" for more information.\n"),
            code: 1,
        },
        getopt::Stopped::Caller(stop) => stop,
    })?;
    let mut operands = operands.into_iter();
    // The first operand names the database, unless -d did (pgbench 17).
    if line.dbname.is_none() {
        line.dbname = operands.next();
    }
    if let Some(extra) = operands.next() {
        return Err(Stop {
            stderr: format!(
                "pgbench: error: too many command-line arguments (first is \"{extra}\")\npgbench: hint: Try \"pgbench --help\" for more information.\n"
            ),
            code: 1,
        });
    }
    Ok(line)
}

impl Line {
    /// One option and its value, checked as pgbench checks it when it reads it.
    fn take(&mut self, key: &str, v: String) -> Result<(), Stop> {
        let int =
            |label: &str, min: i64| int_in(&v, label, min, i64::from(i32::MAX)).map_err(error);
        match key {
            "i" => self.initialize = true,
            "I" => self.init_steps = Some(init_steps(&v)?),
            "F" => self.fillfactor = Some(int_in(&v, "-F/--fillfactor", 10, 100).map_err(error)?),
            "n" => self.no_vacuum = true,
            "q" => self.quiet = true,
            "s" => self.scale = Some(int("-s/--scale", 1)?),
            "foreign-keys" => self.foreign_keys = true,
            "unlogged-tables" => self.unlogged_tables = true,
            "tablespace" => self.tablespace = Some(v),
            "index-tablespace" => self.index_tablespace = Some(v),
            "partitions" => self.partitions = Some(int("--partitions", 0)?),
            "partition-method" => self.partition_method = Some(partition_method(&v)?),
            "b" | "S" | "N" => self.add_builtin(key, &v)?,
            "f" => self.add_file(&v)?,
            // pgbench 17 names its option as its long form is spelled (--client).
            "c" if dbpress_core::personality::pgbench_major() >= 17 => {
                self.clients = Some(int("-c/--client", 1)?)
            }
            "c" => self.clients = Some(int("-c/--clients", 1)?),
            "C" => self.connect = true,
            "D" => self.defines.push(define(&v)?),
            "j" => self.jobs = Some(int("-j/--jobs", 1)?),
            "l" => self.log = true,
            "L" => self.latency_limit_ms = Some(positive(&v, "invalid latency limit")?),
            "M" => self.protocol = Some(protocol(&v)?),
            "P" => self.progress_s = Some(int("-P/--progress", 1)?),
            "r" => self.per_command = true,
            "R" => self.rate = Some(positive(&v, "invalid rate limit")?),
            "t" => self.transactions = Some(int("-t/--transactions", 1)?),
            "T" => self.time_s = Some(int("-T/--time", 1)?),
            "v" => self.vacuum_all = true,
            "aggregate-interval" => self.aggregate_interval = Some(int("--aggregate-interval", 1)?),
            "failures-detailed" => self.failures_detailed = true,
            "log-prefix" => self.log_prefix = Some(v),
            "max-tries" => self.max_tries = Some(max_tries(&v)?),
            "progress-timestamp" => self.progress_timestamp = true,
            "random-seed" => self.random_seed = Some(random_seed(&v)?),
            "sampling-rate" => self.sampling_rate = Some(sampling_rate(&v)?),
            "show-script" => return Err(show_script(&v)),
            "verbose-errors" => self.verbose_errors = true,
            "d" => self.debug = true,
            "dbname" => self.dbname = Some(v),
            "exit-on-abort" => self.exit_on_abort = true,
            "h" => self.host = Some(v),
            "p" => self.port = Some(v),
            "U" => self.user = Some(v),
            _ => {}
        }
        Ok(())
    }

    fn add_builtin(&mut self, key: &str, v: &str) -> Result<(), Stop> {
        let (name, weight) = match key {
            "S" => ("select-only".to_string(), 1),
            "N" => ("simple-update".to_string(), 1),
            _ if v == "list" => {
                return Err(Stop {
                    stderr: builtin_list(),
                    code: 0,
                })
            }
            _ => weighted(v).map_err(error)?,
        };
        let name = find_builtin(&name)?;
        let desc = builtin::description(name).unwrap_or(name);
        let text = builtin::script(name).unwrap_or_default();
        self.push_script(parse::parse(desc, text, weight).map_err(script_error)?)
    }

    fn add_file(&mut self, v: &str) -> Result<(), Stop> {
        let (path, weight) = weighted(v).map_err(error)?;
        let text = if path == "-" {
            let mut s = String::new();
            std::io::Read::read_to_string(&mut std::io::stdin(), &mut s)
                .map_err(|e| error(format!("could not read file \"-\": {e}")))?;
            s
        } else {
            std::fs::read_to_string(&path).map_err(|e| {
                error(format!(
                    "could not open file \"{path}\": {}",
                    c_strerror(&e)
                ))
            })?
        };
        self.push_script(parse::parse(&path, &text, weight).map_err(script_error)?)
    }

    fn push_script(&mut self, s: Script) -> Result<(), Stop> {
        if self.scripts.len() >= 128 {
            return Err(error("at most 128 SQL scripts are allowed"));
        }
        // pgbench numbers a statement's parameters as it reads the script, in the query mode
        // given so far (-M before -f counts): at most 255 of them.
        if !matches!(self.protocol, None | Some(Protocol::Simple)) {
            let too_many = s.commands.iter().find_map(|c| match c {
                Command::Sql(q) if q.params.len() > 255 => Some(&q.text),
                _ => None,
            });
            if let Some(text) = too_many {
                return Err(error(format!(
                    "statement has too many arguments (maximum is 255): {text}"
                )));
            }
        }
        self.scripts.push(s);
        Ok(())
    }

    pub fn is_init_option_given(&self) -> bool {
        self.init_option
    }

    pub fn is_bench_option_given(&self) -> bool {
        self.bench_option
    }
}

/// An OS error as strerror words it.
fn c_strerror(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "No such file or directory".into(),
        std::io::ErrorKind::PermissionDenied => "Permission denied".into(),
        _ => {
            let s = e.to_string();
            s.split(" (os error").next().unwrap_or(&s).to_string()
        }
    }
}

fn init_steps(v: &str) -> Result<String, Stop> {
    if let Some(bad) = v.chars().find(|c| !"dtgGvpf ".contains(*c)) {
        return Err(Stop {
            stderr: format!(
                "pgbench: error: unrecognized initialization step \"{bad}\"\npgbench: detail: Allowed step characters are: \"dtgGvpf\".\n"
            ),
            code: 1,
        });
    }
    if v.trim().is_empty() {
        return Err(error("no initialization steps specified"));
    }
    Ok(v.replace(' ', ""))
}

fn partition_method(v: &str) -> Result<String, Stop> {
    match v.to_ascii_lowercase().as_str() {
        m @ ("range" | "hash") => Ok(m.to_string()),
        _ => Err(error(format!(
            "invalid partition method, expecting \"range\" or \"hash\", got: \"{v}\""
        ))),
    }
}

fn define(v: &str) -> Result<(String, String), Stop> {
    match v.split_once('=') {
        Some((name, value)) if !name.is_empty() && !value.is_empty() => {
            let ok = name
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || !c.is_ascii())
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || !c.is_ascii());
            if !ok {
                return Err(error(format!("option: invalid variable name: \"{name}\"")));
            }
            Ok((name.to_string(), value.to_string()))
        }
        _ => Err(error(format!("invalid variable definition: \"{v}\""))),
    }
}

fn positive(v: &str, what: &str) -> Result<f64, Stop> {
    let x = atof(v);
    if x <= 0.0 {
        return Err(error(format!("{what}: \"{v}\"")));
    }
    Ok(x)
}

fn protocol(v: &str) -> Result<Protocol, Stop> {
    match v {
        "simple" => Ok(Protocol::Simple),
        "extended" => Ok(Protocol::Extended),
        "prepared" => Ok(Protocol::Prepared),
        _ => Err(error(format!("invalid query mode (-M): \"{v}\""))),
    }
}

fn max_tries(v: &str) -> Result<i64, Stop> {
    let n = atoi(v);
    if n < 0 {
        return Err(error(format!("invalid number of maximum tries: \"{v}\"")));
    }
    Ok(n)
}

fn random_seed(v: &str) -> Result<String, Stop> {
    let ok = v == "time" || v == "rand" || {
        let t = v.trim_start();
        let body = t.strip_prefix(['+', '-']).unwrap_or(t);
        !body.is_empty() && body.bytes().all(|b| b.is_ascii_digit())
    };
    if !ok {
        return Err(Stop {
            stderr: format!(
                "pgbench: error: unrecognized random seed option \"{v}\"\npgbench: detail: Expecting an unsigned integer, \"time\" or \"rand\".\npgbench: error: error while setting random seed from --random-seed option\n"
            ),
            code: 1,
        });
    }
    Ok(v.to_string())
}

fn sampling_rate(v: &str) -> Result<f64, Stop> {
    let x = atof(v);
    if x <= 0.0 || x > 1.0 {
        return Err(error(format!("invalid sampling rate: \"{v}\"")));
    }
    Ok(x)
}

/// `--show-script=NAME`: the script on stderr, then the end (0), or the lookup's error.
fn show_script(v: &str) -> Stop {
    match find_builtin(v) {
        Ok(name) => Stop {
            stderr: format!(
                "-- {name}: {}\n{}\n",
                builtin::description(name).unwrap_or(name),
                builtin::script(name).unwrap_or_default()
            ),
            code: 0,
        },
        Err(stop) => stop,
    }
}
