//! pgbench's command line as people paste it: a command word (or none, `-i` meaning prepare),
//! short flags with attached or separate values, pgbench's run flags mapped onto dbpress's
//! options, and dbpress's own options passed through.

use super::{pgbench_flags, target};
use crate::cli;
use dbpress_config::Command as RunCommand;
use dbpress_core::error::{usage, Result};
use dbpress_core::options::OptionValues;
use dbpress_workload::script::client::QueryMode;

/// What `dbpress script` was asked to do.
#[derive(Debug)]
pub struct Args {
    pub command: RunCommand,
    pub files: Vec<(String, u32)>,
    pub builtins: Vec<(String, u32)>,
    pub defines: Vec<(String, String)>,
    pub scale: Option<u64>,
    pub per_client: Option<u64>,
    /// `-M`: values pasted into the text (simple) or bound (prepared, the default here).
    pub mode: QueryMode,
    /// The target came from pgbench's `-h -p -U DBNAME`.
    pub pgbench_connection: bool,
    pub opts: OptionValues,
}

impl Args {
    /// pgbench's -n (or dbpress's --no-vacuum): no statistics after prepare's load.
    pub fn no_vacuum(&self) -> bool {
        dbpress_core::options::parse_bool(self.opts.get("no-vacuum")) == Some(true)
    }

    /// The scripts run on pgbench's own tables: built-in scripts, or no script file at all.
    pub fn uses_builtin_tables(&self) -> bool {
        !self.builtins.is_empty() || self.files.is_empty()
    }
}

fn weighted(v: &str) -> Result<(String, u32)> {
    match v.rsplit_once('@') {
        Some((name, w)) => {
            let w = w.parse::<u32>().ok().filter(|w| *w > 0).ok_or_else(|| {
                usage(format!(
                    "invalid weight in '{v}': use NAME@N with N a whole number above 0"
                ))
            })?;
            Ok((name.to_string(), w))
        }
        None => Ok((v.to_string(), 1)),
    }
}

/// Whether `word` is one edit (a letter added, dropped or changed, or two swapped) away from a
/// command word: `runn`, `prepar`, `claenup`.
fn near_command(word: &str) -> bool {
    fn one_edit(a: &[u8], b: &[u8]) -> bool {
        if a == b {
            return false;
        }
        let (la, lb) = (a.len(), b.len());
        if la.abs_diff(lb) > 1 {
            return false;
        }
        let start = a.iter().zip(b).take_while(|(x, y)| x == y).count();
        let (ra, rb) = (&a[start..], &b[start..]);
        match la.cmp(&lb) {
            std::cmp::Ordering::Equal => {
                ra[1..] == rb[1..]
                    || (ra.len() >= 2 && ra[0] == rb[1] && ra[1] == rb[0] && ra[2..] == rb[2..])
            }
            std::cmp::Ordering::Greater => ra[1..] == *rb,
            std::cmp::Ordering::Less => *ra == rb[1..],
        }
    }
    let w = word.to_ascii_lowercase();
    ["prepare", "run", "cleanup"]
        .iter()
        .any(|c| one_edit(w.as_bytes(), c.as_bytes()))
}

/// pgbench's flags that take a value (attached, `-c8`, or the next word, `-c 8`).
const TAKES_VALUE: &[&str] = &[
    "--random-seed",
    "--max-tries",
    "-f",
    "--file",
    "-b",
    "--builtin",
    "-D",
    "--define",
    "-s",
    "--scale",
    "-c",
    "--client",
    "-j",
    "--jobs",
    "-T",
    "-t",
    "--transactions",
    "-M",
    "--protocol",
    "-P",
    "--progress",
    "-R",
    "--rate",
    "-L",
    "--latency-limit",
    "-h",
    "--host",
    "-p",
    "--port",
    "-U",
    "--username",
];

fn is_init(a: &str) -> bool {
    a == "-i" || a == "--initialize"
}

