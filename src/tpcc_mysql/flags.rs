//! tpcc-mysql's command lines, read as its getopt reads them (`-h host` or `-hhost`), and
//! turned into the `dbpress tpcc` command line that does the same work.

use dbpress_core::error::{usage, Result};

/// One flag's letter and value, in the order given.
pub type Flags = Vec<(char, String)>;

/// Read `args` with getopt's rules for the letters in `spec` (each takes a value).
pub fn getopt(args: &[String], spec: &str, tool: &str) -> Result<Flags> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        let Some(rest) = a.strip_prefix('-').filter(|r| !r.is_empty()) else {
            return Err(usage(format!(
                "{tool}: unexpected argument '{a}': {tool} takes only flags (e.g. -h 127.0.0.1 -w 10)"
            )));
        };
        let letter = rest.chars().next().unwrap_or('-');
        if !spec.contains(letter) {
            return Err(usage(format!(
                "{tool}: unknown flag -{letter}: it takes -{}",
                spec.chars()
                    .collect::<Vec<_>>()
                    .iter()
                    .map(char::to_string)
                    .collect::<Vec<_>>()
                    .join(" -")
            )));
        }
        let inline = &rest[letter.len_utf8()..];
        let value = if !inline.is_empty() {
            inline.to_string()
        } else {
            i += 1;
            args.get(i)
                .cloned()
                .ok_or_else(|| usage(format!("{tool}: -{letter} needs a value")))?
        };
        out.push((letter, value));
        i += 1;
    }
    Ok(out)
}

/// The last value of `letter`, if given.
pub fn get(flags: &[(char, String)], letter: char) -> Option<&str> {
    flags
        .iter()
        .rev()
        .find(|(l, _)| *l == letter)
        .map(|(_, v)| v.as_str())
}

/// A flag's value as a whole number, or the line saying what is wrong.
pub fn number(flags: &Flags, letter: char, default: u64, tool: &str) -> Result<u64> {
    match get(flags, letter) {
        None => Ok(default),
        Some(v) => v
            .trim()
            .parse()
            .map_err(|_| usage(format!("{tool}: -{letter} {v}: expected a whole number"))),
    }
}

/// The connection flags (-h -P -S -d -u -p) as dbpress options; tpcc-mysql's host `l` means
/// localhost.
pub fn connection(flags: &[(char, String)], default_db: &str) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(h) = get(flags, 'h') {
        let host = if h == "l" { "localhost" } else { h };
        out.push(format!("--mysql-host={host}"));
    }
    if let Some(p) = get(flags, 'P') {
        out.push(format!("--mysql-port={p}"));
    }
    if let Some(s) = get(flags, 'S') {
        out.push(format!("--mysql-socket={s}"));
    }
    out.push(format!(
        "--mysql-db={}",
        get(flags, 'd').unwrap_or(default_db)
    ));
    if let Some(u) = get(flags, 'u') {
        out.push(format!("--mysql-user={u}"));
    }
    if let Some(p) = get(flags, 'p') {
        out.push(format!("--mysql-password={p}"));
    }
    out
}

/// The command line as results keep it: the value of `-p` (given apart, `-p secret`, as
/// tpcc-mysql's getopt takes it) replaced by `***`; `-psecret` is left to `redact_args`.
pub fn hide_password(args: &[String]) -> Vec<String> {
    let mut out = Vec::with_capacity(args.len());
    let mut hide = false;
    for a in args {
        if hide {
            out.push("***".to_string());
            hide = false;
        } else {
            hide = a == "-p";
            out.push(a.clone());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn flags_read_as_getopt_reads_them() {
        let f = getopt(
            &args("-h 127.0.0.1 -P3306 -d tpcc -u root -p -w 10"),
            "hPdupw",
            "t",
        )
        .unwrap_err();
        // `-p -w` gives -p the value "-w", as getopt does, and then 10 is a stray argument.
        assert!(f.to_string().contains("unexpected argument '10'"), "{f}");
        let f = getopt(
            &args("-h l -P3306 -d tpcc -u root -p x -w 10"),
            "hPdupw",
            "t",
        )
        .unwrap();
        assert_eq!(get(&f, 'P'), Some("3306"));
        assert_eq!(number(&f, 'w', 1, "t").unwrap(), 10);
        assert_eq!(
            connection(&f, "tpcc"),
            [
                "--mysql-host=localhost",
                "--mysql-port=3306",
                "--mysql-db=tpcc",
                "--mysql-user=root",
                "--mysql-password=x"
            ]
        );
        assert!(getopt(&args("-z 1"), "hP", "t").is_err());
        assert_eq!(
            hide_password(&args("-u root -p secret -w 1 -pother")),
            args("-u root -p *** -w 1 -pother")
        );
        assert!(getopt(&args("-h"), "hP", "t").is_err());
    }
}
