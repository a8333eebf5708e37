//! Issue 41: a Lua script's command line as sysbench reads it. The options a script declares
//! are options of the command line (typed in `sysbench.opt`, an unknown one refused), legacy
//! scripts get unknown options as string globals, `help` prints the declared options as
//! sysbench does, the script's commands run (a parallel one in `--threads` states: stock
//! oltp_common.lua's prepare), and the script is found from `--test=`, a bare name or stdin.
//! sysbench 1.0.20 itself (scripts/test.sh installs it) is the reference where it can be.

use crate::common::{assert_fails_with, dbpress, scratch, server, stderr, stdout, strs, SOCKET};
use crate::sysbench_ref::{have_sysbench, in_dir, lines_with, write, STOCK_DIR, SYSBENCH};
use std::process::{Command, Output};

/// Every "thread N creates lcmd_tM" in the output, wherever lines were cut.
fn announcements(o: &Output) -> Vec<String> {
    let text = stdout(o);
    let mut found = Vec::new();
    let mut rest = text.as_str();
    while let Some(at) = rest.find("thread ") {
        let tail = &rest[at..];
        let end = tail.find("lcmd_t").map(|i| {
            i + "lcmd_t".len() + tail[i + 6..].bytes().take_while(u8::is_ascii_digit).count()
        });
        match end {
            Some(end) => {
                found.push(tail[..end].to_string());
                rest = &tail[end..];
            }
            None => break,
        }
    }
    found
}

const OPTIONS_SCRIPT: &str = r#"
sysbench.cmdline.options = {
  a_int = {"an int", 10},
  b_dbl = {"a double", 1.5},
  c_str = {"a string", "hello"},
  d_bool = {"a bool", true},
  e_list = {"a list", {"x", "y", 3}},
  f_nil = {"no default"},
  h_false = {"false bool", false},
  ["i-dash"] = {"dashed name", 7},
}
sysbench.cmdline.commands = {
  show = {function()
    for _, k in ipairs({"a_int", "b_dbl", "c_str", "d_bool", "e_list", "f_nil", "h_false", "i_dash"}) do
      local v = sysbench.opt[k]
      if type(v) == "table" then v = "{" .. table.concat(v, "|") .. "}" end
      print("opt", k, type(sysbench.opt[k]), tostring(v))
    end
  end},
  fail = {function() return false end},
  args = {function() print("argv", sysbench.cmdline.argv[1], sysbench.cmdline.argv[2]) end},
  which = {function()
    print("which", sysbench.cmdline.command, sysbench.cmdline.command_defined("show"),
      sysbench.cmdline.command_defined("nope"), sysbench.cmdline.command_parallel("show"))
  end},
}
"#;

