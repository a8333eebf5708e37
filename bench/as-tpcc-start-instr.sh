#!/usr/bin/env bash
# Client instructions per transaction of dbpress speaking as tpcc_start (a link named
# tpcc_start, tpcc-mysql's statements), beside tpcc-mysql's own tpcc_start and dbpress's own
# `tpcc run` with tpcc_start's random warehouse (its own statements, fewer round trips):
#
#   bench/as-tpcc-start-instr.sh [REPS]
#
# callgrind, 2 clients, 1 warehouse, no ramp-up, runs of T and 2T seconds, the three alternating,
# REPS (default 3) repetitions: (I(2T) - I(T)) / (n(2T) - n(T)), n the transactions each run
# reports (its Raw Results' sc+lt+fl, or dbpress's events). "worker" is dbpress's client threads
# (start::worker_main, inclusive); tpcc_start's figure is its whole process. MariaDB's socket;
# the tables are loaded by `dbpress tpcc prepare`, a copy with `new_order` renamed as
# tpcc-mysql names it. Prints Markdown for bench/RESULTS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
reps="${1:-3}"
work=$(mktemp -d)
trap 'rm -rf "$work"; mariadb -uroot -e "DROP DATABASE IF EXISTS tpcc_bench_native; DROP DATABASE IF EXISTS tpcc_bench_tm" 2>/dev/null || true' EXIT
scripts/services.sh mariadb >/dev/null
scripts/tpcc-mysql.sh
cargo build --release --locked -q
DBP="$PWD/target/release/dbpress"
PEER="$PWD/target/peers/tpcc-mysql/tpcc_start"
ln -sf "$DBP" "$work/tpcc_start"
SOCK=/run/mysqld/mysqld.sock
for db in tpcc_bench_native tpcc_bench_tm; do
  mariadb -uroot -e "DROP DATABASE IF EXISTS $db; CREATE DATABASE $db"
  "$DBP" tpcc prepare --warehouses=1 --threads=2 --mysql-socket=$SOCK --mysql-user=root --mysql-db=$db >/dev/null 2>&1
done
mariadb -uroot -e "RENAME TABLE tpcc_bench_tm.new_order TO tpcc_bench_tm.new_orders"
. bench/lib.sh

measured() { # command... -> "instructions worker transactions"
  local counts n
  counts=$(callgrind_instructions "$work" "$@")
  if [ -f "$work/r.json" ]; then
    n=$(python3 -c "import json;print(json.load(open('$work/r.json'))['summary']['events'])"); rm -f "$work/r.json"
  else
    n=$(sed -n '/<Raw Results>/,/Raw Results2/p' "$work/out" | grep -o 'sc:[0-9]*\|lt:[0-9]*\|fl:[0-9]*' |
      cut -d: -f2 | awk '{s += $1} END {print s}')
  fi
  echo "$counts $n"
}

per_txn() { # T command-with-@T@... -> "total worker" per transaction
  local t=$1 a b; shift
  read -r -a a <<<"$(measured "${@//@T@/$t}")"
  read -r -a b <<<"$(measured "${@//@T@/$((2 * t))}")"
  local n=$((b[2] - a[2]))
  echo "$(((b[0] - a[0]) / n)) $(((b[1] - a[1]) / n))"
}

T=20
TM=(-S $SOCK -d tpcc_bench_tm -u root -w 1 -c 2 -r 0 -l @T@ -i @T@)
echo "### As tpcc_start: client instructions per transaction (callgrind, T=${T}s vs 2T, 2 clients, 1 warehouse, socket; $reps repetitions, alternating)"
echo
echo "| scope | tpcc_start (tpcc-mysql) | dbpress as tpcc_start | dbpress tpcc run (its own statements) | repetitions (as tpcc_start / tpcc run) |"
echo "|---|---:|---:|---:|---|"
p=() a=() aw=() d=() dw=()
for _ in $(seq "$reps"); do
  read -r t _ <<<"$(per_txn "$T" "$PEER" "${TM[@]}")"; p+=("$t")
  read -r t w <<<"$(per_txn "$T" "$work/tpcc_start" "${TM[@]}" --output="$work/r.json")"; a+=("$t"); aw+=("$w")
  read -r t w <<<"$(per_txn "$T" "$DBP" tpcc run --warehouses=1 --threads=2 --home-warehouse=random --time=@T@ --mysql-socket=$SOCK --mysql-user=root --mysql-db=tpcc_bench_native --server-status=off --server-waits=off --output="$work/r.json")"; d+=("$t"); dw+=("$w")
done
pm=$(printf '%s\n' "${p[@]}" | median)
for scope in process worker; do
  if [ "$scope" = process ]; then as=("${a[@]}") ds=("${d[@]}") peer="$pm"; else as=("${aw[@]}") ds=("${dw[@]}") peer="–"; fi
  am=$(printf '%s\n' "${as[@]}" | median)
  dm=$(printf '%s\n' "${ds[@]}" | median)
  echo "| $scope | $peer | $am | $dm | ${as[*]} / ${ds[*]} |"
done
