//! The network interface the sessions use: found from a session's own socket (its local
//! address, matched against the machine's interfaces), read from /proc/net/dev over a run, and
//! set against the link's speed from /sys/class/net.
//!
//! The recommended setup puts the client on another machine than the server, and then the
//! link between them can be what a run measures: 100 rows of `c` per range select at thousands
//! of queries a second fill a gigabit link long before the server runs out of CPU. The figures
//! are the whole interface's, whoever caused them.

pub use dbpress_result::host::{NetIo, NetUsage};
use std::ffi::CStr;
use std::net::IpAddr;
use std::os::fd::RawFd;

/// An interface's counters since boot: one line of /proc/net/dev.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct NetCounters {
    pub rx_bytes: u64,
    pub rx_packets: u64,
    pub tx_bytes: u64,
    pub tx_packets: u64,
}

/// The interface's counters in /proc/net/dev's text.
pub fn parse(text: &str, name: &str) -> Option<NetCounters> {
    text.lines().find_map(|line| {
        let (iface, rest) = line.split_once(':')?;
        if iface.trim() != name {
            return None;
        }
        let f: Vec<u64> = rest
            .split_ascii_whitespace()
            .map(|v| v.parse().ok())
            .collect::<Option<_>>()?;
        // Receive: bytes packets errs drop fifo frame compressed multicast; then transmit.
        Some(NetCounters {
            rx_bytes: *f.first()?,
            rx_packets: *f.get(1)?,
            tx_bytes: *f.get(8)?,
            tx_packets: *f.get(9)?,
        })
    })
}

/// An interface the sessions go through.
#[derive(Clone, Debug, PartialEq)]
pub struct Interface {
    pub name: String,
    /// The sessions' local address on it.
    pub address: String,
    pub loopback: bool,
    /// The link's speed in Mb/s, where the driver reports one (virtual interfaces often do not).
    pub speed_mbit: Option<u64>,
}

impl Interface {
    pub fn read(&self) -> Option<NetCounters> {
        parse(&std::fs::read_to_string("/proc/net/dev").ok()?, &self.name)
    }
}

/// The interface, or why there is none to measure (a Unix socket, an embedded engine).
pub type NetworkLink = Result<Interface, String>;

/// The interface under the session whose socket is `fd`; None where there is no session
/// socket to look at (an embedded engine, a dry run, a session through a library).
///
/// A server on this machine reached at one of its own non-loopback addresses is still reached
/// through the loopback (the kernel routes local traffic there), so that is the interface
/// measured then.
pub fn link_of(fd: Option<RawFd>) -> Option<NetworkLink> {
    let fd = fd?;
    Some(find(fd))
}

fn find(fd: RawFd) -> NetworkLink {
    let local = socket_address(fd, libc::getsockname)?;
    let peer = socket_address(fd, libc::getpeername)?;
    let all = interfaces()?;
    let holding = |ip: IpAddr| all.iter().find(|i| i.1 == ip);
    let (name, loopback) = match (holding(local), holding(peer)) {
        (_, Some(_)) => {
            let lo = all.iter().find(|i| i.2).ok_or_else(|| {
                "not measured: the server is on this machine, but no loopback interface was found"
                    .to_string()
            })?;
            (lo.0.clone(), true)
        }
        (Some(i), None) => (i.0.clone(), i.2),
        (None, None) => {
            return Err(format!(
                "not measured: no interface of this machine holds the sessions' address {local}"
            ))
        }
    };
    let speed_mbit = std::fs::read_to_string(format!("/sys/class/net/{name}/speed"))
        .ok()
        .and_then(|s| s.trim().parse::<i64>().ok())
        .filter(|s| *s > 0)
        .map(|s| s as u64);
    Ok(Interface {
        name,
        address: local.to_string(),
        loopback,
        speed_mbit,
    })
}

type AddressCall =
    unsafe extern "C" fn(RawFd, *mut libc::sockaddr, *mut libc::socklen_t) -> libc::c_int;

/// The socket's own address (getsockname) or its peer's (getpeername); an error that says why
/// for a Unix socket or a failed call.
fn socket_address(fd: RawFd, call: AddressCall) -> Result<IpAddr, String> {
    // SAFETY: sockaddr_storage is plain data, valid zeroed, and large enough for any address.
    let mut ss: libc::sockaddr_storage = unsafe { std::mem::zeroed() };
    let mut len = std::mem::size_of::<libc::sockaddr_storage>() as libc::socklen_t;
    // SAFETY: `ss` and `len` are valid for writing; the kernel writes at most `len` bytes.
    let r = unsafe { call(fd, &mut ss as *mut _ as *mut libc::sockaddr, &mut len) };
    if r != 0 {
        return Err(format!(
            "not measured: the session's socket has no address ({})",
            std::io::Error::last_os_error()
        ));
    }
    sockaddr_ip(&ss).ok_or_else(|| {
        "not used: the sessions go over a Unix socket, not through a network interface".into()
    })
}

fn sockaddr_ip(ss: &libc::sockaddr_storage) -> Option<IpAddr> {
    match i32::from(ss.ss_family) {
        libc::AF_INET => {
            // SAFETY: the family says the storage holds a sockaddr_in.
            let sin = unsafe { &*(ss as *const _ as *const libc::sockaddr_in) };
            Some(IpAddr::from(sin.sin_addr.s_addr.to_ne_bytes()))
        }
        libc::AF_INET6 => {
            // SAFETY: the family says the storage holds a sockaddr_in6.
            let sin6 = unsafe { &*(ss as *const _ as *const libc::sockaddr_in6) };
            let ip = std::net::Ipv6Addr::from(sin6.sin6_addr.s6_addr);
            // An IPv4 peer reached through an IPv6 socket: the interface has the IPv4 address.
            Some(ip.to_ipv4_mapped().map_or(IpAddr::V6(ip), IpAddr::V4))
        }
        _ => None,
    }
}

