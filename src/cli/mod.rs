//! Argument model: what the user typed, in sysbench's grammar.
//!
//! `dbpress [options] <workload> <command> [options]` with options anywhere, `--name=value` or
//! `--name value`, dashes and underscores interchangeable, booleans on/off/true/false/1/0, and the
//! deprecated spellings of sysbench 0.4/0.5/1.0 mapped onto current names with a notice.
//! Validation of values happens in `config`; this module only knows names and shapes.

pub use crate::config::Command;
use crate::error::{usage, Result};
use crate::options::table::{alias, find, Alias, Kind};
use crate::options::{parse_bool, OptionValues};

/// What a command line in sysbench's grammar says: an answer that ends parsing, or its words
/// (at most two: a command's name and its argument, or a workload and its command word) and
/// its options. Which command the words name is the command table's business (`commands`).
#[derive(Debug, Clone, PartialEq)]
pub enum Invocation {
    Version,
    Help,
    Words {
        words: Vec<String>,
        opts: OptionValues,
    },
}

/// A workload's words (`oltp_read_write run`) read as sysbench reads them.
#[derive(Debug, Clone, PartialEq)]
pub enum WorkloadCall {
    /// `dbpress <workload> help`.
    Help(String),
    Run {
        workload: String,
        command: Command,
    },
}

/// Workload name from sysbench's `--test=`: a name, or a script path whose file name is used.
fn workload_from_test(value: &str) -> String {
    let file = value.rsplit('/').next().unwrap_or(value);
    file.strip_suffix(".lua").unwrap_or(file).to_string()
}

/// Options only (no workload or command words), for commands with their own grammar such as
/// `slap`, which translates its flags into dbpress's long options first.
/// `parse_options` for a command with flags of its own (`slap`, `script`): an unknown option
/// points at that command's help, not at a workload's.
pub fn parse_options_of(args: &[String], command: &str) -> Result<OptionValues> {
    parse_options(args).map_err(|e| {
        match e.message().strip_suffix(UNKNOWN_OPTION_HINT) {
            Some(head) => usage(format!(
                "{head}`dbpress {command} --help` lists the flags it takes, `dbpress help oltp_read_write` dbpress's own options"
            )),
            None => e,
        }
    })
}

/// The end of the message for an option no command knows.
const UNKNOWN_OPTION_HINT: &str = "`dbpress help <workload>` lists the options";

pub fn parse_options(args: &[String]) -> Result<OptionValues> {
    match scan(args)? {
        Scanned::Options(opts, words, _) if words.is_empty() => Ok(opts),
        Scanned::Options(_, words, _) => Err(usage(format!(
            "unexpected argument '{}': options are spelled --name=value",
            words[0]
        ))),
        Scanned::Early(_) => Err(usage("--help and --version stand alone")),
    }
}

/// What the option scan found: options and bare words, or an answer that ends parsing.
enum Scanned {
    Options(OptionValues, Vec<String>, Option<String>),
    Early(Invocation),
}

pub fn parse(args: &[String]) -> Result<Invocation> {
    let (opts, words, test_name) = match scan(args)? {
        Scanned::Options(o, w, t) => (o, w, t),
        Scanned::Early(inv) => return Ok(inv),
    };
    words_to_invocation(opts, words, test_name)
}

