#!/usr/bin/env bash
# dbpress on PostgreSQL vs sysbench --db-driver=pgsql and pgbench (Debian packages), and dbpress
# on embedded SQLite, on this machine. Prints Markdown for bench/RESULTS.md.
#
#   bench/vs-pgsql.sh           everything (about 12 minutes)
#   bench/vs-pgsql.sh qps       QPS rounds at 4 threads over the Unix socket
#   bench/vs-pgsql.sh prepare   prepare of 4 tables x 250 000 rows, dbpress vs sysbench
#   bench/vs-pgsql.sh instr     client instructions per oltp_point_select event (callgrind)
#   bench/vs-pgsql.sh tls       TCP with TLS vs plain: instructions per point select and QPS rounds
#   bench/vs-pgsql.sh sqlite    dbpress on SQLite: QPS at 1, 2, 4 threads and prepare rows/s
#   bench/vs-pgsql.sh script    `dbpress script run -S` vs `pgbench -S -M prepared`, 4 clients
#
# QPS is compared in rounds that alternate the tools (sysbench, pgbench, dbpress, then the
# reverse order) on the same table; each round gives a ratio, and the median ratio is reported with its min-max
# spread. pgbench runs the same statement as oltp_point_select on the same table
# (`\set id random(1, N)` + `SELECT c FROM sbtest1 WHERE id = :id`) with -M prepared, which is
# what `pgbench -S -M prepared` does on its own accounts table.
set -euo pipefail
cd "$(dirname "$0")/.."
what="${1:-all}"
ROUNDS="${ROUNDS:-5}"
SECONDS_PER_RUN="${SECONDS_PER_RUN:-10}"
ROWS="${ROWS:-100000}"
N="${N:-2000}"

scripts/services.sh pgsql sysbench >/dev/null
cargo build --release --locked -q
DBP="$PWD/target/release/dbpress"
PGCONN=(--pgsql-host=/var/run/postgresql --pgsql-user=sbtest --pgsql-password=sbtest --pgsql-db=sbtest)
export PGPASSWORD=sbtest
median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
spread() { sort -g | awk 'NR==1 {lo=$1} {hi=$1} END {printf "%.2f-%.2f", lo, hi}'; }
qps_of() { awk '/queries:/ {gsub(/\(/, "", $3); print $3}'; }

fresh_tables() { # tables rows
  "$DBP" oltp_read_write cleanup "${PGCONN[@]}" --tables=16 >/dev/null
  "$DBP" oltp_read_write prepare "${PGCONN[@]}" --tables="$1" --table-size="$2" --threads=2 >/dev/null
}

sysbench_qps() { # workload
  sysbench "$1" --db-driver=pgsql "${PGCONN[@]}" --tables=1 --table-size="$ROWS" --rand-type=uniform \
    --threads=4 --time="$SECONDS_PER_RUN" run | qps_of
}
dbpress_qps() { # workload
  "$DBP" "$1" run "${PGCONN[@]}" --tables=1 --table-size="$ROWS" --rand-type=uniform \
    --threads=4 --time="$SECONDS_PER_RUN" | qps_of
}
pgbench_qps() {
  printf '\\set id random(1, %s)\nSELECT c FROM sbtest1 WHERE id = :id;\n' "$ROWS" >/tmp/dbpress-point.sql
  pgbench -n -M prepared -c 4 -j 4 -T "$SECONDS_PER_RUN" -f /tmp/dbpress-point.sql \
    -h /var/run/postgresql -U sbtest sbtest 2>/dev/null | awk '/^tps = / {print $3}'
}

