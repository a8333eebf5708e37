//! Issue 41: what sysbench 1.0.20's own tests of its commands and command line check
//! (tests/t/cmd_{prepare,run,cleanup,help}.t and cmdline.t), each scenario with a script of our
//! own, run under sysbench and under dbpress with the same arguments: the same text on stdout,
//! the same errors, the same exit code. Taken out before comparing, and only that: each tool's
//! first line and dbpress's notices and header lines (the drop-in personality's, #42), where an
//! error is printed (sysbench's `FATAL:` on stdout, dbpress's `dbpress: error:` on stderr; dbpress
//! may add its fix after sysbench's words), timings and rates, dbpress's own report sections.
//! Not here, as they are about sysbench's own grammar and help (#42): a command word with no
//! script (`sysbench prepare`, `sysbench help`), the compiled-in `fileio` test, `--version`,
//! and the commands `--help` lists (commands.t).

use crate::common::{scratch, stdout};
use crate::sysbench_ref::{have_sysbench, in_dir_with, write, SYSBENCH};
use std::path::Path;
use std::process::Output;

/// What a tool said, with what legitimately differs between the two taken out.
#[derive(Debug)]
struct Said {
    /// stdout without the first line, the header lines that are a tool's own, the error
    /// lines and dbpress's own report sections; timings masked.
    out: String,
    /// The error lines, without `FATAL: ` or `dbpress: error: `.
    errors: Vec<String>,
    started: bool,
    code: Option<i32>,
}

/// The header lines dbpress adds to sysbench's before a run.
const DBPRESS_HEADER: &[&str] = &[
    "Workload: ",
    "Target: ",
    "Client: ",
    "Server: ",
    "Stop condition: ",
    "Random ids: ",
    "Lua script ",
];

/// A report line's figures as `#`, its spacing as one space (the column a figure ends at
/// depends on its width).
fn masked(line: &str) -> String {
    if !line.starts_with("    ") {
        return line.to_string();
    }
    let indent = line.len() - line.trim_start().len();
    let words: Vec<&str> = line
        .split_whitespace()
        .map(
            |w| match w.contains('.') && w.bytes().any(|b| b.is_ascii_digit()) {
                true => "#",
                false => w,
            },
        )
        .collect();
    format!("{}{}", &line[..indent], words.join(" "))
}

/// The lines of `out` kept for the comparison, "Threads started!" noted (in its place: before
/// any worker's output, as sysbench prints it at its start barrier).
fn kept(lines: Vec<&str>, started: &mut bool) -> String {
    let mut out = String::new();
    for line in lines {
        if line == "Threads started!" {
            *started = true;
        }
        out.push_str(&masked(line));
        out.push('\n');
    }
    out
}

fn sysbench_said(o: &Output) -> Said {
    let text = stdout(o);
    let mut lines: Vec<&str> = text.lines().collect();
    if lines
        .first()
        .is_some_and(|l| l.starts_with("sysbench 1.0.20 "))
    {
        let blank = lines.get(1).is_some_and(|l| l.is_empty());
        lines.drain(..if blank { 2 } else { 1 });
    }
    let mut errors: Vec<String> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("FATAL: "))
        .map(str::to_string)
        .collect();
    lines.retain(|l| !l.starts_with("FATAL: "));
    errors.extend(
        String::from_utf8_lossy(&o.stderr)
            .lines()
            .filter(|l| !l.starts_with("WARNING: "))
            .map(str::to_string),
    );
    let mut started = false;
    Said {
        out: kept(lines, &mut started),
        errors,
        started,
        code: o.status.code(),
    }
}

