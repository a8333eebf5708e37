//! The option names `dbpress slap`'s error messages quote: the mysqlslap flags the user typed
//! (`-h -P -S -u -p --create-schema`), not the sysbench options they were mapped onto.

use crate::driver::mysql::MYSQL_HINTS;
use crate::driver::pgsql::PGSQL_HINTS;
use crate::driver::Hints;

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
    ..PGSQL_HINTS
};
