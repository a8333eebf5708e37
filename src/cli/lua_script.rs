//! A command line that names a Lua script run as written (#41), read as sysbench reads it: the
//! script is found first (a `.lua` path, `--test=PATH`, a bare name as a file or a module on
//! `package.path`, or stdin), its top level runs once in its main state, and the options it
//! declares become options of this command line; in legacy mode (it declares none) unknown
//! options are taken as strings. The main state waits here for the command (`take`).

use super::lua_path;
use dbpress_core::error::{failed, usage, Result};
use dbpress_core::options::scan::{scan_in, scan_lenient, Scanned};
use dbpress_core::options::table::{self, Kind, Table};
use dbpress_core::options::{parse_bool, OptionValues};
use dbpress_workload::lua::commands::{legacy_rows, MainScript};
use std::cell::RefCell;
use std::io::Read;

/// The path a script read from stdin goes by in messages (Lua's own name for it).
pub const STDIN: &str = "stdin";

/// A script loaded while its command line was read, waiting for its command.
pub struct Parked {
    pub main: MainScript,
    /// Why it runs in Lua, for a notice ("" for none).
    pub note: String,
    /// sysbench's warnings for the spellings used (`--test`).
    pub warnings: Vec<String>,
}

thread_local! {
    static PARKED: RefCell<Option<Parked>> = const { RefCell::new(None) };
}

/// The script loaded for `path` by this command line's reading, if it was.
pub fn take(path: &str) -> Option<Parked> {
    PARKED.with(|p| {
        let mut slot = p.borrow_mut();
        match slot.as_ref() {
            Some(parked) if parked.main.path() == path => slot.take(),
            _ => None,
        }
    })
}

/// The note of the script parked under `path`, if one is.
pub fn parked_note(path: &str) -> Option<String> {
    PARKED.with(|p| {
        p.borrow()
            .as_ref()
            .filter(|parked| parked.main.path() == path)
            .map(|parked| parked.note.clone())
    })
}

/// How the words name the script, when they name one that runs in Lua.
struct Target {
    path: String,
    /// Read from stdin.
    source: Option<Vec<u8>>,
    note: String,
}

/// What a command line is, when it names a Lua script run as written: its words (the script's
/// path first) and its options, read knowing the script's own. None when it names none.
/// `reserved` says which bare words are dbpress's own (subcommands), never a script's name;
/// without it no bare name is looked up and stdin is not read.
pub fn read(
    table: &Table,
    args: &[String],
    reserved: Option<&dyn Fn(&str) -> bool>,
) -> Result<Option<(Vec<String>, OptionValues)>> {
    let (Scanned::Options(opts, words, test_name), _) = scan_lenient(table, args)? else {
        return Ok(None);
    };
    let from_test = test_name.is_some();
    let named = test_name.or_else(|| words.first().cloned());
    let force = dbpress_core::options::parse_bool(opts.get("lua")).unwrap_or(false);
    // sysbench refuses a third word before it looks for the script (a script's top level
    // does not run): for any name that is not one of dbpress's own words.
    let extra = words.get(if from_test { 1 } else { 2 });
    if let (Some(extra), Some(name), Some(reserved)) = (extra, named.as_deref(), reserved) {
        if !reserved(name)
            && dbpress_workload::registry::known(name).is_err()
            && dbpress_config::Command::parse(name).is_none()
        {
            return Err(failed(dbpress_core::personality::words(
                || format!("Unrecognized command line argument: {extra}"),
                || {
                    format!(
                    "Unrecognized command line argument: {extra}: the form is `dbpress {name} [command] [options]`"
                )
                },
            )));
        }
    }
    let Some(target) = target(named.as_deref(), force, reserved, args.is_empty())? else {
        return Ok(None);
    };
    let rest: Vec<String> = if target.source.is_some() {
        // A script on stdin runs once, whatever words follow (as under sysbench).
        Vec::new()
    } else if from_test {
        words
    } else {
        words.into_iter().skip(1).collect()
    };
    let path = if target.source.is_some() {
        STDIN.to_string()
    } else {
        target.path.clone()
    };
    let command = rest.first().map_or("", |c| c.as_str());
    // `sysbench.cmdline.argv` as a C program's: the program as invoked, then the arguments.
    let argv = std::iter::once(program_name())
        .chain(args.iter().cloned())
        .collect();
    // sysbench says its first line before it loads the script: the script's top level prints
    // after it (at --verbosity=0, neither).
    if dbpress_core::personality::is_sysbench() {
        if let Ok(v) = opts.int(dbpress_config::keys::VERBOSITY) {
            dbpress_core::verbosity::set(v as u8);
        }
        if dbpress_core::verbosity::notices() {
            dbpress_core::out!("{}", dbpress_core::personality::first_line_block());
        }
    }
    let mut main = MainScript::load_with_argv(&path, target.source, command, argv)?;
    if let Some(bare) = named.as_deref().filter(|n| is_bare_name(n) && *n != path) {
        main = main.named_as(bare);
    }
    let (table, mut opts) = reread(args, &main)?;
    table::install(table);
    let mut warnings = Vec::new();
    if from_test {
        opts.notices
            .retain(|n| !n.starts_with("--test is deprecated"));
        warnings.push(
            "the --test option is deprecated. You can pass a script name or path on the command line without any options."
                .to_string(),
        );
    }
    let words = std::iter::once(path).chain(rest).collect();
    PARKED.with(|p| {
        *p.borrow_mut() = Some(Parked {
            main,
            note: target.note,
            warnings,
        })
    });
    Ok(Some((words, opts)))
}

