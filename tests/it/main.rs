//! One integration-test binary; modules by surface.
//! Tests that need MariaDB take `common::server()`, PostgreSQL `engines::pg_server()`: in CI
//! (`CI=true`) an unreachable server is a failure, elsewhere the test prints SKIPPED with how to
//! start it.

mod common;

/// Issue 42: dbpress as pgbench (a link), against PostgreSQL's pgbench on the same lines.
mod as_mysqlslap;
mod as_pgbench;
mod as_pgbench16;
mod as_pgbench17;
mod as_tpcc_load;
mod as_tpcc_start;
/// Command-line behaviour that needs no server.
mod cli;
/// Client certificates: X509 accounts on MariaDB, `cert` logins on PostgreSQL.
mod client_cert;
/// dbpress compare: results side by side, their ratios and their differences.
mod compare;
/// MySQL's compressed protocol: the same statements, fewer bytes.
mod compression;
/// The same driver tests against every engine.
mod conformance;
/// Issue 42: pgbench's script language against PostgreSQL's own pgbench.
mod dropin_pgbench;
/// Issue 42: dbpress as sysbench (a link, or --compat), its text against the real one's.
mod dropin_sysbench;
mod dropin_sysbench_reading;
/// The dry-run driver: dbpress's own machinery without a server.
mod dry_run;
/// Engines under test for the conformance suite, each with an independent client.
mod engines;
/// Issue 33: experiments from a plan file, settings changed and put back, resumed, reported.
mod experiment;
/// JSON results: schema, report re-rendering.
mod export;
/// Runs whose events the server stops answering: --forced-shutdown, and the wait without it.
mod forced_shutdown;
/// The code's own imports: no circles, layers one way (no server).
mod layers;
/// Issue 41: sysbench Lua scripts in embedded LuaJIT, on MariaDB and in dry run.
mod lua;
/// Issue 41: a Lua script's command line: its options, help, commands, and where it is found.
mod lua_cmdline;
/// Issue 41: a Lua script as an experiment's workload.
mod lua_experiment;
/// Issue 41: sysbench's C functions through `ffi.C`, the 0.5 layer, sysbench.histogram.
mod lua_ffi;
/// Issue 41: every stock sysbench script in Lua makes the server do what sysbench makes it do.
mod lua_parity;
/// Issue 41: --rate and --warmup-time on a Lua script.
mod lua_rate;
/// Issue 41: a Lua script's report hooks, sysbench's reporters, its output's order.
mod lua_report;
/// Issue 41: sysbench.sql's results, bulk inserts and error classes, against the real sysbench.
mod lua_sql;
/// Issue 41: sysbench's tests of its Lua API, as scenarios of our own under both tools.
mod lua_sysbench_api;
/// Issue 41: sysbench's tests of its commands and command line, as scenarios of our own.
mod lua_sysbench_cmd;
/// Issue 41: Percona's sysbench-tpcc, unchanged, under dbpress.
mod lua_tpcc;
/// Issue 42: sysbench's compiled-in test of the machine (cpu).
mod machine_tests;
/// Against a real MariaDB: workloads, parity with the server's counters, errors, signals.
mod mariadb;
/// The network interface under the sessions, against the server's byte counters.
mod network;
/// Every workload's statement mix, counted by the server, against sysbench's.
mod parity;
/// Against a real PostgreSQL: server counters, SQLSTATEs, lost sessions, credentials.
mod pgsql;
/// A MariaDB of a test's own, for tests that kill or stop a server.
mod private_server;
/// pgbench-style scripts: parsing, built-ins on every engine, bound variables.
mod script;
/// Issue 47: no test reconfigures, kills or locks a shared server (checked over the sources).
mod shared_servers;
/// dbpress slap: mysqlslap one-liners on every engine.
mod slap;
/// Issue 47: text mode on a server whose sql_mode has NO_BACKSLASH_ESCAPES (a server of its own).
mod sql_mode;
/// Embedded SQLite: zero-setup default, options, bad input.
mod sqlite;
/// Issue 43: no stall hidden by an interval stretched over missed ticks, nor an overrun unsaid.
mod stalls;
/// Issue 33: the results store (`--store`, `dbpress results`, `compare` of stored runs).
mod store;
/// Issue 48: one stop signal ends a run whose sessions the server never answers.
mod stuck;
/// Thread sweeps: steps, table, JSON, a refused level.
mod sweep;
/// The real sysbench 1.0.20, the reference the Lua tests compare with.
mod sysbench_ref;
/// CSV and Markdown: rows that add up to the JSON result they come from.
mod tables;
/// TPC-C on every engine: load, run, consistency, and the database's own counts.
mod tpcc;
/// Issue 34: stopping, time limits and hangs when run unattended.
mod unattended;
