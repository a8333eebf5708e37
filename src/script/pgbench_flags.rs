//! pgbench's options that `dbpress script` does not take as they are: those that change nothing
//! here (accepted with a notice) and those it cannot honour (refused in one line that says what
//! to use instead), so a pasted pgbench command line never stops on a bare "unknown option".

/// pgbench's option names: short and long spelling.
type Names = &'static [&'static str];

/// Options without effect in dbpress, with the notice that says why.
const INERT: &[(Names, &str)] = &[
    (
        &["--progress-timestamp"],
        "--progress-timestamp: interval lines are sysbench's, timed from the start of the run",
    ),
    (
        &["--failures-detailed"],
        "--failures-detailed: errors are always counted by SQLSTATE or error code",
    ),
    (
        &["--verbose-errors"],
        "--verbose-errors: a failed statement that stops the run is always reported with the server's message",
    ),
    (
        &["--exit-on-abort"],
        "--exit-on-abort: any error outside the ignore list already stops the run",
    ),
    (&["-d", "--debug"], "--debug: not supported, ignored"),
];

/// Options dbpress cannot honour, with the reason and what to use instead.
const REFUSED: &[(Names, &str)] = &[
    (
        &["-l", "--log", "--log-prefix", "--sampling-rate", "--aggregate-interval"],
        "pgbench's per-transaction logs (-l, --log-prefix, --sampling-rate, --aggregate-interval) are not written: --output=FILE keeps every 1 s interval and the run's HDR latency histograms",
    ),
    (
        &["-C", "--connect"],
        "pgbench's -C/--connect (a new connection per transaction) is not supported: dbpress keeps one session per client",
    ),
    (
        &["-i", "--initialize"],
        "pgbench's -i (build the pgbench tables) is `dbpress script prepare [-s SCALE]`",
    ),
    (
        &[
            "-I",
            "--init-steps",
            "-F",
            "--fillfactor",
            "--foreign-keys",
            "--partitions",
            "--partition-method",
            "--unlogged-tables",
            "--tablespace",
            "--index-tablespace",
            "-q",
            "--quiet",
        ],
        "pgbench's -i options (-I, -F, --foreign-keys, --partitions, --unlogged-tables, --tablespace, -q) are not supported: `dbpress script prepare -s SCALE` builds pgbench's default tables, or run your own setup with `dbpress script prepare -f FILE`",
    ),
    (
        &["-v", "--vacuum-all"],
        "pgbench's -v/--vacuum-all is not supported: run VACUUM ANALYZE on the tables before the run (prepare already vacuums the four pgbench tables)",
    ),
];

/// The notice for an option accepted without effect, if `flag` is one.
pub fn inert(flag: &str) -> Option<&'static str> {
    find(INERT, flag)
}

/// Why `flag` is refused, if it is.
pub fn refused(flag: &str) -> Option<&'static str> {
    find(REFUSED, flag)
}

fn find(table: &[(Names, &'static str)], flag: &str) -> Option<&'static str> {
    table
        .iter()
        .find(|(names, _)| names.contains(&flag))
        .map(|(_, text)| *text)
}

/// pgbench's limit on the scripts of one run (its MAX_SCRIPTS).
pub const MAX_SCRIPTS: usize = 128;

/// A whole number of 1 or more, or pgbench's message for `what` (`-j`, `-P`).
pub fn positive_int(v: &str, what: &str) -> Result<(), String> {
    match v.parse::<u64>() {
        Ok(n) if n >= 1 => Ok(()),
        _ => Err(format!(
            "invalid {what}: \"{v}\": expected a whole number of 1 or more, as pgbench requires"
        )),
    }
}

/// A number above 0, or pgbench's message for `what` (`-R`, `-L`).
pub fn positive_number(v: &str, what: &str) -> Result<(), String> {
    match v.parse::<f64>() {
        Ok(x) if x > 0.0 && x.is_finite() => Ok(()),
        _ => Err(format!(
            "invalid {what}: \"{v}\": expected a number above 0, as pgbench requires"
        )),
    }
}

/// pgbench's `--random-seed=time|rand|N` as dbpress's `--rand-seed` (0: drawn at start).
pub fn random_seed(v: &str) -> Result<String, String> {
    match v {
        "time" | "rand" => Ok("0".into()),
        n if n.parse::<u64>().is_ok() => Ok(n.into()),
        _ => Err(format!(
            "invalid value '{v}' for --random-seed: use time, rand or a whole number"
        )),
    }
}

/// pgbench's `--max-tries=N`: dbpress retries an ignorable error until the event succeeds or
/// the run ends, which is pgbench's 0 (unlimited); other values are refused.
pub fn max_tries(v: &str) -> Result<(), String> {
    match v {
        "0" => Ok(()),
        _ => Err(format!(
            "--max-tries={v} is not supported: dbpress retries an ignorable error (deadlock, serialization failure) until the transaction succeeds or the run ends, as pgbench's --max-tries=0; to have such errors stop the run instead, empty the ignore list (--pgsql-ignore-errors= or --mysql-ignore-errors=)"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_spelling_is_found_and_other_flags_are_not() {
        // -L is --latency-limit now.
        assert!(refused("-L").is_none() && refused("--latency-limit").is_none());
        assert!(refused("--aggregate-interval")
            .unwrap()
            .contains("--output"));
        assert!(inert("--progress-timestamp").is_some());
        assert!(inert("--exit-on-abort").is_some());
        for ours in ["-c", "-T", "-S", "--rate", "-L5"] {
            assert!(refused(ours).is_none() && inert(ours).is_none(), "{ours}");
        }
        assert_eq!(random_seed("time").unwrap(), "0");
        assert_eq!(random_seed("42").unwrap(), "42");
        assert!(random_seed("soon").is_err());
        assert!(max_tries("0").is_ok() && max_tries("1").is_err());
    }
}
