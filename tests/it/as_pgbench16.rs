//! Issue 42: dbpress speaking as pgbench 16 (a `pgbench` link with DBPRESS_PGBENCH_VERSION=16,
//! or `--compat=pgbench-16`) against pgbench 16.2 as scripts/pgbench16.sh unpacks it: the same
//! refused lines, reports, aborts and TAP-suite cases the tests of pgbench 15 hold dbpress to.
//! pgbench 16's help and options are 15's; its banner names 16.2, and an error read at
//! `\endpipeline` has no words (the pipeline-error case of the TAP cases).

use super::as_pgbench::{
    aborts_are_pgbenchs, refused_lines_are_pgbenchs, runs_print_pgbenchs_report,
    tap_cases_are_pgbenchs, Release,
};
use std::path::Path;

/// pgbench 16 as scripts/pgbench16.sh unpacks it; in CI its absence fails the test.
fn release_16() -> Option<Release> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/peers/pgbench-16/pgbench");
    if p.exists() {
        return Some(Release {
            peer: p,
            major: "16",
        });
    }
    if std::env::var("CI").is_ok_and(|v| v == "true" || v == "1") {
        panic!("pgbench 16 is required in CI: scripts/pgbench16.sh did not install it");
    }
    eprintln!("SKIPPED: no pgbench 16 (run scripts/pgbench16.sh)");
    None
}

#[test]
fn issue_42_as_pgbench_16_every_refused_line_is_pgbench_16s() {
    if let Some(r) = release_16() {
        refused_lines_are_pgbenchs(&r);
    }
}

#[test]
fn issue_42_as_pgbench_16_runs_print_pgbench_16s_report() {
    if let Some(r) = release_16() {
        runs_print_pgbenchs_report(&r);
    }
}

#[test]
fn issue_42_as_pgbench_16_aborts_are_pgbench_16s() {
    if let Some(r) = release_16() {
        aborts_are_pgbenchs(&r);
    }
}

#[test]
fn issue_42_as_pgbench_16_tap_suite_cases_are_pgbench_16s() {
    if let Some(r) = release_16() {
        tap_cases_are_pgbenchs(&r);
    }
}
