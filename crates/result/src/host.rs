//! The machine during a run, as the result keeps it: its CPUs, dbpress's and the server's
//! processes, the disk under the data and the sessions' network interface (read from /proc by
//! `host`).

use serde::{Deserialize, Serialize};

/// The machine's CPUs over a span, as average CPUs in each state; they add up to `cpus`.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Default)]
pub struct HostCpu {
    /// user + nice.
    pub user: f64,
    /// system + irq + softirq.
    pub system: f64,
    pub iowait: f64,
    pub steal: f64,
    pub idle: f64,
}

impl HostCpu {
    /// CPUs running something (user + system).
    pub fn busy(&self) -> f64 {
        self.user + self.system
    }

    /// The average of several spans of equal weight (the stalled intervals of a run).
    pub fn mean<'a>(spans: impl Iterator<Item = &'a HostCpu>) -> Option<HostCpu> {
        let mut sum = HostCpu::default();
        let mut n = 0.0;
        for s in spans {
            sum.user += s.user;
            sum.system += s.system;
            sum.iowait += s.iowait;
            sum.steal += s.steal;
            sum.idle += s.idle;
            n += 1.0;
        }
        (n > 0.0).then(|| HostCpu {
            user: sum.user / n,
            system: sum.system / n,
            iowait: sum.iowait / n,
            steal: sum.steal / n,
            idle: sum.idle / n,
        })
    }
}

/// One process's (or a process and its children's) CPU over the run, in average CPUs.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Default)]
pub struct ProcessCpu {
    pub pid: u32,
    pub name: String,
    /// Processes counted: 1, or a PostgreSQL postmaster with its backends and helpers.
    pub processes: u32,
    pub user: f64,
    pub system: f64,
}

impl ProcessCpu {
    pub fn cpus(&self) -> f64 {
        self.user + self.system
    }
}

/// CPU over the measured time of a run (after any warm-up).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct HostUsage {
    /// Wall time between the two readings, s.
    pub seconds: f64,
    /// The machine's CPUs.
    pub cpus: u32,
    pub host: HostCpu,
    pub dbpress: ProcessCpu,
    /// The server's process, when it runs on this machine and could be read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server: Option<ProcessCpu>,
    /// Why the server's CPU is not there: on another machine, another user's process, inside
    /// dbpress (embedded SQLite). Absent when `server` is given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_unavailable: Option<String>,
    /// The span the server's figure averages over, s: from when every session was connected
    /// (before any warm-up) to when the last had ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_seconds: Option<f64>,
    /// The disk under the data (the server's data directory, the SQLite file) over the same
    /// span as the machine's CPUs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disk: Option<DiskUsage>,
    /// Why the disk is not there: the server on another machine, data in memory, a file
    /// system /proc/diskstats does not show as one device.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disk_unavailable: Option<String>,
    /// The network interface the sessions went through, over the same span.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub network: Option<NetUsage>,
    /// Why the interface is not there: a Unix socket, an address no interface holds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub network_unavailable: Option<String>,
}

impl HostUsage {
    /// Microseconds of CPU per item (event, query) over the measured time, for a process
    /// that kept `cpus` CPUs busy on average.
    pub fn micros_per(&self, cpus: f64, items: u64) -> f64 {
        self.per_item(cpus, items) * 1e6
    }

    /// A rate over the measured time (per second) as an amount per item: disk writes per
    /// event, CPU seconds per query.
    pub fn per_item(&self, rate: f64, items: u64) -> f64 {
        rate * self.seconds / items.max(1) as f64
    }
}

/// What a device did over a span, per second.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Default)]
pub struct DiskIo {
    pub reads_s: f64,
    pub read_mib_s: f64,
    pub writes_s: f64,
    pub write_mib_s: f64,
    /// Cache flushes per second; absent where the kernel does not count them (before 5.5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flushes_s: Option<f64>,
    /// Share of the time with a request in flight, 0..1 (iostat's %util). A device that serves
    /// requests in parallel (SSD, NVMe, a virtual disk) can be "busy" all the time and still
    /// have room.
    pub busy: f64,
    /// Average time a write took, queueing included, ms; absent without writes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub write_ms: Option<f64>,
    /// Average time a cache flush took, ms; absent without flushes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flush_ms: Option<f64>,
}

impl DiskIo {
    /// The average of several spans of equal length (the stalled intervals of a run).
    pub fn mean<'a>(spans: impl Iterator<Item = &'a DiskIo>) -> Option<DiskIo> {
        let spans: Vec<&DiskIo> = spans.collect();
        let n = spans.len() as f64;
        let avg = |f: fn(&DiskIo) -> f64| spans.iter().map(|s| f(s)).sum::<f64>() / n;
        let avg_some = |f: fn(&DiskIo) -> Option<f64>| {
            let v: Vec<f64> = spans.iter().filter_map(|s| f(s)).collect();
            (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
        };
        (!spans.is_empty()).then(|| DiskIo {
            reads_s: avg(|s| s.reads_s),
            read_mib_s: avg(|s| s.read_mib_s),
            writes_s: avg(|s| s.writes_s),
            write_mib_s: avg(|s| s.write_mib_s),
            flushes_s: spans
                .iter()
                .all(|s| s.flushes_s.is_some())
                .then(|| avg(|s| s.flushes_s.unwrap_or(0.0))),
            busy: avg(|s| s.busy),
            write_ms: avg_some(|s| s.write_ms),
            flush_ms: avg_some(|s| s.flush_ms),
        })
    }
}

/// The device's figures over a run's measured time.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct DiskUsage {
    /// The device's name in /proc/diskstats (vda, sda2, nvme0n1p1, dm-0).
    pub device: String,
    /// The directory or file it was found from: the server's data directory, the SQLite file.
    pub path: String,
    pub io: DiskIo,
}

/// What an interface carried over a span, per second.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Default)]
pub struct NetIo {
    pub rx_mib_s: f64,
    pub tx_mib_s: f64,
    pub rx_packets_s: f64,
    pub tx_packets_s: f64,
}

impl NetIo {
    /// The busier direction's share of a link of `mbit` Mb/s, 0..1 and over.
    pub fn link_share(&self, mbit: u64) -> f64 {
        let mib_s = self.rx_mib_s.max(self.tx_mib_s);
        mib_s * 1024.0 * 1024.0 * 8.0 / (mbit as f64 * 1e6)
    }
}

/// The interface's figures over a run's measured time.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct NetUsage {
    /// The interface's name (eth0, ens5, lo).
    pub interface: String,
    /// The sessions' local address on it.
    pub address: String,
    /// The loopback: client and server on one machine, no link between them.
    pub loopback: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speed_mbit: Option<u64>,
    pub io: NetIo,
}

impl NetUsage {
    /// MiB/s crossing the interface both ways together: on the loopback every byte is counted
    /// once as sent and once as received, so the received side alone is the traffic.
    pub fn both_ways_mib_s(&self) -> f64 {
        match self.loopback {
            true => self.io.rx_mib_s,
            false => self.io.rx_mib_s + self.io.tx_mib_s,
        }
    }
}
