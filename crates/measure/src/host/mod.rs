//! Where the CPU went during a run: the machine's CPUs (busy, waiting on I/O, stolen by a
//! hypervisor, idle), dbpress's own process, and the server's process when it runs on the same
//! machine; and what the disk under the data did (`disk`).
//!
//! On a small machine the client and the server share the CPUs, and a number means something
//! else when the machine had nothing left to give: these figures say whether it had. The
//! machine's shares are kept per interval too, so a stall can be told apart by what the CPUs
//! did meanwhile (waiting on I/O: a flush; idle: a lock; busy: something else ran).
//!
//! Figures are average CPUs kept busy (1.50 = one and a half CPUs all the time), read from
//! /proc: the machine and dbpress at the start of measurement, at every interval and at the
//! end (small reads), the server's processes just before the run and after it (see `Sampler`).

pub mod disk;
pub mod network;
pub mod procfs;
pub mod server_process;

pub use dbpress_result::host::{HostCpu, HostUsage, ProcessCpu};
use disk::{DataDevice, DiskCounters, DiskIo, DiskUsage};
use network::{NetCounters, NetUsage, NetworkLink};
use procfs::{HostTicks, ProcessTicks};
use std::time::Instant;

pub use server_process::ServerProcess;

/// The server's process behind `conn`, found through the socket its driver names.
pub fn server_process_of(
    driver: &dyn dbpress_driver::Driver,
    conn: &dyn dbpress_driver::Connection,
) -> ServerProcess {
    driver.server_socket(conn).and_then(server_process::locate)
}

/// The machine's and dbpress's CPU, the data's disk and the sessions' interface, at one moment.
struct Reading {
    at: Instant,
    host: HostTicks,
    me: ProcessTicks,
    disk: Option<DiskCounters>,
    net: Option<NetCounters>,
}

impl Reading {
    fn now(disk: Option<&DataDevice>, net: Option<&NetworkLink>) -> Option<Reading> {
        Some(Reading {
            at: Instant::now(),
            host: procfs::read_host()?,
            me: procfs::read_self()?,
            disk: disk.and_then(|d| d.as_ref().ok()?.read()),
            net: net.and_then(|n| n.as_ref().ok()?.read()),
        })
    }
}

struct ServerTicks {
    pid: u32,
    name: String,
    processes: u32,
    user: u64,
    system: u64,
}

/// The server process's time with that of its children: those alive now, and those it has
/// already waited for (a backend that ended during the run).
///
/// A child the server waits for while its children are being read would count twice or not
/// at all (the run's sessions end right at the end of a run), so the reading is taken again
/// until the server's waited-for time did not move across it.
fn read_server(pid: u32) -> Result<ServerTicks, String> {
    let gone = || {
        format!(
            "not measured: the server's process (pid {pid}) cannot be read in /proc (it ended, or /proc hides other users' processes)"
        )
    };
    let mut parent = procfs::read_process(pid).ok_or_else(gone)?;
    for _ in 0..10 {
        let children = procfs::children_of(pid);
        let again = procfs::read_process(pid).ok_or_else(gone)?;
        let reaped = (again.children_user, again.children_system)
            != (parent.children_user, parent.children_system);
        parent = again;
        if reaped {
            continue;
        }
        let mut t = ServerTicks {
            pid,
            name: parent.name.clone(),
            processes: 1,
            user: parent.user + parent.children_user,
            system: parent.system + parent.children_system,
        };
        for c in children {
            t.processes += 1;
            t.user += c.user + c.children_user;
            t.system += c.system + c.children_system;
        }
        return Ok(t);
    }
    Err(format!(
        "not measured: the server's processes (pid {pid} and its children) kept changing while being read"
    ))
}

/// The kernel counts CPU time in ticks (100 a second): under about a second of measurement, a
/// tick more or less is more than 1% of a CPU, and the figures would be noise. (A `--time=1`
/// run's readings are a little under or over 1 s apart.)
const MIN_SECONDS: f64 = 0.9;

/// Takes the readings of one run. Without /proc (not Linux) it yields nothing.
///
/// The machine and dbpress are read by the reporter at the start of measurement, every interval
/// and the end: two small files. The server's processes (a PostgreSQL server has one per
/// session) take a read of every process to find, which on a machine with hundreds of busy
/// threads per core would hold the reporter up for seconds; they are read when the machine is
/// quiet instead, with every session connected and none started (before any warm-up), and after
/// the last session has ended, and the server's average is over that span.
///
/// The disk under the data and the sessions' network interface are read with the machine: one
/// small file each.
pub struct Sampler {
    server: ServerProcess,
    /// None where there is no data to look for (a dry run).
    disk: Option<DataDevice>,
    /// None where the sessions have no socket to look at (embedded, dry run).
    net: Option<NetworkLink>,
    hz: f64,
    server_start: Option<(Instant, Result<ServerTicks, String>)>,
    start: Option<Reading>,
    end: Option<Reading>,
    last: Option<(Instant, HostTicks, Option<DiskCounters>)>,
}

