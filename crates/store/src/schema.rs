//! The store's tables. `PRAGMA user_version` is the file's version: a file written by a newer
//! dbpress is refused rather than misread.

/// The version this dbpress writes.
pub const VERSION: i64 = 1;

pub const DDL: &str = "
CREATE TABLE IF NOT EXISTS runs (
    id          INTEGER PRIMARY KEY,
    created_at  INTEGER NOT NULL,  -- Unix seconds, when the run was saved
    status      TEXT    NOT NULL,  -- ok | failed | interrupted
    command     TEXT    NOT NULL,  -- the command line, passwords as ***
    workload    TEXT    NOT NULL,
    threads     INTEGER NOT NULL,
    tps         REAL,
    qps         REAL,
    p95_ms      REAL,
    tpmc        REAL,
    batch       TEXT,              -- the sweep or slap invocation several runs came from
    experiment  TEXT,
    generation  INTEGER,           -- the experiment's generation (--fresh starts a new one)
    cell        TEXT,              -- the plan cell: target/settings/workload/threads/repeat
    target      TEXT,
    settings    TEXT,
    plan_workload TEXT,
    repeat      INTEGER,
    error       TEXT,              -- why a cell failed
    result      TEXT               -- the run's full JSON result, as `--output` writes it
);
CREATE INDEX IF NOT EXISTS runs_by_experiment ON runs (experiment, generation, cell);
CREATE TABLE IF NOT EXISTS tags (
    run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    key    TEXT NOT NULL,
    value  TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS tags_by_key ON tags (key, value);
CREATE TABLE IF NOT EXISTS experiments (
    name        TEXT PRIMARY KEY,
    generation  INTEGER NOT NULL,
    plan        TEXT NOT NULL,     -- the plan file's text when the generation began
    plan_path   TEXT NOT NULL,
    created_at  INTEGER NOT NULL
);
-- Server settings an experiment changed, with the value to put back; a row lives from the
-- change until the restore, so a study killed in between is restored by the next start.
CREATE TABLE IF NOT EXISTS changed_settings (
    experiment TEXT NOT NULL,
    target     TEXT NOT NULL,
    variable   TEXT NOT NULL,
    original   TEXT NOT NULL,
    how        TEXT NOT NULL,      -- how to restore: 'set' or, on PostgreSQL, 'reset'
    PRIMARY KEY (experiment, target, variable)
);
-- Tables an experiment's prepare created (target, the prepare command, the settings set it was
-- made under), so a resumed study neither prepares twice nor drops what it did not make.
CREATE TABLE IF NOT EXISTS prepared (
    experiment TEXT NOT NULL,
    generation INTEGER NOT NULL,
    target     TEXT NOT NULL,
    prepare    TEXT NOT NULL,
    settings   TEXT NOT NULL,
    PRIMARY KEY (experiment, generation, target, prepare)
);
";
