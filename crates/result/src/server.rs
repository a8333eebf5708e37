//! What the server said about itself, for the result file and the run header: product,
//! version, the settings that change results, and the TLS its session negotiated (a driver
//! reads it: `Driver::server_info`).

/// Facts about the server for the result file and the header.
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize, PartialEq)]
pub struct ServerInfo {
    pub product: String,
    pub version: String,
    /// Settings that change benchmark results (durability, buffer pool, limits).
    pub variables: std::collections::BTreeMap<String, String>,
    /// When TLS was asked for: the protocol and cipher the session negotiated, or "" when it
    /// runs unencrypted (a "prefer" mode with a server that offers no TLS). Encryption changes
    /// what a run measures, so the header says which one ran.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_tls: Option<String>,
}

impl ServerInfo {
    /// The header's note on encryption: empty when TLS was not asked for.
    pub fn tls_note(&self) -> String {
        match self.session_tls.as_deref() {
            None => String::new(),
            Some("") => ", not encrypted (the server offered no TLS)".into(),
            Some(tls) => format!(", encrypted with {tls}"),
        }
    }
}
