//! The report's sections on where the CPU went (see `host`): the machine's CPUs, dbpress's
//! process and the server's; and on the disk under the data.

use dbpress_result::{DiskIo, HostCpu, HostUsage};
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
        let per_query = |cpus: f64| (queries > 0).then(|| per(cpus, queries));
        let mut parts = Vec::new();
        if let Some(s) = &h.server {
            parts.push(format!(
                "server {}",
                micros(per(s.cpus(), events), per_query(s.cpus()))
            ));
        }
        parts.push(format!(
            "dbpress {}",
            micros(per(h.dbpress.cpus(), events), per_query(h.dbpress.cpus()))
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

/// A disk with a request in flight this share of the time may be what bounds a run.
const DISK_BUSY: f64 = 0.9;

/// The disk under the data over the run, and what each event cost it; one line saying why
/// when it is not measured. Empty for a dry run.
pub fn disk_section(h: &HostUsage, events: u64) -> String {
    let mut o = String::new();
    let Some(d) = &h.disk else {
        if let Some(why) = &h.disk_unavailable {
            let _ = writeln!(o, "Disk under the data: {why}\n");
        }
        return o;
    };
    let io = &d.io;
    let _ = writeln!(
        o,
        "Disk under the data ({}, holding {}; from /proc/diskstats, the whole device):",
        d.device, d.path
    );
    let each = |ms: Option<f64>| ms.map_or(String::new(), |ms| format!(", {ms:.2} ms each"));
    let _ = writeln!(
        o,
        "    writes:  {:.1}/s, {:.2} MiB/s{}",
        io.writes_s,
        io.write_mib_s,
        each(io.write_ms)
    );
    if let Some(f) = io.flushes_s {
        let _ = writeln!(o, "    flushes: {f:.1}/s{}", each(io.flush_ms));
    }
    let _ = writeln!(
        o,
        "    reads:   {:.1}/s, {:.2} MiB/s",
        io.reads_s, io.read_mib_s
    );
    let _ = writeln!(o, "    busy:    {:.0}% of the time", io.busy * 100.0);
    // What a setting costs the disk per transaction (sync_binlog, a commit's fsync): rates
    // alone change with throughput.
    if events > 0 {
        let per = |rate: f64| h.per_item(rate, events);
        let mut parts = vec![
            format!("{:.2} writes", per(io.writes_s)),
            format!("{:.1} KiB written", per(io.write_mib_s) * 1024.0),
        ];
        if let Some(f) = io.flushes_s {
            parts.push(format!("{:.2} flushes", per(f)));
        }
        parts.push(format!("{:.2} reads", per(io.reads_s)));
        let _ = writeln!(o, "    per event: {}", parts.join(", "));
    }
    if io.busy >= DISK_BUSY {
        let _ = writeln!(
            o,
            "    Note: the disk had requests in flight {:.0}% of the time: it may be what bounds these figures (a device that serves requests in parallel, like an SSD, can still have room)",
            io.busy * 100.0
        );
    }
    let _ = writeln!(o);
    o
}

/// A link this full in one direction may be what bounds a run.
const LINK_FULL: f64 = 0.7;

/// The network interface the sessions used over the run, and what each event sent and
/// received through it; one line saying why when it is not measured (a Unix socket).
pub fn network_section(h: &HostUsage, events: u64) -> String {
    let mut o = String::new();
    let Some(n) = &h.network else {
        if let Some(why) = &h.network_unavailable {
            let _ = writeln!(o, "Network: {why}\n");
        }
        return o;
    };
    let io = &n.io;
    let kib_per_event = |mib_s: f64| h.per_item(mib_s * 1024.0, events);
    let _ = writeln!(
        o,
        "Network ({}, the sessions' address {}; from /proc/net/dev, the whole interface):",
        n.interface, n.address
    );
    if n.loopback {
        // The loopback counts each packet once sent and once received: either figure is both
        // directions together.
        let _ = writeln!(
            o,
            "    loopback: {:.2} MiB/s and {:.0} packets/s both ways together, {:.1} KiB per event; client and server share this machine, no link between them",
            io.rx_mib_s,
            io.rx_packets_s,
            kib_per_event(io.rx_mib_s)
        );
        let _ = writeln!(o);
        return o;
    }
    let _ = writeln!(
        o,
        "    received: {:.2} MiB/s, {:.0} packets/s, {:.1} KiB per event",
        io.rx_mib_s,
        io.rx_packets_s,
        kib_per_event(io.rx_mib_s)
    );
    let _ = writeln!(
        o,
        "    sent:     {:.2} MiB/s, {:.0} packets/s, {:.1} KiB per event",
        io.tx_mib_s,
        io.tx_packets_s,
        kib_per_event(io.tx_mib_s)
    );
    match n.speed_mbit {
        Some(mbit) => {
            let share = io.link_share(mbit);
            let _ = writeln!(
                o,
                "    link:     {mbit} Mb/s; the busier direction used {:.0}% of it",
                share * 100.0
            );
            if share >= LINK_FULL {
                let _ = writeln!(
                    o,
                    "    Note: the link was {:.0}% full: it may be what bounds these figures, not the server (--mysql-compression trades server CPU for bytes)",
                    share * 100.0
                );
            }
        }
        None => {
            let _ = writeln!(
                o,
                "    link:     speed not reported by the interface (virtual?): compare the rates with what the network is known to carry"
            );
        }
    }
    let _ = writeln!(o);
    o
}

/// The line on the data's disk during a run's stalls.
pub fn disk_during_stalls(io: &DiskIo) -> String {
    let flushes = io
        .flushes_s
        .map_or(String::new(), |f| format!(", {f:.1} flushes/s"));
    format!(
        "    the disk during the stalls: busy {:.0}%, {:.1} writes/s ({:.2} MiB/s){flushes}, {:.1} reads/s",
        io.busy * 100.0,
        io.writes_s,
        io.write_mib_s,
        io.reads_s
    )
}

/// The end of a load: its line on where the time went (nothing for one under a second).
pub fn report_prepare(usage: &HostUsage) {
    dbpress_core::notice!("{}", prepare_line(usage));
}

/// One line on where a prepare's time went: the server's CPUs, dbpress's, the machine's, and
/// the disk under the data (a load bounded by the server's CPU looks nothing like one bounded
/// by its disk).
pub fn prepare_line(h: &HostUsage) -> String {
    let mut parts = Vec::new();
    if let Some(s) = &h.server {
        parts.push(format!("server {:.2}", s.cpus()));
    }
    parts.push(format!("dbpress {:.2}", h.dbpress.cpus()));
    let mut line = format!(
        "Over the prepare (from /proc): CPUs busy {:.2} of {}, of them {}",
        h.host.busy(),
        h.cpus,
        parts.join(" and ")
    );
    if let Some(d) = &h.disk {
        let _ = write!(
            line,
            "; disk {} {:.1} MiB/s written, busy {:.0}%",
            d.device,
            d.io.write_mib_s,
            d.io.busy * 100.0
        );
    }
    line
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

/// "812.4 us (40.6 us per query)"; "812.4 us" for events that sent no query (a test of the
/// machine).
fn micros(per_event: f64, per_query: Option<f64>) -> String {
    match per_query {
        Some(q) => format!("{per_event:.1} us ({q:.1} us per query)"),
        None => format!("{per_event:.1} us"),
    }
}

fn split(user: f64, system: f64) -> String {
    format!("user {user:.2}, system {system:.2}")
}
