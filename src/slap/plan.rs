//! What `dbpress slap` will run: the statements of every phase, split on the delimiter (or
//! `-a`'s generated SQL), each round's events, and `--only-print`'s listing of them.

use super::args::{slap_queries, statements_of, SlapArgs};
use dbpress_core::error::Result;
use dbpress_workload::slap::autogen;
use dbpress_workload::slap::tables::{SlapTables, StorageEngine};

/// Statements of every phase, split on the delimiter.
pub struct Plan {
    /// --create (or -a's table), --pre-query and --post-query.
    pub tables: SlapTables,
    pub queries: Vec<String>,
    /// mysqlslap's count of queries in one event: one pass over --query (its delimiter's
    /// split), or one generated query with -a.
    pub slap_queries: u64,
    /// -a: the generated table, rows and queries.
    pub auto: Option<autogen::AutoSql>,
}

impl Plan {
    pub fn new(a: &SlapArgs) -> Result<Plan> {
        let split = |v: &Option<String>| -> Result<Vec<String>> {
            v.as_deref()
                .map_or(Ok(Vec::new()), |v| statements_of(v, a.delimiter.as_deref()))
        };
        if let Some(g) = &a.auto {
            // A fixed seed, as mysqlslap's: every run generates the same rows and queries.
            let mut sql = autogen::AutoSql::new(g, a.driver.family(), 1)?;
            // The preload rows move into the plan: one copy, however many rows.
            let preload = std::mem::take(&mut sql.preload);
            return Ok(Plan {
                tables: SlapTables::new(
                    std::iter::once(sql.create.clone()).chain(preload).collect(),
                    split(&a.pre_query)?,
                    split(&a.post_query)?,
                )
                .generated()
                .no_drop(a.no_drop),
                queries: sql.queries.iter().map(|q| q.sql.clone()).collect(),
                slap_queries: 1,
                auto: Some(sql),
            });
        }
        let plan = Plan {
            tables: SlapTables::new(
                split(&a.create)?,
                split(&a.pre_query)?,
                split(&a.post_query)?,
            )
            .no_drop(a.no_drop),
            queries: split(&a.query)?,
            slap_queries: a
                .query
                .as_deref()
                .map_or(Ok(0), |q| slap_queries(q, a.delimiter.as_deref()))?
                as u64,
            auto: None,
        };
        if plan.queries.is_empty() {
            return Err(dbpress_core::error::usage("--query holds no statement"));
        }
        if plan.queries.len() > 250 {
            return Err(dbpress_core::error::usage(format!(
                "--query holds {} statements; dbpress slap takes at most 250 per list",
                plan.queries.len()
            )));
        }
        Ok(plan)
    }
}

/// Events in one round, in all and for each client: as in mysqlslap, every client runs its own
/// share of --number-of-queries (its queries: lines by default, or pieces between -F
/// delimiters; 31 on 3 clients run 30), here as whole passes over --query, or one -a query per
/// event; without it each client makes one pass (or -a's own count).
pub fn events(a: &SlapArgs, plan: &Plan, clients: u32) -> (u64, u64) {
    let per_client = match (&plan.auto, &a.auto) {
        (Some(sql), Some(g)) => match a.number_of_queries {
            0 => sql.per_client(g),
            n => n / u64::from(clients),
        },
        _ if a.number_of_queries == 0 => 1,
        _ => (a.number_of_queries / u64::from(clients)).div_ceil(plan.slap_queries.max(1)),
    };
    // At least one each: 0 events would mean no limit.
    let per_client = per_client.max(1);
    (per_client * u64::from(clients), per_client)
}

/// mysqlslap --only-print: what would run, for every engine and level; nothing connects.
pub fn print(a: &SlapArgs, plan: &Plan, engines: &[Option<&StorageEngine>]) {
    for &e in engines {
        if let Some(e) = e {
            dbpress_core::outln!("-- engine {}", e.name);
        }
        for s in plan.tables.create_for(e).iter().chain(&plan.tables.pre) {
            dbpress_core::outln!("{s};");
        }
    }
    for &c in &a.concurrency {
        dbpress_core::outln!(
            "-- {c} clients, {} list iteration(s) in all, {} round(s):",
            events(a, plan, c).0,
            a.iterations
        );
        for s in &plan.queries {
            dbpress_core::outln!("{s};");
        }
    }
    for s in &plan.tables.post {
        dbpress_core::outln!("{s};");
    }
    for t in plan.tables.created() {
        dbpress_core::outln!("DROP TABLE {t}; -- only if this run created it");
    }
}
