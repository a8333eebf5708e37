//! The rule that keeps the shared test servers as scripts/services.sh left them (issue #47):
//! other people's runs use them at the same time, and a test killed halfway undoes nothing.
//! So a test that reconfigures, kills, locks globally or makes accounts does it to a server of
//! its own (tests/it/private_server.rs).
//!
//! Read as text, like tests/it/layers.rs: in every file of tests/it, each top-level function
//! whose string literals hold such a statement (the list below, at the start of a statement,
//! any case; or one of PostgreSQL's functions that end or reset other sessions anywhere) must
//! start or take a `PrivateMariadb` / `PrivatePostgres`, and must not reach a shared server at
//! all (`server(`, `pg_server(`, their sessions, the shared socket paths, root's client on
//! them). private_server.rs itself sends such statements only to its own servers.

use std::path::{Path, PathBuf};

/// Statements that change a whole server or what others can do on it, by their first words.
const SERVER_STATEMENTS: &[&str] = &[
    "alter system",
    "set global",
    "set @@global",
    "set persist",
    "install soname",
    "install plugin",
    "uninstall",
    "create user",
    "drop user",
    "alter user",
    "rename user",
    "create role",
    "drop role",
    "kill",
    "flush tables with read lock",
    "shutdown",
];

/// PostgreSQL functions that end other sessions, reset statistics or reload the
/// configuration, wherever they appear in a statement.
const SERVER_FUNCTIONS: &[&str] = &[
    "pg_terminate_backend(",
    "pg_cancel_backend(",
    "pg_stat_reset(",
    "pg_stat_reset_",
    "pg_reload_conf(",
];

/// What reaches a shared server: its test sessions, its sockets, root's mariadb client or
/// the postgres superuser's psql on it.
const SHARED_SERVER: &[&str] = &[
    "server(",
    "pg_server(",
    "sbtest_session(",
    "pg_session(",
    "SOCKET",
    "CONN",
    "PG_CONN",
    "/run/mysqld",
    "/var/run/postgresql",
    "pg_superuser",
    "\"--protocol=socket\"",
];

/// What names a server of the test's own.
const PRIVATE_SERVER: &[&str] = &["PrivateMariadb", "PrivatePostgres"];

fn test_sources() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it");
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .filter(|p| {
            let name = p.file_name().unwrap();
            // The private servers' own module; this file, whose lists name the statements.
            name != "private_server.rs" && name != "shared_servers.rs"
        })
        .collect();
    files.sort();
    files
}

/// The top-level functions and impl blocks of a file: (name, first line number, text). One
/// starts at a line beginning `fn `, `pub fn ` or `impl ` and ends at the next line that is a
/// lone `}` at the left margin, as rustfmt writes them.
fn functions(text: &str) -> Vec<(String, usize, String)> {
    let mut out = Vec::new();
    let mut current: Option<(String, usize, String)> = None;
    for (i, line) in text.lines().enumerate() {
        if current.is_none() {
            let head = line.strip_prefix("pub ").unwrap_or(line);
            // An impl block is read whole, as one function: its methods share its server.
            let item = head
                .strip_prefix("fn ")
                .or_else(|| head.strip_prefix("impl "));
            if let Some(rest) = item {
                let name: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                current = Some((name, i + 1, String::new()));
            }
        }
        if let Some((_, _, body)) = current.as_mut() {
            body.push_str(line);
            body.push('\n');
            if line == "}" {
                out.push(current.take().unwrap());
            }
        }
    }
    out
}

