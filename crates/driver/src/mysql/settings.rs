//! Global settings on a MySQL-protocol server: `SELECT @@GLOBAL.x`, `SET GLOBAL x = v`.

use crate::settings::{check_name, literal, GlobalSettings, Saved};
use crate::{Connection, DbError, DbErrorKind, DbResult};

pub struct MysqlSettings;

fn read_one(conn: &mut dyn Connection, name: &str) -> DbResult<String> {
    check_name(name)?;
    let rows = conn.query_rows(&format!("SELECT @@GLOBAL.{name}"))?;
    Ok(rows
        .first()
        .and_then(|r| r.first().cloned().flatten())
        .unwrap_or_default())
}

impl GlobalSettings for MysqlSettings {
    fn verb(&self) -> &'static str {
        "SET GLOBAL"
    }

    fn save(&self, conn: &mut dyn Connection, name: &str) -> DbResult<Saved> {
        Ok(Saved {
            name: name.to_string(),
            original: read_one(conn, name)?,
            how: "set".into(),
        })
    }

    fn apply(&self, conn: &mut dyn Connection, name: &str, value: &str) -> DbResult<()> {
        check_name(name)?;
        conn.query(&format!("SET GLOBAL {name} = {}", literal(value)))
            .map(|_| ())
            .map_err(|e| match e.code.as_str() {
                // ER_INCORRECT_GLOBAL_LOCAL_VAR: read-only, set at server start only.
                "1238" => DbError::new(
                    DbErrorKind::Setup,
                    e.code.clone(),
                    format!("{name} is read-only while the server runs ({}): set it in the server's configuration and give the settings set a restart command that applies it, with the value under `expect` to be read back", e.message),
                ),
                _ => e,
            })
    }

    fn read(&self, conn: &mut dyn Connection, name: &str) -> DbResult<String> {
        read_one(conn, name)
    }

    fn restore(&self, conn: &mut dyn Connection, saved: &Saved) -> DbResult<()> {
        self.apply(conn, &saved.name, &saved.original)
    }
}
