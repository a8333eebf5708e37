//! What the server says the run's sessions were doing: its own view of each session (waiting
//! on a lock, on the WAL, on the client, or running), sampled several times a second while the
//! run is measured, and tallied as shares of the samples.
//!
//! Throughput says how much; this says what the sessions waited on while it was that much: a
//! hot-row update spending 70% of its time in `Lock:transactionid`, a write-heavy run in
//! `IO:WALSync`, a run whose server mostly waits for the client (`Client:ClientRead`), which
//! then measures the client or the network more than the server. It is what DBAs read from
//! `pg_stat_activity` (and ASH-style samplers) by hand.
//!
//! A driver says where it looks (`Driver::wait_source`) and takes one sample
//! (`Driver::sample_waits`): what each session of the run is doing, in the server's words.

use crate::ticker::{session_lost, Ticker};
use dbpress_driver::Driver;
use dbpress_result::wait_shares::shares;
pub use dbpress_result::waits::{ServerWaits, WaitShare};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// How often the sessions are sampled.
pub const EVERY: Duration = Duration::from_millis(100);

/// When each sample was taken and what it saw, kept until the run's intervals are known and
/// then tallied into them (`Interval::waits`): the waits of the seconds in which throughput
/// dipped, set beside the others', say what the dip waited on.
#[derive(Default)]
pub struct Timeline {
    /// Event names, each once; samples refer to them by index.
    names: Vec<String>,
    /// (when, [(name index, sessions)]) per sample.
    samples: Vec<(Instant, Vec<(u32, u32)>)>,
}

impl Timeline {
    fn record(&mut self, at: Instant, sample: &BTreeMap<&str, u32>) {
        let mut tally = Vec::with_capacity(sample.len());
        for (event, n) in sample {
            let idx = match self.names.iter().position(|x| x == event) {
                Some(i) => i,
                None => {
                    self.names.push(event.to_string());
                    self.names.len() - 1
                }
            };
            tally.push((idx as u32, *n));
        }
        self.samples.push((at, tally));
    }

    /// Tally each sample into the interval it was taken in; `measure_start` is the instant
    /// the intervals' `time_s` count from. An interval without a sample keeps `waits` None.
    pub fn assign(&self, intervals: &mut [dbpress_result::Interval], measure_start: Instant) {
        let mut k = 0;
        for (at, tally) in &self.samples {
            let t = at.saturating_duration_since(measure_start).as_secs_f64();
            // Samples are in time order, and so are the intervals: move on to the one this
            // sample falls in (the last takes whatever came after its end).
            while k + 1 < intervals.len() && t >= intervals[k].time_s {
                k += 1;
            }
            let Some(i) = intervals.get_mut(k) else {
                return;
            };
            let waits = i.waits.get_or_insert_with(BTreeMap::new);
            for (idx, n) in tally {
                *waits.entry(self.names[*idx as usize].clone()).or_insert(0) += u64::from(*n);
            }
        }
    }
}

/// What the sampler reads of the run it watches (the runner's shared state).
pub trait WatchedRun: Sync {
    /// The run has stopped.
    fn stopped(&self) -> bool;
    /// The warm-up is over.
    fn measuring(&self) -> bool;
    /// Workers still in the run.
    fn running(&self) -> usize;
    /// The server's ids of the run's sessions, sorted.
    fn sessions(&self) -> Vec<u64>;
}

