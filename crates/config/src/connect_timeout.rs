//! The connect timeout of a MySQL or PostgreSQL target: how long connecting may take, and then
//! each step of the handshake. From the option when given, else the `--db` URL's
//! `connect_timeout=`, else the environment (libpq's PGCONNECT_TIMEOUT), else the option's
//! default (10 s). In seconds; 0 (or less, as libpq reads it) means no limit.

use dbpress_core::error::{usage, Result};
use dbpress_core::options::{OptionValues, TextOpt};
use std::time::Duration;

pub fn pick(
    opts: &OptionValues,
    option: TextOpt,
    url: Option<&str>,
    env: Option<&str>,
) -> Result<Option<Duration>> {
    let from_env = env.and_then(|name| std::env::var(name).ok().map(|v| (v, name)));
    let (raw, source) = if opts.given(option) {
        (opts.text(option).to_string(), format!("--{}", option.name))
    } else if let Some(v) = url {
        (v.to_string(), "the --db URL's connect_timeout".to_string())
    } else if let Some((v, name)) = from_env {
        (v, name.to_string())
    } else {
        (opts.text(option).to_string(), format!("--{}", option.name))
    };
    let secs: f64 = raw.trim().parse().map_err(|_| {
        usage(format!(
            "{source}={raw}: expected seconds (10, 2.5), or 0 for no limit"
        ))
    })?;
    if !secs.is_finite() {
        return Err(usage(format!(
            "{source}={raw}: expected seconds (10, 2.5), or 0 for no limit"
        )));
    }
    Ok((secs > 0.0).then(|| Duration::from_secs_f64(secs.min(86_400.0))))
}

#[cfg(test)]
mod tests {
    use crate::test_args::parse_workload;

    fn pick(args: &str, url: Option<&str>) -> dbpress_core::error::Result<Option<f64>> {
        let args: Vec<String> = args.split_whitespace().map(String::from).collect();
        let opts = parse_workload(&args)?.2;
        super::pick(&opts, crate::keys::MYSQL_CONNECT_TIMEOUT, url, None)
            .map(|d| d.map(|d| d.as_secs_f64()))
    }

    #[test]
    fn option_then_url_then_default_and_zero_is_no_limit() {
        assert_eq!(pick("oltp_read_only run", None).unwrap(), Some(10.0));
        assert_eq!(pick("oltp_read_only run", Some("3")).unwrap(), Some(3.0));
        assert_eq!(
            pick("oltp_read_only run --mysql-connect-timeout=2.5", Some("3")).unwrap(),
            Some(2.5)
        );
        assert_eq!(
            pick("oltp_read_only run --mysql-connect-timeout=0", None).unwrap(),
            None
        );
        let e = pick("oltp_read_only run", Some("soon"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("connect_timeout=soon: expected seconds"), "{e}");
    }
}
