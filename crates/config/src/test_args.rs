//! For the tests: a workload's command line read as the commands read it, without the commands.

use crate::run_config::Command;
use dbpress_core::error::Result;
use dbpress_core::options::scan::{scan, Scanned};
use dbpress_core::options::OptionValues;

/// A workload's command line as its workload, command word and options.
pub fn parse_workload(args: &[String]) -> Result<(String, Command, OptionValues)> {
    match scan(args)? {
        Scanned::Options(opts, words, _) => Ok((
            words[0].clone(),
            Command::parse(&words[1]).expect("a command word"),
            opts,
        )),
        _ => panic!("not a workload's command line"),
    }
}
