//! mysqlslap's command line read as MariaDB's option reader (my_getopt) reads it: long names in
//! any case with `_` for `-`, a unique prefix taken with its `Info:` line, `--skip-`/`--disable-`/
//! `--enable-`/`--loose-`/`--maximum-` prefixes, a value after `=` or in the next argument,
//! short options clustered (`-Csvq SQL`), numbers with K/M/G/T/P/E suffixes, arguments that
//! are not options ignored, `--` ending the options; and its messages and exit codes.
//! Options from option files come first and an unknown one there is skipped, as there.

use super::options::{self, Arg, Opt, Var};

/// What the line asked for besides a run.
#[derive(Debug, PartialEq)]
pub enum Stop {
    Help,
    Version,
}

/// Why reading ended without a run: the lines for stderr and the exit code.
#[derive(Debug, PartialEq)]
pub struct Refused {
    pub lines: String,
    pub code: u8,
}

/// The options read: each mysqlslap option's last value by its long name, -v's count, the
/// dbpress options passed through, and --help/--version if one was reached.
#[derive(Debug, Default)]
pub struct Read {
    pub values: Vec<(&'static str, String)>,
    pub verbose: u32,
    pub dbpress: Vec<String>,
    pub stop: Option<Stop>,
    /// Arguments that are not options (those after `--` too): mysqlslap takes two at most.
    pub operands: usize,
    /// Warnings and `Info:` lines, for stderr, in order.
    pub notes: String,
    /// The last `-p`/`--password` had no value: the password is asked for.
    pub ask_password: bool,
}

impl Read {
    pub fn get(&self, name: &str) -> Option<&str> {
        self.values
            .iter()
            .rev()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
    }

    fn set(&mut self, opt: &'static Opt, value: String) {
        match opt.var {
            Var::Counted => self.verbose += 1,
            Var::Action if opt.long == "help" => self.stop = Some(Stop::Help),
            Var::Action if opt.long == "version" => self.stop = Some(Stop::Version),
            Var::Action => {}
            _ => self.values.push((opt.long, value)),
        }
    }
}

/// Read option-file arguments (`from_files`, unknown ones skipped) then the command line.
pub fn read(program: &str, from_files: &[String], args: &[String]) -> Result<Read, Refused> {
    let mut r = Read::default();
    let mut reader = Reader { program, r: &mut r };
    reader.all(from_files, true)?;
    if reader.r.stop.is_none() {
        reader.all(args, false)?;
    }
    Ok(r)
}

struct Reader<'a> {
    program: &'a str,
    r: &'a mut Read,
}

