//! mysqlslap's `--version` line and `--help` text, as MariaDB 10.11's prints them: the option
//! list (help.txt, its words) and the table of every variable's value after the options read
//! before `--help`.

use super::getopt::Read;
use super::options::{Var, MARIADB};

/// The mysqlslap whose text dbpress speaks: Debian 12's MariaDB 10.11 client.
const DISTRIB: &str = "Ver 1.0 Distrib 10.11.19-MariaDB, for debian-linux-gnu (x86_64)";

/// `--version`, and `--help`'s first line.
pub fn version(program: &str) -> String {
    format!("{program}  {DISTRIB}\n")
}

/// `--help`: the first line, the option list and the variables' values.
pub fn help(program: &str, read: &Read) -> String {
    let mut out = version(program);
    out.push_str(&include_str!("help.txt").replace("Usage: PROGRAM", &format!("Usage: {program}")));
    out.push_str(
        "Variables (--variable-name=value)\n\
         and boolean options {FALSE|TRUE}      Value (after reading options)\n\
         ------------------------------------- ------------------------------------\n",
    );
    for o in MARIADB {
        if matches!(o.var, Var::Action | Var::Hidden) {
            continue;
        }
        let value = match o.var {
            Var::Counted => None,
            _ => read.get(o.long).or(o.default),
        };
        out.push_str(&format!(
            "{:<38}{}\n",
            o.long,
            value.unwrap_or("(No default value)")
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_shows_the_values_read() {
        let args: Vec<String> = ["-c", "5", "--no-drop", "-i", "3K"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let r = super::super::getopt::read("mysqlslap", &[], &args).unwrap();
        let h = help("mysqlslap", &r);
        assert!(h.starts_with("mysqlslap  Ver 1.0 Distrib 10.11.19-MariaDB"));
        assert!(h.contains("\nUsage: mysqlslap [OPTIONS]\n"));
        for line in [
            "concurrency                           5\n",
            "iterations                            3072\n",
            "no-drop                               TRUE\n",
            "auto-generate-sql-unique-query-number 10\n",
            "delimiter                             \n\n",
            "verbose                               (No default value)\n",
        ] {
            assert!(h.contains(line), "{line:?}");
        }
        assert!(h.ends_with("user                                  (No default value)\nverbose                               (No default value)\n"));
    }
}
