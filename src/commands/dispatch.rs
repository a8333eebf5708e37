//! From a command line to the subcommand that runs it: a command with a grammar of its own is
//! picked by the first argument; anything else is read in sysbench's grammar, and its first word
//! picks a subcommand or names a workload.

use super::help;
use super::subcommand::{Call, Grammar, Subcommand};
use super::table::SUBCOMMANDS;
use crate::cli::{self, Invocation};
use dbpress_core::error::Result;

/// The subcommand a word names, if any.
fn named(word: &str) -> Option<&'static Subcommand> {
    SUBCOMMANDS.iter().find(|c| c.name == Some(word))
}

/// The workloads' row: the one without a name.
fn workloads() -> &'static Subcommand {
    SUBCOMMANDS
        .iter()
        .find(|c| c.name.is_none())
        .expect("the command table has a row for the workloads")
}

pub fn dispatch(args: &[String]) -> Result<u8> {
    if let Some(Grammar::Own(main)) = args.first().and_then(|a| named(a)).map(|c| &c.grammar) {
        return main(&args[1..]);
    }
    match cli::parse(args)? {
        Invocation::Version => {
            println!("dbpress {}", dbpress_measure::result::VERSION);
            Ok(0)
        }
        Invocation::Help => {
            print!("{}", help::general(SUBCOMMANDS));
            Ok(0)
        }
        Invocation::Words { words, opts } => {
            let (command, rest) = match named(&words[0]) {
                Some(c) if matches!(c.grammar, Grammar::Sysbench(_)) => (c, &words[1..]),
                _ => (workloads(), &words[..]),
            };
            let Grammar::Sysbench(main) = command.grammar else {
                unreachable!("only rows in sysbench's grammar are picked here")
            };
            main(&Call {
                words: rest,
                opts: &opts,
                argv: args,
                table: SUBCOMMANDS,
            })
        }
    }
}