fn dbpress_said(o: &Output) -> Said {
    let text = stdout(o);
    let mut lines = Vec::new();
    let mut all = text.lines().peekable();
    while let Some(line) = all.next() {
        if line.starts_with("dbpress ") && line.ends_with("(sysbench-compatible)") {
            all.next_if(|l| l.is_empty());
            continue;
        }
        if DBPRESS_HEADER.iter().any(|p| line.starts_with(p)) {
            continue;
        }
        if line.ends_with("dbpress):") {
            // One of dbpress's own sections, to its empty line.
            for l in all.by_ref() {
                if l.is_empty() {
                    break;
                }
            }
            continue;
        }
        lines.push(line);
    }
    let errors = String::from_utf8_lossy(&o.stderr)
        .lines()
        .filter(|l| !l.starts_with("dbpress: notice: ") && !l.starts_with("dbpress: warning: "))
        .map(|l| l.strip_prefix("dbpress: error: ").unwrap_or(l).to_string())
        .collect();
    let mut started = false;
    Said {
        out: kept(lines, &mut started),
        errors,
        started,
        code: o.status.code(),
    }
}

/// `args` (with `stdin` piped in, `env` added) under both tools in `dir`: the same text, the
/// same errors (dbpress's may go on with its fix after sysbench's words), the same exit code.
fn same(dir: &Path, args: &[&str], stdin: Option<&str>, env: &[(&str, &str)]) -> Said {
    let theirs = sysbench_said(&in_dir_with(SYSBENCH, dir, args, stdin, env));
    let ours_raw = in_dir_with(crate::common::bin(), dir, args, stdin, env);
    let ours = dbpress_said(&ours_raw);
    let ctx = format!(
        "{args:?}\nsysbench: {theirs:#?}\ndbpress: {ours:#?}\ndbpress's stdout:\n{}",
        stdout(&ours_raw)
    );
    assert_eq!(ours.code, theirs.code, "exit code of {ctx}");
    assert_eq!(ours.out, theirs.out, "stdout of {ctx}");
    assert_eq!(ours.started, theirs.started, "Threads started! in {ctx}");
    assert_eq!(ours.errors.len(), theirs.errors.len(), "errors of {ctx}");
    for (o, t) in ours.errors.iter().zip(&theirs.errors) {
        assert!(
            o == t || o.starts_with(&format!("{t}: ")),
            "error {o:?} is not sysbench's {t:?}: {ctx}"
        );
    }
    theirs
}

/// A scratch folder for `name`, or None when sysbench is not here to compare with.
fn folder(name: &str) -> Option<std::path::PathBuf> {
    have_sysbench().then(|| scratch(name))
}

/// cmd_prepare.t, cmd_cleanup.t, cmd_help.t: a script's prepare(), cleanup() and help() are
/// its commands.
#[test]
fn issue_41_sysbench_cmd_a_scripts_prepare_cleanup_and_help_functions_are_its_commands() {
    let Some(dir) = folder("sb-cmd-functions") else {
        return;
    };
    for cmd in ["prepare", "cleanup", "help"] {
        let file = format!("has_{cmd}.lua");
        write(
            &dir,
            &file,
            &format!("function {cmd}()\n  print('our {cmd} function ran')\nend\n"),
        );
        let said = same(&dir, &[&file, cmd], None, &[]);
        assert_eq!(said.out, format!("our {cmd} function ran\n"));
        // A command the script lacks: sysbench's line, exit 1.
        let other = if cmd == "prepare" {
            "cleanup"
        } else {
            "prepare"
        };
        let said = same(&dir, &[&file, other], None, &[]);
        assert_eq!(said.code, Some(1));
    }
}

/// cmd_run.t: a script's own thread_run replaces the loop; at verbosity 0 its line is all.
#[test]
fn issue_41_sysbench_cmd_run_calls_a_scripts_own_thread_run() {
    let Some(dir) = folder("sb-cmd-run") else {
        return;
    };
    write(
        &dir,
        "own_loop.lua",
        "function thread_run()\n  print('our thread_run ran')\nend\nfunction event()\nend\n",
    );
    let said = same(&dir, &["--verbosity=0", "own_loop.lua", "run"], None, &[]);
    assert_eq!(said.out, "our thread_run ran\n");
}

