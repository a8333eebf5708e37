//! Argument model: what the user typed, in sysbench's grammar.
//!
//! `dbpress [options] <workload> <command> [options]`: the options are read by the scanner in
//! `dbpress_core::options::scan` (options anywhere, aliases, deprecated spellings); this module
//! reads the words around them. Validation of values happens in `dbpress-config`; what a first
//! word names is the command table's business (`commands`).

pub use dbpress_config::Command;
use dbpress_core::error::{usage, Result};
use dbpress_core::options::scan::{
    parse_options_in, scan_in, workload_from_test, Scanned, UNKNOWN_OPTION_HINT,
};
use dbpress_core::options::table::Table;
use dbpress_core::options::OptionValues;

/// The option table a command line is read with: core's rows and every workload's, as the
/// workload registry assembles them (the table `main_with_args` installs for the readers that
/// have no values in hand).
pub fn options_table() -> Table {
    dbpress_workload::registry::options()
}

/// Options only (no words), for commands that translate flags of their own into dbpress's.
pub fn parse_options(args: &[String]) -> Result<OptionValues> {
    parse_options_in(&options_table(), args)
}

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
        /// How a sysbench script path was taken (its workload), for a notice.
        note: Option<String>,
    },
    /// A Lua script run as written, in embedded LuaJIT (#41): an edited copy of a stock
    /// script, any other script, or any script under `--lua`.
    Lua {
        path: String,
        command: Command,
        /// Why it runs in Lua, for a notice.
        note: String,
    },
}

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

pub fn parse(args: &[String]) -> Result<Invocation> {
    let (opts, words, test_name) = match scan_in(&options_table(), args)? {
        Scanned::Options(o, w, t) => (o, w, t),
        Scanned::Help => return Ok(Invocation::Help),
        Scanned::Version => return Ok(Invocation::Version),
    };
    words_to_invocation(opts, words, test_name)
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
    workload_call_with(words, false)
}

/// `workload_call`, with `--lua` (`force_lua`: a script path runs in Lua even when stock).
pub fn workload_call_with(words: &[String], force_lua: bool) -> Result<WorkloadCall> {
    let mut first = words[0].clone();
    let mut note = None;
    if first.ends_with(".lua") {
        // sysbench takes its packaged scripts by path (`sysbench /usr/share/sysbench/oltp_read_write.lua run`):
        // each byte-identical stock one is one of dbpress's built-in workloads under the same
        // name; anything else runs as written, in Lua.
        let name = workload_from_test(&first);
        let exists = std::path::Path::new(&first).is_file();
        let lua_note = if force_lua {
            Some(format!(
                "{first}: --lua given: running the script in embedded LuaJIT"
            ))
        } else if dbpress_workload::registry::known(&name).is_err() {
            if !exists {
                return Err(usage(format!(
                    "cannot find the Lua script '{first}' (no such file): give the path of a sysbench script, \
                     or a built-in workload (`dbpress list`)"
                )));
            }
            Some(format!(
                "{first} is not one of sysbench's stock scripts: running it in embedded LuaJIT"
            ))
        } else {
            match stock_lua::recognise(&first, &name) {
                Ok(n) => {
                    note = Some(n);
                    None
                }
                Err(_) if exists => Some(format!(
                    "{first} is not sysbench 1.0.20's stock {name}.lua (its SHA-256 differs): running it as written, in embedded LuaJIT"
                )),
                Err(e) => return Err(e),
            }
        };
        if let Some(lua_note) = lua_note {
            let command = match words.get(1) {
                None => {
                    return Err(usage(format!(
                        "no command given for '{first}': use `dbpress {first} run` (or prepare, cleanup)"
                    )))
                }
                Some(w) => Command::parse(w).filter(|c| {
                    matches!(c, Command::Run | Command::Prepare | Command::Cleanup)
                }),
            };
            let Some(command) = command else {
                return Err(usage(format!(
                    "'{}': dbpress runs a Lua script's run, prepare and cleanup so far (#41): use `dbpress {first} run`",
                    words[1]
                )));
            };
            return Ok(WorkloadCall::Lua {
                path: first,
                command,
                note: lua_note,
            });
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
        note,
    })
}

/// A workload's command line whole: its name, its command and its options (for tests and
/// tools that build one).
pub fn parse_workload(args: &[String]) -> Result<(String, Command, OptionValues)> {
    match parse(args)? {
        Invocation::Words { words, opts } => match workload_call(&words)? {
            WorkloadCall::Run {
                workload,
                command,
                note,
            } => {
                let mut opts = opts;
                opts.notices.extend(note);
                Ok((workload, command, opts))
            }
            WorkloadCall::Help(w) => Err(usage(format!("`{w} help` asks for help, not a run"))),
            WorkloadCall::Lua { path, command, .. } => Ok((path, command, opts)),
        },
        other => Err(usage(format!("not a workload's command line: {other:?}"))),
    }
}

/// The notices parsing left (deprecated spellings, values adjusted), on stderr.
pub fn print_notices(opts: &OptionValues) {
    if !dbpress_core::verbosity::warnings() {
        return;
    }
    for n in &opts.notices {
        eprintln!("dbpress: notice: {n}");
    }
}

mod stock_lua;

#[cfg(test)]
mod tests;
