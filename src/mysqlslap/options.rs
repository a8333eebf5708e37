//! mysqlslap's options: MariaDB 10.11's, in the order its `--help` lists them (the order its
//! option reader searches for a prefix, so an ambiguous prefix names the same two options),
//! and MySQL 8.0's own, taken by their whole name only.

/// Whether an option takes a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arg {
    No,
    Required,
    Optional,
}

/// What the option's value is, as its reader checks it and `--help`'s table shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Var {
    Bool,
    /// An unsigned number, with the K/M/G/T/P/E suffixes.
    Num,
    Text,
    /// No value kept (--help, --version, --debug…): not in `--help`'s table.
    Action,
    /// Kept, but not shown in `--help`'s table (--password).
    Hidden,
    /// Counted each time given (-v), shown in `--help`'s table without a value.
    Counted,
}

#[derive(Clone, Copy, Debug)]
pub struct Opt {
    pub long: &'static str,
    pub short: Option<char>,
    pub arg: Arg,
    pub var: Var,
    /// The value `--help`'s table shows before any option is read; None: "(No default value)".
    pub default: Option<&'static str>,
}

const fn o(
    long: &'static str,
    short: Option<char>,
    arg: Arg,
    var: Var,
    default: Option<&'static str>,
) -> Opt {
    Opt {
        long,
        short,
        arg,
        var,
        default,
    }
}

use Arg::{No, Optional, Required};
use Var::{Action, Bool, Counted, Hidden, Num, Text};

/// MariaDB 10.11's mysqlslap options, in its order.
pub const MARIADB: &[Opt] = &[
    o("help", Some('?'), No, Action, None),
    o("auto-generate-sql", Some('a'), No, Bool, Some("FALSE")),
    o(
        "auto-generate-sql-add-autoincrement",
        None,
        No,
        Bool,
        Some("FALSE"),
    ),
    o(
        "auto-generate-sql-execute-number",
        None,
        Required,
        Num,
        Some("0"),
    ),
    o(
        "auto-generate-sql-guid-primary",
        None,
        No,
        Bool,
        Some("FALSE"),
    ),
    o(
        "auto-generate-sql-load-type",
        None,
        Required,
        Text,
        Some("mixed"),
    ),
    o(
        "auto-generate-sql-secondary-indexes",
        None,
        Required,
        Num,
        Some("0"),
    ),
    o(
        "auto-generate-sql-unique-query-number",
        None,
        Required,
        Num,
        Some("10"),
    ),
    o(
        "auto-generate-sql-unique-write-number",
        None,
        Required,
        Num,
        Some("10"),
    ),
    o(
        "auto-generate-sql-write-number",
        None,
        Required,
        Num,
        Some("100"),
    ),
    o("character-sets-dir", None, Required, Text, None),
    o("commit", None, Required, Num, Some("0")),
    o("compress", Some('C'), No, Bool, Some("FALSE")),
    o("concurrency", Some('c'), Required, Text, None),
    o("create", None, Required, Text, None),
    o("create-schema", None, Required, Text, Some("mysqlslap")),
    o("csv", None, Optional, Hidden, None),
    o("debug", Some('#'), Optional, Action, None),
    o("debug-check", None, No, Bool, Some("FALSE")),
    o("debug-info", Some('T'), No, Bool, Some("FALSE")),
    o("default-auth", None, Required, Text, None),
    o("delimiter", Some('F'), Required, Text, Some("\n")),
    o("detach", None, Required, Num, Some("0")),
    o("engine", Some('e'), Required, Text, None),
    o("host", Some('h'), Required, Text, None),
    o("init-command", None, Required, Text, None),
    o("iterations", Some('i'), Required, Num, Some("1")),
    o("no-drop", None, No, Bool, Some("FALSE")),
    o("number-char-cols", Some('x'), Required, Text, None),
    o("number-int-cols", Some('y'), Required, Text, None),
    o("number-of-queries", None, Required, Num, Some("0")),
    o("only-print", None, No, Bool, Some("FALSE")),
    o("password", Some('p'), Optional, Hidden, None),
    o("plugin-dir", None, Required, Text, None),
    o("port", Some('P'), Required, Num, Some("3306")),
    o("post-query", None, Required, Text, None),
    o("post-system", None, Required, Text, None),
    o("pre-query", None, Required, Text, None),
    o("pre-system", None, Required, Text, None),
    o("protocol", None, Required, Hidden, None),
    o("query", Some('q'), Required, Text, None),
    o("silent", Some('s'), No, Bool, Some("FALSE")),
    o("socket", Some('S'), Required, Text, None),
    o("ssl", None, No, Bool, Some("TRUE")),
    o("ssl-ca", None, Required, Text, None),
    o("ssl-capath", None, Required, Text, None),
    o("ssl-cert", None, Required, Text, None),
    o("ssl-cipher", None, Required, Text, None),
    o("ssl-key", None, Required, Text, None),
    o("ssl-crl", None, Required, Text, None),
    o("ssl-crlpath", None, Required, Text, None),
    o("tls-version", None, Required, Text, None),
    o("ssl-verify-server-cert", None, No, Bool, Some("FALSE")),
    o("user", Some('u'), Required, Text, None),
    o("verbose", Some('v'), No, Counted, None),
    o("version", Some('V'), No, Action, None),
];

/// MySQL 8.0's mysqlslap options MariaDB's lacks: a line pasted from MySQL's documentation
/// works. Matched by their whole name only, so MariaDB's prefixes stay as they are.
pub const MYSQL_ONLY: &[Opt] = &[
    o("ssl-mode", None, Required, Text, None),
    o("get-server-public-key", None, No, Bool, None),
    o("server-public-key-path", None, Required, Text, None),
    o("compression-algorithms", None, Required, Text, None),
    o("zstd-compression-level", None, Required, Num, None),
    o("enable-cleartext-plugin", None, No, Bool, None),
    o("login-path", None, Required, Text, None),
    o("sql-mode", None, Required, Text, None),
    o("ssl-fips-mode", None, Required, Text, None),
    o("tls-ciphersuites", None, Required, Text, None),
    o("tls-sni-servername", None, Required, Text, None),
    o("ssl-session-data", None, Required, Text, None),
    o("network-namespace", None, Required, Text, None),
];

/// The option named exactly `name` (MariaDB's or MySQL's).
pub fn exact(name: &str) -> Option<&'static Opt> {
    MARIADB
        .iter()
        .chain(MYSQL_ONLY)
        .find(|o| o.long.eq_ignore_ascii_case(name))
}

/// The option a short letter stands for.
pub fn by_short(c: char) -> Option<&'static Opt> {
    MARIADB.iter().find(|o| o.short == Some(c))
}

/// The MariaDB options `prefix` begins (for a unique-prefix match, or the ambiguity message).
pub fn prefixed(prefix: &str) -> Vec<&'static Opt> {
    let p = prefix.to_ascii_lowercase();
    MARIADB.iter().filter(|o| o.long.starts_with(&p)).collect()
}