fn scan(args: &[String]) -> Result<Scanned> {
    let expanded;
    let args = match config_file_args(args)? {
        Some(mut from_file) => {
            // The file's options come first, so the command line's own win.
            from_file.extend(args.iter().cloned());
            expanded = from_file;
            &expanded
        }
        None => args,
    };
    let mut opts = OptionValues::default();
    let mut words: Vec<String> = Vec::new();
    let mut test_name: Option<String> = None;
    let mut i = 0;
    while i < args.len() {
        let arg = &args[i];
        i += 1;
        let Some(body) = arg.strip_prefix("--") else {
            if arg == "-h" {
                return Ok(Scanned::Early(Invocation::Help));
            }
            if arg.starts_with('-') && arg.len() > 1 {
                return Err(usage(format!(
                    "unknown option '{arg}': options are spelled --name=value; see `dbpress help`"
                )));
            }
            words.push(arg.clone());
            continue;
        };
        if body.is_empty() {
            return Err(usage("stray '--': options are spelled --name=value"));
        }
        let (raw_name, inline) = match body.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (body, None),
        };
        let name = raw_name.replace('_', "-");
        match name.as_str() {
            "help" => return Ok(Scanned::Early(Invocation::Help)),
            "version" => return Ok(Scanned::Early(Invocation::Version)),
            _ => {}
        }
        if name == "test" {
            let v = take_value(&name, inline, args, &mut i, Kind::Str)?;
            opts.notices.push(format!(
                "--test is deprecated: use `dbpress {} <command>`",
                workload_from_test(&v)
            ));
            test_name = Some(if v.ends_with(".lua") {
                v
            } else {
                workload_from_test(&v)
            });
            continue;
        }
        if let Some(spec) = find(&name) {
            let v = take_value(spec.name, inline, args, &mut i, spec.kind)?;
            opts.set(spec.name, v);
            continue;
        }
        if name == "config-file" {
            // Read before the scan (`config_file_args`); its value is skipped here.
            take_value(&name, inline, args, &mut i, Kind::Str)?;
            continue;
        }
        if let Some((kind, why)) = crate::options::table::inert(&name) {
            let v = take_value(&name, inline, args, &mut i, kind)?;
            let shown = if v.is_empty() {
                String::new()
            } else {
                format!("={v}")
            };
            opts.notices.push(format!(
                "--{raw_name}{shown} has no effect in dbpress: {why}"
            ));
            continue;
        }
        match alias(&name) {
            Some(Alias::Rename(new)) => {
                let spec = find(new).expect("alias target is in the option table");
                let v = take_value(spec.name, inline, args, &mut i, spec.kind)?;
                opts.notices.push(format!(
                    "--{raw_name} is deprecated, using --{new}={}",
                    if spec.secret { "***" } else { &v }
                ));
                opts.set(spec.name, v);
            }
            Some(Alias::Expand(sets)) => {
                let v = take_value(&name, inline, args, &mut i, Kind::Bool)?;
                let on = parse_bool(&v).ok_or_else(|| bad_bool(&name, &v))?;
                if on {
                    let list: Vec<String> =
                        sets.iter().map(|(n, v)| format!("--{n}={v}")).collect();
                    opts.notices.push(format!(
                        "--{raw_name} is deprecated, using {}",
                        list.join(" ")
                    ));
                    for (n, v) in sets.iter() {
                        let spec = find(n).expect("expansion target is in the option table");
                        opts.set(spec.name, *v);
                    }
                }
            }
            None => return Err(unknown_option(raw_name)),
        }
    }

    Ok(Scanned::Options(opts, words, test_name))
}

/// The options of sysbench's `--config-file=FILE`, as `--name=value` arguments: one
/// `name=value` per line (no leading dashes; a bare name is a flag), `#` starting a comment,
/// values optionally quoted. None when no file is given.
fn config_file_args(args: &[String]) -> Result<Option<Vec<String>>> {
    let mut path = None;
    for (i, a) in args.iter().enumerate() {
        let norm = a.replace('_', "-");
        if let Some(p) = norm.strip_prefix("--config-file=") {
            path = Some(a[a.len() - p.len()..].to_string());
        } else if norm == "--config-file" {
            path =
                Some(args.get(i + 1).cloned().ok_or_else(|| {
                    usage("option --config-file needs a value: --config-file=FILE")
                })?);
        }
    }
    let Some(path) = path else {
        return Ok(None);
    };
    let text = std::fs::read_to_string(&path).map_err(|e| {
        usage(format!(
            "cannot read --config-file {path}: {e}: give a readable file of name=value lines"
        ))
    })?;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let line = line.trim_start_matches('-');
        let arg = match line.split_once('=') {
            Some((name, value)) => {
                let value = value.trim();
                let value = value
                    .strip_prefix('"')
                    .and_then(|v| v.strip_suffix('"'))
                    .or_else(|| value.strip_prefix('\'').and_then(|v| v.strip_suffix('\'')))
                    .unwrap_or(value);
                format!("--{}={value}", name.trim())
            }
            None => format!("--{line}"),
        };
        if arg
            .trim_start_matches('-')
            .replace('_', "-")
            .starts_with("config-file")
        {
            return Err(usage(format!(
                "{path}:{}: a --config-file cannot name another one",
                n + 1
            )));
        }
        out.push(arg);
    }
    Ok(Some(out))
}

fn words_to_invocation(
    opts: OptionValues,
    words: Vec<String>,
    test_name: Option<String>,
) -> Result<Invocation> {
    let words: Vec<String> = test_name.into_iter().chain(words).collect();
    if words.is_empty() {
        return Ok(Invocation::Help);
    }
    if let Some(extra) = words.get(2) {
        return Err(usage(format!(
            "unexpected argument '{extra}': the form is `dbpress <workload> prepare|run|cleanup [options]`"
        )));
    }
    Ok(Invocation::Words { words, opts })
}

