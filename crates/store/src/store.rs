//! `Store`: one SQLite file of runs. Opening it sets WAL (readers never block the writer, a
//! killed writer leaves the last committed run whole) and a busy timeout (two dbpress processes
//! saving at once wait for each other instead of failing).

use crate::schema;
use dbpress_core::error::{environment, Error, Result};
use dbpress_result::RunResult;
use rusqlite::{params, Connection, OptionalExtension};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The file `--store` and the `results` commands use when none is named.
pub const DEFAULT_PATH: &str = "dbpress-results.db";

pub struct Store {
    conn: Connection,
    path: PathBuf,
}

/// How a stored run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Measured to its end.
    Ok,
    /// Did not produce a measurement (an experiment's cell that failed), with its error.
    Failed,
    /// Stopped by a signal: a partial measurement, re-run when an experiment resumes.
    Interrupted,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::Failed => "failed",
            Status::Interrupted => "interrupted",
        }
    }

    fn parse(s: &str) -> Status {
        match s {
            "ok" => Status::Ok,
            "interrupted" => Status::Interrupted,
            _ => Status::Failed,
        }
    }
}

/// Where a run sits in an experiment's grid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellKey {
    pub experiment: String,
    pub generation: i64,
    pub target: String,
    pub settings: String,
    pub workload: String,
    pub threads: u32,
    pub repeat: u32,
}

impl CellKey {
    /// `target/settings/workload/threads/repeat`, the cell's name in the store.
    pub fn name(&self) -> String {
        format!(
            "{}/{}/{}/{}t/r{}",
            self.target, self.settings, self.workload, self.threads, self.repeat
        )
    }
}

/// A run to save.
#[derive(Clone, Debug)]
pub struct NewRun {
    pub status: Status,
    pub command: String,
    pub workload: String,
    pub threads: u32,
    pub tps: Option<f64>,
    pub qps: Option<f64>,
    pub p95_ms: Option<f64>,
    pub tpmc: Option<f64>,
    pub batch: Option<String>,
    pub cell: Option<CellKey>,
    pub error: Option<String>,
    /// The full JSON result, as `--output` writes it (None for a cell that produced none).
    pub result: Option<String>,
    pub tags: Vec<(String, String)>,
}

impl NewRun {
    /// An experiment's cell that could not run or left no result, and why.
    pub fn failed(
        command: String,
        workload: String,
        threads: u32,
        cell: CellKey,
        why: &str,
    ) -> NewRun {
        NewRun {
            status: Status::Failed,
            command,
            workload,
            threads,
            tps: None,
            qps: None,
            p95_ms: None,
            tpmc: None,
            batch: None,
            cell: Some(cell),
            error: Some(why.to_string()),
            result: None,
            tags: Vec::new(),
        }
    }

    /// A measured run, its summary columns read from its result.
    pub fn of_result(r: &RunResult, json: String, status: Status) -> NewRun {
        NewRun {
            status,
            command: r.command_line.join(" "),
            workload: r.run.workload.clone(),
            threads: r.run.threads,
            tps: Some(r.summary.tps),
            qps: Some(r.summary.qps),
            p95_ms: Some(r.summary.latency.p95_ms),
            tpmc: r.tpcc.as_ref().map(|t| t.tpmc as f64),
            batch: None,
            cell: None,
            error: r.run.fatal_error.clone(),
            result: Some(json),
            tags: Vec::new(),
        }
    }
}

/// Which runs `list` returns.
#[derive(Clone, Debug, Default)]
pub struct RunFilter {
    pub experiment: Option<String>,
    /// Only this generation of the experiment (None: every generation).
    pub generation: Option<i64>,
    /// Every one of these tags.
    pub tags: Vec<(String, String)>,
}

/// A stored run as `list` shows it (without its JSON).
#[derive(Clone, Debug)]
pub struct RunRow {
    pub id: i64,
    pub created_at: u64,
    pub status: Status,
    pub command: String,
    pub workload: String,
    pub threads: u32,
    pub tps: Option<f64>,
    pub qps: Option<f64>,
    pub p95_ms: Option<f64>,
    pub tpmc: Option<f64>,
    pub batch: Option<String>,
    pub cell: Option<CellKey>,
    pub error: Option<String>,
    pub tags: Vec<(String, String)>,
}

fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

const ROW_COLUMNS: &str =
    "id, created_at, status, command, workload, threads, tps, qps, p95_ms, tpmc, batch, \
     experiment, generation, target, settings, plan_workload, threads, repeat, error";

