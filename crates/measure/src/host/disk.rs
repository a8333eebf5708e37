//! The disk under the data: the block device that holds the server's data directory (or the
//! SQLite file), and what it did over a run and each interval, from /proc/diskstats.
//!
//! A commit that waits for fsync, a checkpoint that flushes dirty pages, a stall where TPS
//! drops to 0 while the CPUs wait on I/O: these show on the device, not in the client. The
//! figures are the whole device's, whoever caused them (another process writing to the same
//! disk is in them too).

use std::fs;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// A block device's counters since boot: one line of /proc/diskstats.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DiskCounters {
    pub reads: u64,
    /// Sectors are 512 bytes in /proc/diskstats, whatever the device's own sector size.
    pub read_sectors: u64,
    pub writes: u64,
    pub write_sectors: u64,
    /// Milliseconds writes took, summed over writes (queueing included).
    pub write_ms: u64,
    /// Milliseconds with at least one request in flight.
    pub io_ms: u64,
    /// Cache flush requests and their milliseconds: what fsync costs on a device with a
    /// volatile write cache. None before Linux 5.5, which did not count them.
    pub flushes: Option<(u64, u64)>,
}

const SECTOR: f64 = 512.0;
const MIB: f64 = 1024.0 * 1024.0;

/// The counters of the device `major:minor` in /proc/diskstats's text.
pub fn parse(text: &str, major: u32, minor: u32) -> Option<DiskCounters> {
    text.lines().find_map(|line| {
        let f: Vec<&str> = line.split_ascii_whitespace().collect();
        if f.len() < 14 || f[0].parse() != Ok(major) || f[1].parse() != Ok(minor) {
            return None;
        }
        let n = |k: usize| -> Option<u64> { f.get(k)?.parse().ok() };
        Some(DiskCounters {
            reads: n(3)?,
            read_sectors: n(5)?,
            writes: n(7)?,
            write_sectors: n(9)?,
            write_ms: n(10)?,
            io_ms: n(12)?,
            flushes: n(18).zip(n(19)),
        })
    })
}

/// A block device found for a path.
#[derive(Clone, Debug, PartialEq)]
pub struct Device {
    pub name: String,
    pub major: u32,
    pub minor: u32,
    pub path: String,
}

impl Device {
    pub fn read(&self) -> Option<DiskCounters> {
        parse(
            &fs::read_to_string("/proc/diskstats").ok()?,
            self.major,
            self.minor,
        )
    }
}

/// Where a run's data lives, or why its disk is not shown.
pub type DataDevice = Result<Device, String>;

pub use dbpress_driver::DataLocation;
pub use dbpress_result::host::{DiskIo, DiskUsage};

/// The device under a run's data; None where there is no data (a dry run).
pub fn data_device(
    location: DataLocation,
    server: &super::server_process::ServerProcess,
) -> Option<DataDevice> {
    match location {
        DataLocation::Nowhere => None,
        DataLocation::File(file) => Some(locate(&file)),
        DataLocation::Server { reported } => Some(server.clone().and_then(|pid| {
            match (server_data_dir(pid), reported) {
                (Ok(dir), _) => locate(&dir),
                // Another user's server: its mount table is readable by all, so the directory
                // it names is found among its own mounts (right even inside a container).
                (Err(_), Some(dir)) => locate_in_mounts_of(pid, &dir),
                (Err(e), None) => Err(e),
            }
        })),
    }
}

/// The data directory of the server process `pid`: the directory it runs in (MySQL, MariaDB
/// and PostgreSQL servers change into their data directory at start).
pub fn server_data_dir(pid: u32) -> Result<PathBuf, String> {
    fs::read_link(format!("/proc/{pid}/cwd")).map_err(|_| {
        format!(
            "not measured: the server's data directory cannot be seen (/proc/{pid}/cwd is readable by the server's user and root only)"
        )
    })
}

/// The block device holding `path`.
///
/// The file system's device number is looked up in /proc/diskstats. A file system that is not
/// one block device's (overlay, btrfs, tmpfs) is followed through /proc/self/mountinfo: its
/// source device, or an overlay's upper directory, where writes go.
pub fn locate(path: &Path) -> DataDevice {
    // Absolute, as mount points are (a SQLite file may be given relative to here).
    let path = fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let shown = path.display().to_string();
    let meta = fs::metadata(&path)
        .map_err(|e| format!("not measured: cannot read {shown}'s file system: {e}"))?;
    let (major, minor) = (libc::major(meta.dev()), libc::minor(meta.dev()));
    let mountinfo = fs::read_to_string("/proc/self/mountinfo").unwrap_or_default();
    let mount = mount_of(&mountinfo, Some((major, minor)), &path);
    device_of(major, minor, mount, shown)
}

