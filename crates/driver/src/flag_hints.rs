//! The option names error messages quote when the user gave something other than sysbench's
//! options: `dbpress slap`'s mysqlslap flags (`-h -P -S -u -p --create-schema`), `dbpress
//! script`'s pgbench flags (`-h -p -U DBNAME`), or a `--db` URL, rather than the options those
//! were mapped onto.

use super::mysql::MYSQL_HINTS;
use super::pgsql::PGSQL_HINTS;
use super::Hints;

pub static MYSQL_SLAP_HINTS: Hints = Hints {
    address: "-h/-P/-S (--host/--port/--socket)",
    credentials: "-u and -p (--user, --password; or MYSQL_PWD, ~/.my.cnf)",
    database: "--create-schema",
    ..MYSQL_HINTS
};

pub static PGSQL_SLAP_HINTS: Hints = Hints {
    address: "-h/-P/-S (--host/--port/--socket; a socket directory such as /var/run/postgresql is a host)",
    credentials: "-u and -p (--user, --password; or PGUSER, PGPASSWORD, ~/.pgpass)",
    // --create-schema names a PostgreSQL schema inside the database, which --pgsql-db names.
    schema: "--create-schema",
    ..PGSQL_HINTS
};

/// A `--db mysql://…` URL: its parts are what to fix (the --mysql-* options still win over them).
pub static MYSQL_URL_HINTS: Hints = Hints {
    address: "the host, port or socket in --db",
    credentials: "the user and password in --db (or MYSQL_PWD, ~/.my.cnf)",
    database: "--db",
    ..MYSQL_HINTS
};

/// A `--db postgres://…` URL.
pub static PGSQL_URL_HINTS: Hints = Hints {
    address: "the host, port or socket directory in --db",
    credentials: "the user and password in --db (or PGPASSWORD, ~/.pgpass)",
    database: "--db",
    ..PGSQL_HINTS
};

/// `dbpress script` with pgbench's `-h -p -U DBNAME` on PostgreSQL.
pub static PGSQL_PGBENCH_HINTS: Hints = Hints {
    address: "-h/-p (--pgsql-host/--pgsql-port; a socket directory such as /var/run/postgresql is a host)",
    credentials: "-U and the password (PGPASSWORD, ~/.pgpass or --pgsql-password)",
    database: "the DBNAME argument (--pgsql-db)",
    ..PGSQL_HINTS
};

/// `dbpress script` with pgbench's `-h -p -U DBNAME` on a MySQL-protocol server.
pub static MYSQL_PGBENCH_HINTS: Hints = Hints {
    address: "-h/-p (--mysql-host/--mysql-port)",
    credentials: "-U and the password (--mysql-password, MYSQL_PWD or ~/.my.cnf)",
    database: "the DBNAME argument (--mysql-db)",
    ..MYSQL_HINTS
};
