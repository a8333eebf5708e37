#!/usr/bin/env bash
# The main job (README): start MariaDB, build dbpress, and benchmark oltp_read_write for a few
# seconds: prepare -> run -> cleanup, ending with the sysbench-format summary.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/services.sh mariadb
cargo build --release --locked
conn=(--mysql-socket=/run/mysqld/mysqld.sock --mysql-user=sbtest --mysql-password=sbtest --mysql-db=sbtest)
bin=target/release/dbpress
"$bin" oltp_read_write cleanup "${conn[@]}" --tables=2 >/dev/null
"$bin" oltp_read_write prepare "${conn[@]}" --tables=2 --table-size=20000 --threads=2
"$bin" oltp_read_write run "${conn[@]}" --tables=2 --table-size=20000 --threads=4 --time="${DEMO_TIME:-10}" \
  --report-interval=1 --output=dbpress-result.json
"$bin" oltp_read_write cleanup "${conn[@]}" --tables=2
echo "The JSON result is in dbpress-result.json (render it again with: $bin report dbpress-result.json)"