impl Reader<'_> {
    fn all(&mut self, args: &[String], from_file: bool) -> Result<(), Refused> {
        let mut i = 0;
        while i < args.len() && self.r.stop.is_none() {
            let a = &args[i];
            i += 1;
            if a == "--" {
                if !from_file {
                    self.r.operands += args.len() - i;
                }
                break;
            }
            if let Some(body) = a.strip_prefix("--") {
                let next = args.get(i);
                if self.long(body, next, from_file)? {
                    i += 1;
                }
            } else if let Some(cluster) = a.strip_prefix('-').filter(|c| !c.is_empty()) {
                if self.short(cluster, args.get(i))? {
                    i += 1;
                }
            } else if !from_file {
                // Not an option: mysqlslap ignores it (up to two).
                self.r.operands += 1;
            }
        }
        Ok(())
    }

    fn refuse(&self, message: String, code: u8) -> Refused {
        Refused {
            lines: format!("{}: {message}\n", self.program),
            code,
        }
    }

    /// `--name[=value]`; true when the next argument was taken as its value.
    fn long(
        &mut self,
        body: &str,
        next: Option<&String>,
        from_file: bool,
    ) -> Result<bool, Refused> {
        let (name, value) = match body.split_once('=') {
            Some((n, v)) => (n.replace('_', "-"), Some(v.to_string())),
            None => (body.replace('_', "-"), None),
        };
        let lower = name.to_ascii_lowercase();
        if let Some(rest) = lower.strip_prefix("loose-") {
            return match self.find(rest, body, true)? {
                Some((opt, _)) => self.with_value(opt, value, next, from_file, body),
                None => {
                    self.r.notes.push_str(&format!(
                        "Warning: {}: unknown variable '{body}'\n",
                        self.program
                    ));
                    Ok(false)
                }
            };
        }
        if lower.starts_with("maximum-") && options::exact(&lower[8..]).is_some() {
            // An upper limit for the option: mysqlslap's own limits stand.
            return Ok(false);
        }
        for (prefix, on) in [("skip-", false), ("disable-", false), ("enable-", true)] {
            if let Some(rest) = lower.strip_prefix(prefix) {
                if let Some((opt, _)) = self.find(rest, body, true)? {
                    let v = match (opt.var, on) {
                        (Var::Bool, true) => "TRUE",
                        (Var::Bool, false) => "FALSE",
                        (_, true) => "1",
                        (_, false) => "0",
                    };
                    self.r.set(opt, v.to_string());
                    return Ok(false);
                }
            }
        }
        if dbpress_core::options::table::find(&lower).is_some() && options::exact(&lower).is_none()
        {
            return Ok(self.pass_through(&lower, body, value.is_some(), next));
        }
        match self.find(&lower, body, from_file)? {
            Some((opt, _)) => self.with_value(opt, value, next, from_file, body),
            None if from_file => Ok(false),
            None => Err(self.refuse(format!("unknown option '--{body}'"), 2)),
        }
    }

    /// dbpress's own option (`--output=r.json`, `--store`, `--tag`): passed on as typed.
    fn pass_through(
        &mut self,
        name: &str,
        body: &str,
        inline: bool,
        next: Option<&String>,
    ) -> bool {
        self.r.dbpress.push(format!("--{body}"));
        let takes = dbpress_core::options::table::find(name)
            .is_some_and(|s| s.kind != dbpress_core::options::table::Kind::Bool);
        match (takes && !inline, next) {
            (true, Some(v)) => {
                self.r.dbpress.push(v.clone());
                true
            }
            _ => false,
        }
    }

    /// The option `name` means: exact, else a unique prefix of MariaDB's (with its `Info:`
    /// line); None when nothing matches; ambiguous is refused (exit 3).
    fn find(
        &mut self,
        name: &str,
        body: &str,
        quiet: bool,
    ) -> Result<Option<(&'static Opt, bool)>, Refused> {
        if let Some(o) = options::exact(name) {
            return Ok(Some((o, true)));
        }
        let matches = options::prefixed(name);
        match matches.as_slice() {
            [] => Ok(None),
            [one] => {
                if !quiet {
                    self.r.notes.push_str(&format!(
                        "Info: Using unique option prefix '{name}' is error-prone and can break in the future. Please use the full name '{}' instead.\n",
                        one.long
                    ));
                }
                Ok(Some((one, false)))
            }
            [first, .., last] => Err(self.refuse(
                format!(
                    "ambiguous option '--{body}' ({}, {})",
                    first.long, last.long
                ),
                3,
            )),
        }
    }

    /// Give `opt` its value: inline, the next argument (a required one), or none.
    fn with_value(
        &mut self,
        opt: &'static Opt,
        inline: Option<String>,
        next: Option<&String>,
        from_file: bool,
        body: &str,
    ) -> Result<bool, Refused> {
        let (value, took_next) = match (opt.arg, inline) {
            (_, Some(v)) => (Some(v), false),
            (Arg::Required, None) => match next {
                Some(v) if !from_file => (Some(v.clone()), true),
                _ => {
                    return Err(
                        self.refuse(format!("option '--{}' requires an argument", opt.long), 5)
                    )
                }
            },
            (_, None) => (None, false),
        };
        self.value(opt, value, body)?;
        Ok(took_next)
    }

    /// Check and keep one option's value.
    fn value(
        &mut self,
        opt: &'static Opt,
        value: Option<String>,
        body: &str,
    ) -> Result<(), Refused> {
        // MariaDB builds its clients without debugging: my_getopt refuses the option.
        if opt.long == "debug" {
            let named = if body.starts_with('#') { "-#" } else { body };
            return Err(self.refuse(format!("ERROR: Option '{named}' used, but is disabled"), 12));
        }
        if opt.long == "protocol" {
            let known = ["tcp", "socket", "pipe"];
            if !known.contains(&value.as_deref().unwrap_or("").to_ascii_lowercase().as_str()) {
                return Err(Refused {
                    lines: format!(
                        "Unknown option to protocol: {}\nAlternatives are: 'TCP','SOCKET','PIPE'\n",
                        value.unwrap_or_default()
                    ),
                    code: 1,
                });
            }
        }
        let v = match (opt.var, value) {
            (Var::Bool, None) => "TRUE".to_string(),
            (Var::Bool, Some(v)) => match bool_value(&v) {
                Some(true) => "TRUE".into(),
                Some(false) => "FALSE".into(),
                // The TLS switches take an optional value (my_getopt's OPT_ARG): a word it
                // does not know turns them off, with its warning.
                None if matches!(opt.long, "ssl" | "ssl-verify-server-cert") => {
                    self.r.notes.push_str(&format!(
                        "Warning: option '{}': boolean value '{v}' wasn't recognized. Set to OFF.\n",
                        opt.long
                    ));
                    "FALSE".into()
                }
                None => {
                    let shown = body.split('=').next().unwrap_or(body);
                    self.r.notes.push_str(&format!(
                        "Warning: {}: ignoring option '--{shown}' due to invalid value '{v}'\n",
                        self.program
                    ));
                    return Ok(());
                }
            },
            (Var::Num, Some(v)) => self.number(opt, &v)?.to_string(),
            (_, v) => {
                if opt.long == "password" {
                    // `--password=` is an empty password; `-p` alone asks for one.
                    self.r.ask_password = v.is_none();
                }
                v.unwrap_or_default()
            }
        };
        self.r.set(opt, v);
        Ok(())
    }

    /// An unsigned number as my_getopt reads it: digits (an empty value is 0), then one of
    /// K, M, G, T, P, E (powers of 1024).
    fn number(&self, opt: &Opt, v: &str) -> Result<u64, Refused> {
        let setting = |why: String, code: u8| Refused {
            lines: format!(
                "{why}\n{}: Error while setting value '{v}' to '{}'\n",
                self.program, opt.long
            ),
            code,
        };
        let t = v.trim_start();
        if t.starts_with('-') {
            return Err(setting(
                format!("Incorrect unsigned value: '{v}' for {}", opt.long),
                13,
            ));
        }
        let digits = t.trim_start_matches('+');
        let end = digits
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(digits.len());
        let (num, suffix) = digits.split_at(end);
        let shift = match suffix {
            "" => 0,
            "k" | "K" => 10,
            "m" | "M" => 20,
            "g" | "G" => 30,
            "t" | "T" => 40,
            "p" | "P" => 50,
            "e" | "E" => 60,
            s => {
                let c = s.chars().next().unwrap_or(' ');
                return Err(setting(
                    format!("Unknown suffix '{c}' used for variable '{}' (value '{v}'). Legal suffix characters are: K, M, G, T, P, E", opt.long),
                    9,
                ));
            }
        };
        let out_of_range = || {
            setting(
                format!(
                    "Integer value out of range for uint64: '{v}' for {}",
                    opt.long
                ),
                13,
            )
        };
        let n: u64 = match num {
            "" => 0,
            n => n.parse().map_err(|_| out_of_range())?,
        };
        n.checked_mul(1u64 << shift).ok_or_else(out_of_range)
    }

    /// A cluster of short options; true when the next argument was taken as a value. An
    /// unknown letter and the disabled `-#` are said and passed over, and the cluster read
    /// on: my_getopt fails after the cluster, with the code of the last refusal in it.
    fn short(&mut self, cluster: &str, next: Option<&String>) -> Result<bool, Refused> {
        let mut failed: Option<Refused> = None;
        let mut took_next = false;
        let mut fail = |r: Refused| match failed.as_mut() {
            Some(f) => {
                f.lines.push_str(&r.lines);
                f.code = r.code;
            }
            None => failed = Some(r),
        };
        for (at, c) in cluster.char_indices() {
            let Some(opt) = options::by_short(c) else {
                fail(self.refuse(format!("unknown option '-{c}'"), 2));
                continue;
            };
            if opt.long == "debug" {
                fail(self.refuse("ERROR: Option '-#' used, but is disabled".into(), 12));
                continue;
            }
            let rest = &cluster[at + c.len_utf8()..];
            match opt.arg {
                Arg::No => {
                    if let Err(r) = self.value(opt, None, opt.long) {
                        fail(r);
                        break;
                    }
                }
                Arg::Optional => {
                    let v = (!rest.is_empty()).then(|| rest.to_string());
                    if let Err(r) = self.value(opt, v, opt.long) {
                        fail(r);
                    }
                    break;
                }
                Arg::Required if !rest.is_empty() => {
                    if let Err(r) = self.value(opt, Some(rest.to_string()), opt.long) {
                        fail(r);
                    }
                    break;
                }
                Arg::Required => {
                    let Some(v) = next else {
                        fail(self.refuse(format!("option '-{c}' requires an argument"), 5));
                        break;
                    };
                    if let Err(r) = self.value(opt, Some(v.clone()), opt.long) {
                        fail(r);
                    }
                    took_next = true;
                    break;
                }
            }
            if self.r.stop.is_some() {
                break;
            }
        }
        match failed {
            Some(r) => Err(r),
            None => Ok(took_next),
        }
    }
}