/// cmdline.t: a name that is no script, a third word (refused before any script runs).
#[test]
fn issue_41_sysbench_cmd_no_such_script_and_a_third_word_are_refused_as_sysbench_refuses_them() {
    let Some(dir) = folder("sb-cmd-words") else {
        return;
    };
    write(
        &dir,
        "loud.lua",
        "print('top level ran')\nfunction cleanup() end\n",
    );
    let said = same(&dir, &["no_such_script", "prepare"], None, &[]);
    assert_eq!(said.code, Some(1));
    for args in [
        &["no_such_script", "prepare", "extra"][..],
        &["loud.lua", "cleanup", "extra"][..],
    ] {
        let said = same(&dir, args, None, &[]);
        assert_eq!(
            (said.code, said.out.as_str()),
            (Some(1), ""),
            "{args:?}: nothing of the script runs"
        );
    }
    // Help with a word after it: the usage, in both.
    for tool in [SYSBENCH, crate::common::bin()] {
        let o = in_dir_with(tool, &dir, &["--help", "no_such_script"], None, &[]);
        assert!(stdout(&o).lines().any(|l| l == "Usage:"), "{tool}");
    }
}

/// cmdline.t: a script piped in runs once in the main state, whatever command follows; an
/// empty one with an option no one declares does nothing; a commands table with a bad entry
/// is no error until that command is called.
#[test]
fn issue_41_sysbench_cmd_a_script_on_stdin_runs_once_whatever_follows() {
    let Some(dir) = folder("sb-cmd-stdin") else {
        return;
    };
    let said = same(&dir, &[], Some("print('from stdin')\n"), &[]);
    assert_eq!(said.out, "from stdin\n");
    let said = same(&dir, &["--not-declared"], Some(""), &[]);
    assert_eq!((said.code, said.out.as_str()), (Some(0), ""));
    let said = same(&dir, &["-"], Some("print('after a dash')\n"), &[]);
    assert_eq!(said.out, "after a dash\n");
    let said = same(
        &dir,
        &["-", "prepare"],
        Some("function prepare() print('prepare ran') end\nprint('top level')\n"),
        &[],
    );
    assert_eq!(said.out, "top level\n");
    for commands in [
        "sysbench.cmdline.commands = { odd = 'a string, not a table' }\n",
        "sysbench.cmdline.commands = { odd = { function_nobody_defined } }\n",
    ] {
        let said = same(&dir, &[], Some(commands), &[]);
        assert_eq!((said.code, said.out.as_str()), (Some(0), ""), "{commands}");
    }
}

/// A script that prints in its top level (so in every state) and from its one event; it
/// makes a driver, so both tools print SQL statistics.
const BODY: &str = "#!/usr/bin/env sysbench\n\
print('the body ran')\n\
function thread_init() drv = sysbench.sql.driver() end\n\
function event()\n  print('one event')\nend\n";

/// cmdline.t: with no command only the top level runs; `run` runs it in the main state and
/// again in the worker's, then sysbench's report.
#[test]
fn issue_41_sysbench_cmd_a_run_runs_the_top_level_in_each_state_then_the_report() {
    let Some(dir) = folder("sb-cmd-body") else {
        return;
    };
    write(&dir, "body.lua", BODY);
    let said = same(&dir, &["--events=1", "body.lua"], None, &[]);
    assert_eq!(said.out, "the body ran\n");
    let run = [
        "--events=1",
        "--rand-seed=7",
        "--mysql-dry-run",
        "body.lua",
        "run",
    ];
    let said = same(&dir, &run, None, &[]);
    assert_eq!(
        said.out.matches("the body ran\n").count(),
        2,
        "{}",
        said.out
    );
    // The report's lines with their figures masked: the count of events stays.
    assert!(
        said.out.contains("    total number of events: 1\n"),
        "{}",
        said.out
    );
}

