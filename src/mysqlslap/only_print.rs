//! mysqlslap's `--only-print`: every statement the run would send, in its order and spelling,
//! nothing connected: for each engine, level and round, the schema's statements, --pre-query,
//! each client's queries (its `--commit` statements around them), --post-query; the drop after
//! the engine's last level; with
//! `-vv`/`-vvv` mysqlslap's progress lines among them. `--pre-system`/`--post-system` run
//! where a round's would, before the text is printed (as mysqlslap's buffered stdout in a pipe
//! comes after the commands' own output).

use crate::slap::args::{statements, SlapArgs};
use crate::slap::plan::Plan;
use crate::slap::system_command::{self, Voice};

/// The statements of the whole run, each with its `;` and a line of its own, and the lines
/// mysqlslap's `-v` count (`verbose`) adds.
pub fn statements_of_run(a: &SlapArgs, plan: &Plan, schema: &str, verbose: u32) -> String {
    let mut out = String::new();
    let mut line = |level: u32, s: &str| {
        if verbose >= level {
            out.push_str(s);
            out.push('\n');
        }
    };
    let engines: Vec<Option<&dbpress_workload::slap::tables::StorageEngine>> =
        match a.engines.is_empty() {
            true => vec![None],
            false => a.engines.iter().map(Some).collect(),
        };
    let owns = a.auto.is_some() || a.create.is_some();
    let queries = client_queries(a, plan);
    for l in auto_lines(a) {
        line(2, l);
    }
    line(2, "Parsing engines to use.");
    for engine in engines {
        line(2, "Starting Concurrency Test");
        for &clients in &a.concurrency {
            for _ in 0..a.iterations {
                if owns {
                    if !a.no_drop {
                        line(0, &format!("DROP SCHEMA IF EXISTS `{schema}`;"));
                    }
                    line(2, "Loading Pre-data");
                    line(0, &format!("CREATE SCHEMA `{schema}`;"));
                    line(0, &format!("use {schema};"));
                    for s in plan.tables.create_for(engine) {
                        line(0, &format!("{};", s.replace(" ENGINE = ", " Engine = ")));
                    }
                }
                line(2, "Generating primary key list");
                if a.commit > 0 {
                    // The main session's, before --pre-query.
                    line(0, "SET AUTOCOMMIT=0;");
                }
                plan.tables
                    .pre
                    .iter()
                    .for_each(|s| line(0, &format!("{s};")));
                if let Some(cmd) = &a.pre_system {
                    system_command::run("--pre-system", cmd, Voice::Mysqlslap);
                }
                for _ in 0..clients {
                    line(3, "connected!");
                    client(a, &queries, clients, &mut |s| line(0, &format!("{s};")));
                }
                plan.tables
                    .post
                    .iter()
                    .for_each(|s| line(0, &format!("{s};")));
                if let Some(cmd) = &a.post_system {
                    system_command::run("--post-system", cmd, Voice::Mysqlslap);
                }
            }
            line(2, "Generating stats");
        }
        // The schema stays from round to round (the next one drops it first) until the
        // engine's last level is done.
        if owns && !a.no_drop {
            line(0, &format!("DROP SCHEMA IF EXISTS `{schema}`;"));
        }
    }
    out
}

/// `-a`'s lines at `-vv`, before the run's.
pub fn auto_lines(a: &SlapArgs) -> Vec<&'static str> {
    use dbpress_workload::slap::autogen::LoadType;
    let Some(g) = &a.auto else {
        return Vec::new();
    };
    let mut lines = vec![
        "Building Create Statements for Auto",
        "Building Query Statements for Auto",
    ];
    match g.load {
        LoadType::Read => lines.push("Generating SELECT Statements for Auto"),
        LoadType::Key => lines.push("Generating SELECT for keys Statements for Auto"),
        LoadType::Write => lines.push("Generating INSERT Statements for Auto"),
        LoadType::Mixed | LoadType::Update => {}
    }
    lines
}

/// mysqlslap's queries: the pieces between delimiters (a line each by default), or -a's list.
fn client_queries(a: &SlapArgs, plan: &Plan) -> Vec<String> {
    match (&plan.auto, &a.query) {
        // Nothing is connected, so there are no keys: mysqlslap prints this one for each.
        (Some(sql), _) => sql
            .queries
            .iter()
            .map(|q| {
                q.sql
                    .replace("=  ?", "=  '796c4422-1d94-102a-9d6d-00e0812d'")
            })
            .collect(),
        (None, Some(q)) => {
            statements(q, a.delimiter.as_deref().unwrap_or("\n")).unwrap_or_default()
        }
        (None, None) => Vec::new(),
    }
}

/// One client's statements: its share of the queries, cycling through the list, with
/// `--commit`'s statements.
fn client(a: &SlapArgs, queries: &[String], clients: u32, say: &mut impl FnMut(&str)) {
    let count = match (a.number_of_queries, &a.auto) {
        (0, Some(g)) => g.execute_number.unwrap_or(queries.len() as u64),
        (0, None) => queries.len() as u64,
        (n, _) => n / u64::from(clients),
    };
    if a.commit > 0 {
        say("SET AUTOCOMMIT=0");
    }
    for i in 0..count as usize {
        if let Some(q) = queries.get(i % queries.len().max(1)) {
            say(q);
        }
        if a.commit > 0 && (i as u64 + 1) % a.commit == 0 {
            say("COMMIT");
        }
    }
    if a.commit > 0 {
        say("COMMIT");
    }
}
