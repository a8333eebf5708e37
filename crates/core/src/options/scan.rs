//! A command line in sysbench's grammar, read: `dbpress [options] <words> [options]` with options
//! anywhere, `--name=value` or `--name value`, dashes and underscores interchangeable, booleans
//! on/off/true/false/1/0, the deprecated spellings of sysbench 0.4/0.5/1.0 mapped onto current
//! names with a notice, and `--config-file`. What the words mean is the commands' business.

use super::table::{Alias, Kind, Table};
use super::{parse_bool, OptionValues};
use crate::error::{usage, Result};

/// Workload name from sysbench's `--test=`: a name, or a script path whose file name is used.
pub fn workload_from_test(value: &str) -> String {
    let file = value.rsplit('/').next().unwrap_or(value);
    file.strip_suffix(".lua").unwrap_or(file).to_string()
}

/// The end of the message for an option no command knows.
pub const UNKNOWN_OPTION_HINT: &str = "`dbpress help <workload>` lists the options";

/// Options only (no words), for commands that translate flags of their own into dbpress's;
/// read with the installed option table.
pub fn parse_options(args: &[String]) -> Result<OptionValues> {
    parse_options_in(&super::table::installed(), args)
}

/// `parse_options` with the options of `table`.
pub fn parse_options_in(table: &Table, args: &[String]) -> Result<OptionValues> {
    match scan_in(table, args)? {
        Scanned::Options(opts, words, _) if words.is_empty() => Ok(opts),
        Scanned::Options(_, words, _) => Err(usage(format!(
            "unexpected argument '{}': options are spelled --name=value",
            words[0]
        ))),
        Scanned::Help | Scanned::Version => Err(usage("--help and --version stand alone")),
    }
}

/// What the option scan found: options and bare words, or an answer that ends parsing.
pub enum Scanned {
    /// The options, the bare words in their order, and the workload sysbench's `--test=` named.
    Options(OptionValues, Vec<String>, Option<String>),
    /// `--help` or `-h`: the answer ends the reading.
    Help,
    /// `--version`.
    Version,
}

/// Read a command line in sysbench's grammar: options anywhere (`--name=value` or `--name
/// value`, dashes and underscores alike, bare booleans, deprecated spellings with a notice,
/// `--config-file`), bare words kept in order; read with the installed option table.
pub fn scan(args: &[String]) -> Result<Scanned> {
    scan_in(&super::table::installed(), args)
}

/// `scan` with the options of `table` (a workload's tests give the workload crate's table; the
/// tests here one with a secret option's old spelling, which the table has none of today).
pub fn scan_in(table: &Table, args: &[String]) -> Result<Scanned> {
    scan_with(table, args, None)
}

/// An option `scan_lenient` did not know: as typed (`--x=1`), and its name with dashes.
#[derive(Debug, Clone, PartialEq)]
pub struct Unknown {
    pub arg: String,
    pub name: String,
}

/// `scan_in` that keeps going past options the table does not know (a Lua script declares
/// its own, #41): each is collected, and takes no value but its inline one, so the words
/// around it stay words.
pub fn scan_lenient(table: &Table, args: &[String]) -> Result<(Scanned, Vec<Unknown>)> {
    let mut unknown = Vec::new();
    let scanned = scan_with(table, args, Some(&mut unknown))?;
    Ok((scanned, unknown))
}

