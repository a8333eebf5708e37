//! Argument model: what the user typed, in sysbench's grammar.
//!
//! `dbpress [options] <workload> <command> [options]`: the options are read by the scanner in
//! `dbpress_core::options::scan` (options anywhere, aliases, deprecated spellings); this module
//! reads the words around them. Validation of values happens in `dbpress-config`; what a first
//! word names is the command table's business (`commands`).

pub use dbpress_config::Command;
use dbpress_core::error::{failed, usage, Result};
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
        /// Any word: a built-in command or one the script declares; None to load it only.
        command: Option<String>,
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

/// A command line read in sysbench's grammar, no bare word taken for a Lua script's name (a
/// `.lua` path still is) and stdin not read.
pub fn parse(args: &[String]) -> Result<Invocation> {
    parse_with(args, None)
}

/// `parse`, where `reserved` says which bare words are dbpress's own: any other that names no
/// built-in workload is looked up as sysbench looks up a script, and with no word at all a
/// script piped in is read from stdin. A Lua script's options are read knowing the ones it
/// declares (`lua_script`).
pub fn parse_with(args: &[String], reserved: Option<&dyn Fn(&str) -> bool>) -> Result<Invocation> {
    let table = options_table();
    if let Some((words, opts)) = lua_script::read(&table, args, reserved)? {
        if let Some(extra) = words.get(2) {
            // sysbench's line and exit code for a third word.
            return Err(failed(dbpress_core::personality::words(
                || format!("Unrecognized command line argument: {extra}"),
                || {
                    format!(
                    "Unrecognized command line argument: {extra}: the form is `dbpress {} [command] [options]`",
                    words[0]
                )
                },
            )));
        }
        return Ok(Invocation::Words { words, opts });
    }
    let (opts, words, test_name) = match scan_in(&table, args)? {
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
        return Err(usage(dbpress_core::personality::words(
            || format!("Unrecognized command line argument: {extra}"),
            || {
                format!("unexpected argument '{extra}': the form is `dbpress <workload> prepare|run|cleanup [options]`")
            },
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
    if let Some(note) = lua_script::parked_note(&first) {
        // Found and loaded while the command line was read (a bare name, stdin, any path).
        let command = words.get(1).cloned();
        return Ok(WorkloadCall::Lua {
            path: first,
            command,
            note,
        });
    }
    if first.ends_with(".lua") {
        // sysbench takes its packaged scripts by path (`sysbench /usr/share/sysbench/oltp_read_write.lua run`):
        // each byte-identical stock one is one of dbpress's built-in workloads under the same
        // name; anything else runs as written, in Lua.
        let name = workload_from_test(&first);
        if let Some(note) = stock_lua::lua_note(&first, force_lua)? {
            return Ok(WorkloadCall::Lua {
                path: first,
                command: words.get(1).cloned(),
                note,
            });
        }
        note = Some(stock_lua::recognise(&first, &name)?);
        first = name;
    }
    let second = words.get(1).cloned();
    if Command::parse(&first).is_some() {
        // `dbpress run` or `dbpress run oltp_read_write`: the command word came first.
        let workload = second.unwrap_or_else(|| "<workload>".to_string());
        return Err(dbpress_core::personality::refused(
            format!("Cannot find benchmark '{first}': no such built-in test, file or module"),
            || {
                format!(
                "'{first}' is a command, not a workload: the workload comes first, `dbpress {workload} {first}` \
                 (workloads: `dbpress list`)"
            )
            },
        ));
    }
    if dbpress_workload::registry::known(&first).is_err() {
        let available: Vec<&str> = dbpress_workload::registry::list()
            .iter()
            .map(|(n, _)| *n)
            .collect();
        return Err(failed(dbpress_core::personality::words(
            || format!("Cannot find benchmark '{first}': no such built-in test, file or module"),
            || {
                format!(
                "Cannot find benchmark '{first}': no such built-in test, file or module: give a built-in workload ({}; `dbpress list`), \
                 a script's path, or a module on LUA_PATH",
                available.join(", ")
            )
            },
        )));
    }
    let Some(cmd_word) = second else {
        return Err(usage(dbpress_core::personality::words(
            || {
                format!(
                    "The '{first}' test requires a command argument. See 'sysbench {first} help'"
                )
            },
            || format!("no command given for '{first}': use `dbpress {first} prepare|run|cleanup`"),
        )));
    };
    if cmd_word == "help" {
        return Ok(WorkloadCall::Help(first));
    }
    let command = Command::parse(&cmd_word).ok_or_else(|| {
        usage(dbpress_core::personality::words(
            || format!("Unknown command: {cmd_word}"),
            || format!(
                "unknown command '{cmd_word}': use prepare, run, cleanup, check, prewarm or help (`dbpress {first} run`)"
            ),
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
            WorkloadCall::Lua { path, command, .. } => {
                let command = command
                    .as_deref()
                    .and_then(Command::parse)
                    .ok_or_else(|| usage(format!("`{path}` names no built-in command to run")))?;
                Ok((path, command, opts))
            }
        },
        other => Err(usage(format!("not a workload's command line: {other:?}"))),
    }
}

/// The notices parsing left (deprecated spellings, values adjusted), on stderr.
pub fn print_notices(opts: &OptionValues) {
    // As sysbench (#42), none of dbpress's notices: sysbench says nothing of them.
    if !dbpress_core::verbosity::warnings() || dbpress_core::personality::is_sysbench() {
        return;
    }
    for n in &opts.notices {
        eprintln!("dbpress: notice: {n}");
    }
}

pub mod lua_path;
pub mod lua_script;
mod stock_lua;

#[cfg(test)]
mod tests;