fn row_of(r: &rusqlite::Row<'_>) -> rusqlite::Result<RunRow> {
    let experiment: Option<String> = r.get(11)?;
    let cell = match experiment {
        Some(experiment) => Some(CellKey {
            experiment,
            generation: r.get(12)?,
            target: r.get(13)?,
            settings: r.get(14)?,
            workload: r.get(15)?,
            threads: r.get(16)?,
            repeat: r.get(17)?,
        }),
        None => None,
    };
    Ok(RunRow {
        id: r.get(0)?,
        created_at: r.get::<_, i64>(1)? as u64,
        status: Status::parse(&r.get::<_, String>(2)?),
        command: r.get(3)?,
        workload: r.get(4)?,
        threads: r.get(5)?,
        tps: r.get(6)?,
        qps: r.get(7)?,
        p95_ms: r.get(8)?,
        tpmc: r.get(9)?,
        batch: r.get(10)?,
        cell,
        error: r.get(18)?,
        tags: Vec::new(),
    })
}

impl Store {
    /// Open (creating it if need be) the store at `path`.
    pub fn open(path: &Path) -> Result<Store> {
        let shown = path.display();
        let conn = Connection::open(path)
            .map_err(|e| environment(format!("cannot open the results store {shown}: {e}")))?;
        let setup = || -> rusqlite::Result<i64> {
            conn.busy_timeout(Duration::from_secs(60))?;
            conn.pragma_update(None, "journal_mode", "WAL")?;
            // FULL: a committed run survives a power cut too, not only a killed process.
            conn.pragma_update(None, "synchronous", "FULL")?;
            conn.pragma_update(None, "foreign_keys", "ON")?;
            conn.query_row("PRAGMA user_version", [], |r| r.get(0))
        };
        let version = setup().map_err(|e| {
            environment(format!("{shown} is not a dbpress results store (or cannot be read: {e}): name another file with --store=PATH"))
        })?;
        if version > schema::VERSION {
            return Err(environment(format!(
                "the results store {shown} was written by a newer dbpress (store version {version}, this one knows {}): use that dbpress, or another file",
                schema::VERSION
            )));
        }
        if version < schema::VERSION {
            conn.execute_batch(&format!(
                "BEGIN IMMEDIATE; {} PRAGMA user_version = {}; COMMIT;",
                schema::DDL,
                schema::VERSION
            ))
            .map_err(|e| environment(format!("cannot set up the results store {shown}: {e}")))?;
        }
        Ok(Store {
            conn,
            path: path.to_path_buf(),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub(crate) fn conn(&self) -> &Connection {
        &self.conn
    }

    pub(crate) fn fail(&self, what: &str, e: rusqlite::Error) -> Error {
        environment(format!(
            "results store {}: {what}: {e}",
            self.path.display()
        ))
    }

    /// Save one run and its tags in one transaction; its id.
    pub fn save(&mut self, run: &NewRun) -> Result<i64> {
        let path = self.path.display().to_string();
        let fail =
            |e: rusqlite::Error| environment(format!("results store {path}: saving a run: {e}"));
        let tx = self
            .conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(fail)?;
        let c = run.cell.as_ref();
        tx.execute(
            "INSERT INTO runs (created_at, status, command, workload, threads, tps, qps, p95_ms, tpmc, batch, \
             experiment, generation, cell, target, settings, plan_workload, repeat, error, result) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19)",
            params![
                now() as i64,
                run.status.as_str(),
                run.command,
                run.workload,
                run.threads,
                run.tps,
                run.qps,
                run.p95_ms,
                run.tpmc,
                run.batch,
                c.map(|c| c.experiment.as_str()),
                c.map(|c| c.generation),
                c.map(CellKey::name),
                c.map(|c| c.target.as_str()),
                c.map(|c| c.settings.as_str()),
                c.map(|c| c.workload.as_str()),
                c.map(|c| c.repeat),
                run.error,
                run.result,
            ],
        )
        .map_err(fail)?;
        let id = tx.last_insert_rowid();
        for (k, v) in &run.tags {
            tx.execute(
                "INSERT INTO tags (run_id, key, value) VALUES (?1, ?2, ?3)",
                params![id, k, v],
            )
            .map_err(fail)?;
        }
        tx.commit().map_err(fail)?;
        Ok(id)
    }

    /// The runs `f` selects, oldest first.
    pub fn list(&self, f: &RunFilter) -> Result<Vec<RunRow>> {
        let mut sql = format!("SELECT {ROW_COLUMNS} FROM runs WHERE 1 = 1");
        let mut args: Vec<rusqlite::types::Value> = Vec::new();
        if let Some(e) = &f.experiment {
            args.push(e.clone().into());
            sql.push_str(&format!(" AND experiment = ?{}", args.len()));
        }
        if let Some(g) = f.generation {
            args.push(g.into());
            sql.push_str(&format!(" AND generation = ?{}", args.len()));
        }
        for (k, v) in &f.tags {
            args.push(k.clone().into());
            args.push(v.clone().into());
            sql.push_str(&format!(
                " AND EXISTS (SELECT 1 FROM tags t WHERE t.run_id = runs.id AND t.key = ?{} AND t.value = ?{})",
                args.len() - 1,
                args.len()
            ));
        }
        sql.push_str(" ORDER BY id");
        let mut stmt = self
            .conn
            .prepare(&sql)
            .map_err(|e| self.fail("listing runs", e))?;
        let rows = stmt
            .query_map(rusqlite::params_from_iter(args), row_of)
            .and_then(|rows| rows.collect::<rusqlite::Result<Vec<RunRow>>>())
            .map_err(|e| self.fail("listing runs", e))?;
        let mut rows = rows;
        for r in &mut rows {
            r.tags = self.tags_of(r.id)?;
        }
        Ok(rows)
    }

    fn tags_of(&self, id: i64) -> Result<Vec<(String, String)>> {
        let mut stmt = self
            .conn
            .prepare_cached("SELECT key, value FROM tags WHERE run_id = ?1 ORDER BY rowid")
            .map_err(|e| self.fail("reading tags", e))?;
        stmt.query_map([id], |r| Ok((r.get(0)?, r.get(1)?)))
            .and_then(|rows| rows.collect())
            .map_err(|e| self.fail("reading tags", e))
    }

    /// One run with its full JSON result (None: no run has that id).
    pub fn get(&self, id: i64) -> Result<Option<(RunRow, Option<String>)>> {
        let sql = format!("SELECT {ROW_COLUMNS}, result FROM runs WHERE id = ?1");
        let found = self
            .conn
            .query_row(&sql, [id], |r| {
                Ok((row_of(r)?, r.get::<_, Option<String>>(19)?))
            })
            .optional()
            .map_err(|e| self.fail("reading a run", e))?;
        match found {
            Some((mut row, json)) => {
                row.tags = self.tags_of(row.id)?;
                Ok(Some((row, json)))
            }
            None => Ok(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("dbpress-store-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir.join("r.db")
    }

    fn run(workload: &str, tags: &[(&str, &str)]) -> NewRun {
        NewRun {
            status: Status::Ok,
            command: "dbpress x run".into(),
            workload: workload.into(),
            threads: 4,
            tps: Some(100.0),
            qps: Some(2000.0),
            p95_ms: Some(1.5),
            tpmc: None,
            batch: None,
            cell: None,
            error: None,
            result: Some("{}".into()),
            tags: tags
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        }
    }

    #[test]
    fn runs_are_saved_listed_by_tag_and_read_back() {
        let path = temp("tags");
        let mut s = Store::open(&path).unwrap();
        let a = s.save(&run("a", &[("os", "centos7")])).unwrap();
        let b = s
            .save(&run("b", &[("os", "centos6"), ("dc", "x")]))
            .unwrap();
        assert!(b > a);
        let all = s.list(&RunFilter::default()).unwrap();
        assert_eq!(all.len(), 2);
        let f = RunFilter {
            tags: vec![("os".into(), "centos6".into())],
            ..RunFilter::default()
        };
        let only = s.list(&f).unwrap();
        assert_eq!(only.len(), 1);
        assert_eq!(only[0].workload, "b");
        assert_eq!(only[0].tags.len(), 2);
        let (row, json) = s.get(a).unwrap().unwrap();
        assert_eq!(row.workload, "a");
        assert_eq!(json.as_deref(), Some("{}"));
        assert!(s.get(999).unwrap().is_none());
        // Reopened, it is the same store.
        drop(s);
        assert_eq!(
            Store::open(&path)
                .unwrap()
                .list(&RunFilter::default())
                .unwrap()
                .len(),
            2
        );
    }

    #[test]
    fn a_newer_store_or_another_file_is_refused_in_one_line() {
        let path = temp("newer");
        let s = Store::open(&path).unwrap();
        s.conn.pragma_update(None, "user_version", 99).unwrap();
        drop(s);
        let e = Store::open(&path).err().unwrap().to_string();
        assert!(e.contains("newer dbpress"), "{e}");
        let junk = path.with_file_name("junk.db");
        std::fs::write(&junk, vec![b'x'; 4096]).unwrap();
        let e = Store::open(&junk).err().unwrap().to_string();
        assert!(e.contains("not a dbpress results store"), "{e}");
    }

    #[test]
    fn cells_keep_their_place_in_the_grid() {
        let path = temp("cells");
        let mut s = Store::open(&path).unwrap();
        let mut r = run("oltp_write_only", &[]);
        r.threads = 8;
        r.cell = Some(CellKey {
            experiment: "e".into(),
            generation: 2,
            target: "maria".into(),
            settings: "double1".into(),
            workload: "write".into(),
            threads: 8,
            repeat: 3,
        });
        s.save(&r).unwrap();
        let f = RunFilter {
            experiment: Some("e".into()),
            generation: Some(2),
            ..RunFilter::default()
        };
        let rows = s.list(&f).unwrap();
        assert_eq!(rows[0].cell, r.cell);
        assert_eq!(
            rows[0].cell.as_ref().unwrap().name(),
            "maria/double1/write/8t/r3"
        );
    }
}
