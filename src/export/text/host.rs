//! The report's section on where the CPU went (see `host`): the machine's CPUs, dbpress's
//! process and the server's.

use crate::result::{HostCpu, HostUsage};
use std::fmt::Write;

/// The machine had no CPU left to give at this share of its CPUs busy (or stolen).
const SATURATED: f64 = 0.9;
/// A hypervisor taking this share of the CPUs is worth a word.
const STOLEN: f64 = 0.05;

/// `events` and `queries`: the run's, to give the CPU each cost.
pub fn section(h: &HostUsage, events: u64, queries: u64) -> String {
    let mut o = String::new();
    let cpus = f64::from(h.cpus);
    let _ = writeln!(
        o,
        "CPU over the run (average CPUs busy, from /proc; dbpress):"
    );
    let _ = writeln!(
        o,
        "    machine: {:.2} of {} ({}), iowait {:.2}, steal {:.2}, idle {:.2}",
        h.host.busy(),
        h.cpus,
        split(h.host.user, h.host.system),
        h.host.iowait,
        h.host.steal,
        h.host.idle
    );
    let _ = writeln!(
        o,
        "    dbpress: {:.2} ({})",
        h.dbpress.cpus(),
        split(h.dbpress.user, h.dbpress.system)
    );
    match (&h.server, &h.server_unavailable) {
        (Some(s), _) => {
            let children = match s.processes {
                0 | 1 => String::new(),
                2 => " and its child process".to_string(),
                n => format!(" and its {} child processes", n - 1),
            };
            let _ = writeln!(
                o,
                "    server:  {:.2} ({}): {}, pid {}{children}",
                s.cpus(),
                split(s.user, s.system),
                s.name,
                s.pid
            );
        }
        (None, Some(why)) => {
            let _ = writeln!(o, "    server:  {why}");
        }
        (None, None) => {}
    }
    // CPU time per event: what a server version or setting costs per transaction, which
    // throughput alone hides when the machine was not full.
    if events > 0 {
        let per = |cpus: f64, n: u64| h.micros_per(cpus, n);
        let mut parts = Vec::new();
        if let Some(s) = &h.server {
            parts.push(format!(
                "server {}",
                micros(per(s.cpus(), events), per(s.cpus(), queries))
            ));
        }
        parts.push(format!(
            "dbpress {}",
            micros(
                per(h.dbpress.cpus(), events),
                per(h.dbpress.cpus(), queries)
            )
        ));
        let _ = writeln!(o, "    CPU per event: {}", parts.join("; "));
    }
    let taken = h.host.busy() + h.host.steal;
    if taken >= SATURATED * cpus {
        let shared = if h.server.is_some() {
            " and dbpress and the server shared them: these figures show this machine's limit, not only the server's"
        } else {
            ": these figures are bounded by this machine's CPUs"
        };
        let _ = writeln!(
            o,
            "    Note: the machine's CPUs were {:.0}% busy{shared}",
            100.0 * taken / cpus
        );
    }
    if h.host.steal >= STOLEN * cpus {
        let _ = writeln!(
            o,
            "    Note: the hypervisor gave {:.2} CPUs to others (steal): another machine's load is in these figures",
            h.host.steal
        );
    }
    let _ = writeln!(o);
    o
}

/// The line on the machine's CPUs during a run's stalls.
pub fn during_stalls(c: &HostCpu) -> String {
    format!(
        "    the machine's CPUs during the stalls: busy {:.2} ({}), iowait {:.2}, steal {:.2}, idle {:.2}",
        c.busy(),
        split(c.user, c.system),
        c.iowait,
        c.steal,
        c.idle
    )
}

/// "812.4 us (40.6 us per query)".
fn micros(per_event: f64, per_query: f64) -> String {
    format!("{per_event:.1} us ({per_query:.1} us per query)")
}

fn split(user: f64, system: f64) -> String {
    format!("user {user:.2}, system {system:.2}")
}
