//! Who is invoked (#42): a link named after a peer tool (`sysbench`, `pgbench`, `mysqlslap`,
//! `mariadb-slap`, `tpcc_start`, `tpcc_load`), or `--compat=NAME` anywhere on the line, picks
//! the personality dbpress speaks with.

use dbpress_core::error::{usage, Result};
use dbpress_core::personality::{Personality, PEERS};

/// Every name `install-links` makes a link under.
pub fn link_names() -> Vec<&'static str> {
    PEERS.iter().map(|(n, _)| *n).collect()
}

/// The personality `program` (argv[0]) and a `--compat=NAME` in `args` give, and the
/// arguments dbpress then reads: `--compat` taken out.
pub fn of_invocation(program: &str, args: &[String]) -> Result<(Personality, Vec<String>)> {
    let mut rest = Vec::with_capacity(args.len() + 1);
    let mut compat = None;
    for a in args {
        match a.strip_prefix("--compat=") {
            Some(name) => compat = Some(name.to_string()),
            None => rest.push(a.clone()),
        }
    }
    if let Some(name) = compat {
        let p = Personality::named(release_of(&name).0)
            .filter(|p| *p == Personality::Pgbench || release_of(&name).1.is_none())
            .ok_or_else(|| unknown_peer(&name))?;
        return Ok((p, rest));
    }
    Ok((Personality::of_program(program), rest))
}

/// A `--compat` name and the release it asks for: `pgbench-17` is pgbench 17.
fn release_of(name: &str) -> (&str, Option<&str>) {
    match name.split_once('-') {
        Some((peer, release)) if release.bytes().all(|b| b.is_ascii_digit()) => {
            (peer, Some(release))
        }
        _ => (name, None),
    }
}

/// The pgbench release to speak as: `--compat=pgbench-NN` in `args`, else the variable's value
/// (`DBPRESS_PGBENCH_VERSION`, for a link), else 15.
pub fn pgbench_release(args: &[String], variable: Option<&str>) -> Result<u8> {
    use dbpress_core::personality::{PGBENCH_RELEASES, PGBENCH_VERSION_VARIABLE};
    let compat = args
        .iter()
        .filter_map(|a| a.strip_prefix("--compat="))
        .next_back()
        .and_then(|n| release_of(n).1);
    let (asked, how) = match (compat, variable) {
        (Some(r), _) => (r, format!("--compat=pgbench-{r}")),
        (None, Some(v)) => (v, format!("{PGBENCH_VERSION_VARIABLE}={v}")),
        (None, None) => return Ok(PGBENCH_RELEASES[0].0),
    };
    let known: Vec<String> = PGBENCH_RELEASES
        .iter()
        .map(|(m, _)| m.to_string())
        .collect();
    asked
        .trim()
        .parse::<u8>()
        .ok()
        .filter(|m| PGBENCH_RELEASES.iter().any(|(k, _)| k == m))
        .ok_or_else(|| {
            let (last, first) = known.split_last().expect("releases");
            usage(format!(
                "{how}: dbpress speaks as pgbench {} or {last}: give one of them",
                first.join(", ")
            ))
        })
}

fn unknown_peer(name: &str) -> dbpress_core::error::Error {
    let known: Vec<&str> = PEERS.iter().map(|(n, _)| *n).collect();
    usage(format!(
        "--compat={name}: dbpress speaks as {}",
        known.join(", ")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(a: &[&str]) -> Vec<String> {
        a.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn compat_anywhere_picks_the_peer_and_leaves_the_line() {
        let (p, rest) = of_invocation(
            "dbpress",
            &strings(&["oltp_point_select", "--compat=sysbench", "run"]),
        )
        .unwrap();
        assert_eq!(p, Personality::Sysbench);
        assert_eq!(rest, strings(&["oltp_point_select", "run"]));
        let e = of_invocation("dbpress", &strings(&["--compat=sysbnech"])).unwrap_err();
        assert!(e.message().contains("--compat=sysbnech"), "{}", e.message());
    }

    #[test]
    fn issue_42_pgbench_speaks_as_the_release_asked_for() {
        let (p, rest) =
            of_invocation("dbpress", &strings(&["--compat=pgbench-17", "-t", "5"])).unwrap();
        assert_eq!(p, Personality::Pgbench);
        assert_eq!(rest, strings(&["-t", "5"]));
        assert!(of_invocation("dbpress", &strings(&["--compat=sysbench-17"])).is_err());
        let args = strings(&["--compat=pgbench-17"]);
        assert_eq!(pgbench_release(&args, Some("15")).unwrap(), 17);
        assert_eq!(pgbench_release(&[], Some("17")).unwrap(), 17);
        assert_eq!(pgbench_release(&[], None).unwrap(), 15);
        assert_eq!(pgbench_release(&[], Some("16")).unwrap(), 16);
        let e = pgbench_release(&[], Some("14")).unwrap_err();
        assert!(
            e.message().contains("DBPRESS_PGBENCH_VERSION=14")
                && e.message().contains("15, 16 or 17"),
            "{}",
            e.message()
        );
        assert!(pgbench_release(&strings(&["--compat=pgbench-99"]), None).is_err());
    }

    #[test]
    fn a_link_speaks_as_its_peer() {
        let (p, rest) = of_invocation("/usr/local/bin/tpcc_load", &strings(&["-w", "4"])).unwrap();
        assert_eq!(p, Personality::TpccLoad);
        assert_eq!(rest, strings(&["-w", "4"]));
        let (p, _) = of_invocation("tpcc_start", &strings(&["-w", "4"])).unwrap();
        assert_eq!(p, Personality::TpccStart);
        let (p, rest) = of_invocation("/usr/local/bin/mysqlslap", &strings(&["-c", "4"])).unwrap();
        assert_eq!(p, Personality::Mysqlslap);
        assert_eq!(rest, strings(&["-c", "4"]));
        let (p, rest) = of_invocation("/usr/local/bin/pgbench", &strings(&["-c", "4"])).unwrap();
        assert_eq!(p, Personality::Pgbench);
        assert_eq!(rest, strings(&["-c", "4"]));
        let (p, rest) = of_invocation("./sysbench", &strings(&["--version"])).unwrap();
        assert_eq!(p, Personality::Sysbench);
        assert_eq!(rest, strings(&["--version"]));
    }
}
