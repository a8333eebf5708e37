//! Which process on this machine is the server at the other end of a session, so that its CPU
//! time can be read beside dbpress's.
//!
//! Over a Unix socket the kernel tells (`SO_PEERCRED`: the process that listens, for any user).
//! Over TCP the server's end of the connection is looked up in /proc/net/tcp{,6}, and the
//! process holding that socket among /proc/*/fd, which only works for the server's owner or
//! root. A server on another machine has no such socket here.

use std::fs;
use std::net::{IpAddr, SocketAddr};
use std::os::fd::RawFd;

/// The server's process on this machine, or why its CPU cannot be read (on another machine,
/// another user's, an engine inside dbpress).
pub type ServerProcess = Result<u32, String>;

/// The process of the server, or why it cannot be read.
pub fn locate(fd: RawFd) -> Result<u32, String> {
    session_process(fd).map(server_root)
}

/// A server that forks a process per session (PostgreSQL) holds a TCP session in that
/// session's process, which ends with it: the server is its ancestor of the same name (the
/// postmaster), whose CPU time gathers its children's.
fn server_root(pid: u32) -> u32 {
    let mut pid = pid;
    while let Some(me) = super::procfs::read_process(pid) {
        match super::procfs::read_process(me.ppid) {
            Some(parent) if parent.pid > 1 && parent.name == me.name => pid = parent.pid,
            _ => break,
        }
    }
    pid
}

fn session_process(fd: RawFd) -> Result<u32, String> {
    match socket_family(fd)? {
        libc::AF_UNIX => peer_credentials(fd),
        libc::AF_INET | libc::AF_INET6 => {
            let (local, peer) = tcp_ends(fd)?;
            let inode = server_socket_inode(local, peer).ok_or_else(|| {
                format!("not measured: the server ({peer}) is not on this machine")
            })?;
            process_holding(inode).ok_or_else(|| {
                format!(
                    "not measured: the server ({peer}) runs on this machine as another user; run dbpress as that user or root to include its CPU"
                )
            })
        }
        other => Err(format!("not measured: unexpected socket family {other}")),
    }
}

fn socket_family(fd: RawFd) -> Result<i32, String> {
    // SAFETY: a zeroed sockaddr_storage is a valid out-buffer of the length passed.
    let mut addr: libc::sockaddr_storage = unsafe { std::mem::zeroed() };
    let mut len = std::mem::size_of::<libc::sockaddr_storage>() as libc::socklen_t;
    // SAFETY: fd is an open socket; addr/len describe a writable buffer.
    let r = unsafe {
        libc::getsockname(
            fd,
            (&mut addr as *mut libc::sockaddr_storage).cast(),
            &mut len,
        )
    };
    if r != 0 {
        return Err(format!(
            "not measured: getsockname: {}",
            std::io::Error::last_os_error()
        ));
    }
    Ok(addr.ss_family as i32)
}

fn peer_credentials(fd: RawFd) -> Result<u32, String> {
    let mut cred = libc::ucred {
        pid: 0,
        uid: 0,
        gid: 0,
    };
    let mut len = std::mem::size_of::<libc::ucred>() as libc::socklen_t;
    // SAFETY: cred/len describe a writable ucred, as SO_PEERCRED requires.
    let r = unsafe {
        libc::getsockopt(
            fd,
            libc::SOL_SOCKET,
            libc::SO_PEERCRED,
            (&mut cred as *mut libc::ucred).cast(),
            &mut len,
        )
    };
    if r != 0 {
        return Err(format!(
            "not measured: SO_PEERCRED: {}",
            std::io::Error::last_os_error()
        ));
    }
    // 0: the server lives in a process namespace this one cannot see into.
    if cred.pid <= 0 {
        return Err("not measured: the server's process is in another container".into());
    }
    Ok(cred.pid as u32)
}

/// This session's two ends: (ours, the server's).
fn tcp_ends(fd: RawFd) -> Result<(SocketAddr, SocketAddr), String> {
    // std can read both ends of a socket it does not own through a borrowed TcpStream.
    // SAFETY: fd stays open for the borrow's life; ManuallyDrop keeps it from being closed.
    let s = std::mem::ManuallyDrop::new(unsafe {
        <std::net::TcpStream as std::os::fd::FromRawFd>::from_raw_fd(fd)
    });
    let local = s
        .local_addr()
        .map_err(|e| format!("not measured: getsockname: {e}"))?;
    let peer = s
        .peer_addr()
        .map_err(|e| format!("not measured: getpeername: {e}"))?;
    Ok((local, peer))
}

/// The inode of the server's end of the session (its local address is our peer and its
/// remote address is us). A server listening on `::` accepts IPv4 sessions on IPv6 sockets,
/// so an IPv4 session is looked for in both tables.
fn server_socket_inode(ours: SocketAddr, theirs: SocketAddr) -> Option<u64> {
    let mut tables = vec![("/proc/net/tcp6", v6_key(theirs), v6_key(ours))];
    if theirs.is_ipv4() {
        tables.insert(0, ("/proc/net/tcp", v4_key(theirs), v4_key(ours)));
    }
    tables.into_iter().find_map(|(path, local, remote)| {
        let text = fs::read_to_string(path).ok()?;
        find_inode(&text, &local?, &remote?)
    })
}

