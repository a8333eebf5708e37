//! The sessions each driver opened, counted by the client library that opened them, for the
//! run header and `environment.clients` (the counts themselves are the result's:
//! `dbpress_result::clients`).

use std::sync::Mutex;

pub use dbpress_result::clients::ClientSessions;

/// A driver's tally of the sessions it opened, by client, in the order clients were first used.
#[derive(Debug, Default)]
pub struct SessionTally(Mutex<Vec<ClientSessions>>);

impl SessionTally {
    /// One more session opened by `client` (`reason`: why not dbpress's own).
    pub fn opened(&self, client: &str, reason: Option<&str>) {
        let mut all = self.0.lock().unwrap_or_else(|p| p.into_inner());
        match all
            .iter_mut()
            .find(|c| c.client == client && c.reason.as_deref() == reason)
        {
            Some(c) => c.sessions += 1,
            None => all.push(ClientSessions {
                client: client.to_string(),
                sessions: 1,
                reason: reason.map(String::from),
            }),
        }
    }

    pub fn snapshot(&self) -> Vec<ClientSessions> {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use dbpress_result::clients::{describe, since};

    #[test]
    fn a_tally_counts_by_client_and_reason_and_a_run_sees_only_its_own() {
        let t = SessionTally::default();
        t.opened("own", None);
        let before = t.snapshot();
        t.opened("own", None);
        t.opened("own", None);
        t.opened("crate", Some("plugin dialog"));
        let run = since(&before, &t.snapshot());
        assert_eq!(run.len(), 2);
        assert_eq!(run[0].sessions, 2);
        assert_eq!(
            describe(&run),
            "2 sessions on own, 1 session on crate (plugin dialog)"
        );
        assert_eq!(describe(&run[..1]), "own");
    }
}
