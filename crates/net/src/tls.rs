//! TLS for dbpress's own protocol clients through rustls (no OpenSSL), shared by both
//! drivers: encryption only (libpq's prefer/require, MySQL's preferred/required), a certificate
//! signed by a given CA (verify-ca, verify_ca), or also issued for the host (verify-full,
//! verify_identity).

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::client::WebPkiServerVerifier;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName, UnixTime};
use rustls::{CertificateError, ClientConfig, DigitallySignedStruct, Error, RootCertStore};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// How much of the server's certificate a session checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CertCheck {
    /// None: the session is encrypted, the server not authenticated.
    None,
    /// Signed by the given CA, whatever name it was issued for.
    Ca,
    /// Signed by the given CA and issued for the host the session connects to.
    Full,
}

/// Accepts any certificate (encryption without authentication), but
/// still checks the handshake signatures with the real algorithms.
#[derive(Debug)]
struct AnyCertificate(Arc<rustls::crypto::CryptoProvider>);

/// Checks the chain against the CA and ignores the name.
#[derive(Debug)]
struct CaOnly(Arc<WebPkiServerVerifier>);

impl ServerCertVerifier for AnyCertificate {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, Error> {
        rustls::crypto::verify_tls12_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, Error> {
        rustls::crypto::verify_tls13_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<rustls::SignatureScheme> {
        self.0.signature_verification_algorithms.supported_schemes()
    }
}

impl ServerCertVerifier for CaOnly {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, Error> {
        match self
            .0
            .verify_server_cert(end_entity, intermediates, server_name, ocsp, now)
        {
            Err(Error::InvalidCertificate(
                CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. },
            )) => Ok(ServerCertVerified::assertion()),
            other => other,
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, Error> {
        self.0.verify_tls12_signature(message, cert, dss)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, Error> {
        self.0.verify_tls13_signature(message, cert, dss)
    }

    fn supported_verify_schemes(&self) -> Vec<rustls::SignatureScheme> {
        self.0.supported_verify_schemes()
    }
}

/// `ca_option` names the option that gave `file`, for the messages.
fn roots(file: &Path, ca_option: &str) -> Result<RootCertStore, String> {
    let mut store = RootCertStore::empty();
    let certs = CertificateDer::pem_file_iter(file)
        .map_err(|e| format!("cannot read {ca_option} {}: {e}", file.display()))?;
    for c in certs {
        let c = c.map_err(|e| format!("bad certificate in {}: {e}", file.display()))?;
        store
            .add(c)
            .map_err(|e| format!("bad certificate in {}: {e}", file.display()))?;
    }
    if store.is_empty() {
        return Err(format!("no certificate found in {}", file.display()));
    }
    Ok(store)
}

/// A client certificate and its private key (PEM files), presented when the server asks for
/// one: accounts that REQUIRE X509 on MySQL, `cert` authentication in PostgreSQL's pg_hba.conf.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClientCert {
    pub cert: PathBuf,
    pub key: PathBuf,
    /// The options that gave them, for the messages ("--mysql-ssl-cert", "--mysql-ssl-key").
    pub cert_option: &'static str,
    pub key_option: &'static str,
}

impl ClientCert {
    /// The pair from two options' values: both or neither, and files that exist. The error
    /// names the option to fix.
    pub fn from_files(
        cert: &str,
        key: &str,
        cert_option: &'static str,
        key_option: &'static str,
    ) -> Result<Option<ClientCert>, String> {
        match (cert.is_empty(), key.is_empty()) {
            (true, true) => return Ok(None),
            (false, true) => {
                return Err(format!(
                    "{cert_option} needs its private key: add {key_option}=FILE"
                ))
            }
            (true, false) => {
                return Err(format!(
                    "{key_option} needs the certificate it belongs to: add {cert_option}=FILE"
                ))
            }
            (false, false) => {}
        }
        for (file, option) in [(cert, cert_option), (key, key_option)] {
            if !Path::new(file).is_file() {
                return Err(format!(
                    "{option} file {file} does not exist: give the path of a PEM file"
                ));
            }
        }
        Ok(Some(ClientCert {
            cert: PathBuf::from(cert),
            key: PathBuf::from(key),
            cert_option,
            key_option,
        }))
    }

