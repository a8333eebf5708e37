//! What the command table holds for each subcommand: the word that picks it, its lines of the
//! general help, and the grammar its arguments are read in, with where it starts.

use dbpress_core::error::Result;
use dbpress_core::options::OptionValues;

pub struct Subcommand {
    /// The word that picks it; None for the workloads, which any other word names.
    pub name: Option<&'static str>,
    /// Its lines under "Usage:" in `dbpress help`.
    pub usage: &'static [&'static str],
    pub grammar: Grammar,
}

/// How a subcommand's arguments are read, and the entry point that gets them.
pub enum Grammar {
    /// Its own grammar (mysqlslap's flags, pgbench's, a list of files): it gets every argument
    /// after its name, and is picked only as the first argument.
    Own(fn(&[String]) -> Result<u8>),
    /// sysbench's grammar (options anywhere, read by `cli`): it gets the words after its name.
    Sysbench(Entry),
}

/// Where a subcommand in sysbench's grammar starts.
pub type Entry = fn(&Call<'_>) -> Result<u8>;

/// A command line in sysbench's grammar, as a subcommand gets it.
pub struct Call<'a> {
    /// The words after the subcommand's name; for the workloads, every word (`oltp_read_write
    /// run`).
    pub words: &'a [String],
    pub opts: &'a OptionValues,
    /// The whole command line, kept (passwords redacted) in the result file.
    pub argv: &'a [String],
    /// Every subcommand, for the general help.
    pub table: &'static [Subcommand],
}