/// Options of every kind, declared: help prints them, every entry point sees them typed.
const OPTIONS: &str = r#"
sysbench.cmdline.options = {
  s_one = {"first string"},
  s_two = {"second string", "two"},
  s_three = {"third string", "three", sysbench.cmdline.ARG_STRING},
  b_off = {"a flag off", false},
  b_on = {"a flag on", true},
  b_typed = {"a typed flag", nil, sysbench.cmdline.ARG_BOOL},
  n_int = {"a number", 7},
  n_typed = {"a typed int", nil, sysbench.cmdline.ARG_INT},
  n_typed2 = {"a typed int with default", 9, sysbench.cmdline.ARG_INT},
  d_typed = {"a typed double", 2.5, sysbench.cmdline.ARG_DOUBLE},
  d_plain = {"a plain double", 0.25},
  l_plain = {"a list", {"p", "q"}},
  l_typed = {"a typed list", nil, sysbench.cmdline.ARG_LIST},
  ["with-dash"] = {"dashed", "dv"}
}
local function show()
  local o = sysbench.opt
  for _, k in ipairs({"s_one", "s_two", "s_three", "b_off", "b_on", "b_typed", "n_int",
                      "n_typed", "n_typed2", "d_typed", "d_plain", "l_plain", "l_typed",
                      "with_dash"}) do
    local v = o[k]
    if type(v) == "table" then v = "list of " .. #v .. ": " .. table.concat(v, ",") end
    print(k, type(o[k]), tostring(v))
  end
  print()
end
function help() print("our help:"); sysbench.cmdline.print_test_options(); show() end
function init() print("in init()"); show() end
function thread_init() drv = sysbench.sql.driver(); print("in thread_init()"); show() end
function event() print("in event()"); show() end
function thread_done() print("in thread_done()"); show() end
function done() print("in done()"); show() end
"#;

/// cmdline.t: declared options in help and in init, thread_init, event, thread_done and done;
/// the commands the script lacks; an option it does not declare.
#[test]
fn issue_41_sysbench_cmd_declared_options_are_listed_and_typed_in_every_entry_point() {
    let Some(dir) = folder("sb-cmd-options") else {
        return;
    };
    write(&dir, "opts.lua", OPTIONS);
    let said = same(&dir, &["opts.lua"], None, &[]);
    assert_eq!(said.out, "");
    let said = same(&dir, &["opts.lua", "help"], None, &[]);
    assert!(
        said.out.starts_with("our help:\n  --b_off[=on|off] "),
        "{}",
        said.out
    );
    assert!(
        said.out.contains("b_typed\tboolean\ttrue\n"),
        "{}",
        said.out
    );
    for args in [
        &["opts.lua", "prepare"][..],
        &["opts.lua", "cleanup"][..],
        &["--not-declared=3", "opts.lua", "prepare"][..],
    ] {
        assert_eq!(same(&dir, args, None, &[]).code, Some(1), "{args:?}");
    }
    let run = [
        "opts.lua",
        "--events=1",
        "--rand-seed=3",
        "--mysql-dry-run",
        "run",
    ];
    let said = same(&dir, &run, None, &[]);
    for hook in ["init", "thread_init", "event", "thread_done", "done"] {
        assert!(said.out.contains(&format!("in {hook}()\n")), "{}", said.out);
    }
    let given = [
        "opts.lua",
        "--s-one=x",
        "--b_typed=off",
        "--n-typed=4",
        "--l_typed=a,b,c",
        "--with_dash=w",
        "help",
    ];
    let said = same(&dir, &given, None, &[]);
    assert!(
        said.out.contains("b_typed\tboolean\tfalse\n"),
        "{}",
        said.out
    );
}

/// cmdline.t: an empty script has no help; a malformed options table fails in sysbench's
/// read_cmdline_options.
#[test]
fn issue_41_sysbench_cmd_no_help_and_a_malformed_options_table_fail_as_under_sysbench() {
    let Some(dir) = folder("sb-cmd-bad") else {
        return;
    };
    write(&dir, "empty.lua", "\n");
    assert_eq!(same(&dir, &["empty.lua", "help"], None, &[]).code, Some(1));
    write(
        &dir,
        "malformed.lua",
        "sysbench.cmdline.options = { {} }\nfunction help() end\n",
    );
    let said = same(&dir, &["malformed.lua", "help"], None, &[]);
    assert_eq!(said.code, Some(1));
    assert!(
        said.errors[0].starts_with("`sysbench.cmdline.read_cmdline_options' function failed"),
        "{said:?}"
    );
}

/// A plain command and two parallel ones (one overriding prepare), each saying its thread.
const CUSTOM_COMMANDS: &str = r#"ffi.cdef "unsigned int sleep(unsigned int);"
local function plain() print("plain command in tid " .. sysbench.tid) end
local function spread()
  ffi.C.sleep(sysbench.tid % 2)
  print("parallel command in tid " .. sysbench.tid)
