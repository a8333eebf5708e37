//! A SQLite database file of its own for one unit test, removed when the test ends: the
//! lifecycles that make and drop tables are tested on a real engine.

use crate::workload::Context;
use dbpress_core::rand::DistParams;
use dbpress_driver::sqlite::{SqliteDriver, SqliteTarget};
use dbpress_driver::PsMode;

pub struct TestDb {
    path: std::path::PathBuf,
    driver: SqliteDriver,
    dist: DistParams,
}

impl TestDb {
    pub fn new(name: &str) -> TestDb {
        let path = std::env::temp_dir().join(format!(
            "dbpress-workload-{name}-{}.sqlite",
            std::process::id()
        ));
        let _ = std::fs::remove_file(&path);
        let target = SqliteTarget {
            path: path.clone(),
            journal_mode: "delete".into(),
            synchronous: "off".into(),
            busy_timeout_ms: 1000,
            write_queue: false,
            implicit: false,
        };
        TestDb {
            path,
            driver: SqliteDriver::new(target, PsMode::Disable),
            dist: DistParams::default(),
        }
    }

    pub fn ctx(&self) -> Context<'_> {
        Context {
            driver: &self.driver,
            threads: 1,
            dist: &self.dist,
            invocation: "dbpress test".into(),
        }
    }

    /// The tables there now, sorted.
    pub fn tables(&self) -> Vec<String> {
        use dbpress_driver::Driver;
        let d = self.driver.dialect();
        let mut conn = self.ctx().connect(0).unwrap();
        let mut names: Vec<String> = conn
            .query_rows(&(d.table_comments)(""))
            .unwrap()
            .into_iter()
            .filter_map(|r| r.get(d.table_comments_columns.0).cloned().flatten())
            .collect();
        names.sort();
        names
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}