/// The block device holding `dir` as the process `pid` sees its mounts.
fn locate_in_mounts_of(pid: u32, dir: &str) -> DataDevice {
    let shown = dir.trim_end_matches('/').to_string();
    let mountinfo = fs::read_to_string(format!("/proc/{pid}/mountinfo"))
        .map_err(|e| format!("not measured: /proc/{pid}/mountinfo: {e}"))?;
    let m = mount_of(&mountinfo, None, Path::new(dir)).ok_or_else(|| {
        format!("not measured: no mount of the server's holds its data directory {shown}")
    })?;
    let (major, minor) = m.device;
    device_of(major, minor, Some(m), shown)
}

/// The device `major:minor` of the file system `mount` holding `shown`.
fn device_of(major: u32, minor: u32, mount: Option<Mount>, shown: String) -> DataDevice {
    let stats = fs::read_to_string("/proc/diskstats")
        .map_err(|e| format!("not measured: /proc/diskstats: {e}"))?;
    if let Some(name) = device_name(&stats, major, minor) {
        return Ok(Device {
            name,
            major,
            minor,
            path: shown,
        });
    }
    let Some(m) = mount else {
        return Err(format!(
            "not measured: {shown} is on device {major}:{minor}, which /proc/diskstats does not list"
        ));
    };
    match m.fstype.as_str() {
        "tmpfs" | "ramfs" => Err(format!("none: {shown} is in memory ({})", m.fstype)),
        "overlay" => match option(&m.super_options, "upperdir") {
            Some(upper) if Path::new(upper) != Path::new(&shown) => {
                locate(Path::new(upper)).map(|d| Device { path: shown, ..d })
            }
            _ => Err(format!(
                "not measured: {shown} is on an overlay file system with no upper directory"
            )),
        },
        _ => fs::canonicalize(&m.source)
            .ok()
            .and_then(|dev| fs::metadata(dev).ok())
            .filter(|d| d.rdev() != 0)
            .and_then(|d| {
                let (major, minor) = (libc::major(d.rdev()), libc::minor(d.rdev()));
                Some(Device {
                    name: device_name(&stats, major, minor)?,
                    major,
                    minor,
                    path: shown.clone(),
                })
            })
            .ok_or_else(|| {
                format!(
                    "not measured: {shown} is on a {} file system ({}), not on one block device /proc/diskstats lists",
                    m.fstype, m.source
                )
            }),
    }
}

fn device_name(diskstats: &str, major: u32, minor: u32) -> Option<String> {
    diskstats.lines().find_map(|line| {
        let f: Vec<&str> = line.split_ascii_whitespace().collect();
        (f.len() > 3 && f[0].parse() == Ok(major) && f[1].parse() == Ok(minor))
            .then(|| f[2].to_string())
    })
}

/// One mount, as /proc/PID/mountinfo describes it.
#[derive(Debug, PartialEq)]
pub struct Mount {
    /// The file system's device number (st_dev of its files).
    pub device: (u32, u32),
    pub point: String,
    pub fstype: String,
    pub source: String,
    pub super_options: String,
}

/// The mount holding `path`: of those above it (of device `device`, when given), the one with
/// the longest mount point, the last mounted of equals (it hides the others).
pub fn mount_of(mountinfo: &str, device: Option<(u32, u32)>, path: &Path) -> Option<Mount> {
    mountinfo
        .lines()
        .filter_map(|line| {
            // id parent major:minor root point options [optional…] - fstype source super
            let (before, after) = line.split_once(" - ")?;
            let b: Vec<&str> = before.split(' ').collect();
            let a: Vec<&str> = after.split(' ').collect();
            let (major, minor) = b.get(2)?.split_once(':')?;
            (b.len() >= 5 && a.len() >= 2).then(|| Mount {
                device: (major.parse().unwrap_or(0), minor.parse().unwrap_or(0)),
                point: unescape(b[4]),
                fstype: a[0].to_string(),
                source: unescape(a[1]),
                super_options: a.get(2).copied().unwrap_or("").to_string(),
            })
        })
        .filter(|m| device.is_none_or(|d| d == m.device) && path.starts_with(&m.point))
        .fold(None, |best: Option<Mount>, m| match best {
            Some(b) if b.point.len() > m.point.len() => Some(b),
            _ => Some(m),
        })
}

