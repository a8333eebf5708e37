//! GNU getopt_long as pgbench's command line meets it: short options clustered (`-nt5`), an
//! argument attached or next (`-t5`, `-t 5`, `--time=5`, `--time 5`), long names by any
//! unambiguous prefix, operands anywhere (the arguments are permuted), `--` ending options;
//! and glibc's messages, prefixed with the program name as typed.

/// An option: its short letter (if any), long name (if any), and whether it takes a value.
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    pub short: Option<char>,
    pub long: Option<&'static str>,
    pub takes_value: bool,
    /// The name the caller knows it by (the short letter, or the long name).
    pub key: &'static str,
}

/// One option seen: its key and value.
#[derive(Clone, Debug, PartialEq)]
pub struct Seen {
    pub key: &'static str,
    pub value: Option<String>,
}

/// Why reading stopped: getopt's message (glibc's words after `program: `), or the caller's
/// refusal of an option it was given.
#[derive(Debug, PartialEq)]
pub enum Stopped<E> {
    Getopt(String),
    Caller(E),
}

/// Read `args` (without argv[0]) against `specs`, handing each option to `each` as getopt
/// returns it (so the first thing wrong, getopt's or the caller's, ends the reading); gives
/// the operands.
pub fn parse<E>(
    program: &str,
    args: &[String],
    specs: &[Spec],
    mut each: impl FnMut(Seen) -> Result<(), E>,
) -> Result<Vec<String>, Stopped<E>> {
    let mut give = |key, value| each(Seen { key, value }).map_err(Stopped::Caller);
    let mut operands = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        i += 1;
        if a == "--" {
            operands.extend(args[i..].iter().cloned());
            break;
        }
        if let Some(body) = a.strip_prefix("--") {
            let (name, attached) = match body.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (body, None),
            };
            let spec = long(program, a, name, specs).map_err(Stopped::Getopt)?;
            let shown = spec.long.unwrap_or(name);
            let value = match (spec.takes_value, attached) {
                (true, Some(v)) => Some(v),
                (true, None) => {
                    let next = args.get(i).cloned().ok_or_else(|| {
                        Stopped::Getopt(format!(
                            "{program}: option '--{shown}' requires an argument"
                        ))
                    })?;
                    i += 1;
                    Some(next)
                }
                (false, Some(_)) => {
                    return Err(Stopped::Getopt(format!(
                        "{program}: option '--{shown}' doesn't allow an argument"
                    )))
                }
                (false, None) => None,
            };
            give(spec.key, value)?;
            continue;
        }
        if a.len() < 2 || !a.starts_with('-') {
            operands.push(a.clone());
            continue;
        }
        // A cluster of short options; one taking a value takes the rest, or the next word.
        let chars: Vec<char> = a[1..].chars().collect();
        let mut k = 0;
        while k < chars.len() {
            let c = chars[k];
            k += 1;
            let Some(spec) = specs.iter().find(|s| s.short == Some(c)) else {
                return Err(Stopped::Getopt(format!(
                    "{program}: invalid option -- '{c}'"
                )));
            };
            let value = if !spec.takes_value {
                None
            } else if k < chars.len() {
                let rest: String = chars[k..].iter().collect();
                k = chars.len();
                Some(rest)
            } else if let Some(next) = args.get(i) {
                i += 1;
                Some(next.clone())
            } else {
                return Err(Stopped::Getopt(format!(
                    "{program}: option requires an argument -- '{c}'"
                )));
            };
            give(spec.key, value)?;
        }
    }
    Ok(operands)
}

/// The long option `name` names: exactly, or as the only one it is a prefix of.
fn long<'a>(program: &str, arg: &str, name: &str, specs: &'a [Spec]) -> Result<&'a Spec, String> {
    if let Some(s) = specs.iter().find(|s| s.long == Some(name)) {
        return Ok(s);
    }
    let matches: Vec<&Spec> = specs
        .iter()
        .filter(|s| {
            s.long
                .is_some_and(|l| !name.is_empty() && l.starts_with(name))
        })
        .collect();
    // Two names for one option (pgbench's -r has two) are not ambiguous.
    let distinct = matches
        .iter()
        .filter(|s| !std::ptr::eq(**s, matches[0]) && s.key != matches[0].key)
        .count();
    match matches.first() {
        Some(first) if distinct == 0 => Ok(first),
        Some(_) => {
            let names: Vec<String> = matches
                .iter()
                .map(|s| format!("'--{}'", s.long.unwrap_or("")))
                .collect();
            Err(format!(
                "{program}: option '--{name}' is ambiguous; possibilities: {}",
                names.join(" ")
            ))
        }
        None => Err(format!("{program}: unrecognized option '{arg}'")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPECS: &[Spec] = &[
        Spec {
            short: Some('n'),
            long: Some("no-vacuum"),
            takes_value: false,
            key: "n",
        },
        Spec {
            short: Some('t'),
            long: Some("transactions"),
            takes_value: true,
            key: "t",
        },
        Spec {
            short: Some('T'),
            long: Some("time"),
            takes_value: true,
            key: "T",
        },
        Spec {
            short: None,
            long: Some("tablespace"),
            takes_value: true,
            key: "tablespace",
        },
    ];

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn clusters_prefixes_and_operands_anywhere() {
        let mut seen = Vec::new();
        let operands = parse(
            "pgbench",
            &args("db -nt5 --ti=3 --transactions 7 -- -x"),
            SPECS,
            |s| {
                seen.push((s.key, s.value));
                Ok::<(), ()>(())
            },
        )
        .unwrap();
        assert_eq!(
            seen,
            [
                ("n", None),
                ("t", Some("5".to_string())),
                ("T", Some("3".to_string())),
                ("t", Some("7".to_string()))
            ]
        );
        assert_eq!(operands, ["db", "-x"]);
    }

    #[test]
    fn the_first_refusal_ends_the_reading() {
        let r = parse("pgbench", &args("-t 0 --nosuch"), SPECS, |s| {
            Err::<(), _>(s.key)
        });
        assert_eq!(r, Err(Stopped::Caller("t")));
    }

    #[test]
    fn errors_are_glibcs() {
        let e = |s: &str| match parse("./pgbench", &args(s), SPECS, |_| Ok::<(), ()>(())) {
            Err(Stopped::Getopt(m)) => m,
            other => panic!("{other:?}"),
        };
        assert_eq!(e("-X"), "./pgbench: invalid option -- 'X'");
        assert_eq!(e("-t"), "./pgbench: option requires an argument -- 't'");
        assert_eq!(
            e("--nosuch=1"),
            "./pgbench: unrecognized option '--nosuch=1'"
        );
        assert_eq!(
            e("--time"),
            "./pgbench: option '--time' requires an argument"
        );
        assert_eq!(
            e("--no-vacuum=1"),
            "./pgbench: option '--no-vacuum' doesn't allow an argument"
        );
        assert_eq!(
            e("--t=1"),
            "./pgbench: option '--t' is ambiguous; possibilities: '--transactions' '--time' '--tablespace'"
        );
    }
}