/// The command word, and where the flags start. A pgbench command line pasted after
/// `dbpress script` has no command word: as pgbench, `-i` builds the tables and anything else
/// runs.
fn command_word(raw: &[String]) -> Result<(RunCommand, usize)> {
    Ok(match raw.first().map(String::as_str) {
        Some("prepare") => (RunCommand::Prepare, 1),
        Some("run") => (RunCommand::Run, 1),
        Some("cleanup") => (RunCommand::Cleanup, 1),
        // A command word mistyped is not taken for a database name.
        Some(f) if !f.starts_with('-') && near_command(f) => {
            return Err(usage(format!(
                "unknown command '{f}': use prepare, run or cleanup (a database name, pgbench's DBNAME, is taken after the options)"
            )))
        }
        // pgbench takes its DBNAME anywhere (`pgbench mydb -c 4`): a plain first word is
        // that, read with the rest below.
        Some(f) if f.starts_with('-') || !f.is_empty() => match raw.iter().any(|a| is_init(a)) {
            true => (RunCommand::Prepare, 0),
            false => (RunCommand::Run, 0),
        },
        _ => {
            return Err(usage(
                "dbpress script needs a command: prepare, run or cleanup (dbpress script --help)",
            ))
        }
    })
}

/// A flag and its attached value: `--name=value`, `-c8`; short flags take theirs attached or
/// as the next word.
fn split_flag(arg: &str) -> (String, Option<String>) {
    if arg.starts_with("--") {
        match arg.split_once('=') {
            Some((f, v)) => (f.to_string(), Some(v.to_string())),
            None => (arg.to_string(), None),
        }
    } else if arg.starts_with('-') && arg.len() > 2 {
        (arg[..2].to_string(), Some(arg[2..].to_string()))
    } else {
        (arg.to_string(), None)
    }
}

/// What the command line gives besides `Args`' own fields.
#[derive(Default)]
struct Scan {
    /// dbpress's options, as dbpress spells them.
    pass: Vec<String>,
    notices: Vec<String>,
    /// pgbench's -h, -p, -U and DBNAME.
    conn: Vec<(&'static str, String)>,
    /// pgbench's --progress-timestamp needs -P; both are remembered to check that.
    progress: bool,
    progress_timestamp: bool,
}

pub fn parse_args(raw: &[String]) -> Result<Args> {
    let (command, first) = command_word(raw)?;
    let mut a = Args {
        command,
        files: Vec::new(),
        builtins: Vec::new(),
        defines: Vec::new(),
        scale: None,
        per_client: None,
        mode: QueryMode::Prepared,
        pgbench_connection: false,
        opts: OptionValues::default(),
    };
    let mut scan = Scan::default();
    let mut i = first;
    while i < raw.len() {
        let arg = raw[i].clone();
        i += 1;
        // pgbench's -i is what prepare does.
        if command == RunCommand::Prepare && is_init(&arg) {
            continue;
        }
        let (flag, inline) = split_flag(&arg);
        if let Some(why) = pgbench_flags::refused(&flag) {
            return Err(usage(why));
        }
        if flag == "--progress-timestamp" {
            scan.progress_timestamp = true;
        }
        if let Some(notice) = pgbench_flags::inert(&flag) {
            scan.notices.push(format!("pgbench's {notice}"));
            continue;
        }
        if !TAKES_VALUE.contains(&flag.as_str()) {
            let next = (inline.is_none()).then(|| raw.get(i)).flatten();
            i += scan.switch(&mut a, &flag, &arg, next);
            continue;
        }
        let v = match inline {
            Some(v) => v,
            None if i < raw.len() => {
                i += 1;
                raw[i - 1].clone()
            }
            None => return Err(usage(format!("{flag} needs a value"))),
        };
        scan.valued(&mut a, &flag, v)?;
    }
    scan.finish(a)
}

impl Scan {
    /// A flag without a value of pgbench's own, or dbpress's option (with its value, the
    /// `next` word, if it takes one: then 1, the words it used), or the database name.
    fn switch(&mut self, a: &mut Args, flag: &str, arg: &str, next: Option<&String>) -> usize {
        match flag {
            "-S" | "--select-only" => a.builtins.push(("select-only".into(), 1)),
            "-N" | "--skip-some-updates" => a.builtins.push(("simple-update".into(), 1)),
            "-n" | "--no-vacuum" => self.pass.push("--no-vacuum".into()),
            // Always reported (--report-latencies is -r's name before PostgreSQL 13).
            "-r" | "--report-per-command" | "--report-latencies" => {}
            f if f.starts_with('-') => {
                self.pass.push(arg.to_string());
                let name = f.trim_start_matches('-').replace('_', "-");
                let takes_value = dbpress_core::options::table::find(&name)
                    .is_some_and(|s| s.kind != dbpress_core::options::table::Kind::Bool);
                if let Some(v) = next.filter(|_| takes_value) {
                    self.pass.push(v.clone());
                    return 1;
                }
            }
            // A trailing word is the database, as pgbench takes it.
            _ => self.conn.push(("db", arg.to_string())),
        }
        0
    }