#[test]
fn issue_41_declared_options_are_typed_as_sysbench_types_them_and_unknown_ones_refused() {
    if !have_sysbench() {
        return;
    }
    let dir = scratch("lua-cmdline-opts");
    write(&dir, "opts.lua", OPTIONS_SCRIPT);
    // Defaults, then values given (dashes and underscores alike): the same lines as sysbench's.
    for given in [
        &[][..],
        &[
            "--a-int=5",
            "--b_dbl=2.25",
            "--c-str=bye",
            "--d-bool=off",
            "--e_list=p,q",
            "--f-nil=z",
            "--h_false",
            "--i_dash=8",
        ][..],
        &["--a-int=", "--c-str=", "--e_list="][..],
    ] {
        let args: Vec<&str> = ["opts.lua", "show"].iter().chain(given).copied().collect();
        let ours = in_dir(crate::common::bin(), &dir, &args, None);
        assert!(ours.status.success(), "{}", stderr(&ours));
        let theirs = in_dir(SYSBENCH, &dir, &args, None);
        let want = lines_with(&theirs, &["opt\t"]);
        assert_eq!(want.len(), 8, "sysbench: {}", stdout(&theirs));
        assert_eq!(lines_with(&ours, &["opt\t"]), want, "{given:?}");
    }
    // An option the script does not declare: sysbench's line and exit code 1.
    let o = in_dir(
        crate::common::bin(),
        &dir,
        &["opts.lua", "--bogus=1", "show"],
        None,
    );
    assert_fails_with(&o, 1, "invalid option: --bogus=1");
    assert!(lines_with(&o, &["opt\t"]).is_empty(), "{}", stdout(&o));
    // A dbpress option is still one.
    let o = in_dir(
        crate::common::bin(),
        &dir,
        &["opts.lua", "--threads=3", "show"],
        None,
    );
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn issue_41_help_lists_the_declared_options_as_sysbench_does() {
    if !have_sysbench() {
        return;
    }
    let dir = scratch("lua-cmdline-help");
    // A modified copy of the stock read/write script: its options come from oltp_common.lua,
    // which it requires from sysbench's folder.
    let mut text = std::fs::read_to_string(format!("{STOCK_DIR}/oltp_read_write.lua")).unwrap();
    text.push_str("-- a modified copy\n");
    write(&dir, "oltp_read_write.lua", &text);
    write(&dir, "opts.lua", OPTIONS_SCRIPT);
    for script in ["oltp_read_write.lua", "opts.lua"] {
        let theirs = in_dir(SYSBENCH, &dir, &[script, "help"], None);
        let want: String = stdout(&theirs)
            .split_once(&format!("{script} options:"))
            .map(|(_, rest)| format!("{script} options:{rest}"))
            .unwrap_or_else(|| panic!("sysbench's help: {}", stdout(&theirs)));
        let ours = in_dir(crate::common::bin(), &dir, &[script, "help"], None);
        assert!(ours.status.success(), "{}", stderr(&ours));
        assert_eq!(stdout(&ours), want, "{script}");
    }
    // A script with help() of its own: that, not the options.
    write(
        &dir,
        "own_help.lua",
        "sysbench.cmdline.options = {x = {'x', 1}}\nfunction help() print('my help') end\n",
    );
    let o = in_dir(crate::common::bin(), &dir, &["own_help.lua", "help"], None);
    assert_eq!(stdout(&o), "my help\n", "{}", stderr(&o));
    // Neither: sysbench's line.
    write(&dir, "no_help.lua", "x = 1\n");
    let o = in_dir(crate::common::bin(), &dir, &["no_help.lua", "help"], None);
    assert_fails_with(
        &o,
        1,
        "'no_help.lua' test does not implement the 'help' command.",
    );
}

#[test]
fn issue_41_a_legacy_script_gets_unknown_options_as_string_globals() {
    let dir = scratch("lua-cmdline-legacy");
    write(
        &dir,
        "legacy.lua",
        "function help() print('own help') end\n\
         function prepare()\n\
           print('legacy', oltp_table_size, type(oltp_table_size), sysbench.opt.oltp_table_size,\n\
             type(my_flag), my_flag == '', type(help), type(prepare), threads, type(threads))\n\
         end\n",
    );
    let args = [
        "legacy.lua",
        "--oltp-table-size=10",
        "--my-flag",
        "--prepare=x",
        "--threads=2",
        "prepare",
    ];
    let o = in_dir(crate::common::bin(), &dir, &args, None);
    assert!(o.status.success(), "{}", stderr(&o));
    // As under sysbench: strings, a bare one empty, every option a global except over a
    // function.
    assert_eq!(
        lines_with(&o, &["legacy\t"]),
        ["legacy\t10\tstring\t10\tstring\ttrue\tfunction\tfunction\t2\tnumber"]
    );
    if have_sysbench() {
        let theirs = in_dir(SYSBENCH, &dir, &args, None);
        assert_eq!(
            lines_with(&theirs, &["legacy\t"]),
            lines_with(&o, &["legacy\t"])
        );
    }
}

#[test]
fn issue_41_commands_fail_and_are_refused_with_sysbenchs_lines_and_exit_codes() {
    let dir = scratch("lua-cmdline-commands");
    write(
        &dir,
        "opts.lua",
        &format!("print('top level')\n{OPTIONS_SCRIPT}"),
    );
    let dbp = |args: &[&str]| in_dir(crate::common::bin(), &dir, args, None);
    // No command: the top level runs once, and that is all.
    let o = dbp(&["opts.lua"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "top level\n");
    // A command returning false fails; an undeclared one is unknown; a built-in one the
    // script lacks is not implemented. Each once through its top level.
    assert_fails_with(&dbp(&["opts.lua", "fail"]), 1, "'fail' command failed");
    let o = dbp(&["opts.lua", "nope"]);
    assert_fails_with(&o, 1, "Unknown command: nope");
    assert_eq!(lines_with(&o, &["top level"]).len(), 1);
    assert_fails_with(
        &dbp(&["opts.lua", "prepare"]),
        1,
        "'opts.lua' test does not implement the 'prepare' command.",
    );
    assert_fails_with(
        &dbp(&["opts.lua", "run"]),
        1,
        "cannot find the event() function in opts.lua",
    );
    assert_fails_with(
        &dbp(&["opts.lua", "show", "b"]),
        1,
        "Unrecognized command line argument: b",
    );
    // What a command sees of its command line.
    let o = dbp(&["opts.lua", "which"]);
    assert_eq!(
        lines_with(&o, &["which"]),
        ["which\twhich\ttrue\tfalse\tfalse"],
        "{}",
        stderr(&o)
    );
    let o = dbp(&["--a-int=4", "opts.lua", "args"]);
    assert_eq!(
        lines_with(&o, &["argv"]),
        ["argv\t--a-int=4\topts.lua"],
        "{}",
        stderr(&o)
    );
}

#[test]
fn issue_41_a_script_is_found_from_test_a_bare_name_or_stdin() {
    let dir = scratch("lua-cmdline-forms");
    let script = "function prepare() print('prepared', sysbench.opt.x) end\nsysbench.cmdline.options = {x = {'x', 'dflt'}}\n";
    write(&dir, "mine.lua", script);
    let mods = dir.join("mods");
    std::fs::create_dir_all(&mods).unwrap();
    write(&mods, "viamodule.lua", script);
    let dbp = |args: &[&str], stdin: Option<&str>| in_dir(crate::common::bin(), &dir, args, stdin);
    // --test=PATH, with sysbench's warning.
    let o = dbp(&["--test=mine.lua", "--x=t", "prepare"], None);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(lines_with(&o, &["prepared"]), ["prepared\tt"]);
    assert!(
        stderr(&o).contains("warning: the --test option is deprecated."),
        "{}",
        stderr(&o)
    );
    // A bare name: the file ./mine.lua as a module of ./?.lua, then one on LUA_PATH.
    let o = dbp(&["mine", "prepare"], None);
    assert_eq!(
        lines_with(&o, &["prepared"]),
        ["prepared\tdflt"],
        "{}",
        stderr(&o)
    );
    let o = Command::new(crate::common::bin())
        .args(["viamodule", "--x=m", "prepare"])
        .current_dir(&dir)
        .env("LUA_PATH", format!("{}/?.lua;;", mods.display()))
        .output()
        .unwrap();
    assert_eq!(
        lines_with(&o, &["prepared"]),
        ["prepared\tm"],
        "{}",
        stderr(&o)
    );
    let o = dbp(&["nosuch_thing", "prepare"], None);
    assert_fails_with(
        &o,
        1,
        "Cannot find benchmark 'nosuch_thing': no such built-in test, file or module",
    );
    // A script on stdin: run once, in the main state, and done.
    let o = dbp(&[], Some("print('from stdin', sysbench.tid)\n"));
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), "from stdin\t0\n");
    let o = dbp(&["-", "run"], Some("print('dash')\n"));
    assert_eq!(stdout(&o), "dash\n", "{}", stderr(&o));
}