impl Sampler {
    pub fn new(server: ServerProcess, disk: Option<DataDevice>) -> Sampler {
        Sampler {
            server,
            disk,
            net: None,
            hz: procfs::ticks_per_second(),
            server_start: None,
            start: None,
            end: None,
            last: None,
        }
    }

    /// Also measure the network interface the sessions go through.
    pub fn with_network(self, net: Option<NetworkLink>) -> Sampler {
        Sampler { net, ..self }
    }

    /// A sampler for the server behind `conn`, the disk under its data and the interface to
    /// it, started now: for a load, which has no warm-up to leave out.
    pub fn started_for(
        driver: &dyn dbpress_driver::Driver,
        conn: &mut dyn dbpress_driver::Connection,
    ) -> Sampler {
        let server = server_process_of(driver, conn);
        let data = disk::data_device(driver.data_location(conn), &server);
        let mut s = Sampler::new(server, data).with_network(network::link_of(conn.socket_fd()));
        s.before_start();
        s.begin();
        s
    }

    /// Every session is connected and waits to start.
    pub fn before_start(&mut self) {
        self.server_start = Some((Instant::now(), self.server.clone().and_then(read_server)));
    }

    /// The start of measurement.
    pub fn begin(&mut self) {
        self.start = Reading::now(self.disk.as_ref(), self.net.as_ref());
        self.last = self.start.as_ref().map(|r| (r.at, r.host, r.disk));
    }

    /// The machine's CPUs and the data's disk since the previous interval (or the start).
    pub fn interval(&mut self) -> (Option<HostCpu>, Option<DiskIo>) {
        let Some(host) = procfs::read_host() else {
            return (None, None);
        };
        let at = Instant::now();
        let disk = self.disk.as_ref().and_then(|d| d.as_ref().ok()?.read());
        let Some((then, last_host, last_disk)) = self.last.replace((at, host, disk)) else {
            return (None, None);
        };
        let ms = at.saturating_duration_since(then).as_secs_f64() * 1000.0;
        (
            cpu_between(&last_host, &host),
            last_disk
                .zip(disk)
                .and_then(|(a, b)| disk::io_between(&a, &b, ms)),
        )
    }

    /// The end of measurement and the figures at once (a load, whose sessions have ended).
    pub fn finish_now(mut self) -> Option<HostUsage> {
        self.end();
        self.finish()
    }

    /// The end of measurement.
    pub fn end(&mut self) {
        self.end = Reading::now(self.disk.as_ref(), self.net.as_ref());
    }

    /// Every session has ended: the figures, or None for a measurement shorter than
    /// `MIN_SECONDS` (or without /proc).
    pub fn finish(&self) -> Option<HostUsage> {
        let (a, b) = (self.start.as_ref()?, self.end.as_ref()?);
        let seconds = b.at.saturating_duration_since(a.at).as_secs_f64();
        if seconds < MIN_SECONDS {
            return None;
        }
        let cpus_over = |ticks: u64, secs: f64| ticks as f64 / self.hz / secs.max(1e-9);
        let dbpress = ProcessCpu {
            pid: b.me.pid,
            name: "dbpress".into(),
            processes: 1,
            user: cpus_over(b.me.user.saturating_sub(a.me.user), seconds),
            system: cpus_over(b.me.system.saturating_sub(a.me.system), seconds),
        };
        let server_end = self.server.clone().and_then(read_server);
        let (server, server_unavailable, server_seconds) = match (&self.server_start, &server_end) {
            (None, _) => (
                None,
                Some("not measured: the run did not start".into()),
                None,
            ),
            (Some((_, Err(e))), _) | (_, Err(e)) => (None, Some(e.clone()), None),
            (Some((at, Ok(x))), Ok(y)) => {
                let secs = at.elapsed().as_secs_f64();
                (
                    Some(ProcessCpu {
                        pid: y.pid,
                        name: y.name.clone(),
                        processes: x.processes.max(y.processes),
                        user: cpus_over(y.user.saturating_sub(x.user), secs),
                        system: cpus_over(y.system.saturating_sub(x.system), secs),
                    }),
                    None,
                    Some(secs),
                )
            }
        };
        let (disk, disk_unavailable) = match &self.disk {
            None => (None, None),
            Some(Err(why)) => (None, Some(why.clone())),
            Some(Ok(d)) => match a.disk.zip(b.disk) {
                Some((x, y)) => (
                    disk::io_between(&x, &y, seconds * 1000.0).map(|io| DiskUsage {
                        device: d.name.clone(),
                        path: d.path.clone(),
                        io,
                    }),
                    None,
                ),
                None => (
                    None,
                    Some(format!(
                        "not measured: /proc/diskstats lost track of {}",
                        d.name
                    )),
                ),
            },
        };
        let (network, network_unavailable) = match &self.net {
            None => (None, None),
            Some(Err(why)) => (None, Some(why.clone())),
            Some(Ok(n)) => match a.net.zip(b.net) {
                Some((x, y)) => (
                    network::io_between(&x, &y, seconds).map(|io| NetUsage {
                        interface: n.name.clone(),
                        address: n.address.clone(),
                        loopback: n.loopback,
                        speed_mbit: n.speed_mbit,
                        io,
                    }),
                    None,
                ),
                None => (
                    None,
                    Some(format!(
                        "not measured: /proc/net/dev lost track of {}",
                        n.name
                    )),
                ),
            },
        };
        Some(HostUsage {
            seconds,
            network,
            network_unavailable,
            cpus: b.host.cpus,
            host: cpu_between(&a.host, &b.host)?,
            dbpress,
            server,
            server_unavailable,
            server_seconds,
            disk,
            disk_unavailable,
        })
    }
}

