//! mysqlslap's `--only-print`: every statement the run would send, in its order and spelling,
//! nothing connected: for each engine, level and round, the schema's statements, --pre-query,
//! each client's queries (its `--commit` statements around them), --post-query, the drop.

use crate::slap::args::{statements, SlapArgs};
use crate::slap::plan::Plan;

/// The statements of the whole run, each with its `;` and a line of its own.
pub fn statements_of_run(a: &SlapArgs, plan: &Plan, schema: &str) -> String {
    let mut out = String::new();
    let mut say = |s: &str| {
        out.push_str(s);
        out.push_str(";\n");
    };
    let engines: Vec<Option<&dbpress_workload::slap::tables::StorageEngine>> =
        match a.engines.is_empty() {
            true => vec![None],
            false => a.engines.iter().map(Some).collect(),
        };
    let owns = a.auto.is_some() || a.create.is_some();
    let queries = client_queries(a, plan);
    for engine in engines {
        for &clients in &a.concurrency {
            for _ in 0..a.iterations {
                if owns {
                    if !a.no_drop {
                        say(&format!("DROP SCHEMA IF EXISTS `{schema}`"));
                    }
                    say(&format!("CREATE SCHEMA `{schema}`"));
                    say(&format!("use {schema}"));
                    for s in plan.tables.create_for(engine) {
                        say(&s.replace(" ENGINE = ", " Engine = "));
                    }
                }
                if a.commit > 0 {
                    // The main session's, before --pre-query.
                    say("SET AUTOCOMMIT=0");
                }
                plan.tables.pre.iter().for_each(|s| say(s));
                for _ in 0..clients {
                    client(a, &queries, clients, &mut say);
                }
                plan.tables.post.iter().for_each(|s| say(s));
                if owns && !a.no_drop {
                    say(&format!("DROP SCHEMA IF EXISTS `{schema}`"));
                }
            }
        }
    }
    out
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
