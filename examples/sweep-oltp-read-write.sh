#!/usr/bin/env bash
# Throughput against thread count: oltp_read_write from 1 to 256 threads, one complete step per
# level (own connections, 10 s warm-up, 60 s measured), ending with a table of TPS, QPS, p95,
# p99, errors/s and the ratio to the best level. sweep.json holds every step with its intervals.
set -euo pipefail
CONN=(--mysql-socket=/run/mysqld/mysqld.sock --mysql-user=sbtest --mysql-password=sbtest --mysql-db=sbtest)
dbpress oltp_read_write prepare "${CONN[@]}" --tables=8 --table-size=100000 --threads=4
dbpress oltp_read_write run "${CONN[@]}" --tables=8 --table-size=100000 \
  --threads=1,2,4,8,16,32,64,128,256 --warmup-time=10 --time=60 --output=sweep.json
dbpress report sweep.json | tail -12
dbpress oltp_read_write cleanup "${CONN[@]}" --tables=8
