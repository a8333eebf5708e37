//! Whether this process can start `--threads` worker threads and open their sessions at all.
//!
//! Each thread takes four memory mappings: its stack and guard page, and the signal stack the
//! Rust runtime gives every thread with its own guard page (measured: 1 000 threads, 4 065
//! mappings). Past the kernel's `vm.max_map_count` a new thread fails while setting up its signal
//! stack, before any of our code runs, and the process aborts without a word about why.
//!
//! Each session keeps file descriptors open (a socket; SQLite's database file and WAL). Past
//! `ulimit -n` the next one fails with "Too many open files", which a driver reports as an
//! unreachable server or an unwritable database: the wrong cause and the wrong fix. Like Go's
//! runtime, dbpress raises its own soft limit to the hard limit when a run needs it.
//!
//! So both are checked before the first thread starts, and a `--threads` too large for the
//! machine gets one line with the limit and both ways out.

use dbpress_core::error::{environment, Result};

/// Mappings per worker thread: the four above plus one for buffers a connection may map.
const MAPS_PER_THREAD: u64 = 5;
/// Room kept for libraries, allocator arenas and the reporter.
const SPARE_MAPS: u64 = 512;

/// Fail with a clear message if `threads` more threads would pass `vm.max_map_count`.
/// Systems without the /proc files (not Linux) are not checked.
pub fn check_thread_room(threads: u64) -> Result<()> {
    let Some(limit) = std::fs::read_to_string("/proc/sys/vm/max_map_count")
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok())
    else {
        return Ok(());
    };
    let Some(in_use) = std::fs::read_to_string("/proc/self/maps")
        .ok()
        .map(|s| s.lines().count() as u64)
    else {
        return Ok(());
    };
    room_for(threads, limit, in_use)
}

/// Fewer descriptors than this would be left for the reporter, result files and libraries.
const SPARE_FILES: u64 = 64;

/// Make sure `threads` sessions of `per_session` descriptors each can be opened: raise the soft
/// `ulimit -n` up to the hard one if needed, or fail with a clear message.
pub fn check_file_room(threads: u64, per_session: u64) -> Result<()> {
    let Ok(open) = std::fs::read_dir("/proc/self/fd") else {
        return Ok(());
    };
    let needed = open.count() as u64 + SPARE_FILES + threads * per_session;
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes into the struct we own.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) } != 0 {
        return Ok(());
    }
    if needed <= lim.rlim_cur {
        return Ok(());
    }
    if needed <= lim.rlim_max {
        let raised = libc::rlimit {
            rlim_cur: lim.rlim_max,
            rlim_max: lim.rlim_max,
        };
        // SAFETY: setrlimit reads the struct we own; raising the soft limit up to the hard one
        // needs no privilege.
        if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &raised) } == 0 {
            return Ok(());
        }
    }
    files_message(threads, per_session, needed, lim.rlim_cur, lim.rlim_max)
}

fn files_message(threads: u64, per_session: u64, needed: u64, soft: u64, hard: u64) -> Result<()> {
    let most = hard.saturating_sub(needed - threads * per_session) / per_session.max(1);
    Err(environment(format!(
        "--threads={threads} needs about {needed} open files, more than this process may open \
         (ulimit -n: {soft}, hard limit {hard}): use at most {most} threads, or raise the hard \
         limit (ulimit -Hn, LimitNOFILE= for a service, nofile in /etc/security/limits.conf)"
    )))
}

fn room_for(threads: u64, limit: u64, in_use: u64) -> Result<()> {
    let needed = in_use + SPARE_MAPS + threads * MAPS_PER_THREAD;
    if needed <= limit {
        return Ok(());
    }
    let most = limit.saturating_sub(in_use + SPARE_MAPS) / MAPS_PER_THREAD;
    Err(environment(format!(
        "--threads={threads} needs about {needed} memory mappings, more than this system's \
         vm.max_map_count={limit}: use at most {most} threads, or raise the limit \
         (sudo sysctl -w vm.max_map_count={})",
        needed.next_multiple_of(1000) * 2
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_within_the_map_limit_pass() {
        assert!(room_for(3000, 65_530, 400).is_ok());
        assert!(room_for(12_000, 65_530, 400).is_ok());
    }

    #[test]
    fn too_many_threads_name_the_limit_and_the_largest_count_that_fits() {
        let e = room_for(100_000, 65_530, 400).unwrap_err();
        let m = e.message();
        assert!(m.contains("--threads=100000"), "{m}");
        assert!(m.contains("vm.max_map_count=65530"), "{m}");
        // (65 530 - 400 - 512) / 5
        assert!(m.contains("use at most 12923 threads"), "{m}");
        assert!(m.contains("sysctl -w vm.max_map_count=1002000"), "{m}");
        assert!(room_for(12_923, 65_530, 400).is_ok());
        assert!(room_for(12_924, 65_530, 400).is_err());
    }

    #[test]
    fn too_few_files_name_both_limits_and_the_largest_count_that_fits() {
        // 20 open + 64 spare + 3 000 sessions × 2.
        let e = files_message(3000, 2, 6084, 1024, 4096).unwrap_err();
        let m = e.message();
        assert!(
            m.contains("--threads=3000 needs about 6084 open files"),
            "{m}"
        );
        assert!(m.contains("ulimit -n: 1024, hard limit 4096"), "{m}");
        assert!(m.contains("use at most 2006 threads"), "{m}");
    }

    #[test]
    fn a_soft_file_limit_is_raised_up_to_the_hard_one() {
        let mut lim = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: as in check_file_room.
        assert_eq!(unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) }, 0);
        let sessions = lim.rlim_cur; // more than the soft limit allows, one file each
        if lim.rlim_max == libc::RLIM_INFINITY {
            // No hard limit to raise the soft one to: say so, and fail under CI, whose machines
            // have one (scripts/test.sh's environment), so the raise is checked there.
            assert!(
                !std::env::var("CI").is_ok_and(|v| v == "true" || v == "1"),
                "no hard RLIMIT_NOFILE here: the raise cannot be checked"
            );
            eprintln!("SKIPPED a_soft_file_limit_is_raised_up_to_the_hard_one: no hard file limit");
            return;
        }
        if sessions + 200 > lim.rlim_max {
            // No room above the soft limit here: only the refusal can be checked.
            assert!(check_file_room(lim.rlim_max, 1).is_err());
            return;
        }
        check_file_room(sessions, 1).unwrap();
        let mut after = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: as above.
        assert_eq!(
            unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut after) },
            0
        );
        assert_eq!(after.rlim_cur, lim.rlim_max);
        assert!(check_file_room(lim.rlim_max, 1).is_err());
    }

    #[test]
    fn this_machine_can_check() {
        // On Linux both files exist; a small count always fits.
        assert!(check_thread_room(1).is_ok());
        assert!(check_file_room(1, 2).is_ok());
    }
}
