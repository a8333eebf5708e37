#!/usr/bin/env bash
# dbpress slap vs mariadb-slap (Debian's mysqlslap) on the flash-sale hot-row test, same MariaDB.
# Prints Markdown for bench/RESULTS.md.
#
#   bench/vs-slap.sh          ROUNDS (3) alternating rounds at 8, 32 and 64 sessions
#
# Each round runs both tools on a fresh `seckill` table in the schema `slapbench` (mariadb-slap
# creates and drops that schema itself, so it is never a schema with other data), the same
# statement list and the same --number-of-queries. A "query" is mysqlslap's: one line of --query
# (its default delimiter is a newline), here one begin;update;commit transaction, which
# mariadb-slap sends as one multi-statement string and dbpress as three timed statements.
# Queries per second come from each tool's own
# "Average number of seconds to run all queries" (mysqlslap counts its clients' connection time in
# it; dbpress starts the clock once all clients are connected), and the whole command's wall time
# is shown beside it.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS="${ROUNDS:-3}"
QUERIES="${QUERIES:-60000}"
LEVELS="${LEVELS:-8 32 64}"

scripts/services.sh mariadb >/dev/null
cargo build --release --locked -q
DBP="$PWD/target/release/dbpress"
SOCK=/run/mysqld/mysqld.sock
root() { mariadb --protocol=socket -uroot -e "$1"; }
root "GRANT ALL PRIVILEGES ON slapbench.* TO 'sbtest'@'localhost'"
CREATE="create table seckill(id int primary key, num int) engine=innodb; insert into seckill values (1, 100000000)"
QUERY="begin;update seckill set num=num-1 where id=1 and num>1;commit;"
median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
spread() { sort -g | awk 'NR==1 {lo=$1} {hi=$1} END {printf "%.2f-%.2f", lo, hi}'; }
avg_seconds() { awk '/Average number of seconds/ {print $9}'; }

run_mysqlslap() { # clients -> "seconds wall"
  local t0 t1 s
  t0=$(date +%s.%N)
  s=$(mariadb-slap --protocol=socket -S "$SOCK" -usbtest -psbtest --create-schema=slapbench \
      --create="$CREATE" --query="$QUERY" --concurrency="$1" --number-of-queries="$QUERIES" | avg_seconds)
  t1=$(date +%s.%N)
  echo "$s $(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.2f", b - a}')"
}
run_dbpress() { # clients -> "seconds wall"
  local t0 t1 s
  root "CREATE DATABASE IF NOT EXISTS slapbench"
  t0=$(date +%s.%N)
  s=$("$DBP" slap -S "$SOCK" -usbtest -psbtest --create-schema=slapbench \
      --create="$CREATE" --query="$QUERY" --concurrency="$1" --number-of-queries="$QUERIES" | avg_seconds)
  t1=$(date +%s.%N)
  root "DROP DATABASE IF EXISTS slapbench"
  echo "$s $(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.2f", b - a}')"
}

echo "### Hot-row test, dbpress slap vs mariadb-slap ($QUERIES statements per run, $ROUNDS rounds, order flipped each round)"
echo
echo "| sessions | round | mariadb-slap queries/s | dbpress queries/s | ratio | wall s (mariadb-slap / dbpress) |"
echo "|---:|---:|---:|---:|---:|---|"
summary=()
for c in $LEVELS; do
  : >/tmp/dbpress-slap-ratios
  for r in $(seq 1 "$ROUNDS"); do
    if [ $((r % 2)) = 1 ]; then m=$(run_mysqlslap "$c"); d=$(run_dbpress "$c"); else d=$(run_dbpress "$c"); m=$(run_mysqlslap "$c"); fi
    ms=$(awk -v q="$QUERIES" -v s="${m% *}" 'BEGIN {printf "%.0f", q / s}')
    ds=$(awk -v q="$QUERIES" -v s="${d% *}" 'BEGIN {printf "%.0f", q / s}')
    ratio=$(awk -v a="$ds" -v b="$ms" 'BEGIN {printf "%.3f", a / b}')
    echo "$ratio" >>/tmp/dbpress-slap-ratios
    echo "| $c | $r | $ms | $ds | $ratio | ${m#* } / ${d#* } |"
  done
  summary+=("$c sessions: median ratio **$(median </tmp/dbpress-slap-ratios)** (spread $(spread </tmp/dbpress-slap-ratios))")
done
echo
for s in "${summary[@]}"; do echo "- $s; target >= 1.0"; done
echo