/// In a /proc/net/tcp table: the inode of the socket whose local and remote addresses are
/// these (`ADDR:PORT`, both in the table's hex form).
pub fn find_inode(table: &str, local: &str, remote: &str) -> Option<u64> {
    table.lines().skip(1).find_map(|line| {
        let f: Vec<&str> = line.split_ascii_whitespace().collect();
        (f.len() > 9 && f[1].eq_ignore_ascii_case(local) && f[2].eq_ignore_ascii_case(remote))
            .then(|| f[9].parse().ok())
            .flatten()
    })
}

/// An IPv4 address as /proc/net/tcp writes it: the 32-bit word in host byte order, then the
/// port.
pub fn v4_key(a: SocketAddr) -> Option<String> {
    let IpAddr::V4(ip) = a.ip() else {
        return None;
    };
    Some(format!(
        "{:08X}:{:04X}",
        u32::from_ne_bytes(ip.octets()),
        a.port()
    ))
}

/// An address as /proc/net/tcp6 writes it (four 32-bit words in host byte order); IPv4 as
/// its IPv4-mapped form.
pub fn v6_key(a: SocketAddr) -> Option<String> {
    let ip = match a.ip() {
        IpAddr::V6(ip) => ip,
        IpAddr::V4(ip) => ip.to_ipv6_mapped(),
    };
    let words: String = ip
        .octets()
        .chunks(4)
        .map(|w| format!("{:08X}", u32::from_ne_bytes([w[0], w[1], w[2], w[3]])))
        .collect();
    Some(format!("{words}:{:04X}", a.port()))
}

/// The process with the socket `inode` among its open files, where this user may look.
fn process_holding(inode: u64) -> Option<u32> {
    let wanted = format!("socket:[{inode}]");
    let me = std::process::id();
    fs::read_dir("/proc")
        .ok()?
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&pid| pid != me)
        .find(|pid| {
            fs::read_dir(format!("/proc/{pid}/fd")).is_ok_and(|fds| {
                fds.filter_map(|e| e.ok()).any(|e| {
                    fs::read_link(e.path()).is_ok_and(|l| l.as_os_str() == wanted.as_str())
                })
            })
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn addresses_take_the_kernels_hex_form() {
        // Little-endian machines write 127.0.0.1 as 0100007F.
        let a: SocketAddr = "127.0.0.1:3306".parse().unwrap();
        if cfg!(target_endian = "little") {
            assert_eq!(v4_key(a).unwrap(), "0100007F:0CEA");
            assert_eq!(v6_key(a).unwrap(), "0000000000000000FFFF00000100007F:0CEA");
            let six: SocketAddr = "[::1]:5432".parse().unwrap();
            assert_eq!(
                v6_key(six).unwrap(),
                "00000000000000000000000001000000:1538"
            );
        }
        assert!(v4_key("[::1]:1".parse().unwrap()).is_none());
    }

    #[test]
    fn the_session_is_found_by_both_of_its_addresses() {
        let table = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n\
           0: 0100007F:0CEA 00000000:0000 0A 00000000:00000000 00:00000000 00000000   106        0 1111 1\n\
           1: 0100007F:0CEA 0100007F:D431 01 00000000:00000000 00:00000000 00000000   106        0 2222 1\n\
           2: 0100007F:D431 0100007F:0CEA 01 00000000:00000000 00:00000000 00000000     0        0 3333 1\n";
        assert_eq!(
            find_inode(table, "0100007F:0CEA", "0100007F:D431"),
            Some(2222)
        );
        assert_eq!(
            find_inode(table, "0100007F:D431", "0100007F:0CEA"),
            Some(3333)
        );
        assert_eq!(find_inode(table, "0100007F:0CEA", "0100007F:0001"), None);
    }

    #[test]
    fn a_unix_socket_names_the_listening_process_and_tcp_the_accepting_one() {
        // This process listens and connects to itself: both ways must name it. (The search
        // of /proc/*/fd skips dbpress itself, so the TCP case checks only the inode lookup.)
        let dir = std::env::temp_dir().join(format!("dbpress-peer-{}", std::process::id()));
        let _ = fs::remove_file(&dir);
        let listener = std::os::unix::net::UnixListener::bind(&dir).unwrap();
        let client = std::os::unix::net::UnixStream::connect(&dir).unwrap();
        let _server_end = listener.accept().unwrap();
        use std::os::fd::AsRawFd;
        assert_eq!(locate(client.as_raw_fd()), Ok(std::process::id()));
        let _ = fs::remove_file(&dir);

        let tcp = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let mut c = std::net::TcpStream::connect(tcp.local_addr().unwrap()).unwrap();
        let (_accepted, _) = tcp.accept().unwrap();
        c.write_all(b"x").unwrap();
        let (ours, theirs) = tcp_ends(c.as_raw_fd()).unwrap();
        assert!(server_socket_inode(ours, theirs).is_some());
    }
}