    /// A pgbench flag with its value.
    fn valued(&mut self, a: &mut Args, flag: &str, v: String) -> Result<()> {
        let num = |v: &str, what: &str| -> Result<u64> {
            v.parse::<u64>().map_err(|_| {
                usage(format!(
                    "invalid value '{v}' for {what}: expected a whole number"
                ))
            })
        };
        match flag {
            "-f" | "--file" => a.files.push(weighted(&v)?),
            "-b" | "--builtin" => a.builtins.push(weighted(&v)?),
            "-D" | "--define" => {
                let (k, val) = v
                    .split_once('=')
                    .ok_or_else(|| usage(format!("-D {v}: use -D name=value")))?;
                a.defines.push((k.to_string(), val.to_string()));
            }
            "-s" | "--scale" => a.scale = Some(num(&v, "--scale")?.max(1)),
            "-c" | "--client" => self.pass.push(format!("--threads={v}")),
            // One OS thread per client already; the value is still checked, as pgbench does.
            "-j" | "--jobs" => {
                pgbench_flags::positive_int(&v, "number of threads").map_err(usage)?
            }
            "-T" => self.pass.push(format!("--time={v}")),
            "-t" | "--transactions" => a.per_client = Some(num(&v, "-t")?),
            "-M" | "--protocol" => a.mode = protocol(&v)?,
            "--random-seed" => self.pass.push(format!(
                "--rand-seed={}",
                pgbench_flags::random_seed(&v).map_err(usage)?
            )),
            "--max-tries" => pgbench_flags::max_tries(&v).map_err(usage)?,
            "-P" | "--progress" => {
                pgbench_flags::positive_int(&v, "thread progress delay").map_err(usage)?;
                self.progress = true;
                self.pass.push(format!("--report-interval={v}"))
            }
            "-R" | "--rate" => {
                pgbench_flags::positive_number(&v, "rate limit").map_err(usage)?;
                self.pass.push(format!("--rate={v}"))
            }
            "-L" | "--latency-limit" => {
                pgbench_flags::positive_number(&v, "latency limit").map_err(usage)?;
                self.pass.push(format!("--latency-limit={v}"))
            }
            "-h" | "--host" => self.conn.push(("host", v)),
            "-p" | "--port" => self.conn.push(("port", v)),
            "-U" | "--username" => self.conn.push(("user", v)),
            _ => unreachable!("every value flag is matched"),
        }
        Ok(())
    }

    /// The checks of the whole line, dbpress's options, and the target pgbench would reach.
    fn finish(self, mut a: Args) -> Result<Args> {
        if self.progress_timestamp && !self.progress {
            return Err(usage(
                "--progress-timestamp is allowed only under --progress (-P), as in pgbench",
            ));
        }
        if a.files.len() + a.builtins.len() > pgbench_flags::MAX_SCRIPTS {
            return Err(usage(format!(
                "at most {} SQL scripts are allowed (-f, -b, -S, -N together), as in pgbench",
                pgbench_flags::MAX_SCRIPTS
            )));
        }
        let mut opts = cli::parse_options_of(&self.pass, "script")?;
        opts.notices.extend(self.notices);
        a.pgbench_connection = !self.conn.is_empty();
        target::pgbench_target(&mut opts, self.conn)?;
        a.opts = opts;
        Ok(a)
    }
}

/// `-M`: simple pastes values into the SQL text as pgbench does; extended and prepared bind
/// them to statements prepared once per session.
fn protocol(v: &str) -> Result<QueryMode> {
    match v {
        "prepared" | "extended" => Ok(QueryMode::Prepared),
        "simple" => Ok(QueryMode::Simple),
        other => Err(usage(format!(
            "unknown -M '{other}': use simple, extended or prepared"
        ))),
    }
}
