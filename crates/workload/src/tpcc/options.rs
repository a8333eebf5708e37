//! TPC-C's option rows: name, kind, default, help (their typed keys are in `keys.rs`), and
//! sysbench-tpcc's spelling of one. TPC-C also reads OLTP's `--tables` and
//! `--mysql-storage-engine`. The registry puts them into the option table (`registry::options`).

use dbpress_core::options::table::{Alias, Group, Kind, Spec};

/// The help section of TPC-C's options.
pub const GROUP: Group = Group::Workload("TPC-C workload options (tpcc)");

#[rustfmt::skip]
pub static OPTIONS: &[Spec] = &[
    Spec::new("warehouses", Kind::Int, "1", GROUP, "TPC-C warehouses to load (prepare) or to run against (run: default, all loaded); alias --scale"),
    Spec::new("use-fk", Kind::Bool, "off", GROUP, "add the ten foreign keys of clause 1.3 after the load (MySQL, PostgreSQL)"),
    Spec::new("home-warehouse", Kind::Str, "terminal", GROUP, "terminal: each connection keeps one home warehouse, connections spread evenly (the spec); random: a random warehouse per transaction (go-tpc, sysbench-tpcc, tpcc-mysql)"),
    Spec::new("max-tries", Kind::Int, "10", GROUP, "attempts per TPC-C transaction after deadlocks, lock wait timeouts or serialization failures (pgbench's meaning); retries are counted, not failed"),
    Spec::new("think-time", Kind::Str, "off", GROUP, "the spec's keying and think times between a terminal's transactions (on; bare = on), scaled by a factor (0.1 = a tenth), or off; give --threads = 10 x warehouses for the spec's ten terminals each").bare_on(),
    Spec::new("no-check", Kind::Bool, "off", GROUP, "skip the consistency check that ends a TPC-C prepare"),
    Spec::new("trx-level", Kind::Str, "", GROUP, "session isolation of the TPC-C connections: RR, RC or SER (sysbench-tpcc's --trx_level); empty = the server's default"),
    Spec::new("force-pk", Kind::Bool, "off", GROUP, "give HISTORY an auto-increment primary key id (sysbench-tpcc's --force_pk)"),
    Spec::new("enable-purge", Kind::Bool, "off", GROUP, "sysbench-tpcc's purge card (not supported: refused when on)"),
];

/// sysbench-tpcc's `--scale`.
pub static ALIASES: &[(&str, Alias)] = &[("scale", Alias::Rename("warehouses"))];