if [ "$what" = all ] || [ "$what" = qps ]; then
  fresh_tables 1 "$ROWS"
  echo "### PostgreSQL QPS, 4 threads, Unix socket, 1 table x $ROWS rows ($ROUNDS rounds of ${SECONDS_PER_RUN}s, tools alternating)"
  echo
  : >/tmp/dbpress-pg-ratios
  echo "| round | sysbench pgsql | pgbench -M prepared | dbpress | dbpress / median(sysbench, pgbench) |"
  echo "|---:|---:|---:|---:|---:|"
  for r in $(seq 1 "$ROUNDS"); do
    # The order flips every round: the tables age during the bench (dead tuples, autovacuum),
    # which would otherwise always handicap the same tool.
    if [ $((r % 2)) = 1 ]; then
      s=$(sysbench_qps oltp_point_select); p=$(pgbench_qps); d=$(dbpress_qps oltp_point_select)
    else
      d=$(dbpress_qps oltp_point_select); p=$(pgbench_qps); s=$(sysbench_qps oltp_point_select)
    fi
    ratio=$(awk -v d="$d" -v s="$s" -v p="$p" 'BEGIN {printf "%.3f", d / ((s + p) / 2)}')
    echo "$ratio" >>/tmp/dbpress-pg-ratios
    echo "| $r | $s | $p | $d | $ratio |"
  done
  echo
  echo "oltp_point_select: median ratio **$(median </tmp/dbpress-pg-ratios)** (spread $(spread </tmp/dbpress-pg-ratios)); target >= 1.0"
  echo
  : >/tmp/dbpress-pg-ratios
  echo "| round | sysbench pgsql oltp_read_write QPS | dbpress | ratio |"
  echo "|---:|---:|---:|---:|"
  for r in $(seq 1 "$ROUNDS"); do
    if [ $((r % 2)) = 1 ]; then
      s=$(sysbench_qps oltp_read_write); d=$(dbpress_qps oltp_read_write)
    else
      d=$(dbpress_qps oltp_read_write); s=$(sysbench_qps oltp_read_write)
    fi
    ratio=$(awk -v d="$d" -v s="$s" 'BEGIN {printf "%.3f", d / s}')
    echo "$ratio" >>/tmp/dbpress-pg-ratios
    echo "| $r | $s | $d | $ratio |"
  done
  echo
  echo "oltp_read_write: median ratio **$(median </tmp/dbpress-pg-ratios)** (spread $(spread </tmp/dbpress-pg-ratios)); target >= 1.0"
  echo
fi

if [ "$what" = all ] || [ "$what" = prepare ]; then
  echo "### PostgreSQL prepare, 4 tables x 250 000 rows, 2 threads (wall seconds, alternating)"
  echo
  echo "| round | sysbench pgsql | dbpress | ratio |"
  echo "|---:|---:|---:|---:|"
  : >/tmp/dbpress-pg-ratios
  for r in $(seq 1 3); do
    "$DBP" oltp_read_write cleanup "${PGCONN[@]}" --tables=16 >/dev/null
    t0=$(date +%s.%N)
    sysbench oltp_read_write --db-driver=pgsql "${PGCONN[@]}" --tables=4 --table-size=250000 --threads=2 prepare >/dev/null
    s=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN {printf "%.2f", b - a}')
    "$DBP" oltp_read_write cleanup "${PGCONN[@]}" --tables=16 >/dev/null
    t0=$(date +%s.%N)
    "$DBP" oltp_read_write prepare "${PGCONN[@]}" --tables=4 --table-size=250000 --threads=2 >/dev/null
    d=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN {printf "%.2f", b - a}')
    ratio=$(awk -v d="$d" -v s="$s" 'BEGIN {printf "%.3f", d / s}')
    echo "$ratio" >>/tmp/dbpress-pg-ratios
    echo "| $r | $s | $d | $ratio |"
  done
  echo
  echo "prepare: median ratio **$(median </tmp/dbpress-pg-ratios)** (spread $(spread </tmp/dbpress-pg-ratios)); target <= 0.5. dbpress includes VACUUM ANALYZE of each table, sysbench does not analyze."
  echo
  "$DBP" oltp_read_write cleanup "${PGCONN[@]}" --tables=16 >/dev/null
fi

