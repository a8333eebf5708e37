//! mysqlslap's option files, read as MariaDB's clients read them: /etc/my.cnf,
//! /etc/mysql/my.cnf, `--defaults-extra-file`, ~/.my.cnf (or `--defaults-file` alone, or none
//! with `--no-defaults`), `!include` and `!includedir` followed, the groups `[mysqlslap]`,
//! `[mariadb-slap]`, `[client]`, `[client-server]`, `[client-mariadb]` (and each with
//! `--defaults-group-suffix`). Each `key = value` becomes the argument `--key=value`, read
//! before the command line.

use std::path::{Path, PathBuf};

/// What the leading `--no-defaults`/`--defaults-*`/`--print-defaults` arguments say, and the
/// arguments after them.
pub struct Leading<'a> {
    pub no_defaults: bool,
    pub print: bool,
    pub file: Option<String>,
    pub extra_file: Option<String>,
    pub group_suffix: Option<String>,
    pub rest: &'a [String],
}

/// The leading option-file arguments, as mysqlslap takes them (only first on the line).
pub fn leading(args: &[String]) -> Leading<'_> {
    let mut l = Leading {
        no_defaults: false,
        print: false,
        file: None,
        extra_file: None,
        group_suffix: None,
        rest: args,
    };
    while let Some(a) = l.rest.first() {
        match a.split_once('=') {
            _ if a == "--no-defaults" => l.no_defaults = true,
            _ if a == "--print-defaults" => l.print = true,
            Some(("--defaults-file", f)) => l.file = Some(f.to_string()),
            Some(("--defaults-extra-file", f)) => l.extra_file = Some(f.to_string()),
            Some(("--defaults-group-suffix", s)) => l.group_suffix = Some(s.to_string()),
            _ => break,
        }
        l.rest = &l.rest[1..];
    }
    l
}

/// The option file named with `--defaults-file` or `--defaults-extra-file` that cannot be
/// read: mysqlslap's two lines for it (exit code 1).
pub fn missing_required(l: &Leading<'_>) -> Option<String> {
    let named = l.file.as_ref().or(l.extra_file.as_ref())?;
    (!Path::new(named).is_file()).then(|| {
        format!("Could not open required defaults file: {named}\nFatal error in defaults handling. Program aborted\n")
    })
}

/// The arguments the option files give, in the order they are read.
pub fn file_args(l: &Leading<'_>) -> Vec<String> {
    if l.no_defaults {
        return Vec::new();
    }
    let mut groups: Vec<String> = [
        "mysqlslap",
        "mariadb-slap",
        "client",
        "client-server",
        "client-mariadb",
    ]
    .iter()
    .map(|g| g.to_string())
    .collect();
    if let Some(s) = &l.group_suffix {
        let suffixed: Vec<String> = groups.iter().map(|g| format!("{g}{s}")).collect();
        groups.extend(suffixed);
    }
    let files: Vec<PathBuf> = match &l.file {
        Some(f) => vec![PathBuf::from(f)],
        None => {
            let mut f = vec![
                PathBuf::from("/etc/my.cnf"),
                PathBuf::from("/etc/mysql/my.cnf"),
            ];
            f.extend(l.extra_file.as_ref().map(PathBuf::from));
            f.extend(std::env::var_os("HOME").map(|h| Path::new(&h).join(".my.cnf")));
            f
        }
    };
    let mut out = Vec::new();
    for f in files {
        read_file(&f, &groups, &mut out, 0);
    }
    out
}

/// One file's arguments of `groups`, its includes followed (to a depth of 10).
fn read_file(path: &Path, groups: &[String], out: &mut Vec<String>, depth: u32) {
    if depth > 10 || world_writable(path) {
        return;
    }
    let Ok(text) = std::fs::read_to_string(path) else {
        return;
    };
    let mut inside = false;
    for line in text.lines().map(str::trim) {
        if let Some(dir) = line.strip_prefix("!includedir") {
            include_dir(Path::new(dir.trim()), groups, out, depth);
        } else if let Some(file) = line.strip_prefix("!include") {
            read_file(Path::new(file.trim()), groups, out, depth + 1);
        } else if line.is_empty() || line.starts_with(['#', ';']) {
        } else if let Some(g) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            inside = groups.iter().any(|x| x == g.trim());
        } else if inside {
            out.push(argument(line));
        }
    }
}

/// `!includedir`: its `.cnf` files in name order.
fn include_dir(dir: &Path, groups: &[String], out: &mut Vec<String>, depth: u32) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cnf"))
        .collect();
    files.sort();
    for f in files {
        read_file(&f, groups, out, depth + 1);
    }
}

/// A file's `key = value` line as the argument `--key=value` (quotes off the value).
fn argument(line: &str) -> String {
    let line = line.split(" #").next().unwrap_or(line);
    match line.split_once('=') {
        None => format!("--{}", line.trim()),
        Some((k, v)) => {
            let v = v.trim();
            let v = v
                .strip_prefix('"')
                .and_then(|x| x.strip_suffix('"'))
                .or_else(|| v.strip_prefix('\'').and_then(|x| x.strip_suffix('\'')))
                .unwrap_or(v);
            format!("--{}={v}", k.trim())
        }
    }
}

/// A file anyone may write is ignored, with the clients' warning.
fn world_writable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt as _;
    let ww =
        std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o002 != 0);
    if ww {
        eprintln!(
            "Warning: World-writable config file '{}' is ignored",
            path.display()
        );
    }
    ww
}

/// `--print-defaults`: the arguments the files give and the line's, as mysqlslap prints
/// them, a password's value starred.
pub fn print_defaults(program: &str, files: &[String], rest: &[String]) -> String {
    let shown: Vec<String> = files.iter().chain(rest).map(|a| starred(a)).collect();
    format!(
        "{program} would have been started with the following arguments:\n{} \n",
        shown.join(" ")
    )
}

/// A password argument with its value replaced (dbpress prints no password).
fn starred(a: &str) -> String {
    if let Some((k, _)) = a.split_once('=').filter(|(k, _)| k.starts_with("--pass")) {
        return format!("{k}=*****");
    }
    match a.strip_prefix("-p") {
        Some(v) if !v.is_empty() && !a.starts_with("--") => "-p*****".into(),
        _ => a.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_give_arguments_of_their_groups_with_includes() {
        let dir = std::env::temp_dir().join(format!("dbpress-slap-cnf-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let inc = dir.join("conf.d");
        std::fs::create_dir(&inc).unwrap();
        std::fs::write(inc.join("b.cnf"), "[client]\nport = 3307\n").unwrap();
        std::fs::write(inc.join("a.txt"), "[client]\nport = 9\n").unwrap();
        let main = dir.join("my.cnf");
        std::fs::write(
            &main,
            format!(
                "[mysqld]\nport=1\n[mysqlslap]\nconcurrency = \"4\"\nno-drop\n!includedir {}\n",
                inc.display()
            ),
        )
        .unwrap();
        let args: Vec<String> = vec![format!("--defaults-file={}", main.display()), "-a".into()];
        let l = leading(&args);
        assert_eq!(l.rest, ["-a"]);
        assert_eq!(
            file_args(&l),
            ["--concurrency=4", "--no-drop", "--port=3307"]
        );
        assert_eq!(
            print_defaults("mysqlslap", &["--password=x".into()], &["-pSECRET".into(), "-p".into()]),
            "mysqlslap would have been started with the following arguments:\n--password=***** -p***** -p \n"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
