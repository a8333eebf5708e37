//! The rounds as mysqlslap runs them, for dbpress invoked as mysqlslap (#42): one main session
//! without a database makes the schema each round (`DROP SCHEMA IF EXISTS`, `CREATE SCHEMA`,
//! `USE`, the --create statements, --pre-query) and drops it after (--post-query, `DROP
//! SCHEMA IF EXISTS`, unless --no-drop), as mysqlslap does; `-vv`/`-vvv` say so in its lines.
//!
//! One rule is dbpress's: a schema that is there before the first round and that mysqlslap
//! would drop is refused before anything is sent, since dbpress never drops what it did not
//! create.

use dbpress_core::error::Error;
use dbpress_driver::{Connection, Driver};
use dbpress_workload::slap::tables::{SlapTables, StorageEngine};

/// mysqlslap's part of the rounds.
pub struct Peer {
    /// The program's name as invoked (`mysqlslap`, `mariadb-slap`), for its messages.
    pub program: String,
    pub schema: String,
    /// --create or -a: the rounds make and drop the schema.
    pub owns_schema: bool,
    pub no_drop: bool,
    /// --commit: the main session turns autocommit off too, before --pre-query.
    pub commit: bool,
    pub verbose: u32,
    /// Sessions without a database, as mysqlslap's main connection.
    pub main_driver: Box<dyn Driver>,
    main: Option<Box<dyn Connection>>,
}

/// A failure in mysqlslap's words, and the code mysqlslap exits with.
pub struct PeerExit {
    pub line: String,
    pub code: u8,
}

impl Peer {
    pub fn new(
        program: &str,
        schema: &str,
        owns_schema: bool,
        no_drop: bool,
        verbose: u32,
        main_driver: Box<dyn Driver>,
    ) -> Peer {
        Peer {
            program: program.to_string(),
            schema: schema.to_string(),
            owns_schema,
            no_drop,
            commit: false,
            verbose,
            main_driver,
            main: None,
        }
    }

    /// A line `-vv` (or `-vvv`, `level` 3) prints.
    pub fn say(&self, level: u32, line: &str) {
        if self.verbose >= level {
            dbpress_core::outln!("{line}");
        }
    }

    /// mysqlslap's failure line: `program: message`, on stderr.
    pub fn exit(&self, message: impl AsRef<str>, code: u8) -> PeerExit {
        PeerExit {
            line: format!("{}: {}", self.program, message.as_ref()),
            code,
        }
    }

    /// The main session, opened once (mysqlslap's `Error when connecting to server` if not),
    /// in the schema once a round has made it.
    pub fn session(&mut self) -> std::result::Result<&mut Box<dyn Connection>, PeerExit> {
        if self.main.is_none() {
            let c = self.main_driver.connect(0).map_err(|e| {
                let e = dbpress_driver::mysql::libmariadb_words::connect_failure(&e);
                self.exit(format!("Error when connecting to server: {}", e.message), 1)
            })?;
            self.main = Some(c);
        }
        Ok(self.main.as_mut().expect("opened above"))
    }

    /// A run whose clients did not start, in mysqlslap's client's words: a session that cannot
    /// be opened says the server's code and message (opened once more to get them).
    pub fn client_connect_line(&self, driver: &dyn Driver, e: &Error) -> String {
        match driver
            .connect(0)
            .map_err(|e| dbpress_driver::mysql::libmariadb_words::connect_failure(&e))
        {
            Err(db) if !db.code.is_empty() => format!(
                "{}: Error when connecting to server: {} {}",
                self.program, db.code, db.message
            ),
            Err(db) => format!(
                "{}: Error when connecting to server: {}",
                self.program, db.message
            ),
            Ok(_) => format!("{}: {}", self.program, e.message()),
        }
    }

    /// Before the first round: a schema the rounds would drop must not be there already.
    pub fn check_schema_is_free(&mut self) -> std::result::Result<(), PeerExit> {
        if !self.owns_schema || self.no_drop {
            // Without dropping, mysqlslap's CREATE SCHEMA itself fails on a schema that is there.
            return Ok(());
        }
        let schema = self.schema.clone();
        // A SHOW, not a SELECT: the server counts it apart from the statements mysqlslap sends
        // (Com_show_databases), so Com_select stays mysqlslap's. `_` and `%` are escaped.
        let pattern: String = schema
            .chars()
            .flat_map(|c| match c {
                '_' | '%' | '\\' => vec!['\\', c],
                '\'' => vec!['\'', '\''],
                c => vec![c],
            })
            .collect();
        let rows = self
            .session()?
            .query_rows(&format!("SHOW DATABASES LIKE '{pattern}'"))
            .map_err(|e| self.exit(format!("Cannot run query ERROR : {}", e.message), 1))?;
        match rows.is_empty() {
            true => Ok(()),
            false => Err(self.exit(
                format!("schema `{schema}` exists and mysqlslap would drop it; dbpress drops only what it created: drop it yourself, or name another with --create-schema"),
                1,
            )),
        }
    }

