//! A client's abort in pgbench's lines on stderr: a meta-command's error and the `client N
//! aborted in command K (set) of script S; …` line, or a statement's error as libpq words it.

use super::libpq_error;
use super::options::Protocol;
use dbpress_driver::DbErrorKind;
use dbpress_workload::script::client::END_OF_SCRIPT;
use dbpress_workload::script::parse::{Command, Script};
use dbpress_workload::script::pgbench_rules::{AbortNote, TryNote};

/// What says a run's aborts: pgbench names a prepared statement `P_N`, N counting the SQL
/// commands of all scripts in order.
pub fn sayer(protocol: Protocol, scripts: &[Script]) -> impl Fn(&AbortNote<'_>) + Send + Sync {
    let mut names = Vec::new();
    let mut n = 0;
    for s in scripts {
        let mut of_script = Vec::new();
        for c in &s.commands {
            of_script.push(n);
            if matches!(c, Command::Sql(_)) {
                n += 1;
            }
        }
        names.push(of_script);
    }
    let pipeline_ends: Vec<Vec<bool>> = scripts
        .iter()
        .map(|s| {
            let ends = s.commands.iter();
            ends.map(|c| matches!(c, Command::EndPipeline)).collect()
        })
        .collect();
    move |note| say(note, protocol, &names, &pipeline_ends)
}

fn say(note: &AbortNote<'_>, protocol: Protocol, names: &[Vec<usize>], ends: &[Vec<bool>]) {
    let a = note.abort;
    let (client, script, command) = (note.client, note.script, a.command - 1);
    // pgbench 16.2 reads a statement's error at `\endpipeline` from the pipeline's aborted
    // result, whose message is empty (15 and 17 print the server's error there).
    let at_pipeline_end = ends[script].get(command).copied().unwrap_or(false);
    if a.db.is_some() && at_pipeline_end && dbpress_core::personality::pgbench_major() == 16 {
        eprintln!(
            "pgbench: error: client {client} script {script} aborted in command {command} query 0: "
        );
        return;
    }
    let sent = a.sent.as_deref().map(|(t, ended)| (t.as_str(), *ended));
    let aborted = format!(
        "pgbench: error: client {client} script {script} aborted in command {command} query 0:"
    );
    match &a.db {
        // `\gset`/`\aset` found the wrong number of rows, or a column that cannot be a
        // variable (pgbench's line about its name comes first).
        Some(e) if e.kind == DbErrorKind::Input => {
            let (before, last) = e.message.rsplit_once('\n').unwrap_or(("", &e.message));
            if !before.is_empty() {
                eprintln!("pgbench: error: {before}");
            }
            eprintln!(
                "pgbench: error: client {client} script {script} command {command} query 0: {last}"
            )
        }
        None if a.what == END_OF_SCRIPT => {
            eprintln!("pgbench: error: client {client} aborted: {}", a.message)
        }
        // pgbench logs a failed prepare and then runs the statement it could not prepare.
        Some(e) if a.unprepared && protocol == Protocol::Prepared => {
            let n = names[script].get(command).copied().unwrap_or(0);
            eprintln!("pgbench: error: {}", libpq_error::message(e, sent));
            eprintln!("{aborted} ERROR:  prepared statement \"P_{n}\" does not exist");
        }
        Some(e) => eprintln!("{aborted} {}", libpq_error::message(e, sent)),
        None => {
            if !a.message.is_empty() {
                eprintln!("pgbench: error: {}", a.message);
            }
            let why = a.why.unwrap_or(match a.what {
                "set" | "if" | "elif" => "evaluation of meta-command failed",
                _ => "execution of meta-command failed",
            });
            eprintln!(
                "pgbench: error: client {client} aborted in command {command} ({}) of script {script}; {why}",
                a.what
            );
        }
    }
}

/// `--verbose-errors`: each try that failed with an error pgbench retries, and what came of it.
pub fn say_try(note: &TryNote<'_>, max_tries: u32) {
    let a = note.abort;
    let c = note.client;
    if let Some(e) = &a.db {
        let sent = a.sent.as_deref().map(|(t, ended)| (t.as_str(), *ended));
        eprintln!(
            "pgbench: client {c} got an error in command {} (SQL) of script {}; {}",
            a.command - 1,
            note.script,
            libpq_error::message(e, sent)
        );
    }
    let of = if max_tries == 0 {
        String::new()
    } else {
        format!("/{max_tries}")
    };
    if note.failed {
        eprintln!(
            "pgbench: client {c} ends the failed transaction (try {}{of})",
            note.tries
        );
    } else {
        eprintln!(
            "pgbench: client {c} repeats the transaction after the error (try {}{of})",
            note.tries
        );
    }
}
