//! The command line as the result file keeps it: every password and every shell command that
//! could hold one replaced by `***`, in each grammar dbpress reads (sysbench's options, URLs,
//! mysqlslap's `-p` and `--pre-system`/`--post-system`).

/// argv with passwords replaced, for the result file.
pub fn redact_args(args: &[String]) -> Vec<String> {
    let mut out = Vec::with_capacity(args.len());
    let mut hide_next = false;
    for a in args {
        if hide_next {
            out.push("***".to_string());
            hide_next = false;
            continue;
        }
        // mysqlslap's spellings (dbpress slap): -pSECRET and --password=SECRET.
        if a.len() > 2 && a.starts_with("-p") && !a.starts_with("--") {
            out.push("-p***".to_string());
            continue;
        }
        if a.starts_with("--password=") {
            out.push("--password=***".to_string());
            continue;
        }
        // mysqlslap's shell commands (dbpress slap) are where a `mysql -pSECRET` would be:
        // kept out whole.
        // (Names compare with `_` as `-`, as slap reads them: `--pre_system=` too.)
        let name = a.split('=').next().unwrap_or_default().replace('_', "-");
        if let Some(option) = ["--pre-system", "--post-system"]
            .into_iter()
            .find(|o| name == *o)
        {
            match a.contains('=') {
                true => out.push(format!("{option}=***")),
                false => {
                    out.push(a.clone());
                    hide_next = true;
                }
            }
            continue;
        }
        let norm = a.replace('_', "-");
        let secret = dbpress_core::options::table::rows()
            .into_iter()
            .filter(|s| s.secret)
            .find(|s| {
                norm.strip_prefix("--")
                    .is_some_and(|n| n.split('=').next() == Some(s.name))
            });
        if let Some(spec) = secret {
            if norm.contains('=') {
                out.push(format!("--{}=***", spec.name));
            } else {
                out.push(a.clone());
                hide_next = true;
            }
        } else if a.contains("://") {
            out.push(super::mysql_target::redact_url(a));
        } else {
            out.push(a.clone());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::redact_args;

    #[test]
    fn slap_shell_commands_are_kept_out_in_every_spelling() {
        let args: Vec<String> = [
            "slap",
            "--pre-system=mysql -pS1 -e 'flush tables'",
            "--post_system=mysql -pS2",
            "--pre-system",
            "mysql -pS3",
            "--pre-systemx=kept",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        assert_eq!(
            redact_args(&args),
            [
                "slap",
                "--pre-system=***",
                "--post-system=***",
                "--pre-system",
                "***",
                "--pre-systemx=kept"
            ]
        );
    }
}