/// The command line read again with dbpress's general options (no built-in workload's: a
/// script's `--oltp-table-size` is its own, not the read/write workload's old spelling) and the
/// script's rows: an unknown option is sysbench's `invalid option` when the script declares
/// options; in legacy mode each is a string.
fn reread(args: &[String], main: &MainScript) -> Result<(Table, OptionValues)> {
    let Some(rows) = main.option_rows() else {
        let mut table = Table::general();
        let (_, unknown) = scan_lenient(&table, args)?;
        let names: Vec<String> = unknown.iter().map(|u| u.name.clone()).collect();
        table.declare(legacy_rows(&names));
        // A bare `--name` of legacy mode is an empty string, as in sysbench (not a flag that
        // takes the next word).
        let args: Vec<String> = args
            .iter()
            .map(
                |a| match unknown.iter().any(|u| &u.arg == a && !a.contains('=')) {
                    true => format!("{a}="),
                    false => a.clone(),
                },
            )
            .collect();
        let opts = match scan_in(&table, &args)? {
            Scanned::Options(o, _, _) => o,
            _ => unreachable!("the first reading found no --help or --version"),
        };
        return Ok((table, opts));
    };
    let names: Vec<&str> = rows.iter().map(|r| r.name).collect();
    let flags: Vec<&'static str> = rows
        .iter()
        .filter(|r| r.kind == Kind::Bool)
        .map(|r| r.name)
        .collect();
    let mut table = Table::general_yielding(&names);
    table.declare(rows);
    let (scanned, unknown) = scan_lenient(&table, args)?;
    if let Some(u) = unknown.first() {
        return Err(failed(dbpress_core::personality::words(
            || format!("invalid option: {}", u.arg),
            || {
                format!(
                    "invalid option: {}: '{}' declares its options (`dbpress {} help` lists them)",
                    u.arg,
                    main.name(),
                    main.path()
                )
            },
        )));
    }
    let opts = match scanned {
        Scanned::Options(o, _, _) => o,
        _ => unreachable!("the first reading found no --help or --version"),
    };
    // sysbench applies --verbosity before it reads the script's options: a refusal below is
    // said at that verbosity (at 0, without its first line).
    if let Ok(v) = opts.int(dbpress_config::keys::VERBOSITY) {
        dbpress_core::verbosity::set(v as u8);
    }
    // A declared flag takes a flag's value, as under sysbench (`--flag=5` is refused).
    for name in flags {
        let value = opts.get(name);
        if opts.is_set(name) && parse_bool(value).is_none() {
            let arg = args
                .iter()
                .find(|a| named(a, name))
                .cloned()
                .unwrap_or_else(|| format!("--{name}={value}"));
            return Err(failed(dbpress_core::personality::words(
                || format!("invalid option: {arg}"),
                || format!("invalid option: {arg}: --{name} takes on, off, true, false, 1 or 0"),
            )));
        }
    }
    // A declared ARG_INT takes a whole number that fits sysbench's int (its default too).
    for d in main.declared().unwrap_or_default() {
        let dashed = d.name.replace('_', "-");
        let value = opts.get(&dashed);
        if d.kind == Kind::Int && !whole(value) {
            return Err(failed(format!(
                "Invalid value for the '{}' option: '{value}': --{dashed} takes a whole number",
                d.name
            )));
        }
    }
    Ok((table, opts))
}