/// A parallel command: each of `--threads` states creates every other table, on its own
/// connection; `--tables` is the script's own option.
const PARALLEL_SCRIPT: &str = r#"
sysbench.cmdline.options = { tables = {"tables to create", 4} }
sysbench.cmdline.commands = {
  prepare = {function()
    local con = sysbench.sql.driver():connect()
    for i = sysbench.tid + 1, sysbench.opt.tables, sysbench.opt.threads do
      print(string.format("thread %d creates lcmd_t%d", sysbench.tid, i))
      con:query(string.format("CREATE TABLE lcmd_t%d (id INT PRIMARY KEY, tid INT)", i))
      con:query(string.format("INSERT INTO lcmd_t%d VALUES (%d, %d)", i, i, sysbench.tid))
    end
  end, sysbench.cmdline.PARALLEL_COMMAND},
}
function cleanup()
  local con = sysbench.sql.driver():connect()
  for i = 1, sysbench.opt.tables do con:query("DROP TABLE IF EXISTS lcmd_t" .. i) end
end
"#;

/// The lcmd_t tables and which thread inserted each one's row.
fn lcmd_tables(srv: &mut crate::common::Server) -> Vec<(String, u32)> {
    use mysql::prelude::Queryable;
    srv.tables_like("lcmd\\_t%")
        .into_iter()
        .map(|t| {
            let tid: u32 = srv
                .conn
                .query_first(format!("SELECT tid FROM `{t}`"))
                .unwrap()
                .unwrap();
            (t, tid)
        })
        .collect()
}

