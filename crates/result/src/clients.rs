//! Which client library opened each session: a run's figures are dbpress's own client's unless
//! the result says otherwise, so every session that ran on another (the `mysql` crate, for an
//! authentication plugin dbpress's client does not speak) is counted and named with why. The
//! drivers count them (`dbpress_driver::clients::SessionTally`); the result keeps the counts.

/// Sessions one client opened, and why they were not on dbpress's own client, if they were not.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ClientSessions {
    pub client: String,
    pub sessions: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
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
