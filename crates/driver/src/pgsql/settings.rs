//! Global settings on PostgreSQL: `ALTER SYSTEM SET` and `pg_reload_conf()`, read back from
//! `pg_settings` (a change that needs a restart says so there, `pending_restart`).

use crate::settings::{check_name, GlobalSettings, Saved};
use crate::{Connection, DbError, DbErrorKind, DbResult};

pub struct PgSettings;

fn quoted(v: &str) -> String {
    format!("'{}'", v.replace('\'', "''"))
}

fn reload(conn: &mut dyn Connection) -> DbResult<()> {
    conn.query("SELECT pg_reload_conf()").map(|_| ())
}

impl GlobalSettings for PgSettings {
    fn verb(&self) -> &'static str {
        "ALTER SYSTEM SET"
    }

    fn save(&self, conn: &mut dyn Connection, name: &str) -> DbResult<Saved> {
        check_name(name)?;
        let rows = conn.query_rows(&format!(
            "SELECT current_setting({}), coalesce(sourcefile, '') FROM pg_settings WHERE name = lower({})",
            quoted(name),
            quoted(name)
        ))?;
        let row = rows.first().ok_or_else(|| {
            DbError::new(
                DbErrorKind::Setup,
                "42704",
                format!("unrecognized configuration parameter \"{name}\""),
            )
        })?;
        let field = |i: usize| row.get(i).cloned().flatten().unwrap_or_default();
        // A value ALTER SYSTEM made before is put back the same way; any other is put back by
        // removing our entry, so the configuration file's or the default applies again.
        let how = if field(1).ends_with("postgresql.auto.conf") {
            "set"
        } else {
            "reset"
        };
        Ok(Saved {
            name: name.to_string(),
            original: field(0),
            how: how.into(),
        })
    }

    fn apply(&self, conn: &mut dyn Connection, name: &str, value: &str) -> DbResult<()> {
        check_name(name)?;
        conn.query(&format!("ALTER SYSTEM SET {name} = {}", quoted(value)))?;
        reload(conn)
    }

    fn read(&self, conn: &mut dyn Connection, name: &str) -> DbResult<String> {
        check_name(name)?;
        let rows = conn.query_rows(&format!(
            "SELECT current_setting({}), pending_restart::text FROM pg_settings WHERE name = lower({})",
            quoted(name),
            quoted(name)
        ))?;
        let row = rows.first().cloned().unwrap_or_default();
        let field = |i: usize| row.get(i).cloned().flatten().unwrap_or_default();
        if field(1) == "true" {
            return Err(DbError::new(
                DbErrorKind::Setup,
                "55P02",
                format!("{name} takes effect only when the server restarts: give the settings set a restart command (restart = \"…\")"),
            ));
        }
        Ok(field(0))
    }

    fn restore(&self, conn: &mut dyn Connection, saved: &Saved) -> DbResult<()> {
        check_name(&saved.name)?;
        match saved.how.as_str() {
            "set" => conn.query(&format!(
                "ALTER SYSTEM SET {} = {}",
                saved.name,
                quoted(&saved.original)
            ))?,
            _ => conn.query(&format!("ALTER SYSTEM RESET {}", saved.name))?,
        };
        reload(conn)
    }
}
