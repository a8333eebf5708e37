//! Answering the server's authentication request: cleartext, MD5 or SCRAM-SHA-256 (the
//! exchange; its primitives are in crate::auth).

use super::*;

pub(super) fn no_password() -> DbError {
    DbError::new(
        DbErrorKind::Auth,
        "28P01",
        "the server asked for a password and none was given",
    )
}

pub(super) fn authenticate(io: &mut Io, t: &PgTarget) -> DbResult<()> {
    let mut scram: Option<auth::Scram> = None;
    loop {
        let (tag, body) = io.next().map_err(lost)?;
        if tag == b'E' {
            return Err(error_response(body));
        }
        if tag != b'R' || body.len() < 4 {
            return Err(protocol("authentication"));
        }
        let kind = u32::from_be_bytes([body[0], body[1], body[2], body[3]]);
        let data = body[4..].to_vec();
        let password = t.password.expose();
        match kind {
            0 => return Ok(()),
            3 => {
                if password.is_empty() {
                    return Err(no_password());
                }
                let at = io.begin(b'p');
                io.cstr(password.as_bytes());
                io.finish(at);
            }
            5 => {
                if password.is_empty() {
                    return Err(no_password());
                }
                let hashed = auth::md5_password(&t.user, password, &data[..4.min(data.len())]);
                let at = io.begin(b'p');
                io.cstr(hashed.as_bytes());
                io.finish(at);
            }
            10 => {
                if password.is_empty() {
                    return Err(no_password());
                }
                let offers_scram = data.split(|&b| b == 0).any(|m| m == b"SCRAM-SHA-256");
                if !offers_scram {
                    return Err(DbError::new(
                        DbErrorKind::Unsupported,
                        "28000",
                        "the server offers no SASL mechanism dbpress speaks (SCRAM-SHA-256)",
                    ));
                }
                let s = auth::Scram::new(password, nonce());
                let first = s.client_first();
                let at = io.begin(b'p');
                io.cstr(b"SCRAM-SHA-256");
                io.out
                    .extend_from_slice(&(first.len() as i32).to_be_bytes());
                io.out.extend_from_slice(first.as_bytes());
                io.finish(at);
                scram = Some(s);
            }
            11 => {
                let s = scram.as_mut().ok_or_else(|| protocol("SASL continue"))?;
                let fin = s
                    .client_final(&String::from_utf8_lossy(&data))
                    .map_err(|m| DbError::new(DbErrorKind::Auth, "28000", m))?;
                let at = io.begin(b'p');
                io.out.extend_from_slice(fin.as_bytes());
                io.finish(at);
            }
            12 => {
                let s = scram.as_ref().ok_or_else(|| protocol("SASL final"))?;
                s.verify_server_final(&String::from_utf8_lossy(&data))
                    .map_err(|m| DbError::new(DbErrorKind::Auth, "28000", m))?;
                continue;
            }
            other => {
                return Err(DbError::new(
                    DbErrorKind::Unsupported,
                    "28000",
                    format!("authentication method {other} is not supported by dbpress's client"),
                ))
            }
        }
        io.flush().map_err(lost)?;
    }
}

/// 18 unpredictable bytes for the SCRAM nonce (from the kernel, else the clock).
pub(super) fn nonce() -> [u8; 18] {
    let mut b = [0u8; 18];
    let from_kernel = std::fs::File::open("/dev/urandom").and_then(|mut f| f.read_exact(&mut b));
    if from_kernel.is_err() {
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or(Duration::ZERO)
            .as_nanos()
            .to_le_bytes();
        b[..16].copy_from_slice(&t);
    }
    b
}
