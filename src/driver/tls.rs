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

/// The rustls client configuration for `check`, with the CA file the checks need (given by
/// the option named `ca_option`; the drivers refuse a checking mode without one), presenting
/// `client` when the server asks for a certificate.
pub fn client_config(
    check: CertCheck,
    ca: Option<&Path>,
    ca_option: &str,
    client: Option<&ClientCert>,
) -> Result<Arc<ClientConfig>, String> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let builder = ClientConfig::builder_with_provider(Arc::clone(&provider))
        .with_safe_default_protocol_versions()
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