/// The words of a workload's command line (`oltp_read_write run`, sysbench's
/// `/usr/share/sysbench/oltp_read_write.lua run`), or the one line that says what is wrong.
pub fn workload_call(words: &[String]) -> Result<WorkloadCall> {
    let mut first = words[0].clone();
    if first.ends_with(".lua") {
        // sysbench takes its packaged scripts by path (`sysbench /usr/share/sysbench/oltp_read_write.lua run`):
        // each is one of dbpress's built-in workloads under the same name.
        let name = workload_from_test(&first);
        if crate::workload::registry::known(&name).is_err() {
            return Err(usage(format!(
                "'{first}' is a Lua script, which dbpress does not run: use a built-in workload (`dbpress list`) \
                 or put the SQL in a script for `dbpress script run -f FILE`"
            )));
        }
        first = name;
    }
    let second = words.get(1).cloned();
    if Command::parse(&first).is_some() {
        // `dbpress run` or `dbpress run oltp_read_write`: the command word came first.
        let workload = second.unwrap_or_else(|| "<workload>".to_string());
        return Err(usage(format!(
            "'{first}' is a command, not a workload: the workload comes first, `dbpress {workload} {first}` \
             (workloads: `dbpress list`)"
        )));
    }
    let Some(cmd_word) = second else {
        return Err(usage(format!(
            "no command given for '{first}': use `dbpress {first} prepare|run|cleanup`"
        )));
    };
    if cmd_word == "help" {
        return Ok(WorkloadCall::Help(first));
    }
    let command = Command::parse(&cmd_word).ok_or_else(|| {
        usage(format!(
            "unknown command '{cmd_word}': use prepare, run, cleanup, check, prewarm or help (`dbpress {first} run`)"
        ))
    })?;
    Ok(WorkloadCall::Run {
        workload: first,
        command,
    })
}

/// A workload's command line whole: its name, its command and its options (for tests and
/// tools that build one).
pub fn parse_workload(args: &[String]) -> Result<(String, Command, OptionValues)> {
    match parse(args)? {
        Invocation::Words { words, opts } => match workload_call(&words)? {
            WorkloadCall::Run { workload, command } => Ok((workload, command, opts)),
            WorkloadCall::Help(w) => Err(usage(format!("`{w} help` asks for help, not a run"))),
        },
        other => Err(usage(format!("not a workload's command line: {other:?}"))),
    }
}

fn take_value(
    name: &str,
    inline: Option<String>,
    args: &[String],
    i: &mut usize,
    kind: Kind,
) -> Result<String> {
    if let Some(v) = inline {
        return Ok(v);
    }
    let next = args.get(*i);
    if name == "forced-shutdown" {
        // sysbench's bare `--forced-shutdown` means 5% of --time; a following word is its
        // value only when it looks like one (`--forced-shutdown 10`, not `... run`).
        if let Some(n) =
            next.filter(|n| n == &"off" || n.trim_end_matches('%').parse::<f64>().is_ok())
        {
            *i += 1;
            return Ok(n.clone());
        }
        return Ok(String::new());
    }
    if kind == Kind::Bool {
        // `--histogram` alone means on; `--histogram off` is accepted too.
        if let Some(n) = next {
            if parse_bool(n).is_some() {
                *i += 1;
                return Ok(n.clone());
            }
        }
        return Ok("on".to_string());
    }
    match next {
        Some(n) if !n.starts_with("--") => {
            *i += 1;
            Ok(n.clone())
        }
        _ => Err(usage(format!(
            "option --{name} needs a value: --{name}=VALUE"
        ))),
    }
}

fn bad_bool(name: &str, v: &str) -> crate::error::Error {
    usage(format!(
        "invalid value '{v}' for --{name}: use on/off (also true/false, 1/0)"
    ))
}

fn unknown_option(raw: &str) -> crate::error::Error {
    let name = raw.replace('_', "-");
    let close = crate::options::table::SPECS
        .iter()
        .map(|s| s.name)
        .filter(|candidate| edit_distance(candidate, &name) <= 2)
        .min_by_key(|candidate| edit_distance(candidate, &name));
    match close {
        Some(c) => usage(format!("unknown option --{raw}: did you mean --{c}?")),
        None => usage(format!("unknown option --{raw}: {UNKNOWN_OPTION_HINT}")),
    }
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// The notices parsing left (deprecated spellings, values adjusted), on stderr.
pub fn print_notices(opts: &OptionValues) {
    if !crate::verbosity::warnings() {
        return;
    }
    for n in &opts.notices {
        eprintln!("dbpress: notice: {n}");
    }
}

#[cfg(test)]
mod tests;