end
local function own_prepare()
  ffi.C.sleep(sysbench.tid % 2)
  print("parallel prepare in tid " .. sysbench.tid)
end
sysbench.cmdline.commands = {
  plain = { plain },
  spread = { spread, sysbench.cmdline.PARALLEL_COMMAND },
  prepare = { own_prepare, sysbench.cmdline.PARALLEL_COMMAND },
}
"#;

/// cmdline.t: custom commands, one in the main state, parallel ones (an override of prepare
/// among them) in `--threads` states; an undeclared one is unknown.
#[test]
fn issue_41_sysbench_cmd_custom_commands_run_in_the_main_state_or_in_threads_states() {
    let Some(dir) = folder("sb-cmd-custom") else {
        return;
    };
    write(&dir, "custom.lua", CUSTOM_COMMANDS);
    let said = same(&dir, &["--threads=2", "custom.lua", "plain"], None, &[]);
    assert_eq!(said.out, "plain command in tid 0\n");
    for (cmd, line) in [
        ("spread", "parallel command"),
        ("prepare", "parallel prepare"),
    ] {
        let said = same(&dir, &["--threads=2", "custom.lua", cmd], None, &[]);
        assert_eq!(
            said.out,
            format!("Initializing worker threads...\n\n{line} in tid 0\n{line} in tid 1\n")
        );
    }
    let said = same(
        &dir,
        &["--threads=2", "custom.lua", "undeclared"],
        None,
        &[],
    );
    assert_eq!(said.code, Some(1));
    // A row that is no table, or a table without a function, declares no command.
    write(
        &dir,
        "odd_rows.lua",
        "sysbench.cmdline.commands = { text = 'a string', empty = {}, unset = { nobody_defined_this } }\n",
    );
    for cmd in ["text", "empty", "unset"] {
        let said = same(&dir, &["odd_rows.lua", cmd], None, &[]);
        assert_eq!(said.errors, [format!("Unknown command: {cmd}")]);
    }
}

/// cmdline.t: sysbench.cmdline.argv and .command, at the top level and in a command. (sysbench's
/// own test prints them with `require("inspect")`, which Debian's sysbench 1.0.20 does not
/// have: that part fails under sysbench here, so the arguments are printed one by one; argv[0]
/// is each tool's own name.)
#[test]
fn issue_41_sysbench_cmd_argv_and_the_command_are_seen_at_the_top_level_and_in_a_command() {
    let Some(dir) = folder("sb-cmd-argv") else {
        return;
    };
    write(
        &dir,
        "argv.lua",
        r#"local function show(where)
  local a = sysbench.cmdline.argv
  local parts = {}
  for i = 1, #a do parts[#parts + 1] = i .. "=" .. a[i] end
  print(where .. ": argv " .. table.concat(parts, " "))
  print(string.format("%s: command %s", where, tostring(sysbench.cmdline.command)))
end
function prepare() show("prepare") end
show("top level")
"#,
    );
    let said = same(&dir, &["--o1", "--o2=val", "argv.lua"], None, &[]);
    assert_eq!(
        said.out,
        "top level: argv 1=--o1 2=--o2=val 3=argv.lua\ntop level: command nil\n"
    );
    let said = same(
        &dir,
        &["--o1", "--o2=val", "argv.lua", "prepare"],
        None,
        &[],
    );
    assert_eq!(
        said.out
            .matches("argv 1=--o1 2=--o2=val 3=argv.lua 4=prepare\n")
            .count(),
        2
    );
}

