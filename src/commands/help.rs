//! `dbpress help`, `dbpress help <workload>`, `dbpress list` and `dbpress --version`: the
//! general help built from the command table's usage lines and the option table.

use super::subcommand::{Call, Subcommand};
use dbpress_core::error::Result;
use dbpress_result::VERSION;

/// sysbench 1.0.20's `--help` as Debian builds it (its drivers mysql and pgsql), printed as
/// sysbench (#42): a wrapper that reads it finds the same lines.
const SYSBENCH_HELP: &str = include_str!("sysbench_help.txt");

/// `dbpress help [<workload>]`.
pub fn help(call: &Call<'_>) -> Result<u8> {
    match call.words.first() {
        Some(name) => workload(name),
        None if dbpress_core::personality::is_sysbench() => {
            dbpress_core::out!("{SYSBENCH_HELP}");
            Ok(0)
        }
        None => {
            dbpress_core::out!("{}", general(call.table));
            Ok(0)
        }
    }
}

/// `dbpress <workload> help`: its options, then those every command takes.
pub fn workload(name: &str) -> Result<u8> {
    dbpress_workload::registry::known(name)?;
    dbpress_core::out!("{}", workload_help(name));
    Ok(0)
}

/// `dbpress list`: every workload with its line of description.
pub fn list(_call: &Call<'_>) -> Result<u8> {
    let all = dbpress_workload::registry::list();
    // Names in one column, however long the longest.
    let w = all.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
    for (name, desc) in all {
        dbpress_core::outln!("  {name:<w$}  {desc}");
    }
    Ok(0)
}

/// `dbpress --version`, `dbpress version`.
pub fn version(_call: &Call<'_>) -> Result<u8> {
    if dbpress_core::personality::is_sysbench() {
        dbpress_core::outln!("{}", dbpress_core::personality::SYSBENCH_VERSION);
        return Ok(0);
    }
    dbpress_core::outln!("dbpress {VERSION}");
    Ok(0)
}

/// The general help: every subcommand's usage lines, examples, and the options every command
/// takes.
pub fn general(table: &[Subcommand]) -> String {
    let mut s =
        format!("dbpress {VERSION}: database pressure testing, sysbench-compatible\n\nUsage:\n");
    for line in table.iter().flat_map(|c| c.usage) {
        s.push_str(&format!("  {line}\n"));
    }
    s.push_str(
        "\nExamples:\n  dbpress oltp_read_write prepare --mysql-host=127.0.0.1 --tables=4 --table-size=100000\n  \
         dbpress oltp_read_write run --mysql-host=127.0.0.1 --tables=4 --table-size=100000 --threads=8 --time=60 --report-interval=1\n  \
         dbpress oltp_point_select run --db mysql://sbtest@127.0.0.1:3306/sbtest --rate=5000 --output=result.json\n\n",
    );
    s.push_str(&options_help(GENERAL_GROUPS));
    s
}

/// Option groups every command accepts, after a workload's own options in its help.
const GENERAL_GROUPS: &[dbpress_core::options::table::Group] = &[
    dbpress_core::options::table::Group::General,
    dbpress_core::options::table::Group::Rand,
    dbpress_core::options::table::Group::Db,
    dbpress_core::options::table::Group::Mysql,
    dbpress_core::options::table::Group::Pgsql,
    dbpress_core::options::table::Group::Sqlite,
    dbpress_core::options::table::Group::Output,
];

/// sysbench's `help` of one of its compiled-in tests: its first line, then the test's options
/// aligned as sysbench aligns them (#42).
pub fn sysbench_test_help(name: &str) -> String {
    format!(
        "{}\n\n{}",
        dbpress_core::personality::first_line(),
        dbpress_workload::machine::options::help_rows(name)
    )
}

fn workload_help(name: &str) -> String {
    let mut s = format!("{name} options:\n");
    let own = dbpress_workload::registry::help_group(name);
    s.push_str(&options_help(&[own]));
    s.push_str(&options_help(GENERAL_GROUPS));
    s
}

fn options_help(groups: &[dbpress_core::options::table::Group]) -> String {
    use dbpress_core::options::table::Kind;
    let table = dbpress_core::options::table::installed();
    let mut s = String::new();
    for &g in groups {
        s.push_str(&format!("{}:\n", g.title()));
        let mut specs: Vec<_> = table.rows().filter(|o| o.group == g).collect();
        specs.sort_by_key(|o| o.name);
        for o in specs {
            let shape = match o.kind {
                Kind::Bool => "[=on|off]",
                Kind::Int | Kind::Float => "=N",
                Kind::Str => "=STRING",
                Kind::List => "=[LIST,...]",
            };
            let flag = format!("--{}{shape}", o.name);
            let default = if o.default.is_empty() {
                String::new()
            } else {
                format!(" [{}]", o.default)
            };
            s.push_str(&format!("  {flag:<34} {}{default}\n", o.help));
        }
        s.push('\n');
    }
    s
}
