//! The arguments of commands with a grammar of their own that is only words and long options
//! (`compare`, `results`, `experiment`): `--name=value` or `--name value`, dashes and
//! underscores alike, the command's flags bare, `-h`/`--help` anywhere.

use dbpress_core::error::{usage, Result};

pub struct OwnArgs {
    /// Bare words, in order.
    pub words: Vec<String>,
    /// (name, value) in order; a flag's value is None.
    pub options: Vec<(String, Option<String>)>,
}

/// Read `args` of `dbpress COMMAND`; None when help was asked for (the caller prints it).
/// `flags` take no value, `valued` take one; any other option is refused, naming them all.
pub fn parse(
    command: &str,
    args: &[String],
    flags: &[&str],
    valued: &[&str],
) -> Result<Option<OwnArgs>> {
    let mut out = OwnArgs {
        words: Vec::new(),
        options: Vec::new(),
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "-h" || a == "--help" {
            return Ok(None);
        }
        let Some(opt) = a.strip_prefix("--") else {
            out.words.push(a.clone());
            continue;
        };
        let (name, inline) = match opt.split_once('=') {
            Some((n, v)) => (n.replace('_', "-"), Some(v.to_string())),
            None => (opt.replace('_', "-"), None),
        };
        if !flags.contains(&name.as_str()) && !valued.contains(&name.as_str()) {
            let all: Vec<String> = valued
                .iter()
                .chain(flags)
                .map(|n| format!("--{n}"))
                .collect();
            let list = match all.split_last() {
                Some((last, [])) => last.clone(),
                Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
                None => "no options".into(),
            };
            return Err(usage(format!(
                "unknown option '{a}' for dbpress {command}: it takes {list} (dbpress {command} --help)"
            )));
        }
        let value = if flags.contains(&name.as_str()) {
            None
        } else {
            Some(
                inline
                    .or_else(|| it.next().cloned())
                    .ok_or_else(|| usage(format!("--{name} needs a value: --{name}=VALUE")))?,
            )
        };
        out.options.push((name, value));
    }
    Ok(Some(out))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn words_options_and_flags() {
        let a = parse(
            "experiment",
            &args("run p.toml --store x.db --fresh --output_format=csv"),
            &["fresh"],
            &["store", "output-format"],
        )
        .unwrap()
        .unwrap();
        assert_eq!(a.words, vec!["run", "p.toml"]);
        assert_eq!(
            a.options,
            vec![
                ("store".to_string(), Some("x.db".to_string())),
                ("fresh".into(), None),
                ("output-format".into(), Some("csv".into()))
            ]
        );
        assert!(parse("results", &args("list --help"), &[], &[])
            .unwrap()
            .is_none());
        let e = parse("results", &args("list --store"), &[], &["store"])
            .err()
            .unwrap();
        assert!(e.message().contains("--store needs a value"));
        let e = parse(
            "results",
            &args("list --bogus"),
            &["fresh"],
            &["store", "tag"],
        )
        .err()
        .unwrap();
        assert_eq!(
            e.message(),
            "unknown option '--bogus' for dbpress results: it takes --store, --tag and --fresh (dbpress results --help)"
        );
    }
}