/// cmdline.t: a bare name found as a module on LUA_PATH; an error in its top level is its
/// file, line and message, exit 1, with no command and with `run`.
#[test]
fn issue_41_sysbench_cmd_a_module_name_runs_the_module_and_its_errors_end_the_run() {
    let Some(dir) = folder("sb-cmd-module") else {
        return;
    };
    let mods = dir.join("mods");
    std::fs::create_dir_all(&mods).unwrap();
    write(
        &mods,
        "as_module.lua",
        "print('as_module top level')\nfunction event()\n  print('as_module event')\nend\n",
    );
    write(
        &mods,
        "failing_module.lua",
        "print('failing_module top level')\nfunction event()\nend\nerror('a failure of our own')\n",
    );
    let lua_path = format!("{}/?.lua;;", mods.display());
    let env = [("LUA_PATH", lua_path.as_str())];
    let said = same(&dir, &["as_module", "--verbosity=0"], None, &env);
    assert_eq!(said.out, "as_module top level\n");
    let run = ["as_module", "--events=1", "--verbosity=0", "run"];
    let said = same(&dir, &run, None, &env);
    assert_eq!(
        said.out,
        "as_module top level\nas_module top level\nas_module event\n"
    );
    for args in [
        &["failing_module", "--verbosity=0"][..],
        &["failing_module", "--events=1", "--verbosity=0", "run"][..],
    ] {
        let said = same(&dir, args, None, &env);
        assert_eq!(said.code, Some(1));
        assert_eq!(said.out, "failing_module top level\n");
        assert!(
            said.errors[0].ends_with("failing_module.lua:4: a failure of our own"),
            "{said:?}"
        );
    }
}

/// cmdline.t: a declared flag takes on, off, true, false, 1 or 0; anything else is an
/// invalid option.
#[test]
fn issue_41_sysbench_cmd_a_declared_flag_takes_a_flags_values_only() {
    let Some(dir) = folder("sb-cmd-flag") else {
        return;
    };
    write(
        &dir,
        "flag.lua",
        "sysbench.cmdline.options = { our_flag = {'a flag', false} }\n\
         function prepare() print('our_flag = ' .. tostring(sysbench.opt.our_flag)) end\n",
    );
    for (value, want) in [
        ("on", Some(true)),
        ("off", Some(false)),
        ("true", Some(true)),
        ("false", Some(false)),
        ("1", Some(true)),
        ("0", Some(false)),
        ("5", None),
        ("bar", None),
        ("", None),
    ] {
        let flag = format!("--our-flag={value}");
        let said = same(
            &dir,
            &["--verbosity=0", "flag.lua", &flag, "prepare"],
            None,
            &[],
        );
        match want {
            Some(v) => assert_eq!(said.out, format!("our_flag = {v}\n")),
            None => assert_eq!(said.code, Some(1), "{flag}"),
        }
    }
}

/// Beyond cmdline.t, the other option types: a number reads as C's strtod reads it, an int
/// option refuses what is not a whole number, a size is its bytes, a file name is not exported.
#[test]
fn issue_41_sysbench_cmd_numbers_ints_sizes_and_files_are_exported_as_sysbench_exports_them() {
    let Some(dir) = folder("sb-cmd-types") else {
        return;
    };
    write(
        &dir,
        "types.lua",
        "sysbench.cmdline.options = {\n\
           a_number = {'a number', 7},\n\
           an_int = {'an int', 3, sysbench.cmdline.ARG_INT},\n\
           a_size = {'a size', '1M', sysbench.cmdline.ARG_SIZE},\n\
           a_file = {'a file', nil, sysbench.cmdline.ARG_FILE},\n\
         }\n\
         function prepare()\n\
           local o = sysbench.opt\n\
           for _, k in ipairs({'a_number', 'an_int', 'a_size', 'a_file'}) do\n\
             print(k, type(o[k]), tostring(o[k]))\n\
           end\n\
         end\n",
    );
    for given in [
        "--a-number=2.5",
        "--a-number=abc",
        "--a-number=2x",
        "--a-number=",
        "--an-int=-4",
        "--an-int=+4",
        "--an-int=",
        "--an-int=2.5",
        "--an-int=x",
        "--an-int=99999999999",
        "--a-size=2K",
        "--a-size=3g",
        "--a-size=1.5M",
        "--a-size=abc",
        "--a-file=/etc/hostname",
    ] {
        let said = same(
            &dir,
            &["--verbosity=0", "types.lua", given, "prepare"],
            None,
            &[],
        );
        assert!(
            said.code == Some(1) || said.out.contains("a_file\tnil\tnil\n"),
            "{given}: {said:?}"
        );
    }
    let said = same(&dir, &["types.lua", "help"], None, &[]);
    assert!(said.out.contains("  --a_size=SIZE "), "{}", said.out);
}