if [ "$what" = all ] || [ "$what" = instr ]; then
  fresh_tables 1 10000
  instructions() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" >/dev/null 2>/tmp/dbpress-cg.err
    awk '/Collected/ {print $4}' /tmp/dbpress-cg.err
  }
  sb() { instructions sysbench oltp_point_select --db-driver=pgsql "${PGCONN[@]}" --rand-type=uniform --threads=1 --time=0 --events="$1" run; }
  dp() { instructions "$DBP" oltp_point_select run "${PGCONN[@]}" --rand-type=uniform --threads=1 --time=0 --events="$1"; }
  s=$(( ($(sb $((2 * N))) - $(sb "$N")) / N ))
  d=$(( ($(dp $((2 * N))) - $(dp "$N")) / N ))
  echo "### PostgreSQL client instructions per oltp_point_select event (callgrind, N=$N vs 2N)"
  echo
  echo "| sysbench pgsql (libpq) | dbpress (own protocol client) | ratio |"
  echo "|---:|---:|---:|"
  echo "| $s | $d | $(awk -v d="$d" -v s="$s" 'BEGIN {printf "%.2f", d / s}') |"
  echo
  "$DBP" oltp_read_write cleanup "${PGCONN[@]}" --tables=16 >/dev/null
fi

if [ "$what" = all ] || [ "$what" = tls ]; then
  # Over TCP, libpq (sysbench 1.0.20 has no sslmode option) takes PGSSLMODE from the environment.
  fresh_tables 1 10000
  PGTCP=(--pgsql-host=127.0.0.1 --pgsql-port=5432 --pgsql-user=sbtest --pgsql-password=sbtest --pgsql-db=sbtest)
  instructions() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" >/dev/null 2>/tmp/dbpress-cg.err
    awk '/Collected/ {print $4}' /tmp/dbpress-cg.err
  }
  sb() { PGSSLMODE=$1 instructions sysbench oltp_point_select --db-driver=pgsql "${PGTCP[@]}" --table-size=10000 --rand-type=uniform --threads=1 --time=0 --events="$2" run; }
  dp() { instructions "$DBP" oltp_point_select run "${PGTCP[@]}" --pgsql-sslmode="$1" --table-size=10000 --rand-type=uniform --threads=1 --time=0 --events="$2"; }
  echo "### PostgreSQL over TCP 127.0.0.1: client instructions per oltp_point_select event (callgrind, N=$N vs 2N)"
  echo
  echo "| sslmode | sysbench pgsql (libpq) | dbpress | ratio |"
  echo "|---|---:|---:|---:|"
  for mode in disable require; do
    s=$(( ($(sb $mode $((2 * N))) - $(sb $mode "$N")) / N ))
    d=$(( ($(dp $mode $((2 * N))) - $(dp $mode "$N")) / N ))
    echo "| $mode | $s | $d | $(awk -v d="$d" -v s="$s" 'BEGIN {printf "%.2f", d / s}') |"
  done
  echo
  fresh_tables 1 "$ROWS"
  echo "### PostgreSQL QPS over TCP with TLS (sslmode=require), oltp_point_select, 4 threads ($ROUNDS rounds of ${SECONDS_PER_RUN}s, alternating)"
  echo
  : >/tmp/dbpress-pg-ratios
  echo "| round | sysbench pgsql | dbpress | ratio |"
  echo "|---:|---:|---:|---:|"
  sbt() { PGSSLMODE=require sysbench oltp_point_select --db-driver=pgsql "${PGTCP[@]}" --tables=1 --table-size="$ROWS" --rand-type=uniform --threads=4 --time="$SECONDS_PER_RUN" run | qps_of; }
  dpt() { "$DBP" oltp_point_select run "${PGTCP[@]}" --pgsql-sslmode=require --tables=1 --table-size="$ROWS" --rand-type=uniform --threads=4 --time="$SECONDS_PER_RUN" | qps_of; }
  for r in $(seq 1 "$ROUNDS"); do
    if [ $((r % 2)) = 1 ]; then s=$(sbt); d=$(dpt); else d=$(dpt); s=$(sbt); fi
    ratio=$(awk -v d="$d" -v s="$s" 'BEGIN {printf "%.3f", d / s}')
    echo "$ratio" >>/tmp/dbpress-pg-ratios
    echo "| $r | $s | $d | $ratio |"
  done
  echo
  echo "median ratio **$(median </tmp/dbpress-pg-ratios)** (spread $(spread </tmp/dbpress-pg-ratios))"
  echo
  "$DBP" oltp_read_write cleanup "${PGCONN[@]}" --tables=16 >/dev/null