#[test]
fn issue_41_a_parallel_command_runs_in_threads_states_each_with_its_connection() {
    let Some(mut srv) = server("issue_41_lua_parallel_command") else {
        return;
    };
    let dir = scratch("lua-cmdline-parallel");
    let script = write(&dir, "par.lua", PARALLEL_SCRIPT);
    let script = script.to_str().unwrap();
    let conn = [
        format!("--mysql-socket={SOCKET}"),
        "--mysql-user=sbtest".into(),
        "--mysql-password=sbtest".into(),
        "--mysql-db=sbtest".into(),
    ];
    let args = |cmd: &str| -> Vec<String> {
        [script.to_string()]
            .into_iter()
            .chain(conn.iter().cloned())
            .chain([
                "--tables=5".to_string(),
                "--threads=2".to_string(),
                cmd.to_string(),
            ])
            .collect()
    };
    let o = dbpress(&strs(&args("cleanup")));
    assert!(o.status.success(), "{}", stderr(&o));
    let before = srv.com();
    let o = dbpress(&strs(&args("prepare")));
    let after = srv.com();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("Initializing worker threads...\n"),
        "{}",
        stdout(&o)
    );
    let mut ours = lines_with(&o, &["thread "]);
    ours.sort();
    // Thread 0 made tables 1, 3, 5 and thread 1 tables 2, 4, each in its own state.
    let want: Vec<(String, u32)> = (1..=5)
        .map(|i| (format!("lcmd_t{i}"), (i - 1) % 2))
        .collect();
    assert_eq!(lcmd_tables(&mut srv), want);
    assert_eq!(after["Com_create_table"] - before["Com_create_table"], 5);
    assert_eq!(after["Com_insert"] - before["Com_insert"], 5);
    // sysbench, on the same script, says the same.
    if have_sysbench() {
        let o = dbpress(&strs(&args("cleanup")));
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(lcmd_tables(&mut srv).is_empty());
        let theirs = Command::new(SYSBENCH)
            .args(strs(&args("prepare")))
            .output()
            .unwrap();
        assert!(theirs.status.success(), "{}", stderr(&theirs));
        // sysbench's print writes its text and its newline apart, so two threads' lines can
        // join ("… lcmd_t1thread 1 creates …"): its announcements are taken from the whole text.
        let mut want = announcements(&theirs);
        want.sort();
        assert_eq!(ours, want);
        assert!(stdout(&theirs).contains("Initializing worker threads...\n"));
    }
    let o = dbpress(&strs(&args("cleanup")));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(lcmd_tables(&mut srv).is_empty());
}

/// The tables of the sbtest database as SHOW CREATE TABLE gives them, with their row counts.
fn tables_and_rows(srv: &mut crate::common::Server) -> Vec<(String, String, u64)> {
    use mysql::prelude::Queryable;
    let mut out = Vec::new();
    for t in srv.tables_like("sbtest%") {
        let (_, create): (String, String) = srv
            .conn
            .query_first(format!("SHOW CREATE TABLE `{t}`"))
            .unwrap()
            .unwrap();
        let n: u64 = srv
            .conn
            .query_first(format!("SELECT COUNT(*) FROM `{t}`"))
            .unwrap()
            .unwrap();
        // The next id differs with how the rows were inserted, not what they are.
        let create = create
            .split(' ')
            .filter(|w| !w.starts_with("AUTO_INCREMENT="))
            .collect::<Vec<_>>()
            .join(" ");
        out.push((t, create, n));
    }
    out
}

