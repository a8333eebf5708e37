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
        let p = Personality::named(&name).ok_or_else(|| unknown_peer(&name))?;
        return Ok((p, rest));
    }
    Ok((Personality::of_program(program), rest))
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