fi

if [ "$what" = all ] || [ "$what" = sqlite ]; then
  dir=$(mktemp -d)
  db=(--sqlite-path="$dir/bench.sqlite")
  echo "### SQLite (embedded, WAL, synchronous=full), 1 table x $ROWS rows, ${SECONDS_PER_RUN}s per run"
  echo
  prep=$("$DBP" oltp_read_write prepare "${db[@]}" --table-size="$ROWS" | awk '/^Loaded/ {gsub(/\(/, "", $6); print $6}')
  echo "prepare: $prep rows/s (one table, secondary index and ANALYZE included)"
  echo
  echo "| workload | 1 thread QPS | 2 threads QPS | 4 threads QPS |"
  echo "|---|---:|---:|---:|"
  for wl in oltp_point_select oltp_read_write; do
    row="| $wl"
    for t in 1 2 4; do
      q=$("$DBP" "$wl" run "${db[@]}" --table-size="$ROWS" --threads="$t" --time="$SECONDS_PER_RUN" | qps_of)
      row="$row | $q"
    done
    echo "$row |"
  done
  echo
  # Several writers on one file: the in-process write queue against SQLite's busy handler alone.
  echo "| 4 threads | --sqlite-write-queue | TPS | max latency ms | events per thread avg/stddev |"
  echo "|---|---|---:|---:|---:|"
  for wl in oltp_update_index oltp_read_write; do
    for q in on off; do
      out=$("$DBP" "$wl" run "${db[@]}" --table-size="$ROWS" --threads=4 --time="$SECONDS_PER_RUN" --sqlite-write-queue="$q")
      tps=$(awk '/transactions:/ {gsub(/\(/, "", $3); print $3}' <<<"$out")
      max=$(awk '$1 == "max:" {print $2; exit}' <<<"$out")
      fair=$(awk '/events \(avg\/stddev\):/ {print $3}' <<<"$out")
      echo "| $wl | $q | $tps | $max | $fair |"
    done
  done
  echo
  rm -rf "$dir"
fi

if [ "$what" = all ] || [ "$what" = script ]; then
  SCALE="${SCALE:-10}"
  "$DBP" script cleanup "${PGCONN[@]}" >/dev/null
  "$DBP" script prepare "${PGCONN[@]}" -s "$SCALE" >/dev/null
  echo "### Script mode: select-only, 4 clients, Unix socket, scale $SCALE ($ROUNDS rounds of ${SECONDS_PER_RUN}s, order flipped each round)"
  echo
  echo "| round | pgbench -S -M prepared TPS | dbpress script run -S TPS | ratio |"
  echo "|---:|---:|---:|---:|"
  : >/tmp/dbpress-pg-ratios
  pg_s() { pgbench -n -S -M prepared -c 4 -j 4 -T "$SECONDS_PER_RUN" -h /var/run/postgresql -U sbtest sbtest 2>/dev/null | awk '/^tps = / {print $3}'; }
  dp_s() { "$DBP" script run "${PGCONN[@]}" -S -c 4 -T "$SECONDS_PER_RUN" | awk '/transactions:/ {gsub(/\(/, "", $3); print $3}'; }
  for r in $(seq 1 "$ROUNDS"); do
    if [ $((r % 2)) = 1 ]; then p=$(pg_s); d=$(dp_s); else d=$(dp_s); p=$(pg_s); fi
    ratio=$(awk -v d="$d" -v p="$p" 'BEGIN {printf "%.3f", d / p}')
    echo "$ratio" >>/tmp/dbpress-pg-ratios
    echo "| $r | $p | $d | $ratio |"
  done
  echo
  echo "script select-only: median ratio **$(median </tmp/dbpress-pg-ratios)** (spread $(spread </tmp/dbpress-pg-ratios)); target >= 1.0"
  echo
  "$DBP" script cleanup "${PGCONN[@]}" >/dev/null
fi