/// The machine's CPUs between two readings of /proc/stat.
fn cpu_between(a: &HostTicks, b: &HostTicks) -> Option<HostCpu> {
    let total = b.total().checked_sub(a.total()).filter(|t| *t > 0)? as f64;
    let cpus = b.cpus as f64;
    let share = |x: u64, y: u64| y.saturating_sub(x) as f64 / total * cpus;
    Some(HostCpu {
        user: share(a.user, b.user),
        system: share(a.system, b.system),
        iowait: share(a.iowait, b.iowait),
        steal: share(a.steal, b.steal),
        idle: share(a.idle, b.idle),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_are_cpus_and_add_up_to_the_machine() {
        let a = HostTicks {
            user: 1000,
            system: 500,
            idle: 3000,
            iowait: 100,
            steal: 0,
            cpus: 2,
        };
        // 200 ticks over 2 CPUs in one second: 100 user, 60 system, 30 iowait, 10 idle.
        let b = HostTicks {
            user: 1100,
            system: 560,
            idle: 3010,
            iowait: 130,
            steal: 0,
            cpus: 2,
        };
        let c = cpu_between(&a, &b).unwrap();
        assert!((c.user - 1.0).abs() < 1e-9 && (c.system - 0.6).abs() < 1e-9);
        assert!((c.iowait - 0.3).abs() < 1e-9 && (c.idle - 0.1).abs() < 1e-9);
        assert!((c.busy() + c.iowait + c.steal + c.idle - 2.0).abs() < 1e-9);
        assert!(cpu_between(&b, &b).is_none());
        let m = HostCpu::mean([c, HostCpu::default()].iter()).unwrap();
        assert!((m.user - 0.5).abs() < 1e-9);
    }

    /// The CPU time this thread has used, by the kernel's own count for it alone.
    fn thread_cpu_s() -> f64 {
        // SAFETY: getrusage writes into the struct we own.
        let mut r: libc::rusage = unsafe { std::mem::zeroed() };
        assert_eq!(unsafe { libc::getrusage(libc::RUSAGE_THREAD, &mut r) }, 0);
        let s = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
        s(r.ru_utime) + s(r.ru_stime)
    }

    #[test]
    fn a_busy_thread_shows_as_about_one_cpu_of_dbpress() {
        let mut s = Sampler::new(Err("none".into()), None);
        s.before_start();
        s.begin();
        let spun_from = thread_cpu_s();
        let until = Instant::now() + std::time::Duration::from_millis(1100);
        let mut x = 0u64;
        while Instant::now() < until {
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
        }
        let spun = thread_cpu_s() - spun_from;
        s.end();
        let u = s.finish().unwrap();
        assert!(u.seconds >= 1.0);
        let mut short = Sampler::new(Err("none".into()), None);
        short.begin();
        short.end();
        assert!(short.finish().is_none(), "under a second: no figures");
        // A shared machine may not give the thread a whole CPU, but it got some; and no
        // process uses more CPUs than the machine has.
        assert!(u.dbpress.cpus() > 0.2, "{u:?}");
        // The process's CPU holds at least this thread's (other tests' threads may add to it),
        // within the 10 ms ticks /proc counts in.
        let process_s = u.dbpress.cpus() * u.seconds;
        assert!(
            process_s >= 0.9 * spun,
            "{process_s} s of process CPU, {spun} s of this thread's: {u:?}"
        );
        assert!(u.dbpress.cpus() <= u.cpus as f64 + 0.05, "{u:?}");
        assert!(u.host.busy() >= u.dbpress.cpus() * 0.5, "{u:?}");
        assert!(u.server.is_none() && u.server_unavailable.as_deref() == Some("none"));
    }
}