/// mountinfo writes a space, tab, newline and backslash in a path as octal escapes.
fn unescape(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let octal = b
            .get(i + 1..i + 4)
            .filter(|d| d.iter().all(|c| (b'0'..=b'7').contains(c)));
        match (b[i], octal) {
            (b'\\', Some(d)) => {
                out.push((d[0] - b'0') * 64 + (d[1] - b'0') * 8 + (d[2] - b'0'));
                i += 4;
            }
            (c, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `name=value` among comma-separated mount options.
fn option<'a>(options: &'a str, name: &str) -> Option<&'a str> {
    options
        .split(',')
        .find_map(|o| o.strip_prefix(name)?.strip_prefix('='))
}

/// The device between two readings `ms` milliseconds apart; None for a span too short to
/// say anything or counters that went backwards (the device was replaced).
pub fn io_between(a: &DiskCounters, b: &DiskCounters, ms: f64) -> Option<DiskIo> {
    if ms < 1.0 || b.reads < a.reads || b.writes < a.writes {
        return None;
    }
    let s = ms / 1000.0;
    let d = |x: u64, y: u64| y.saturating_sub(x) as f64;
    let writes = d(a.writes, b.writes);
    let average = |total_ms: f64, n: f64| (n > 0.0).then(|| total_ms / n);
    let flushes = a
        .flushes
        .zip(b.flushes)
        .map(|((n0, ms0), (n1, ms1))| (d(n0, n1), d(ms0, ms1)));
    Some(DiskIo {
        reads_s: d(a.reads, b.reads) / s,
        read_mib_s: d(a.read_sectors, b.read_sectors) * SECTOR / MIB / s,
        writes_s: writes / s,
        write_mib_s: d(a.write_sectors, b.write_sectors) * SECTOR / MIB / s,
        flushes_s: flushes.map(|(n, _)| n / s),
        busy: (d(a.io_ms, b.io_ms) / ms).min(1.0),
        write_ms: average(d(a.write_ms, b.write_ms), writes),
        flush_ms: flushes.and_then(|(n, t)| average(t, n)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const STATS: &str = "   7       0 loop0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n \
        254       0 vda 3366009 74537 132660658 4652908 6529731 334861 223219168 2256718 0 911340 7415439 218060 79 137478288 102251 2821755 403560\n \
          8       1 sda1 100 0 800 50 200 0 1600 300 0 400 350\n";

    #[test]
    fn a_diskstats_line_gives_its_counters_with_flushes_where_the_kernel_counts_them() {
        let vda = parse(STATS, 254, 0).unwrap();
        assert_eq!(
            vda,
            DiskCounters {
                reads: 3366009,
                read_sectors: 132660658,
                writes: 6529731,
                write_sectors: 223219168,
                write_ms: 2256718,
                io_ms: 911340,
                flushes: Some((2821755, 403560)),
            }
        );
        // A kernel before 4.18 writes 11 counters: no discards, no flushes.
        assert_eq!(parse(STATS, 8, 1).unwrap().flushes, None);
        assert_eq!(parse(STATS, 8, 1).unwrap().io_ms, 400);
        assert_eq!(parse(STATS, 254, 1), None);
        assert_eq!(device_name(STATS, 254, 0).as_deref(), Some("vda"));
    }

    #[test]
    fn rates_are_per_second_and_latencies_per_request() {
        let a = DiskCounters {
            reads: 10,
            read_sectors: 0,
            writes: 100,
            write_sectors: 0,
            write_ms: 1000,
            io_ms: 5000,
            flushes: Some((50, 200)),
        };
        // Two seconds: 400 writes of 4 KiB taking 1 ms each, 100 flushes of 2 ms, 1.5 s busy.
        let b = DiskCounters {
            reads: 10,
            read_sectors: 0,
            writes: 500,
            write_sectors: 400 * 8,
            write_ms: 1400,
            io_ms: 6500,
            flushes: Some((150, 400)),
        };
        let io = io_between(&a, &b, 2000.0).unwrap();
        assert_eq!(io.writes_s, 200.0);
        assert!((io.write_mib_s - 400.0 * 4096.0 / MIB / 2.0).abs() < 1e-12);
        assert_eq!((io.reads_s, io.read_mib_s), (0.0, 0.0));
        assert_eq!(io.flushes_s, Some(50.0));
        assert_eq!(io.busy, 0.75);
        assert_eq!((io.write_ms, io.flush_ms), (Some(1.0), Some(2.0)));
        // Nothing happened: no averages to give; counters going back: no figures.
        let idle = io_between(&b, &b, 1000.0).unwrap();
        assert_eq!((idle.write_ms, idle.flush_ms, idle.busy), (None, None, 0.0));
        assert!(io_between(&b, &a, 1000.0).is_none());
        let m = DiskIo::mean([io, idle].iter()).unwrap();
        assert_eq!((m.writes_s, m.busy, m.write_ms), (100.0, 0.375, Some(1.0)));
        assert_eq!(m.flushes_s, Some(25.0));
        assert!(DiskIo::mean([].iter()).is_none());
    }

    #[test]
    fn a_file_system_without_its_own_device_is_found_through_its_mount() {
        let info = "27 1 254:0 / / rw,relatime - ext4 /dev/vda rw,discard\n\
            40 27 0:45 / /srv/data rw - btrfs /dev/sdb2 rw,space_cache\n\
            41 27 0:45 /sub /srv/data/my\\040dir rw - btrfs /dev/sdb2 rw\n\
            50 27 0:60 / /var/lib/docker/x/merged rw - overlay overlay rw,lowerdir=/l,upperdir=/u/diff,workdir=/u/work\n";
        let m = mount_of(info, Some((0, 45)), Path::new("/srv/data/my dir/db")).unwrap();
        assert_eq!(m.point, "/srv/data/my dir");
        assert_eq!(
            (m.fstype.as_str(), m.source.as_str()),
            ("btrfs", "/dev/sdb2")
        );
        let o = mount_of(
            info,
            Some((0, 60)),
            Path::new("/var/lib/docker/x/merged/mysql"),
        )
        .unwrap();
        assert_eq!(option(&o.super_options, "upperdir"), Some("/u/diff"));
        assert_eq!(option(&o.super_options, "upper"), None);
        assert!(mount_of(info, Some((0, 45)), Path::new("/elsewhere")).is_none());
        // By path alone (a directory the server names, among its own mounts): the deepest
        // mount above it, whatever its device.
        let d = mount_of(info, None, Path::new("/var/lib/mysql/")).unwrap();
        assert_eq!((d.device, d.point.as_str()), ((254, 0), "/"));
        let d = mount_of(info, None, Path::new("/srv/data/my dir")).unwrap();
        assert_eq!(d.device, (0, 45));
    }

    #[test]
    fn this_machines_temporary_directory_is_on_a_device_or_says_why_not() {
        // A device whose counters can be read where /proc/diskstats lists the directory's
        // own (looked up here by its st_dev, not by `locate`), or else a reason that names
        // the directory.
        let dir = fs::canonicalize(std::env::temp_dir()).unwrap();
        let dev = fs::metadata(&dir).unwrap().dev();
        let (major, minor) = (libc::major(dev).to_string(), libc::minor(dev).to_string());
        let listed = fs::read_to_string("/proc/diskstats")
            .unwrap()
            .lines()
            .map(|l| l.split_whitespace().collect::<Vec<_>>())
            .any(|f| f.len() > 2 && f[0] == major && f[1] == minor);
        match (locate(&dir), listed) {
            (Ok(d), true) => {
                assert_eq!(d.path, dir.display().to_string());
                assert!(d.read().is_some(), "{d:?}");
            }
            (Err(why), false) => assert!(why.contains(&dir.display().to_string()), "{why}"),
            (found, listed) => {
                panic!("locate: {found:?}; /proc/diskstats lists {major}:{minor}: {listed}")
            }
        }
        assert!(locate(Path::new("/no/such/dir"))
            .unwrap_err()
            .contains("/no/such/dir"));
        // A directory a process names, found among that process's mounts (here this one's),
        // is on the same device as the directory itself.
        if let Ok(d) = locate(&dir) {
            let named = format!("{}/", dir.display());
            let by_mounts = locate_in_mounts_of(std::process::id(), &named).unwrap();
            assert_eq!((by_mounts.major, by_mounts.minor), (d.major, d.minor));
            assert_eq!(by_mounts.path, dir.display().to_string());
        }
    }
}
