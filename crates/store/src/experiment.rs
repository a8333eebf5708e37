//! What an experiment keeps in the store besides its runs: its generation (`--fresh` starts a
//! new one; the older runs stay listed), the server settings it changed and has yet to put
//! back, and the tables it prepared.

use crate::store::{Status, Store};
use dbpress_core::error::Result;
use rusqlite::{params, OptionalExtension};

/// A server setting an experiment changed: what to put back, and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChangedSetting {
    pub target: String,
    pub variable: String,
    pub original: String,
    /// "set" (put `original` back) or "reset" (PostgreSQL: remove the ALTER SYSTEM entry).
    pub how: String,
}

impl Store {
    /// The experiment's current generation, begun now (number 1) if it has none, or a new one
    /// with `fresh`. `plan` and `plan_path` are kept with the generation.
    pub fn generation(
        &mut self,
        experiment: &str,
        plan: &str,
        plan_path: &str,
        fresh: bool,
    ) -> Result<i64> {
        let current: Option<i64> = self
            .conn()
            .query_row(
                "SELECT generation FROM experiments WHERE name = ?1",
                [experiment],
                |r| r.get(0),
            )
            .optional()
            .map_err(|e| self.fail("reading the experiment", e))?;
        let next = match current {
            Some(g) if !fresh => {
                // The plan as it is now (a resumed experiment may have gained a level or a set).
                self.conn()
                    .execute(
                        "UPDATE experiments SET plan = ?2, plan_path = ?3 WHERE name = ?1",
                        params![experiment, plan, plan_path],
                    )
                    .map_err(|e| self.fail("updating the experiment's plan", e))?;
                return Ok(g);
            }
            Some(g) => g + 1,
            None => 1,
        };
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs() as i64)
            .unwrap_or(0);
        self.conn()
            .execute(
                "INSERT INTO experiments (name, generation, plan, plan_path, created_at) VALUES (?1, ?2, ?3, ?4, ?5) \
                 ON CONFLICT (name) DO UPDATE SET generation = ?2, plan = ?3, plan_path = ?4, created_at = ?5",
                params![experiment, next, plan, plan_path, now],
            )
            .map_err(|e| self.fail("starting the experiment", e))?;
        Ok(next)
    }

    /// The plan text and generation an experiment was last run with.
    pub fn experiment(&self, name: &str) -> Result<Option<(String, i64)>> {
        self.conn()
            .query_row(
                "SELECT plan, generation FROM experiments WHERE name = ?1",
                [name],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()
            .map_err(|e| self.fail("reading the experiment", e))
    }

    /// The cells of this generation that ended measured (their store names).
    pub fn finished_cells(&self, experiment: &str, generation: i64) -> Result<Vec<String>> {
        let mut stmt = self
            .conn()
            .prepare("SELECT DISTINCT cell FROM runs WHERE experiment = ?1 AND generation = ?2 AND status = ?3")
            .map_err(|e| self.fail("reading finished cells", e))?;
        stmt.query_map(params![experiment, generation, Status::Ok.as_str()], |r| {
            r.get(0)
        })
        .and_then(|rows| rows.collect())
        .map_err(|e| self.fail("reading finished cells", e))
    }

    /// Remember a setting before changing it; a setting already remembered keeps its first
    /// original (an experiment that resumes must put back what the server had before it began).
    pub fn remember_setting(&self, experiment: &str, s: &ChangedSetting) -> Result<()> {
        self.conn()
            .execute(
                "INSERT INTO changed_settings (experiment, target, variable, original, how) VALUES (?1, ?2, ?3, ?4, ?5) \
                 ON CONFLICT DO NOTHING",
                params![experiment, s.target, s.variable, s.original, s.how],
            )
            .map(|_| ())
            .map_err(|e| self.fail("remembering a setting", e))
    }

    /// The settings changed and not yet put back, in the order they were changed.
    pub fn changed_settings(&self, experiment: &str) -> Result<Vec<ChangedSetting>> {
        let mut stmt = self
            .conn()
            .prepare("SELECT target, variable, original, how FROM changed_settings WHERE experiment = ?1 ORDER BY rowid")
            .map_err(|e| self.fail("reading changed settings", e))?;
        stmt.query_map([experiment], |r| {
            Ok(ChangedSetting {
                target: r.get(0)?,
                variable: r.get(1)?,
                original: r.get(2)?,
                how: r.get(3)?,
            })
        })
        .and_then(|rows| rows.collect())
        .map_err(|e| self.fail("reading changed settings", e))
    }

    /// A setting is back to its original.
    pub fn forget_setting(&self, experiment: &str, target: &str, variable: &str) -> Result<()> {
        self.conn()
            .execute(
                "DELETE FROM changed_settings WHERE experiment = ?1 AND target = ?2 AND variable = ?3",
                params![experiment, target, variable],
            )
            .map(|_| ())
            .map_err(|e| self.fail("forgetting a restored setting", e))
    }

    /// The settings set the experiment's prepare of `prepare` on `target` ran under, if it ran.
    pub fn prepared(
        &self,
        experiment: &str,
        generation: i64,
        target: &str,
        prepare: &str,
    ) -> Result<Option<String>> {
        self.conn()
            .query_row(
                "SELECT settings FROM prepared WHERE experiment = ?1 AND generation = ?2 AND target = ?3 AND prepare = ?4",
                params![experiment, generation, target, prepare],
                |r| r.get(0),
            )
            .optional()
            .map_err(|e| self.fail("reading prepared tables", e))
    }

    /// Record (`Some(settings)`) or forget (`None`, after its cleanup) a prepare.
    pub fn set_prepared(
        &self,
        experiment: &str,
        generation: i64,
        target: &str,
        prepare: &str,
        settings: Option<&str>,
    ) -> Result<()> {
        let r = match settings {
            Some(s) => self.conn().execute(
                "INSERT INTO prepared (experiment, generation, target, prepare, settings) VALUES (?1, ?2, ?3, ?4, ?5) \
                 ON CONFLICT DO UPDATE SET settings = ?5",
                params![experiment, generation, target, prepare, s],
            ),
            None => self.conn().execute(
                "DELETE FROM prepared WHERE experiment = ?1 AND generation = ?2 AND target = ?3 AND prepare = ?4",
                params![experiment, generation, target, prepare],
            ),
        };
        r.map(|_| ())
            .map_err(|e| self.fail("recording a prepare", e))
    }

    /// Every prepare this experiment's generation recorded and has not cleaned up: target,
    /// prepare command, and the settings set it ran under.
    pub fn all_prepared(
        &self,
        experiment: &str,
        generation: i64,
    ) -> Result<Vec<(String, String, String)>> {
        let mut stmt = self
            .conn()
            .prepare("SELECT target, prepare, settings FROM prepared WHERE experiment = ?1 AND generation = ?2 ORDER BY rowid")
            .map_err(|e| self.fail("reading prepared tables", e))?;
        stmt.query_map(params![experiment, generation], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
        })
        .and_then(|rows| rows.collect())
        .map_err(|e| self.fail("reading prepared tables", e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generations_settings_and_prepares_round_trip() {
        let dir =
            std::env::temp_dir().join(format!("dbpress-experiment-store-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let mut s = Store::open(&dir.join("r.db")).unwrap();
        assert_eq!(s.generation("e", "plan", "p.toml", false).unwrap(), 1);
        assert_eq!(s.generation("e", "plan1b", "p.toml", false).unwrap(), 1);
        assert_eq!(s.experiment("e").unwrap(), Some(("plan1b".into(), 1)));
        assert_eq!(s.generation("e", "plan2", "p.toml", true).unwrap(), 2);
        assert_eq!(s.experiment("e").unwrap(), Some(("plan2".into(), 2)));
        let set = |v: &str, o: &str| ChangedSetting {
            target: "m".into(),
            variable: v.into(),
            original: o.into(),
            how: "set".into(),
        };
        s.remember_setting("e", &set("sync_binlog", "1")).unwrap();
        // A second change of the same variable keeps the first original.
        s.remember_setting("e", &set("sync_binlog", "0")).unwrap();
        s.remember_setting("e", &set("innodb_flush_log_at_trx_commit", "1"))
            .unwrap();
        let changed = s.changed_settings("e").unwrap();
        assert_eq!(changed.len(), 2);
        assert_eq!(changed[0].original, "1");
        s.forget_setting("e", "m", "sync_binlog").unwrap();
        assert_eq!(s.changed_settings("e").unwrap().len(), 1);
        s.set_prepared("e", 2, "m", "oltp_write_only --tables=1", Some("double1"))
            .unwrap();
        assert_eq!(
            s.prepared("e", 2, "m", "oltp_write_only --tables=1")
                .unwrap()
                .as_deref(),
            Some("double1")
        );
        assert_eq!(
            s.all_prepared("e", 2).unwrap(),
            vec![(
                "m".to_string(),
                "oltp_write_only --tables=1".to_string(),
                "double1".to_string()
            )]
        );
        s.set_prepared("e", 2, "m", "oltp_write_only --tables=1", None)
            .unwrap();
        assert!(s.all_prepared("e", 2).unwrap().is_empty());
    }
}
