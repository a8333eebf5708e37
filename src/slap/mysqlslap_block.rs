//! mysqlslap's own output, byte for byte: the "Benchmark" block of each concurrency level and
//! its `--csv` line, so notes taken with mysqlslap compare.

use dbpress_core::error::Result;
use dbpress_workload::slap::tables::StorageEngine;

/// mysqlslap's `--csv` line for one concurrency level: engine (empty without --engine), mode,
/// average, minimum and maximum seconds of the rounds, clients, queries per client per round.
pub fn csv_line(
    engine: Option<&StorageEngine>,
    mode: &str,
    seconds: &[f64],
    clients: u32,
    queries: u64,
) -> String {
    let (avg, min, max, per_client) = rounds(seconds, clients, queries);
    let engine = engine.map_or("", |e| e.name.as_str());
    format!("{engine},{mode},{avg:.3},{min:.3},{max:.3},{clients},{per_client}\n")
}

/// mysqlslap's `--csv=FILE` appends, so that runs accumulate in one file.
pub fn append_csv(path: &str, lines: &str) -> Result<()> {
    dbpress_core::result_file::append_text(path, lines).map_err(|e| {
        dbpress_core::error::environment(format!(
            "cannot write the CSV file {path}: {e}: choose a writable path with --csv=FILE"
        ))
    })
}

/// (average, minimum, maximum) seconds of the rounds and the queries per client per round.
fn rounds(seconds: &[f64], clients: u32, queries: u64) -> (f64, f64, f64, u64) {
    let n = seconds.len().max(1) as f64;
    let avg = seconds.iter().sum::<f64>() / n;
    let min = seconds.iter().cloned().fold(f64::INFINITY, f64::min);
    let max = seconds.iter().cloned().fold(0.0, f64::max);
    let per_client = queries / (u64::from(clients).max(1) * seconds.len().max(1) as u64);
    (avg, min, max, per_client)
}

/// mysqlslap's result block, byte for byte: wall seconds of the rounds (average, minimum,
/// maximum, three decimals), clients, and its queries per client per round.
pub fn benchmark_block(
    engine: Option<&StorageEngine>,
    seconds: &[f64],
    clients: u32,
    queries: u64,
) -> String {
    let (avg, min, max, per_client) = rounds(seconds, clients, queries);
    let engine = engine.map_or(String::new(), |e| {
        format!("\tRunning for engine {}\n", e.name)
    });
    format!(
        "Benchmark\n{engine}\tAverage number of seconds to run all queries: {avg:.3} seconds\n\
         \tMinimum number of seconds to run all queries: {min:.3} seconds\n\
         \tMaximum number of seconds to run all queries: {max:.3} seconds\n\
         \tNumber of clients running queries: {clients}\n\
         \tAverage number of queries per client: {per_client}\n\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_line_is_mysqlslaps() {
        // mariadb-slap --csv: ",mixed,0.117,0.111,0.122,2,50" for 3 rounds of 100 queries
        // by 2 clients (no --engine, so the first column is empty).
        assert_eq!(
            csv_line(None, "mixed", &[0.1112, 0.1184, 0.1217], 2, 300),
            ",mixed,0.117,0.111,0.122,2,50\n"
        );
        assert_eq!(
            csv_line(None, "key", &[2.0], 4, 100),
            ",key,2.000,2.000,2.000,4,25\n"
        );
    }

    #[test]
    fn the_benchmark_block_and_csv_line_name_the_engine() {
        let e = StorageEngine {
            name: "memory".into(),
            option: None,
        };
        // mariadb-slap --engine=memory: "Running for engine memory" after "Benchmark".
        assert!(benchmark_block(Some(&e), &[1.0], 1, 1)
            .starts_with("Benchmark\n\tRunning for engine memory\n\tAverage number"));
        assert!(csv_line(Some(&e), "mixed", &[1.0], 1, 1).starts_with("memory,mixed,1.000,"));
    }

    #[test]
    fn benchmark_block_is_mysqlslaps() {
        assert_eq!(
            benchmark_block(None, &[1.3221, 1.3239], 2, 200),
            "Benchmark\n\tAverage number of seconds to run all queries: 1.323 seconds\n\
             \tMinimum number of seconds to run all queries: 1.322 seconds\n\
             \tMaximum number of seconds to run all queries: 1.324 seconds\n\
             \tNumber of clients running queries: 2\n\
             \tAverage number of queries per client: 50\n\n"
        );
    }
}