/// Whether `value` is a whole number as sysbench takes one for an int option (or empty: 0).
/// A script's name without a folder or `.lua`, which sysbench looks up on its search path.
fn is_bare_name(name: &str) -> bool {
    name != "-" && !name.contains('/') && !name.ends_with(".lua")
}

fn whole(value: &str) -> bool {
    let digits = value.strip_prefix(['+', '-']).unwrap_or(value);
    value.is_empty()
        || (!digits.is_empty()
            && digits.bytes().all(|b| b.is_ascii_digit())
            && value.parse::<i64>().is_ok_and(|n| i32::try_from(n).is_ok()))
}

/// Whether `arg` gives option `name` (dashed), `-` and `_` alike.
fn named(arg: &str, name: &str) -> bool {
    arg.strip_prefix("--")
        .map(|a| a.split('=').next().unwrap_or(a).replace('_', "-"))
        .is_some_and(|a| a == name)
}

/// The script the command line names, if it runs in Lua.
fn target(
    named: Option<&str>,
    force: bool,
    reserved: Option<&dyn Fn(&str) -> bool>,
    no_args: bool,
) -> Result<Option<Target>> {
    let stdin = |source: Vec<u8>| Target {
        path: STDIN.to_string(),
        source: Some(source),
        note: String::new(),
    };
    match named {
        Some("-") => Ok(Some(stdin(read_stdin()?))),
        None if reserved.is_some() && stdin_is_given() => {
            let source = read_stdin()?;
            // Nothing piped in and nothing else given: dbpress's general help, as with no
            // arguments at all. With options, or as sysbench, an empty script, run (and nothing
            // done) as under sysbench.
            let sysbench = dbpress_core::personality::is_sysbench();
            Ok((!source.is_empty() || !no_args || sysbench).then(|| stdin(source)))
        }
        None => Ok(None),
        Some(name) if name.ends_with(".lua") => Ok(super::stock_lua::lua_note(name, force)
            .ok()
            .flatten()
            .map(|note| Target {
                path: name.to_string(),
                source: None,
                note,
            })),
        Some(name) => {
            let Some(reserved) = reserved else {
                return Ok(None);
            };
            if reserved(name)
                || dbpress_workload::registry::known(name).is_ok()
                || dbpress_config::Command::parse(name).is_some()
            {
                return Ok(None);
            }
            Ok(lua_path::find(name).map(|path| Target {
                note: format!("'{name}' is {path}: running it in embedded LuaJIT"),
                path,
                source: None,
            }))
        }
    }
}

/// Whether a script is piped or redirected in (not a terminal, nor /dev/null). As sysbench,
/// any stdin but a terminal: sysbench reads a script from /dev/null too (bash gives an empty
/// here-document as /dev/null).
fn stdin_is_given() -> bool {
    use std::io::IsTerminal;
    use std::os::unix::fs::FileTypeExt;
    if dbpress_core::personality::is_sysbench() {
        return !std::io::stdin().is_terminal();
    }
    std::fs::metadata("/dev/stdin")
        .is_ok_and(|m| m.file_type().is_fifo() || m.file_type().is_file())
}

fn read_stdin() -> Result<Vec<u8>> {
    let mut source = Vec::new();
    std::io::stdin().read_to_end(&mut source).map_err(|e| {
        usage(format!(
            "cannot read the script from stdin: {e}: pipe a Lua script in, or give its path"
        ))
    })?;
    Ok(source)
}

/// The program as invoked (`argv[0]`).
pub fn program_name() -> String {
    std::env::args_os()
        .next()
        .map(|a| a.to_string_lossy().into_owned())
        .unwrap_or_else(|| "dbpress".to_string())
}
