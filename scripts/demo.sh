#!/usr/bin/env bash
# The main job (README): build dbpress and benchmark oltp_read_write for a few seconds:
# prepare -> run -> cleanup, ending with the sysbench-format summary.
#   scripts/demo.sh                    embedded SQLite (dbpress.sqlite here): no server needed
#   DEMO_ENGINE=mariadb scripts/demo.sh   installs/starts MariaDB and benchmarks it
#   DEMO_ENGINE=pgsql scripts/demo.sh     installs/starts PostgreSQL and benchmarks it
# DEMO_TIME sets the run's seconds (default 10).
set -euo pipefail
cd "$(dirname "$0")/.."
engine="${DEMO_ENGINE:-sqlite}"
case "$engine" in
  sqlite) conn=() ;;
  mariadb)
    scripts/services.sh mariadb
    conn=(--mysql-socket=/run/mysqld/mysqld.sock --mysql-user=sbtest --mysql-password=sbtest --mysql-db=sbtest) ;;
  pgsql)
    scripts/services.sh pgsql
    conn=(--pgsql-host=/var/run/postgresql --pgsql-user=sbtest --pgsql-password=sbtest --pgsql-db=sbtest) ;;
  *) echo "DEMO_ENGINE must be sqlite, mariadb or pgsql, not '$engine'" >&2; exit 2 ;;
esac
scripts/build-tools.sh
cargo build --release --locked
bin=target/release/dbpress
"$bin" oltp_read_write cleanup "${conn[@]}" --tables=2 >/dev/null
"$bin" oltp_read_write prepare "${conn[@]}" --tables=2 --table-size=20000 --threads=2
"$bin" oltp_read_write run "${conn[@]}" --tables=2 --table-size=20000 --threads=4 --time="${DEMO_TIME:-10}" \
  --report-interval=1 --output=dbpress-result.json
"$bin" oltp_read_write cleanup "${conn[@]}" --tables=2
echo "The JSON result is in dbpress-result.json (render it again with: $bin report dbpress-result.json)"
