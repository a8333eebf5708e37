//! dbpress: a database pressure-testing tool, sysbench-compatible. This crate is its commands;
//! the layers below are crates of their own (docs/ARCHITECTURE.md).
//!
//! - `commands`: the command table (every subcommand's name, help, grammar, entry point) and
//!   the dispatch from argv to a row
//! - `cli`: sysbench's word grammar over the option scanner (`dbpress <workload> <command>`)
//! - `run`: one measured run: readiness probe, header, the runner, the result assembled
//! - `sweep`: `--threads` lists, one run per level and the closing table
//! - `store_option`: `--store`, runs kept in the results store (`dbpress_store`)
//! - `slap`: `dbpress slap`, mysqlslap's command line (its workloads: `dbpress_workload::slap`)
//! - `script`: `dbpress script`, pgbench's command line (its workloads: `dbpress_workload::script`)
//! - `tpcc_mysql`: `dbpress tpcc-load` / `tpcc-start`, tpcc-mysql's command lines over `dbpress tpcc`
//!
//! `main_with_args` is the whole program; `main.rs` only maps its return value to the exit code,
//! so tests can drive the tool in-process as well as through the binary.

pub mod cli;
pub mod commands;
pub mod mysqlslap;
pub mod pgbench;
pub mod run;
pub mod script;
pub mod slap;
pub mod store_option;
pub mod sweep;
pub mod tpcc_mysql;

use std::io::Write;

pub use dbpress_result::VERSION;

/// Overwrite every password in the process's argument memory (what `ps` shows other users)
/// with `x`s, as the mysql client does: the same ones the result file's command line hides.
/// `args` are the arguments without the program's name, as read; `program` is that name (a
/// link named `tpcc_start` reads tpcc-mysql's `-p PASSWORD` as `dbpress tpcc-start` does).
pub fn hide_secrets_from_ps(program: &str, args: &[String]) {
    let mut hidden = dbpress_config::redact::redact_args(args);
    let link = std::path::Path::new(program)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned());
    if matches!(
        args.first().map(String::as_str),
        Some("tpcc-load" | "tpcc-start")
    ) || matches!(link.as_deref(), Some("tpcc_load" | "tpcc_start"))
    {
        hidden = tpcc_mysql::flags::hide_password(&hidden);
    }
    for (i, (a, h)) in args.iter().zip(&hidden).enumerate() {
        if let Some(range) = dbpress_core::argv::secret_range(a, h) {
            dbpress_core::argv::blank(i + 1, range);
        }
    }
}

/// The error line with each very long word (a 100 KB argument echoed back, say) cut to its
/// start and end and its length, so the line stays one line a person can read.
pub fn shorten_long_words(message: &str) -> String {
    const LONGEST: usize = 160;
    let mut out = String::with_capacity(message.len().min(4096));
    for (i, word) in message.split(' ').enumerate() {
        if i > 0 {
            out.push(' ');
        }
        let chars = word.chars().count();
        if chars <= LONGEST {
            out.push_str(word);
            continue;
        }
        let head: String = word.chars().take(60).collect();
        let tail: String = word.chars().skip(chars - 20).collect();
        out.push_str(&format!("{head}…[{} bytes]…{tail}", word.len()));
    }
    out
}

/// Run dbpress as `program` (argv[0]) with `args`: a link named after a peer tool, or
/// `--compat=NAME`, makes dbpress speak as that tool (#42). Returns the exit code.
pub fn main_with_program(program: &str, args: &[String]) -> u8 {
    let given = args;
    match commands::personality::of_invocation(program, args) {
        Ok((personality, args)) => {
            dbpress_core::personality::set(personality);
            match personality {
                dbpress_core::personality::Personality::Pgbench => {
                    let variable =
                        std::env::var(dbpress_core::personality::PGBENCH_VERSION_VARIABLE).ok();
                    match commands::personality::pgbench_release(given, variable.as_deref()) {
                        Ok(major) => dbpress_core::personality::set_pgbench_major(major),
                        Err(e) => {
                            eprintln!("dbpress: error: {}", e.message());
                            return 2;
                        }
                    }
                    return pgbench::main(program, &args);
                }
                dbpress_core::personality::Personality::Mysqlslap => {
                    return mysqlslap::main(program, &args)
                }
                dbpress_core::personality::Personality::TpccStart => {
                    return tpcc_mysql::as_start::main(program, &args)
                }
                dbpress_core::personality::Personality::TpccLoad => {
                    return tpcc_mysql::as_load::main(program, &args)
                }
                _ => {}
            }
            main_with_args(&args)
        }
        Err(e) => {
            eprintln!("dbpress: error: {}", e.message());
            e.exit_code()
        }
    }
}

/// Run dbpress with `args` (without the program name); returns the exit code.
pub fn main_with_args(args: &[String]) -> u8 {
    // The option table, every workload's rows with core's, for everything that reads options.
    dbpress_core::options::table::install(cli::options_table());
    let code = match commands::dispatch(args) {
        Ok(code) => code,
        Err(e) => report_error(&e),
    };
    let _ = dbpress_core::out::Stdout.flush();
    // Stdout failed along the way: the work (and its result file) is done; say how it ended.
    match dbpress_core::out::failure() {
        None => code,
        // The reader went away (`| head`): a Unix tool ends quietly, as if by SIGPIPE.
        Some(std::io::ErrorKind::BrokenPipe) if code == 0 => 141,
        Some(std::io::ErrorKind::BrokenPipe) => code,
        Some(kind) => {
            eprintln!(
                "dbpress: error: cannot write to standard output ({kind}): free space where it goes, or redirect it"
            );
            if code == 0 {
                2
            } else {
                code
            }
        }
    }
}

/// The error that ended the command, in one line, and its exit code. As sysbench: a bad
/// command line on stderr in its own words, anything else as its `FATAL:` line on stdout, and
/// 1 for both, as sysbench exits (a signal keeps its code).
fn report_error(e: &dbpress_core::error::Error) -> u8 {
    use dbpress_core::error::Error;
    let _ = dbpress_core::out::Stdout.flush();
    let message = shorten_long_words(e.message());
    if !dbpress_core::personality::is_sysbench() {
        eprintln!("dbpress: error: {message}");
        return e.exit_code();
    }
    // sysbench reads the test's options, the test and the command after its first line.
    if dbpress_core::personality::follows_first_line(&message)
        && !dbpress_core::personality::first_line_said()
        && dbpress_core::verbosity::notices()
    {
        dbpress_core::outln!("{}\n", dbpress_core::personality::first_line());
    }
    match e {
        Error::Usage(_) => eprintln!("{message}"),
        Error::Interrupted(_, code) => {
            eprintln!("{message}");
            return *code;
        }
        // sysbench says a bad option or command of a Lua script on stderr, as any bad line.
        Error::Failed(_) if dbpress_core::personality::said_without_fatal(&message) => {
            eprintln!("{message}")
        }
        // sysbench's one refusal on stdout without `FATAL:`.
        Error::Failed(_) if message.starts_with("Invalid value for verbosity: ") => {
            dbpress_core::outln!("{message}");
        }
        Error::Environment(_) | Error::Failed(_) => {
            dbpress_core::outln!("FATAL: {message}");
            let _ = dbpress_core::out::Stdout.flush();
        }
    }
    1
}