/// Samples the run's sessions until the run stops, counting only while it is measured and every
/// worker is still in it (workers that finished `--events` early leave, and a sample of the
/// others would say nothing of the load). Runs on a thread of its own with a session of its
/// own; a failure to connect or to query before the first sample is the result's
/// `unavailable` (a later one ends the sampling with what it has).
///
/// The run's sessions are `WatchedRun::sessions`: the server's ids, sorted, followed through
/// reconnects (empty where the driver does not know them: it then takes what it can tell is the
/// run's, see `Driver::sample_waits`). A lost sampling session (a restart or a failover the run
/// rides out) is reconnected and the sampling goes on.
pub fn sample(
    driver: &dyn Driver,
    source: &str,
    workers: usize,
    run: &dyn WatchedRun,
) -> (ServerWaits, Timeline) {
    let mut waits = ServerWaits {
        source: source.to_string(),
        every_ms: EVERY.as_millis() as u64,
        ..ServerWaits::default()
    };
    let mut conn = match driver.connect_monitor() {
        Ok(c) => c,
        Err(e) => {
            waits.unavailable = Some(format!("not sampled: cannot connect: {}", e.message));
            return (waits, Timeline::default());
        }
    };
    let mut tally: BTreeMap<String, u64> = BTreeMap::new();
    let mut timeline = Timeline::default();
    let mut ticker = Ticker::new(EVERY);
    while ticker.wait(&|| run.stopped()) {
        if !run.measuring() {
            continue;
        }
        if run.running() < workers {
            break;
        }
        let at = Instant::now();
        match driver.sample_waits(conn.as_mut(), &run.sessions()) {
            // A worker that left during the sample may have closed its session before the
            // server was asked: the sample could miss it, so it is not counted. (Workers leave
            // before their sessions close, so one still running now was open throughout.)
            Ok(_) if run.running() < workers => break,
            Ok(seen) => {
                waits.samples += 1;
                let mut sample: BTreeMap<&str, u32> = BTreeMap::new();
                for event in &seen {
                    *sample.entry(event.as_str()).or_insert(0) += 1;
                }
                timeline.record(at, &sample);
                for (event, n) in sample {
                    *tally.entry(event.to_string()).or_insert(0) += u64::from(n);
                }
            }
            Err(e) if waits.samples == 0 => {
                waits.unavailable = Some(format!("not sampled: {}", e.message));
                return (waits, timeline);
            }
            // The session was lost (a restart, a failover, a killed session): sample again on
            // a new one from the next tick; while there is none, what was seen stands.
            Err(e) if session_lost(&e) => {
                let _ = conn.reconnect();
            }
            // Anything else would fail again: what was seen stands.
            Err(_) => break,
        }
    }
    let total: u64 = tally.values().sum();
    waits.sessions_avg = total as f64 / waits.samples.max(1) as f64;
    waits.events = shares([&tally]);
    if waits.samples == 0 {
        waits.unavailable = Some("not sampled: the run ended before the first sample".into());
    }
    (waits, timeline)
}

#[cfg(test)]
mod tests {
    use super::*;
    use dbpress_result::wait_shares::top;

    #[test]
    fn each_sample_is_tallied_into_the_interval_it_was_taken_in() {
        let start = Instant::now();
        let at = |ms: u64| start + Duration::from_millis(ms);
        let mut t = Timeline::default();
        let sample =
            |pairs: &[(&'static str, u32)]| pairs.iter().copied().collect::<BTreeMap<_, _>>();
        t.record(at(100), &sample(&[("Lock:tuple", 3), ("running", 1)]));
        t.record(at(900), &sample(&[("running", 4)]));
        t.record(at(1500), &sample(&[("IO:WALSync", 2), ("running", 2)]));
        // After the last interval's end (a sample the run's end overtook): the last one's.
        t.record(at(3100), &sample(&[("Lock:tuple", 4)]));
        let mut intervals: Vec<dbpress_result::Interval> = [1.0, 2.0, 3.0]
            .iter()
            .map(|&end| dbpress_result::Interval {
                time_s: end,
                duration_s: 1.0,
                ..Default::default()
            })
            .collect();
        t.assign(&mut intervals, start);
        let w = |i: usize| intervals[i].waits.clone();
        let map =
            |pairs: &[(&str, u64)]| Some(pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect());
        assert_eq!(w(0), map(&[("Lock:tuple", 3), ("running", 5)]));
        assert_eq!(w(1), map(&[("IO:WALSync", 2), ("running", 2)]));
        assert_eq!(w(2), map(&[("Lock:tuple", 4)]));

        // Shares over several intervals, most frequent first, and the one-line form.
        let all = shares(intervals.iter().filter_map(|i| i.waits.as_ref()));
        assert_eq!(all[0].event, "Lock:tuple");
        assert_eq!((all[0].observations, all[1].observations), (7, 7));
        assert_eq!(top(&all, 2), "44% Lock:tuple, 44% running");
        // An interval no sample fell in keeps None.
        let mut empty = vec![dbpress_result::Interval::default()];
        Timeline::default().assign(&mut empty, start);
        assert_eq!(empty[0].waits, None);
    }
}