    fn load(&self) -> Result<(Vec<CertificateDer<'static>>, PrivateKeyDer<'static>), String> {
        let certs = CertificateDer::pem_file_iter(&self.cert)
            .map_err(|e| {
                format!(
                    "cannot read {} {}: {e}",
                    self.cert_option,
                    self.cert.display()
                )
            })?
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| format!("bad certificate in {}: {e}", self.cert.display()))?;
        if certs.is_empty() {
            return Err(format!(
                "no certificate found in {} {}: give a PEM file (-----BEGIN CERTIFICATE-----)",
                self.cert_option,
                self.cert.display()
            ));
        }
        let key = PrivateKeyDer::from_pem_file(&self.key).map_err(|e| {
            format!(
                "cannot read a private key from {} {}: {e}: give a PEM key (PKCS#8, RSA or EC)",
                self.key_option,
                self.key.display()
            )
        })?;
        Ok((certs, key))
    }
}

/// The cipher suites dbpress's TLS offers, by OpenSSL's name (what MySQL's `--ssl-cipher` and
/// sysbench's `--mysql-ssl-cipher` take) and by the IANA name rustls gives them.
const CIPHER_NAMES: &[(&str, rustls::CipherSuite)] = {
    use rustls::CipherSuite as S;
    &[
        ("TLS_AES_128_GCM_SHA256", S::TLS13_AES_128_GCM_SHA256),
        ("TLS_AES_256_GCM_SHA384", S::TLS13_AES_256_GCM_SHA384),
        (
            "TLS_CHACHA20_POLY1305_SHA256",
            S::TLS13_CHACHA20_POLY1305_SHA256,
        ),
        (
            "ECDHE-RSA-AES128-GCM-SHA256",
            S::TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
        ),
        (
            "ECDHE-RSA-AES256-GCM-SHA384",
            S::TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
        ),
        (
            "ECDHE-RSA-CHACHA20-POLY1305",
            S::TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
        ),
        (
            "ECDHE-ECDSA-AES128-GCM-SHA256",
            S::TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
        ),
        (
            "ECDHE-ECDSA-AES256-GCM-SHA384",
            S::TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
        ),
        (
            "ECDHE-ECDSA-CHACHA20-POLY1305",
            S::TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,
        ),
    ]
};

/// The suites a `--mysql-ssl-cipher` list names (`:` or `,` between names, OpenSSL's or IANA's
/// spelling, any case), in its order; an empty list means rustls's defaults. A name dbpress
/// cannot offer (CBC, DHE, RSA key exchange: suites rustls leaves out) is refused with the
/// names it can.
pub fn cipher_suites(list: &str, option: &str) -> Result<Vec<rustls::CipherSuite>, String> {
    let mut out = Vec::new();
    for name in list
        .split([':', ','])
        .map(str::trim)
        .filter(|n| !n.is_empty())
    {
        let found = CIPHER_NAMES.iter().find(|(openssl, suite)| {
            openssl.eq_ignore_ascii_case(name)
                || suite
                    .as_str()
                    .is_some_and(|iana| iana.eq_ignore_ascii_case(name))
        });
        match found {
            Some((_, suite)) => out.push(*suite),
            None => {
                let names: Vec<&str> = CIPHER_NAMES.iter().map(|(n, _)| *n).collect();
                return Err(format!(
                    "{option}: dbpress's TLS (rustls) cannot offer '{name}' (no CBC, DHE or plain-RSA suites): use one or more of {}",
                    names.join(":")
                ));
            }
        }
    }
    Ok(out)
}

/// The rustls client configuration for `check`, with the CA file the checks need (given by
/// the option named `ca_option`; the drivers refuse a checking mode without one), presenting
/// `client` when the server asks for a certificate, offering only `ciphers` when some are
/// given (and only the TLS versions they belong to).
pub fn client_config(
    check: CertCheck,
    ca: Option<&Path>,
    ca_option: &str,
    client: Option<&ClientCert>,
    ciphers: &[rustls::CipherSuite],
) -> Result<Arc<ClientConfig>, String> {
    let mut provider = rustls::crypto::ring::default_provider();
    if !ciphers.is_empty() {
        provider.cipher_suites = ciphers
            .iter()
            .filter_map(|c| {
                provider
                    .cipher_suites
                    .iter()
                    .find(|s| s.suite() == *c)
                    .copied()
            })
            .collect();
    }
    let versions: Vec<&'static rustls::SupportedProtocolVersion> =
        [&rustls::version::TLS13, &rustls::version::TLS12]
            .into_iter()
            .filter(|v| provider.cipher_suites.iter().any(|s| s.version() == *v))
            .collect();
    let provider = Arc::new(provider);
    let builder = ClientConfig::builder_with_provider(Arc::clone(&provider))
        .with_protocol_versions(&versions)
        .map_err(|e| e.to_string())?;
    let builder = match (check, ca) {
        (CertCheck::Full, Some(file)) => builder.with_root_certificates(roots(file, ca_option)?),
        (CertCheck::Ca, Some(file)) => {
            let webpki = WebPkiServerVerifier::builder_with_provider(
                Arc::new(roots(file, ca_option)?),
                Arc::clone(&provider),
            )
            .build()
            .map_err(|e| e.to_string())?;
            builder
                .dangerous()
                .with_custom_certificate_verifier(Arc::new(CaOnly(webpki)))
        }
        _ => builder
            .dangerous()
            .with_custom_certificate_verifier(Arc::new(AnyCertificate(provider))),
    };
    let config = match client {
        None => builder.with_no_client_auth(),
        Some(c) => {
            let (certs, key) = c.load()?;
            builder.with_client_auth_cert(certs, key).map_err(|e| {
                format!(
                    "{} {} and {} {} do not make a client identity: {e}",
                    c.cert_option,
                    c.cert.display(),
                    c.key_option,
                    c.key.display()
                )
            })?
        }
    };
    Ok(Arc::new(config))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rustls::CipherSuite as S;

    #[test]
    fn cipher_lists_take_openssl_and_iana_names_and_refuse_the_rest() {
        assert_eq!(cipher_suites("", "--x").unwrap(), []);
        assert_eq!(
            cipher_suites(
                "ecdhe-rsa-aes128-gcm-sha256: TLS_AES_256_GCM_SHA384,TLS13_CHACHA20_POLY1305_SHA256",
                "--x"
            )
            .unwrap(),
            [
                S::TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
                S::TLS13_AES_256_GCM_SHA384,
                S::TLS13_CHACHA20_POLY1305_SHA256
            ]
        );
        let e = cipher_suites("AES256-SHA", "--mysql-ssl-cipher").unwrap_err();
        assert!(
            e.starts_with("--mysql-ssl-cipher: dbpress's TLS (rustls) cannot offer 'AES256-SHA'")
        );
        // Every listed name is one the ring provider has.
        let provider = rustls::crypto::ring::default_provider();
        for (name, suite) in CIPHER_NAMES {
            assert!(
                provider.cipher_suites.iter().any(|s| s.suite() == *suite),
                "{name}"
            );
        }
        // Only the suites asked for are in the configuration's provider.
        let only12 = cipher_suites("ECDHE-RSA-AES128-GCM-SHA256", "--x").unwrap();
        let c = client_config(CertCheck::None, None, "--x", None, &only12).unwrap();
        let offered: Vec<S> = c
            .crypto_provider()
            .cipher_suites
            .iter()
            .map(|s| s.suite())
            .collect();
        assert_eq!(offered, only12);
    }
}
