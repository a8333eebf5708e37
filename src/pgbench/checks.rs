//! What pgbench checks once the whole command line is read, in its order: the default script
//! and the weights, initialization against benchmarking options, then the benchmark's own
//! combinations.

use super::options::{Line, Stop};
use dbpress_workload::script::{builtin, parse};

fn error(message: &str) -> Stop {
    Stop {
        stderr: format!("pgbench: error: {message}\n"),
        code: 1,
    }
}

pub fn check(line: &mut Line) -> Result<(), Stop> {
    if !line.initialize {
        if line.scripts.is_empty() {
            let desc = builtin::description("tpcb-like").unwrap_or_default();
            let text = builtin::script("tpcb-like").unwrap_or_default();
            let s = parse::parse(desc, text, 1).map_err(|e| error(&e))?;
            line.scripts.push(s);
        }
        if line
            .scripts
            .iter()
            .map(|s| u64::from(s.weight))
            .sum::<u64>()
            == 0
        {
            return Err(error("total script weight must not be zero"));
        }
    }
    if line.initialize {
        if line.is_bench_option_given() {
            return Err(error(
                "some of the specified options cannot be used in initialization (-i) mode",
            ));
        }
        if line.partition_method.is_some() && line.partitions.unwrap_or(0) == 0 {
            return Err(error(
                "--partition-method requires greater than zero --partitions",
            ));
        }
        return Ok(());
    }
    if line.is_init_option_given() {
        return Err(error(
            "some of the specified options cannot be used in benchmarking mode",
        ));
    }
    benchmark(line)
}

fn benchmark(line: &Line) -> Result<(), Stop> {
    if line.transactions.is_some() && line.time_s.is_some() {
        return Err(error(
            "specify either a number of transactions (-t) or a duration (-T), not both",
        ));
    }
    if line.sampling_rate.is_some() && !line.log {
        return Err(error(
            "log sampling (--sampling-rate) is allowed only when logging transactions (-l)",
        ));
    }
    if line.sampling_rate.is_some() && line.aggregate_interval.is_some() {
        return Err(error("log sampling (--sampling-rate) and aggregation (--aggregate-interval) cannot be used at the same time"));
    }
    if line.aggregate_interval.is_some() && !line.log {
        return Err(error(
            "log aggregation is allowed only when actually logging transactions",
        ));
    }
    if line.log_prefix.is_some() && !line.log {
        return Err(error(
            "log file prefix (--log-prefix) is allowed only when logging transactions (-l)",
        ));
    }
    if let (Some(a), Some(t)) = (line.aggregate_interval, line.time_s) {
        if a > t {
            return Err(error(&format!(
                "number of seconds for aggregation ({a}) must not be higher than test duration ({t})"
            )));
        }
        if t % a != 0 {
            return Err(error(&format!(
                "duration ({t}) must be a multiple of aggregation interval ({a})"
            )));
        }
    }
    if line.progress_timestamp && line.progress_s.is_none() {
        return Err(error(
            "--progress-timestamp is allowed only under --progress",
        ));
    }
    if line.max_tries == Some(0) && line.latency_limit_ms.is_none() && line.time_s.is_none() {
        return Err(error("an unlimited number of transaction tries can only be used with --latency-limit or a duration (-T)"));
    }
    Ok(())
}