#[test]
fn issue_41_a_modified_read_write_prepares_through_its_parallel_command_as_sysbench_does() {
    if !have_sysbench() {
        return;
    }
    let Some(mut srv) = server("issue_41_lua_parallel_prepare") else {
        return;
    };
    let dir = scratch("lua-cmdline-prepare");
    let mut text = std::fs::read_to_string(format!("{STOCK_DIR}/oltp_read_write.lua")).unwrap();
    text.push_str("-- a modified copy\n");
    let copy = write(&dir, "oltp_read_write.lua", &text);
    let copy = copy.to_str().unwrap();
    let opts = ["--tables=4", "--threads=2", "--table-size=300"];
    let args = |tool_script: &str, cmd: &str| -> Vec<String> {
        // `--name=value` only: sysbench takes no other spelling.
        let conn = [
            format!("--mysql-socket={SOCKET}"),
            "--mysql-user=sbtest".into(),
            "--mysql-password=sbtest".into(),
            "--mysql-db=sbtest".into(),
        ];
        std::iter::once(tool_script.to_string())
            .chain(conn)
            .chain(opts.iter().map(|s| s.to_string()))
            .chain([cmd.to_string()])
            .collect()
    };
    // sysbench's tables, for reference.
    let theirs = Command::new(SYSBENCH)
        .args(strs(&args(copy, "prepare")))
        .output()
        .unwrap();
    assert!(theirs.status.success(), "{}", stderr(&theirs));
    let want = tables_and_rows(&mut srv);
    assert_eq!(want.len(), 4, "{want:?}");
    let o = Command::new(SYSBENCH)
        .args(strs(&args(copy, "cleanup")))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(srv.tables().is_empty());

    let before = srv.com();
    let o = dbpress(&strs(&args(copy, "prepare")));
    let after = srv.com();
    assert!(o.status.success(), "{}", stderr(&o));
    // Two threads, each its own state and connection, each creating its tables.
    assert!(
        stdout(&o).contains("Initializing worker threads..."),
        "{}",
        stdout(&o)
    );
    for t in 1..=4 {
        assert!(
            stdout(&o).contains(&format!("Creating table 'sbtest{t}'...")),
            "{}",
            stdout(&o)
        );
    }
    assert_eq!(tables_and_rows(&mut srv), want);
    assert_eq!(after["Com_create_table"] - before["Com_create_table"], 4);
    // The script's cleanup (no command of its own: its cleanup()).
    let o = dbpress(&strs(&args(copy, "cleanup")));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(srv.tables().is_empty(), "{:?}", srv.tables());
}

#[test]
fn issue_41_a_parallel_command_runs_on_postgresql_too() {
    let Some((_guard, mut pg)) = crate::engines::pg_server("issue_41_lua_parallel_pg") else {
        return;
    };
    let dir = scratch("lua-cmdline-parallel-pg");
    let script = write(&dir, "par.lua", PARALLEL_SCRIPT);
    let args = |cmd: &str| -> Vec<String> {
        [
            script.to_str().unwrap(),
            "--db-driver=pgsql",
            "--pgsql-host=/var/run/postgresql",
            "--pgsql-user=sbtest",
            "--pgsql-password=sbtest",
            "--pgsql-db=sbtest",
            "--tables=3",
            "--threads=3",
            cmd,
        ]
        .iter()
        .map(|s| s.to_string())
        .collect()
    };
    let tables = |pg: &mut postgres::Client| -> Vec<(String, i32)> {
        let names: Vec<String> = pg
            .query(
                "SELECT tablename::text FROM pg_tables WHERE tablename LIKE 'lcmd\\_t%' ORDER BY 1",
                &[],
            )
            .unwrap()
            .iter()
            .map(|r| r.get(0))
            .collect();
        names
            .into_iter()
            .map(|t| {
                let tid: i32 = pg
                    .query_one(&format!("SELECT tid FROM {t}"), &[])
                    .unwrap()
                    .get(0);
                (t, tid)
            })
            .collect()
    };
    let o = dbpress(&strs(&args("cleanup")));
    assert!(o.status.success(), "{}", stderr(&o));
    let o = dbpress(&strs(&args("prepare")));
    assert!(o.status.success(), "{}", stderr(&o));
    // Three states, one table each, each row written by its own thread.
    let want: Vec<(String, i32)> = (1..=3).map(|i| (format!("lcmd_t{i}"), i - 1)).collect();
    assert_eq!(tables(&mut pg), want);
    let o = dbpress(&strs(&args("cleanup")));
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(tables(&mut pg).is_empty());
}