    /// A round's start on the main session: the schema and its tables (the keys of `-a`'s
    /// table are read next, then `before_clients`).
    pub fn make_schema(
        &mut self,
        tables: &SlapTables,
        engine: Option<&StorageEngine>,
    ) -> std::result::Result<(), PeerExit> {
        let schema = self.schema.clone();
        if self.owns_schema {
            if !self.no_drop {
                self.say(3, &format!("DROP SCHEMA IF EXISTS `{schema}`;"));
                self.run(&format!("DROP SCHEMA IF EXISTS `{schema}`"), |m| {
                    format!("Cannot drop schema {schema} : {m}")
                })?;
            }
            self.say(2, "Loading Pre-data");
            self.say(3, &format!("CREATE SCHEMA `{schema}`;"));
            self.say(3, &format!("CREATE SCHEMA `{schema}`;"));
            self.run(&format!("CREATE SCHEMA `{schema}`"), |m| {
                format!("Cannot create schema {schema} : {m}")
            })?;
            self.run(&format!("USE `{schema}`"), |m| {
                format!("Cannot select schema '{schema}': {m}")
            })?;
            for s in tables.create_for(engine) {
                self.say(3, &format!("{s};"));
                self.run(&s, |m| format!("Cannot run query {s} ERROR : {m}"))?;
            }
        }
        self.say(2, "Generating primary key list");
        Ok(())
    }

    /// Last on the main session before the clients: autocommit off (--commit), --pre-query.
    pub fn before_clients(&mut self, tables: &SlapTables) -> std::result::Result<(), PeerExit> {
        if self.commit {
            self.say(3, "SET AUTOCOMMIT=0;");
            self.run("SET AUTOCOMMIT=0", |m| {
                format!("Cannot run query SET AUTOCOMMIT=0 ERROR : {m}")
            })?;
        }
        for s in &tables.pre {
            self.say(3, &format!("{s};"));
            self.run(s, |m| format!("Cannot run query {s} ERROR : {m}"))?;
        }
        Ok(())
    }

    /// A round's end on the main session: --post-query, then `between` (--post-system). The
    /// schema stays until the next round drops it, or the engine's last round ends.
    pub fn tear_down(
        &mut self,
        tables: &SlapTables,
        between: impl FnOnce(),
    ) -> std::result::Result<(), PeerExit> {
        for s in &tables.post {
            self.say(3, &format!("{s};"));
            self.run(s, |m| format!("Cannot run query {s} ERROR : {m}"))?;
        }
        between();
        Ok(())
    }

    /// After an engine's last level: the schema dropped, unless --no-drop.
    pub fn end_engine(&mut self) -> std::result::Result<(), PeerExit> {
        if self.owns_schema && !self.no_drop {
            let schema = self.schema.clone();
            self.say(3, &format!("DROP SCHEMA IF EXISTS `{schema}`;"));
            self.run(&format!("DROP SCHEMA IF EXISTS `{schema}`"), |m| {
                format!("Cannot drop schema {schema} : {m}")
            })?;
        }
        Ok(())
    }

    /// After a failure mid-run: the schema this run made is dropped again (mysqlslap leaves
    /// it; dbpress leaves nothing it made).
    pub fn clean_up_after_failure(&mut self) {
        if self.owns_schema && !self.no_drop {
            let drop = format!("DROP SCHEMA IF EXISTS `{}`", self.schema);
            if let Ok(c) = self.session() {
                let _ = c.query(&drop);
            }
        }
    }

    fn run(
        &mut self,
        sql: &str,
        words: impl FnOnce(&str) -> String,
    ) -> std::result::Result<(), PeerExit> {
        let r = self.session()?.query(sql);
        r.map(|_| ()).map_err(|e| self.exit(words(&e.message), 1))
    }
}

/// A peer's exit as dbpress's error: its line already said, its code kept.
pub fn said(e: PeerExit) -> Error {
    eprintln!("{}", e.line);
    Error::Interrupted(String::new(), e.code)
}
