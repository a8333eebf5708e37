//! Which client library opened each session: a run's figures are dbpress's own client's unless
//! the result says otherwise, so every session that ran on another (the `mysql` crate, for an
//! authentication plugin dbpress's client does not speak) is counted and named with why.

use std::sync::Mutex;

/// Sessions one client opened, and why they were not on dbpress's own client, if they were not.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ClientSessions {
    pub client: String,
    pub sessions: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

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

/// The sessions opened between two snapshots of one tally (a run, or one level of a sweep).
pub fn since(before: &[ClientSessions], after: &[ClientSessions]) -> Vec<ClientSessions> {
    after
        .iter()
        .filter_map(|a| {
            let earlier = before
                .iter()
                .find(|b| b.client == a.client && b.reason == a.reason)
                .map_or(0, |b| b.sessions);
            (a.sessions > earlier).then(|| ClientSessions {
                sessions: a.sessions - earlier,
                ..a.clone()
            })
        })
        .collect()
}

/// "dbpress's MySQL protocol client" or, when several ran, each with its count and reason.
pub fn describe(clients: &[ClientSessions]) -> String {
    match clients {
        [] => "none".into(),
        [only] if only.reason.is_none() => only.client.clone(),
        many => many
            .iter()
            .map(|c| {
                let why = c
                    .reason
                    .as_deref()
                    .map(|r| format!(" ({r})"))
                    .unwrap_or_default();
                let s = if c.sessions == 1 { "" } else { "s" };
                format!("{} session{s} on {}{why}", c.sessions, c.client)
            })
            .collect::<Vec<_>>()
            .join(", "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
