//! MySQL option files (`~/.my.cnf`, mysqlslap's `--defaults-file`): `key = value` lines under
//! `[group]` headers, as the MySQL and MariaDB clients read them. Only what a client session
//! needs is taken from them (user, password, host, port, socket); `!include` lines are skipped.

use std::path::Path;

/// The groups every MySQL and MariaDB client reads.
pub const CLIENT_GROUPS: &[&str] = &["client", "client-server", "client-mariadb"];

/// `key = value` pairs of `groups` in the file's text, in file order (a later one overrides an
/// earlier one, as in the clients). Keys have `_` spelled `-`; values lose their quotes. A key
/// without a value (`skip-ssl`) is given the value "1".
pub fn parse(text: &str, groups: &[&str]) -> Vec<(String, String)> {
    let mut inside = false;
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with(['#', ';', '!']) {
            continue;
        }
        if let Some(group) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            inside = groups.contains(&group.trim());
            continue;
        }
        if !inside {
            continue;
        }
        let (k, v) = match line.split_once('=') {
            Some((k, v)) => (k.trim(), v.trim()),
            None => (line, "1"),
        };
        let unquoted = v
            .strip_prefix('"')
            .and_then(|x| x.strip_suffix('"'))
            .or_else(|| v.strip_prefix('\'').and_then(|x| x.strip_suffix('\'')))
            .unwrap_or(v);
        out.push((k.replace('_', "-"), unquoted.to_string()));
    }
    out
}

/// `parse` of a file; None when it cannot be read.
pub fn read(path: &Path, groups: &[&str]) -> Option<Vec<(String, String)>> {
    // Anyone could have put options (a password, a host to send it to) in a file every user
    // may write: the mysql client ignores such a file with this warning, and so does dbpress.
    if let Ok(meta) = std::fs::metadata(path) {
        use std::os::unix::fs::PermissionsExt as _;
        if meta.is_file() && meta.permissions().mode() & 0o002 != 0 {
            dbpress_core::verbosity::warn(&format!(
                "World-writable config file '{}' is ignored (as the mysql client ignores it): chmod o-w it",
                path.display()
            ));
            return None;
        }
    }
    std::fs::read_to_string(path)
        .ok()
        .map(|t| parse(&t, groups))
}

/// The last value of `key` among `pairs`.
pub fn last<'a>(pairs: &'a [(String, String)], key: &str) -> Option<&'a str> {
    pairs
        .iter()
        .rev()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_quotes_and_flags_are_read_as_the_clients_do() {
        let text = "!includedir /etc/mysql/conf.d/\n[mysqld]\npassword=no\n[client]\nuser=x\n\
                    password = \"s3cret\"\n# comment\nskip_ssl\n[mysqlslap]\nuser='y'\n";
        let client = parse(text, CLIENT_GROUPS);
        assert_eq!(last(&client, "password"), Some("s3cret"));
        assert_eq!(last(&client, "user"), Some("x"));
        assert_eq!(last(&client, "skip-ssl"), Some("1"));
        let slap = parse(text, &["client", "mysqlslap"]);
        assert_eq!(last(&slap, "user"), Some("y"));
        assert_eq!(
            last(&parse("[mysqld]\npassword=no\n", CLIENT_GROUPS), "password"),
            None
        );
    }
}
