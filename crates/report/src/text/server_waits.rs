//! The server's wait events of the run's sessions as a section of dbpress's text: the most
//! frequent with their shares, the rest in one line (sampled by `dbpress_measure::waits`).

use dbpress_result::waits::ServerWaits;

/// At most this many events are listed; the rest are summed in one line.
const LISTED: usize = 12;

/// The report's section: the most frequent events with their shares, the rest in one line.
pub fn section(w: &ServerWaits) -> String {
    use std::fmt::Write;
    let mut o = String::new();
    if let Some(why) = &w.unavailable {
        let _ = writeln!(o, "Server wait events ({}): {why}\n", w.source);
        return o;
    }
    let _ = writeln!(
        o,
        "Server wait events of the run's sessions ({}, sampled every {} ms: {} samples of {:.1} sessions on average):",
        w.source, w.every_ms, w.samples, w.sessions_avg
    );
    for e in w.events.iter().take(LISTED) {
        let _ = writeln!(o, "    {:>5.1}%  {}", e.share * 100.0, e.event);
    }
    if w.events.len() > LISTED {
        let rest: f64 = w.events[LISTED..].iter().map(|e| e.share).sum();
        let _ = writeln!(
            o,
            "    {:>5.1}%  ({} others)",
            rest * 100.0,
            w.events.len() - LISTED
        );
    }
    let _ = writeln!(o);
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use dbpress_result::waits::WaitShare;

    #[test]
    fn the_section_lists_the_most_frequent_first_and_sums_the_rest() {
        let mut w = ServerWaits {
            source: "pg_stat_activity".into(),
            samples: 100,
            every_ms: 100,
            sessions_avg: 4.0,
            ..ServerWaits::default()
        };
        w.events = (0..14)
            .map(|k| WaitShare {
                event: format!("Lock:e{k}"),
                observations: 14 - k,
                share: (14 - k) as f64 / 105.0,
            })
            .collect();
        let text = section(&w);
        assert!(text.starts_with(
            "Server wait events of the run's sessions (pg_stat_activity, sampled every 100 ms: 100 samples of 4.0 sessions on average):\n     13.3%  Lock:e0\n"
        ), "{text}");
        // 12 listed, and the two least frequent (2 + 1 of 105) in one line.
        assert!(text.contains("\n      2.9%  (2 others)\n"), "{text}");
        w.unavailable = Some("not sampled: permission denied".into());
        assert_eq!(
            section(&w),
            "Server wait events (pg_stat_activity): not sampled: permission denied\n\n"
        );
    }
}