/// An error raised in a script's command names the function it failed in, as sysbench's
/// line does, exit 1. (sysbench exits 0 when help(), done() or a parallel command in more than
/// one thread fails; dbpress exits 1 there: a failure is not hidden.)
#[test]
fn issue_41_sysbench_cmd_an_error_in_a_command_names_the_function_it_failed_in() {
    let Some(dir) = folder("sb-cmd-errors") else {
        return;
    };
    write(
        &dir,
        "failing.lua",
        "function prepare() error('prepare broke') end\n\
         function cleanup() error('cleanup broke') end\n\
         function init() error('init broke') end\n\
         function event() end\n\
         local function broken() error('command broke') end\n\
         sysbench.cmdline.commands = { mine = { broken }, spread = { broken, sysbench.cmdline.PARALLEL_COMMAND } }\n",
    );
    for (args, function) in [
        (&["failing.lua", "prepare"][..], "prepare"),
        (&["failing.lua", "cleanup"][..], "cleanup"),
        (
            &["failing.lua", "--mysql-dry-run", "--events=1", "run"][..],
            "init",
        ),
        (
            &["failing.lua", "mine"][..],
            "sysbench.cmdline.call_command",
        ),
        (
            &["failing.lua", "--threads=1", "spread"][..],
            "sysbench.cmdline.call_command",
        ),
    ] {
        let said = same(&dir, args, None, &[]);
        assert_eq!(said.code, Some(1), "{args:?}");
        assert!(
            said.errors[0].starts_with(&format!("`{function}' function failed: failing.lua:")),
            "{said:?}"
        );
    }
}

/// A default of another type than the one declared is read as the declared type; an int
/// option's default that is no whole number is refused, unless the command line replaces it.
#[test]
fn issue_41_sysbench_cmd_a_default_is_read_as_the_type_its_option_declares() {
    let Some(dir) = folder("sb-cmd-defaults") else {
        return;
    };
    write(
        &dir,
        "defaults.lua",
        "sysbench.cmdline.options = {\n\
           s_from_bool = {'a string', true, sysbench.cmdline.ARG_STRING},\n\
           i_from_string = {'an int', '12', sysbench.cmdline.ARG_INT},\n\
           d_from_string = {'a double', '1.5', sysbench.cmdline.ARG_DOUBLE},\n\
           b_from_string = {'a flag', 'on', sysbench.cmdline.ARG_BOOL},\n\
           a_float = {'a float', 3.0},\n\
           a_tiny = {'a tiny one', 1e-7},\n\
           a_list = {'numbers', {1, 2.5}},\n\
         }\n\
         function prepare()\n\
           for _, k in ipairs({'s_from_bool', 'i_from_string', 'd_from_string', 'b_from_string', 'a_float', 'a_tiny'}) do\n\
             print(k, type(sysbench.opt[k]), tostring(sysbench.opt[k]))\n\
           end\n\
           print('a_list', table.concat(sysbench.opt.a_list, '|'))\n\
         end\n",
    );
    let said = same(
        &dir,
        &["--verbosity=0", "defaults.lua", "prepare"],
        None,
        &[],
    );
    assert!(
        said.out.contains("i_from_string\tnumber\t12\n"),
        "{}",
        said.out
    );
    same(&dir, &["defaults.lua", "help"], None, &[]);
    write(
        &dir,
        "bad_default.lua",
        "sysbench.cmdline.options = { n = {'an int', 2.7, sysbench.cmdline.ARG_INT} }\n\
         function prepare() print('n', sysbench.opt.n) end\n",
    );
    let said = same(
        &dir,
        &["--verbosity=0", "bad_default.lua", "prepare"],
        None,
        &[],
    );
    assert_eq!(said.code, Some(1));
    let said = same(
        &dir,
        &["--verbosity=0", "bad_default.lua", "--n=4", "prepare"],
        None,
        &[],
    );
    assert_eq!(said.out, "n\t4\n");
}
