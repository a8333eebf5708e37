//! The few /proc files the CPU figures come from: the machine's CPU time (`/proc/stat`) and a
//! process's own (`/proc/PID/stat`). Times are in clock ticks (`USER_HZ`, usually 100 a second).

use std::fs;

/// The machine's CPU time since boot, summed over its CPUs (the `cpu` line of /proc/stat).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct HostTicks {
    /// user + nice (guest time is already inside user).
    pub user: u64,
    /// system + irq + softirq.
    pub system: u64,
    pub idle: u64,
    pub iowait: u64,
    /// Time a hypervisor ran something else while this machine's CPUs wanted to run.
    pub steal: u64,
    /// `cpuN` lines: the CPUs the sums cover.
    pub cpus: u32,
}

impl HostTicks {
    pub fn total(&self) -> u64 {
        self.user + self.system + self.idle + self.iowait + self.steal
    }
}

/// Parse /proc/stat's text.
pub fn parse_host(text: &str) -> Option<HostTicks> {
    let mut lines = text.lines();
    let first = lines.next()?;
    let mut fields = first.split_ascii_whitespace();
    if fields.next()? != "cpu" {
        return None;
    }
    let v: Vec<u64> = fields.map_while(|f| f.parse().ok()).collect();
    // user nice system idle iowait irq softirq steal (kernels since 2.6.11 give all eight).
    if v.len() < 8 {
        return None;
    }
    let cpus = lines
        .take_while(|l| l.starts_with("cpu"))
        .filter(|l| l.as_bytes().get(3).is_some_and(u8::is_ascii_digit))
        .count() as u32;
    Some(HostTicks {
        user: v[0] + v[1],
        system: v[2] + v[5] + v[6],
        idle: v[3],
        iowait: v[4],
        steal: v[7],
        cpus: cpus.max(1),
    })
}

pub fn read_host() -> Option<HostTicks> {
    parse_host(&fs::read_to_string("/proc/stat").ok()?)
}

/// A process's CPU time and the facts needed to find its children.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ProcessTicks {
    pub pid: u32,
    /// The command name (at most 15 bytes, as the kernel keeps it).
    pub name: String,
    pub ppid: u32,
    /// The process's own time, all its threads included.
    pub user: u64,
    pub system: u64,
    /// Time of its children that it has waited for (a PostgreSQL backend that ended).
    pub children_user: u64,
    pub children_system: u64,
}

/// Parse /proc/PID/stat's text. The name sits in parentheses and may itself hold spaces and
/// parentheses, so the fields are counted from the last `)`.
pub fn parse_process(pid: u32, text: &str) -> Option<ProcessTicks> {
    let open = text.find('(')?;
    let close = text.rfind(')')?;
    let name = text.get(open + 1..close)?.to_string();
    // After the name: state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt
    // cmajflt utime stime cutime cstime …
    let rest: Vec<&str> = text.get(close + 1..)?.split_ascii_whitespace().collect();
    let field = |k: usize| -> Option<u64> { rest.get(k)?.parse().ok() };
    Some(ProcessTicks {
        pid,
        name,
        ppid: field(1)? as u32,
        user: field(11)?,
        system: field(12)?,
        children_user: field(13)?,
        children_system: field(14)?,
    })
}

pub fn read_process(pid: u32) -> Option<ProcessTicks> {
    parse_process(pid, &fs::read_to_string(format!("/proc/{pid}/stat")).ok()?)
}

pub fn read_self() -> Option<ProcessTicks> {
    parse_process(
        std::process::id(),
        &fs::read_to_string("/proc/self/stat").ok()?,
    )
}

/// The live children of `parent` (a PostgreSQL postmaster's backends and helpers). Reads every
/// process's stat, so it is for the two readings around a run, not for every interval.
pub fn children_of(parent: u32) -> Vec<ProcessTicks> {
    let Ok(dir) = fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter_map(read_process)
        .filter(|p| p.ppid == parent)
        .collect()
}

/// Clock ticks per second of the times above.
pub fn ticks_per_second() -> f64 {
    // SAFETY: sysconf has no preconditions.
    let hz = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    if hz > 0 {
        hz as f64
    } else {
        100.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cpu_line_folds_into_five_shares_and_counts_cpus() {
        let text = "cpu  100 5 40 800 20 3 2 7 0 0\ncpu0 50 2 20 400 10 1 1 3 0 0\n\
                    cpu1 50 3 20 400 10 2 1 4 0 0\nintr 12345\nctxt 999\n";
        let t = parse_host(text).unwrap();
        assert_eq!(
            t,
            HostTicks {
                user: 105,
                system: 45,
                idle: 800,
                iowait: 20,
                steal: 7,
                cpus: 2
            }
        );
        assert_eq!(t.total(), 977);
        assert!(parse_host("intr 1\n").is_none());
        assert!(parse_host("cpu 1 2 3\n").is_none());
    }

    #[test]
    fn a_process_name_with_spaces_and_parentheses_does_not_shift_the_fields() {
        let text = "812 (my (odd) d) S 1 812 812 0 -1 4194560 5000 0 12 0 \
                    731 402 17 9 20 0 40 0 1234 0 0";
        let p = parse_process(812, text).unwrap();
        assert_eq!(p.name, "my (odd) d");
        assert_eq!(p.ppid, 1);
        assert_eq!((p.user, p.system), (731, 402));
        assert_eq!((p.children_user, p.children_system), (17, 9));
    }

    #[test]
    fn this_process_and_this_machine_can_be_read() {
        let me = read_self().expect("/proc/self/stat");
        assert_eq!(me.pid, std::process::id());
        assert_eq!(me.ppid, std::os::unix::process::parent_id());
        let host = read_host().expect("/proc/stat");
        assert!(host.cpus >= 1 && host.total() > 0);
        // This process is a child of its parent.
        assert!(children_of(me.ppid).iter().any(|c| c.pid == me.pid));
    }
}
