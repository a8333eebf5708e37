//! pgbench's `-d` for one client: the lines it says on stderr as it works.

use crate::script::parse::{Command, Script};

/// pgbench's `-d`: the lines a client says on stderr as it works (which script, each
/// meta-command, each statement sent, prepared and received).
pub struct Debug {
    pub client: u32,
    /// Per script, pgbench's number of its first SQL command's prepared statement (`P_n`
    /// counts the SQL commands of all scripts in order).
    pub first_statement: Vec<usize>,
}

impl Debug {
    pub fn new(client: u32, scripts: &[Script]) -> Debug {
        let mut first_statement = Vec::with_capacity(scripts.len());
        let mut n = 0;
        for s in scripts {
            first_statement.push(n);
            n += s.sql().count();
        }
        Debug {
            client,
            first_statement,
        }
    }

    pub(super) fn say(&self, what: &str) {
        eprintln!("pgbench: client {} {what}", self.client);
    }

    /// A meta-command's line: its name and words, as pgbench keeps them.
    pub(super) fn meta(&self, c: &Command, shown: Option<&String>) {
        let words = match c {
            Command::Set(name, _) => format!("\\set {name}"),
            Command::If { .. } => "\\if".into(),
            Command::Elif { .. } => "\\elif".into(),
            Command::Else { .. } => "\\else".into(),
            Command::EndIf => "\\endif".into(),
            Command::Sql(_) => return,
            _ => shown.map_or_else(String::new, |s| {
                s.split_whitespace().collect::<Vec<_>>().join(" ")
            }),
        };
        self.say(&format!("executing {words}"));
    }
}
