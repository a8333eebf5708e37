//! Every subcommand of dbpress in one table: its name, its help lines, its grammar and its
//! entry point. A new command (`tpcc`, `experiment`, `results`) is one more row here.

use super::subcommand::{Grammar, Subcommand};
use super::{compare, experiment, help, install_links, report, results, workload};

pub static SUBCOMMANDS: &[Subcommand] = &[
    Subcommand {
        name: None,
        usage: &[
            "dbpress <workload> prepare|run|cleanup|check|prewarm [options]",
            "dbpress <workload> run --threads=1,2,4,8 [options]   (a thread sweep)",
        ],
        grammar: Grammar::Sysbench(workload::main),
    },
    Subcommand {
        name: Some("slap"),
        usage: &["dbpress slap [mysqlslap options]   (your own SQL; dbpress slap --help)"],
        grammar: Grammar::Own(crate::slap::main),
    },
    Subcommand {
        name: Some("script"),
        usage: &["dbpress script prepare|run|cleanup [pgbench options]   (dbpress script --help)"],
        grammar: Grammar::Own(crate::script::main),
    },
    Subcommand {
        name: Some("tpcc-load"),
        usage: &["dbpress tpcc-load -h -P -d -u -p -w [-l -m -n]   (tpcc-mysql's tpcc_load line)"],
        grammar: Grammar::Own(crate::tpcc_mysql::load_main),
    },
    Subcommand {
        name: Some("tpcc-start"),
        usage: &["dbpress tpcc-start -h -P -d -u -p -w -c -r -l -i   (tpcc-mysql's tpcc_start line)"],
        grammar: Grammar::Own(crate::tpcc_mysql::start_main),
    },
    Subcommand {
        name: Some("list"),
        usage: &["dbpress list"],
        grammar: Grammar::Sysbench(help::list),
    },
    Subcommand {
        name: Some("help"),
        usage: &["dbpress help <workload>"],
        grammar: Grammar::Sysbench(help::help),
    },
    Subcommand {
        name: Some("report"),
        usage: &["dbpress report FILE [--output-format=text|json|csv|markdown|html]"],
        grammar: Grammar::Sysbench(report::call),
    },
    Subcommand {
        name: Some("compare"),
        usage: &[
            "dbpress compare BASELINE.json OTHER.json… [--metrics=qps,p95]   (results side by side)",
        ],
        grammar: Grammar::Own(compare::main),
    },
    Subcommand {
        name: Some("experiment"),
        usage: &["dbpress experiment check|run|restore|report PLAN.toml   (a whole study from one plan file)"],
        grammar: Grammar::Own(experiment::main),
    },
    Subcommand {
        name: Some("results"),
        usage: &["dbpress results list|show ID|export ID [--store=PATH]   (runs kept with --store)"],
        grammar: Grammar::Own(results::main),
    },
    Subcommand {
        name: Some("install-links"),
        usage: &["dbpress install-links DIR   (links named sysbench, pgbench, mysqlslap, tpcc_load, tpcc_start)"],
        grammar: Grammar::Own(install_links::main),
    },
    Subcommand {
        name: Some("version"),
        usage: &["dbpress --version"],
        grammar: Grammar::Sysbench(help::version),
    },
];