/// The machine's interface addresses: name, address, loopback.
fn interfaces() -> Result<Vec<(String, IpAddr, bool)>, String> {
    let mut list: *mut libc::ifaddrs = std::ptr::null_mut();
    // SAFETY: getifaddrs fills `list` with a list freed below with freeifaddrs.
    if unsafe { libc::getifaddrs(&mut list) } != 0 {
        return Err(format!(
            "not measured: the machine's interfaces cannot be listed ({})",
            std::io::Error::last_os_error()
        ));
    }
    let mut found = Vec::new();
    let mut at = list;
    while !at.is_null() {
        // SAFETY: `at` is an element of the list getifaddrs returned, not freed yet.
        let ifa = unsafe { &*at };
        at = ifa.ifa_next;
        if ifa.ifa_addr.is_null() {
            continue;
        }
        // SAFETY: ifa_addr points at a sockaddr of the size its family says.
        let size = match i32::from(unsafe { (*ifa.ifa_addr).sa_family }) {
            libc::AF_INET => std::mem::size_of::<libc::sockaddr_in>(),
            libc::AF_INET6 => std::mem::size_of::<libc::sockaddr_in6>(),
            _ => continue,
        };
        // SAFETY: plain data, valid zeroed.
        let mut ss: libc::sockaddr_storage = unsafe { std::mem::zeroed() };
        // SAFETY: both regions are at least `size` bytes and do not overlap.
        unsafe {
            std::ptr::copy_nonoverlapping(
                ifa.ifa_addr as *const u8,
                &mut ss as *mut _ as *mut u8,
                size,
            )
        };
        if let Some(ip) = sockaddr_ip(&ss) {
            // SAFETY: ifa_name is a NUL-terminated string owned by the list.
            let name = unsafe { CStr::from_ptr(ifa.ifa_name) }
                .to_string_lossy()
                .into_owned();
            let loopback = ifa.ifa_flags & libc::IFF_LOOPBACK as libc::c_uint != 0;
            found.push((name, ip, loopback));
        }
    }
    // SAFETY: the list came from getifaddrs and is freed once.
    unsafe { libc::freeifaddrs(list) };
    Ok(found)
}

/// Between two readings `seconds` apart; None for counters that went backwards.
pub fn io_between(a: &NetCounters, b: &NetCounters, seconds: f64) -> Option<NetIo> {
    if seconds <= 0.0 || b.rx_bytes < a.rx_bytes || b.tx_bytes < a.tx_bytes {
        return None;
    }
    let d = |x: u64, y: u64| y.saturating_sub(x) as f64 / seconds;
    const MIB: f64 = 1024.0 * 1024.0;
    Some(NetIo {
        rx_mib_s: d(a.rx_bytes, b.rx_bytes) / MIB,
        tx_mib_s: d(a.tx_bytes, b.tx_bytes) / MIB,
        rx_packets_s: d(a.rx_packets, b.rx_packets),
        tx_packets_s: d(a.tx_packets, b.tx_packets),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEV: &str = "Inter-|   Receive                                                |  Transmit
 face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed
    lo: 5242880    1000    0    0    0     0          0         0  5242880    1000    0    0    0     0       0          0
  eth0: 104857600  70000    0    0    0     0          0         0 2097152   30000    0    0    0     0       0          0
";

    #[test]
    fn proc_net_dev_lines_are_read_by_interface() {
        let eth = parse(DEV, "eth0").unwrap();
        assert_eq!(
            eth,
            NetCounters {
                rx_bytes: 104_857_600,
                rx_packets: 70_000,
                tx_bytes: 2_097_152,
                tx_packets: 30_000
            }
        );
        assert_eq!(parse(DEV, "lo").unwrap().tx_bytes, 5_242_880);
        assert!(parse(DEV, "eth1").is_none());
        let io = io_between(&NetCounters::default(), &eth, 2.0).unwrap();
        assert!((io.rx_mib_s - 50.0).abs() < 1e-9 && (io.tx_packets_s - 15_000.0).abs() < 1e-9);
        // 50 MiB/s received is 419 Mb/s: 42% of a gigabit link.
        assert!((io.link_share(1000) - 0.4194).abs() < 1e-3);
        assert!(io_between(&eth, &NetCounters::default(), 1.0).is_none());
    }

    #[test]
    fn a_tcp_session_is_found_on_its_interface_and_a_unix_socket_on_none() {
        use std::os::fd::AsRawFd;
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let client = std::net::TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        let link = link_of(Some(client.as_raw_fd())).unwrap().unwrap();
        assert!(link.loopback, "{link:?}");
        assert_eq!(link.address, "127.0.0.1");
        assert!(link.read().is_some(), "{link:?} in /proc/net/dev");
        // The machine's own other addresses are reached through the loopback too.
        if let Some((_, ip, _)) = interfaces()
            .unwrap()
            .into_iter()
            .find(|i| !i.2 && i.1.is_ipv4())
        {
            let listener = std::net::TcpListener::bind((ip, 0)).unwrap();
            let client = std::net::TcpStream::connect(listener.local_addr().unwrap()).unwrap();
            let link = link_of(Some(client.as_raw_fd())).unwrap().unwrap();
            assert!(link.loopback && link.name == "lo", "{link:?} for {ip}");
            assert_eq!(link.address, ip.to_string());
        }
        let (a, _b) = std::os::unix::net::UnixStream::pair().unwrap();
        let why = link_of(Some(a.as_raw_fd())).unwrap().unwrap_err();
        assert!(why.contains("Unix socket"), "{why}");
        assert!(link_of(None).is_none());
    }
}
