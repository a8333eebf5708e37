//! tpcc-mysql's command lines as its programs read them: glibc's getopt with short options
//! that each take a value (`-h host` or `-hhost`, operands permuted, `--` ending the options),
//! each option echoed as it is read, numbers read with C's atoi. dbpress's own long options
//! (`--output=r.json`, `--mysql-socket=…`) are taken out first: tpcc-mysql's programs have no
//! long options, so none of their lines means anything else.

/// C's atoi: leading spaces, a sign, digits; anything else ends it (0 for none).
pub fn atoi(s: &str) -> i64 {
    let t = s.trim_start();
    let (neg, digits) = match t.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let n: i64 = digits
        .chars()
        .take_while(char::is_ascii_digit)
        .fold(0i64, |n, d| {
            n.saturating_mul(10)
                .saturating_add(i64::from(d as u8 - b'0'))
        });
    if neg {
        -n
    } else {
        n
    }
}

/// Options read, in order: each letter and its value.
pub type Flags = Vec<(char, String)>;

/// The flags read, in order, and the arguments that are not flags.
pub type Read = (Flags, Vec<String>);

/// glibc's getopt over `args` for the letters in `takes_value` (each takes a value) (short options, permuted operands, `--` ending them), echoing
/// each option as it is read; Err: its message, after which tpcc_start prints its usage.
pub fn read(
    program: &str,
    args: &[String],
    takes_value: &str,
    echo: fn(char, &str) -> String,
) -> std::result::Result<Read, String> {
    let (mut flags, mut operands) = (Vec::new(), Vec::new());
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        i += 1;
        if a == "--" {
            operands.extend(args[i..].iter().cloned());
            break;
        }
        let Some(body) = a.strip_prefix('-').filter(|b| !b.is_empty()) else {
            operands.push(a.clone());
            continue;
        };
        let c = body.chars().next().unwrap_or('-');
        if !takes_value.contains(c) || c == '-' {
            return Err(format!("{program}: invalid option -- '{c}'"));
        }
        let value = match &body[c.len_utf8()..] {
            "" => {
                let v = args
                    .get(i)
                    .cloned()
                    .ok_or_else(|| format!("{program}: option requires an argument -- '{c}'"))?;
                i += 1;
                v
            }
            rest => rest.to_string(),
        };
        dbpress_core::outln!("{}", echo(c, &value));
        flags.push((c, value));
    }
    Ok((flags, operands))
}

/// Run `speak` as tpcc-mysql's program `program` (argv[0] as typed): dbpress's option table
/// installed for its long options, an error said in one line after the program's name with
/// `failed` as the exit code (a signal's own), stdout flushed.
pub fn speak_as(
    program: &str,
    args: &[String],
    speak: fn(&str, &[String]) -> dbpress_core::error::Result<u8>,
    failed: u8,
) -> u8 {
    dbpress_core::options::table::install(crate::cli::options_table());
    let code = match speak(program, args) {
        Ok(code) => code,
        Err(e) => {
            if !e.message().is_empty() {
                eprintln!("{program}: {}", e.message());
            }
            match e {
                dbpress_core::error::Error::Interrupted(_, code) => code,
                _ => failed,
            }
        }
    };
    let _ = std::io::Write::flush(&mut dbpress_core::out::Stdout);
    code
}

/// The start every tpcc-mysql program shares: its `banner`, then its line read (dbpress's long
/// options taken out first, each option echoed, the operands listed): dbpress's options, the
/// program's own arguments, and its options read. None when getopt refused them: `usage` and
/// glibc's line are said, and the program ends with 0, as tpcc-mysql's do.
pub fn banner_and_line(
    program: &str,
    args: &[String],
    banner: &str,
    usage: &str,
    takes_value: &str,
    echo: fn(char, &str) -> String,
) -> Option<(Vec<String>, Vec<String>, Flags)> {
    dbpress_core::out!("{banner}");
    let (extras, args) = extras(args);
    match read(program, &args, takes_value, echo) {
        Ok((flags, operands)) => {
            say_operands(&operands);
            Some((extras, args, flags))
        }
        Err(message) => {
            dbpress_core::out!("{usage}");
            let _ = std::io::Write::flush(&mut dbpress_core::out::Stdout);
            eprintln!("{message}");
            None
        }
    }
}

/// tpcc-mysql's line for the arguments that are not options (printed after the echoes).
pub fn say_operands(operands: &[String]) {
    if !operands.is_empty() {
        let list: String = operands.iter().map(|o| format!("{o} ")).collect();
        dbpress_core::outln!("non-option ARGV-elements: {list}");
    }
}

/// dbpress's own long options on the line (`--output=r.json`, `--store`, `--mysql-socket=…`),
/// and the rest for tpcc-mysql's getopt.
pub fn extras(args: &[String]) -> (Vec<String>, Vec<String>) {
    args.iter().cloned().partition(|a| {
        a.strip_prefix("--")
            .map(|b| b.split('=').next().unwrap_or(b))
            .is_some_and(|n| dbpress_core::options::table::find(n).is_some())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn echo(c: char, v: &str) -> String {
        format!("{c}={v}")
    }

    #[test]
    fn values_are_read_as_atoi_reads_them() {
        assert_eq!(
            (atoi("10"), atoi(" 7x"), atoi("x"), atoi("-3")),
            (10, 7, 0, -3)
        );
    }

    #[test]
    fn getopt_refuses_as_glibcs_does() {
        let a = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            read("tpcc_start", &a(&["-x"]), "hPdupwc", echo).unwrap_err(),
            "tpcc_start: invalid option -- 'x'"
        );
        assert_eq!(
            read("tpcc_start", &a(&["--help"]), "hPdupwc", echo).unwrap_err(),
            "tpcc_start: invalid option -- '-'"
        );
        assert_eq!(
            read("tpcc_start", &a(&["-w"]), "hPdupwc", echo).unwrap_err(),
            "tpcc_start: option requires an argument -- 'w'"
        );
        let (f, ops) = read(
            "tpcc_start",
            &a(&["-w2", "x", "-c", "4", "--", "-l"]),
            "hPdupwc",
            echo,
        )
        .unwrap();
        assert_eq!(f, vec![('w', "2".to_string()), ('c', "4".to_string())]);
        assert_eq!(ops, ["x", "-l"]);
    }
}