#[test]
fn issue_42_a_script_that_asks_for_no_driver_leaves_no_database_file() {
    let dir = scratch("lua-no-driver-file");
    write(&dir, "quiet.lua", "function event() end\n");
    write(
        &dir,
        "asks.lua",
        "function thread_init() c = sysbench.sql.driver():connect() end\n\
         function event() c:query('SELECT 1') end\n",
    );
    let file = dir.join("dbpress.sqlite");
    let _ = std::fs::remove_file(&file);
    // As under sysbench, which opens no database for it: the default target's file, made by
    // the session that reads its facts, goes again.
    for args in [
        &["quiet.lua", "--events=3", "run"][..],
        &["quiet.lua", "--events=3", "--threads=1,2", "run"][..],
    ] {
        let o = in_dir(crate::common::bin(), &dir, args, None);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(!file.exists(), "{args:?} left {}", file.display());
    }
    let o = in_dir(
        crate::common::bin(),
        &dir,
        &["asks.lua", "--events=3", "run"],
        None,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("SQL statistics:"));
    assert!(file.exists(), "the script's own database is kept");
}

#[test]
fn issue_41_init_and_done_run_in_the_main_state_around_a_run_and_a_script_may_replace_run() {
    let dir = scratch("lua-cmdline-init");
    write(
        &dir,
        "hooks.lua",
        "function init() print('init', sysbench.tid, sysbench.opt.threads) end\n\
         function done() print('done') end\n\
         function thread_init() end\n\
         function event() end\n",
    );
    let run = [
        "hooks.lua",
        "--mysql-dry-run",
        "--events=20",
        "--time=0",
        "--threads=2",
        "run",
    ];
    let o = in_dir(crate::common::bin(), &dir, &run, None);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    // Once each, init before the run's report and done after it.
    let at = |needle: &str| {
        assert_eq!(out.matches(needle).count(), 1, "{needle}: {out}");
        out.find(needle).unwrap()
    };
    // (The report without SQL statistics: the script asks for no driver, as under sysbench.)
    assert!(!out.contains("SQL statistics:"), "{out}");
    assert!(at("init\t0\t2\n") < at("General statistics:"), "{out}");
    assert!(at("General statistics:") < at("done\n"), "{out}");
    // A run of the script's own instead of the built-in one: no report, no init.
    write(
        &dir,
        "own_run.lua",
        "function init() print('init') end\n\
         sysbench.cmdline.commands = { run = {function() print('own run') end} }\n",
    );
    let o = in_dir(
        crate::common::bin(),
        &dir,
        &["own_run.lua", "--mysql-dry-run", "run"],
        None,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("own run\n"), "{}", stdout(&o));
    assert!(
        !stdout(&o).contains("init") && !stdout(&o).contains("SQL statistics"),
        "{}",
        stdout(&o)
    );
}

/// sysbench-tpcc declares `report_csv` (yes/no) and picks its interval reporter by it; dbpress's
/// own `--report-csv` (CSV output, for the built-in tpcc) must not take the script's option.
#[test]
fn issue_41_a_declared_option_named_like_a_dbpress_result_option_is_the_scripts() {
    let dir = scratch("lua-cmdline-report-csv");
    let script = write(
        &dir,
        "csv.lua",
        r#"
sysbench.cmdline.options = { report_csv = {"Report output in csv (yes, no)", "no"} }
function thread_init() con = sysbench.sql.driver():connect() end
function event() con:query("SELECT 1") end
function sysbench.hooks.report_intermediate(stat)
  print("report_csv=" .. sysbench.opt.report_csv)
end
"#,
    );
    let o = dbpress(&[
        script.to_str().unwrap(),
        "--mysql-dry-run",
        "--report_csv=yes",
        "--report-interval=1",
        "--time=2",
        "run",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("report_csv=yes\n"), "{out}");
    // dbpress's summary in text, not its CSV rows.
    assert!(out.contains("SQL statistics:"), "{out}");
}