fn scan_with(
    table: &Table,
    args: &[String],
    mut unknown: Option<&mut Vec<Unknown>>,
) -> Result<Scanned> {
    let sysbench = crate::personality::is_sysbench();
    // The options of `--config-file` put among the command line's, as each tool reads them.
    let expanded = if sysbench {
        Some(super::sysbench_reading::expand_config_files(table, args))
    } else {
        config_file_args(args)?.map(|mut from_file| {
            // The file's options come first, so the command line's own win.
            from_file.extend(args.iter().cloned());
            from_file
        })
    };
    let args = expanded.as_deref().unwrap_or(args);
    let mut opts = OptionValues::new(table.clone());
    let mut words: Vec<String> = Vec::new();
    let mut test_name: Option<String> = None;
    // As sysbench: its deprecated spellings, applied after the scan; and the first unknown
    // option, said after them (sysbench warns before it meets a test's options).
    let mut deprecated: Vec<(String, String)> = Vec::new();
    let mut first_unknown = None;
    let mut i = 0;
    while i < args.len() {
        let arg = &args[i];
        i += 1;
        let Some(body) = arg.strip_prefix("--") else {
            if arg == "-h" {
                return Ok(Scanned::Help);
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
            "help" => return Ok(Scanned::Help),
            "version" => return Ok(Scanned::Version),
            _ => {}
        }
        if name == "test" {
            let v = take_value(&name, inline, args, &mut i, Kind::Str, false)?;
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
        if let Some(spec) = table.find(&name) {
            let v = take_value(spec.name, inline, args, &mut i, spec.kind, spec.bare_on)?;
            // --tag adds to the tags given before it (one per line); any other option's last
            // value wins.
            let v = match (spec.name, opts.is_set("tag")) {
                ("tag", true) => format!("{}\n{v}", opts.get("tag")),
                _ => v,
            };
            opts.set(spec.name, v);
            continue;
        }
        if name == "config-file" {
            // Read before the scan (`config_file_args`); its value is skipped here.
            take_value(&name, inline, args, &mut i, Kind::Str, false)?;
            continue;
        }
        if let Some((kind, why)) = super::table::inert(&name) {
            let v = take_value(&name, inline, args, &mut i, kind, false)?;
            if sysbench {
                inert_as_sysbench(&name, kind, &v)?;
            }
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
        if sysbench && super::sysbench_reading::is_deprecated(&name) {
            let v = take_value(&name, inline, args, &mut i, Kind::Int, false)?;
            deprecated.push((name, v));
            continue;
        }
        // sysbench 1.0 knows no other old spelling: each is an unknown option to it.
        let alias = table.alias(&name).filter(|_| !sysbench);
        match alias {
            Some(Alias::Rename(new)) => {
                let spec = table
                    .find(new)
                    .expect("alias target is in the option table");
                let v = take_value(spec.name, inline, args, &mut i, spec.kind, spec.bare_on)?;
                opts.notices.push(format!(
                    "--{raw_name} is deprecated, using --{new}={}",
                    if spec.secret { "***" } else { &v }
                ));
                opts.set(spec.name, v);
            }
            Some(Alias::Expand(sets)) => {
                let v = take_value(&name, inline, args, &mut i, Kind::Bool, false)?;
                let on = parse_bool(&v).ok_or_else(|| bad_bool(&name, &v))?;
                if on {
                    let list: Vec<String> =
                        sets.iter().map(|(n, v)| format!("--{n}={v}")).collect();
                    opts.notices.push(format!(
                        "--{raw_name} is deprecated, using {}",
                        list.join(" ")
                    ));
                    for (n, v) in sets.iter() {
                        let spec = table
                            .find(n)
                            .expect("expansion target is in the option table");
                        opts.set(spec.name, *v);
                    }
                }
            }
            None => match unknown.as_deref_mut() {
                Some(list) => list.push(Unknown {
                    arg: arg.clone(),
                    name,
                }),
                None if sysbench => {
                    first_unknown.get_or_insert_with(|| unknown_option(table, raw_name, arg));
                }
                None => return Err(unknown_option(table, raw_name, arg)),
            },
        }
    }
    if sysbench {
        super::sysbench_reading::apply_deprecated(&mut opts, &deprecated)?;
        super::sysbench_reading::default_distribution(&mut opts);
    }
    if let Some(e) = first_unknown {
        return Err(e);
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

fn take_value(
    name: &str,
    inline: Option<String>,
    args: &[String],
    i: &mut usize,
    kind: Kind,
    bare_on: bool,
) -> Result<String> {
    if let Some(v) = inline {
        return Ok(v);
    }
    if crate::personality::is_sysbench() && !super::table::is_dbpress_own(name) {
        // sysbench takes a value only after `=`: a bare flag is on (--mysql-ssl is one in
        // sysbench 1.0.20), any other bare option empty, and the next word stays a word.
        return Ok(if kind == Kind::Bool || bare_on || name == "mysql-ssl" {
            "on"
        } else {
            ""
        }
        .to_string());
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
    if name == "store" {
        // Bare `--store` means the default file; a following word is its value only when it
        // names a file (`--store runs.db`, `--store ./x`), not a command word (`--store run`).
        if let Some(n) = next.filter(|n| {
            n.contains('/')
                || [".db", ".sqlite", ".sqlite3"]
                    .iter()
                    .any(|e| n.ends_with(e))
        }) {
            *i += 1;
            return Ok(n.clone());
        }
        return Ok("on".to_string());
    }
    if bare_on {
        // Bare `--think-time` means on; a following on/off or factor is its value.
        if let Some(n) = next.filter(|n| parse_bool(n).is_some() || n.parse::<f64>().is_ok()) {
            *i += 1;
            return Ok(n.clone());
        }
        return Ok("on".to_string());
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

/// sysbench's reading of an option dbpress takes and ignores: what it refuses (a flag's value
/// that is no boolean, a stack size that is no size or 0), and `--debug`, which changes what
/// it logs.
fn inert_as_sysbench(name: &str, kind: Kind, v: &str) -> Result<()> {
    if kind == Kind::Bool && !v.is_empty() && parse_bool(v).is_none() {
        return Err(crate::error::failed(format!(
            "invalid option: --{name}={v}"
        )));
    }
    if name == "thread-stack-size" && super::values::size_bytes(v).unwrap_or(0) == 0 {
        return Err(crate::error::failed(
            "Invalid value for thread-stack-size: 0.\n".to_string(),
        ));
    }
    if name == "debug" {
        // sysbench's --debug changes what it logs: the personality keeps it (as on).
        crate::personality::set_sysbench_debug(parse_bool(v).unwrap_or(true));
    }
    Ok(())
}

fn bad_bool(name: &str, v: &str) -> crate::error::Error {
    usage(format!(
        "invalid value '{v}' for --{name}: use on/off (also true/false, 1/0)"
    ))
}

fn unknown_option(table: &Table, raw: &str, arg: &str) -> crate::error::Error {
    if crate::personality::is_sysbench() {
        return usage(format!("invalid option: {arg}"));
    }
    let name = raw.replace('_', "-");
    let close = table
        .rows()
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A deprecated spelling of the password, as an old sysbench might have had.
    fn password_alias() -> Table {
        static PASS: &[(&str, Alias)] = &[("mysql-pass", Alias::Rename("mysql-password"))];
        Table::general().with(&[], PASS)
    }

    #[test]
    fn a_renamed_secret_option_is_noticed_without_its_value() {
        let args = ["--mysql-pass=hunter2".to_string()];
        let Ok(Scanned::Options(opts, _, _)) = scan_in(&password_alias(), &args) else {
            panic!("scans");
        };
        assert_eq!(opts.get("mysql-password"), "hunter2");
        assert_eq!(
            opts.notices,
            ["--mysql-pass is deprecated, using --mysql-password=***"]
        );
    }
}