/// The code without `//` comments (a `//` inside a string literal is kept).
fn without_comments(code: &str) -> String {
    code.lines()
        .map(|l| {
            let mut in_string = false;
            let mut escaped = false;
            let b = l.as_bytes();
            for i in 0..b.len() {
                match b[i] {
                    _ if escaped => escaped = false,
                    b'\\' if in_string => escaped = true,
                    b'"' => in_string = !in_string,
                    b'/' if !in_string && b.get(i + 1) == Some(&b'/') => return &l[..i],
                    _ => {}
                }
            }
            l
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The string literals of `code` ("…" and r"…"/r#"…"#), escapes left as written.
fn string_literals(code: &str) -> Vec<String> {
    let b = code.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let raw =
            b[i] == b'r' && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'));
        if raw {
            let mut j = i + 1;
            while j < b.len() && b[j] == b'#' {
                j += 1;
            }
            if j < b.len() && b[j] == b'"' {
                let end = format!("\"{}", "#".repeat(j - i - 1));
                let start = j + 1;
                let len = code[start..].find(&end).expect("a raw string ends");
                out.push(code[start..start + len].to_string());
                i = start + len + end.len();
                continue;
            }
        }
        if b[i] == b'\'' {
            // A char literal such as '"' is not a string; lifetimes ('a) are let through.
            if b.get(i + 2) == Some(&b'\'') {
                i += 3;
                continue;
            }
            if b.get(i + 1) == Some(&b'\\') && b.get(i + 3) == Some(&b'\'') {
                i += 4;
                continue;
            }
        }
        if b[i] == b'"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            out.push(code[i + 1..j.min(b.len())].to_string());
            i = j + 1;
            continue;
        }
        i += 1;
    }
    out
}

/// The server-changing statements in `literal`: each statement (split at `;`) whose first
/// words are on the list, and the listed PostgreSQL functions anywhere.
fn server_statements(literal: &str) -> Vec<String> {
    let lower = literal.to_lowercase();
    let mut found: Vec<String> = lower
        .split(';')
        .map(|s| s.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|s| {
            SERVER_STATEMENTS
                .iter()
                .any(|w| s == w || s.starts_with(&format!("{w} ")))
        })
        .collect();
    found.extend(
        SERVER_FUNCTIONS
            .iter()
            .filter(|f| lower.contains(*f))
            .map(|f| f.to_string()),
    );
    found
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Whether `code` has `token` as a whole: not inside a longer name (`server(` is not in
/// `pg_server(`, `CONN` not in `CONNECTION`).
fn mentions(code: &str, token: &str) -> bool {
    let (c, t) = (code.as_bytes(), token.as_bytes());
    code.match_indices(token).any(|(at, _)| {
        let before = at.checked_sub(1).map(|i| c[i]);
        let after = c.get(at + t.len()).copied();
        let glued_before = is_ident(t[0]) && before.is_some_and(is_ident);
        let glued_after = is_ident(t[t.len() - 1]) && after.is_some_and(is_ident);
        !glued_before && !glued_after
    })
}

/// Every violation of the rule in `text` (a file named `file`), one line each.
fn violations(file: &str, text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (name, line, body) in functions(text) {
        let code = without_comments(&body);
        let statements: Vec<String> = string_literals(&code)
            .iter()
            .flat_map(|l| server_statements(l))
            .collect();
        if statements.is_empty() {
            continue;
        }
        let private = PRIVATE_SERVER.iter().any(|p| mentions(&code, p));
        let shared: Vec<&&str> = SHARED_SERVER
            .iter()
            .filter(|s| mentions(&code, s))
            .collect();
        if !private || !shared.is_empty() {
            out.push(format!(
                "{file}:{line} fn {name}: sends {statements:?} {}",
                if private {
                    format!("but also reaches a shared server ({shared:?})")
                } else {
                    "without a PrivateMariadb or PrivatePostgres".to_string()
                }
            ));
        }
    }
    out
}

#[test]
fn issue_47_no_test_reconfigures_kills_or_locks_a_shared_server() {
    let mut all = Vec::new();
    let mut checked = 0;
    for f in test_sources() {
        let text = std::fs::read_to_string(&f).unwrap();
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        checked += functions(&text).len();
        all.extend(violations(&name, &text));
    }
    assert!(checked > 250, "only {checked} functions read");
    assert!(
        all.is_empty(),
        "tests that change a shared server (use a PrivateMariadb or PrivatePostgres):\n{}",
        all.join("\n")
    );
}

/// The reader sees what it must: statements in plain, raw and format strings, any case, after
/// a `;`; a private server alone is allowed, one beside a shared server is not; comments and
/// messages that only name a statement are not statements.
#[test]
fn issue_47_the_rule_reader_sees_what_it_must() {
    let file = r##"
fn kills_shared() {
    let _s = server("x");
    as_root("KILL CONNECTION USER sbtest");
}

pub fn resets_stats_as_superuser() {
    pg_superuser("SELECT pg_stat_reset()");
}

fn locks_in_second_statement(srv: &Thing) {
    run(r#"SELECT 1; flush tables with read lock"#);
}

fn makes_account_on_private() {
    let srv = PrivateMariadb::start_with_grants("x").unwrap();
    srv.sql(&format!("CREATE USER {u} IDENTIFIED BY 'p'"));
}

impl TlsOff {
    fn new() -> TlsOff {
        pg_superuser("ALTER SYSTEM SET ssl = off");
        TlsOff
    }
}

fn private_and_shared() {
    let srv = PrivatePostgres::start("x").unwrap();
    let (_g, _c) = pg_server("y").unwrap();
    srv.value("ALTER SYSTEM SET ssl = off");
}

fn only_names_them() {
    // KILL CONNECTION USER sbtest would be wrong here
    assert!(err.contains("add 2013 to --mysql-ignore-errors; the server may have been shut down"));
    assert!(err.contains("(pg_stat_reset) during the run") || c == '"');
    let _s = server("z");
}
"##;
    let v = violations("f.rs", file);
    let named: Vec<&str> = v
        .iter()
        .map(|l| l.split(" fn ").nth(1).unwrap().split(':').next().unwrap())
        .collect();
    assert_eq!(
        named,
        [
            "kills_shared",
            "resets_stats_as_superuser",
            "locks_in_second_statement",
            "TlsOff",
            "private_and_shared"
        ],
        "{v:#?}"
    );
}