/// my_getopt's boolean words.
fn bool_value(v: &str) -> Option<bool> {
    match v.to_ascii_lowercase().as_str() {
        "1" | "on" | "true" => Some(true),
        "0" | "off" | "false" => Some(false),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_line(a: &[&str]) -> Result<Read, Refused> {
        let args: Vec<String> = a.iter().map(|s| s.to_string()).collect();
        read("mysqlslap", &[], &args)
    }

    #[test]
    fn values_are_read_as_my_getopt_reads_them() {
        let r = read_line(&[
            "-uroot",
            "-Csvq",
            "SELECT 1",
            "--CONCURRENCY=2",
            "-i",
            "2K",
            "x",
        ])
        .unwrap();
        assert_eq!(r.get("user"), Some("root"));
        assert_eq!(r.get("compress"), Some("TRUE"));
        assert_eq!(r.get("silent"), Some("TRUE"));
        assert_eq!(r.get("query"), Some("SELECT 1"));
        assert_eq!(r.get("concurrency"), Some("2"));
        assert_eq!(r.get("iterations"), Some("2048"));
        assert_eq!(r.verbose, 1);
        let r = read_line(&["--concur=3", "--skip-no-drop", "--no_drop=maybe"]).unwrap();
        assert_eq!(r.get("concurrency"), Some("3"));
        assert_eq!(r.get("no-drop"), Some("FALSE"));
        assert_eq!(
            r.notes,
            "Info: Using unique option prefix 'concur' is error-prone and can break in the future. Please use the full name 'concurrency' instead.\n\
             Warning: mysqlslap: ignoring option '--no_drop' due to invalid value 'maybe'\n"
        );
    }

    #[test]
    fn refusals_are_my_getopts_lines_and_codes() {
        let refused = |a: &[&str]| read_line(a).unwrap_err();
        assert_eq!(
            refused(&["--foo"]),
            Refused {
                lines: "mysqlslap: unknown option '--foo'\n".into(),
                code: 2
            }
        );
        assert_eq!(refused(&["-Z"]).code, 2);
        assert_eq!(
            refused(&["--c=2"]).lines,
            "mysqlslap: ambiguous option '--c=2' (character-sets-dir, csv)\n"
        );
        assert_eq!(
            refused(&["--ss"]).lines,
            "mysqlslap: ambiguous option '--ss' (ssl, ssl-verify-server-cert)\n"
        );
        assert_eq!(
            refused(&["--query"]).lines,
            "mysqlslap: option '--query' requires an argument\n"
        );
        assert_eq!(refused(&["-q"]).code, 5);
        let e = refused(&["-i", "x"]);
        assert_eq!(
            e.lines,
            "Unknown suffix 'x' used for variable 'iterations' (value 'x'). Legal suffix characters are: K, M, G, T, P, E\nmysqlslap: Error while setting value 'x' to 'iterations'\n"
        );
        assert_eq!(e.code, 9);
        assert_eq!(refused(&["-i", "-3"]).code, 13);
        assert_eq!(refused(&["--iterations=99999999999999999999"]).code, 13);
    }

    #[test]
    fn help_and_version_stop_where_they_are_met() {
        assert_eq!(
            read_line(&["--help", "--foo"]).unwrap().stop,
            Some(Stop::Help)
        );
        assert_eq!(
            read_line(&["-V", "--foo"]).unwrap().stop,
            Some(Stop::Version)
        );
        // An unknown option before them is still refused.
        assert!(read_line(&["--foo", "--help"]).is_err());
        // Options after `--` are not read.
        assert_eq!(read_line(&["--", "--foo"]).unwrap().values, vec![]);
        let r = read_line(&["--loose-foo=1", "--output=r.json", "--tag", "a=b"]).unwrap();
        assert_eq!(
            r.notes,
            "Warning: mysqlslap: unknown variable 'loose-foo=1'\n"
        );
        assert_eq!(r.dbpress, ["--output=r.json", "--tag", "a=b"]);
    }
}
