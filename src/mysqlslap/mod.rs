//! dbpress as mysqlslap (#42): invoked through a link named `mysqlslap` or `mariadb-slap` (or
//! `--compat=mysqlslap`), it reads MariaDB 10.11's mysqlslap command line with its option
//! reader's rules and words, runs the rounds as mysqlslap runs them — the schema made and
//! dropped around each, the same statements — and prints what mysqlslap prints: its
//! `Benchmark` blocks, `-vv`'s lines, `--csv`, `--only-print`, its help, version and errors,
//! with its exit codes.
//!
//! - `options`: mysqlslap's options (MariaDB's, in its order, and MySQL 8.0's)
//! - `getopt`: my_getopt's reading and messages
//! - `defaults`: the option files
//! - `help`: `--help` and `--version`
//! - `checks`: what mysqlslap refuses once the line is read, and the line as `dbpress slap`'s
//! - `only_print`: `--only-print`'s statements
//! - `password_prompt`: `-p` without a value, asked on the terminal (or stdin)

mod checks;
mod defaults;
mod getopt;
mod help;
mod only_print;
mod options;
mod password_prompt;

use crate::slap::{self, peer::Peer, plan::Plan};
use dbpress_core::error::{Error, Result};
use std::io::Write;

/// Run as mysqlslap: `program` is argv[0] as typed (its messages name it).
pub fn main(program: &str, args: &[String]) -> u8 {
    dbpress_core::options::table::install(crate::cli::options_table());
    let name = program_name(program);
    let code = match speak(&name, args) {
        Ok(code) => code,
        Err(e) => {
            let _ = dbpress_core::out::Stdout.flush();
            // An empty message: mysqlslap's own line was printed where it failed.
            if !e.message().is_empty() {
                eprintln!("{name}: {}", e.message());
            }
            match e {
                Error::Interrupted(_, code) => code,
                _ => 1,
            }
        }
    };
    let _ = dbpress_core::out::Stdout.flush();
    code
}

/// The name mysqlslap's messages use: argv[0] as typed through a link (`mysqlslap`,
/// `/usr/local/bin/mariadb-slap`), as mysqlslap's own; `mysqlslap` under `--compat`.
fn program_name(program: &str) -> String {
    let base = std::path::Path::new(program)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    match base.as_str() {
        "mysqlslap" | "mariadb-slap" => program.to_string(),
        _ => "mysqlslap".into(),
    }
}

fn speak(name: &str, args: &[String]) -> Result<u8> {
    let leading = defaults::leading(args);
    if let Some(lines) = defaults::missing_required(&leading).filter(|_| !leading.no_defaults) {
        eprint!("{lines}");
        return Ok(1);
    }
    let files = defaults::file_args(&leading);
    if leading.print {
        dbpress_core::out!("{}", defaults::print_defaults(name, &files, leading.rest));
        return Ok(0);
    }
    let read = match getopt::read(name, &files, leading.rest) {
        Ok(r) => r,
        Err(refused) => {
            eprint!("{}", refused.lines);
            return Ok(refused.code);
        }
    };
    eprint!("{}", read.notes);
    match read.stop {
        Some(getopt::Stop::Help) => {
            dbpress_core::out!("{}", help::help(name, &read));
            return Ok(0);
        }
        Some(getopt::Stop::Version) => {
            dbpress_core::out!("{}", help::version(name));
            return Ok(0);
        }
        None => {}
    }
    if let Some(refusal) = checks::refusal(name, &read) {
        eprintln!("{refusal}");
        return Ok(1);
    }
    let mut read = read;
    if read.ask_password {
        read.values.push(("password", password_prompt::ask()));
    }
    if read.operands > 2 {
        eprintln!("{name}: Too many arguments");
        return Ok(1);
    }
    let line = match checks::slap_line(name, &read) {
        Ok(line) => line,
        Err(refusal) => {
            eprintln!("{refusal}");
            return Ok(1);
        }
    };
    let mut a = slap::args::build(line.given, &line.pass)?;
    a.iterations = line.iterations;
    let plan = Plan::new(&a)?;
    if a.only_print {
        let text = only_print::statements_of_run(&a, &plan, &line.schema, read.verbose);
        dbpress_core::out!("{text}");
        return Ok(0);
    }
    let main_driver = checks::main_session_driver(&a)?;
    let mut peer = Peer::new(
        name,
        &line.schema,
        a.auto.is_some() || a.create.is_some(),
        a.no_drop,
        read.verbose,
        main_driver,
    );
    peer.commit = a.commit > 0;
    for l in only_print::auto_lines(&a) {
        peer.say(2, l);
    }
    let argv: Vec<String> = std::iter::once(name.to_string())
        .chain(args.iter().cloned())
        .collect();
    slap::run_as_peer(&a, &argv, plan, peer)
}
