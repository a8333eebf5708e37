//! From a command line to the subcommand that runs it: a command with a grammar of its own is
//! picked by the first argument; anything else is read in sysbench's grammar, and its first word
//! picks a subcommand or names a workload.

use super::help;
use super::subcommand::{Call, Entry, Grammar, Subcommand};
use super::table::SUBCOMMANDS;
use crate::cli::{self, Invocation};
use dbpress_core::error::Result;
use dbpress_core::options::OptionValues;

/// The subcommand a word names, if any.
fn named(word: &str) -> Option<&'static Subcommand> {
    SUBCOMMANDS.iter().find(|c| c.name == Some(word))
}

/// The workloads' entry point: the row without a name, read in sysbench's grammar (the table's
/// test below keeps it so).
fn workloads() -> Entry {
    match SUBCOMMANDS
        .iter()
        .find(|c| c.name.is_none())
        .map(|c| &c.grammar)
    {
        Some(Grammar::Sysbench(main)) => *main,
        _ => unreachable!("the command table's workload row reads sysbench's grammar"),
    }
}

pub fn dispatch(args: &[String]) -> Result<u8> {
    // As sysbench, every line is sysbench's: a first word is a test, never dbpress's `slap`.
    let own_grammars = !dbpress_core::personality::is_sysbench();
    if let Some(Grammar::Own(main)) = args
        .first()
        .filter(|_| own_grammars)
        .and_then(|a| named(a))
        .map(|c| &c.grammar)
    {
        return main(&args[1..]);
    }
    let (main, words, opts): (Entry, Vec<String>, OptionValues) =
        match cli::parse_with(args, Some(&|w| named(w).is_some()))? {
            // `--version` and `--help` (or nothing at all) answer before any word is read.
            Invocation::Version => (help::version, Vec::new(), OptionValues::default()),
            Invocation::Help => (help::help, Vec::new(), OptionValues::default()),
            // As sysbench, a first word is a test, never one of dbpress's commands (`help`
            // included: sysbench has none by that name).
            Invocation::Words { words, opts } => match named(&words[0]).filter(|_| own_grammars) {
                Some(Subcommand {
                    grammar: Grammar::Sysbench(main),
                    ..
                }) => (*main, words[1..].to_vec(), opts),
                _ => (workloads(), words, opts),
            },
        };
    main(&Call {
        words: &words,
        opts: &opts,
        argv: args,
        table: SUBCOMMANDS,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_has_one_workload_row_in_sysbenchs_grammar_and_no_name_twice() {
        let nameless: Vec<_> = SUBCOMMANDS.iter().filter(|c| c.name.is_none()).collect();
        assert_eq!(nameless.len(), 1);
        assert!(matches!(nameless[0].grammar, Grammar::Sysbench(_)));
        let mut names: Vec<_> = SUBCOMMANDS.iter().filter_map(|c| c.name).collect();
        names.sort();
        let before = names.len();
        names.dedup();
        assert_eq!(names.len(), before, "a name twice in the command table");
        // Every row says how to call it in the general help.
        assert!(SUBCOMMANDS.iter().all(|c| !c.usage.is_empty()));
    }
}
