#!/usr/bin/env bash
# What reading the server's status once a second (--server-status, on by default) costs a run:
# alternating pairs of the same run with it on and off (the order swapped every pair), QPS on
# over off, and the median time one reading took (the result's server_status.read_ms).
# Prints Markdown for bench/RESULTS.md.
#
#   bench/status-cost.sh            PAIRS (12) pairs on MariaDB; ENGINE=pgsql for PostgreSQL
set -euo pipefail
cd "$(dirname "$0")/.."
PAIRS="${PAIRS:-12}"
ENGINE="${ENGINE:-mariadb}"
SECONDS_EACH="${SECONDS_EACH:-5}"
scripts/services.sh "$ENGINE" >/dev/null
cargo build --release --locked -q
DBP="$PWD/target/release/dbpress"
case "$ENGINE" in
  mariadb) CONN=(--mysql-socket=/run/mysqld/mysqld.sock --mysql-user=sbtest --mysql-password=sbtest --mysql-db=sbtest) ;;
  pgsql) CONN=(--pgsql-host=/var/run/postgresql --pgsql-user=sbtest --pgsql-password=sbtest --pgsql-db=sbtest) ;;
  *) echo "ENGINE is mariadb or pgsql" >&2; exit 2 ;;
esac
W=(oltp_point_select --tables=1 --table-size=10000 --threads=4)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"; "$DBP" "${W[0]}" cleanup "${CONN[@]}" --tables=1 >/dev/null 2>&1 || true' EXIT
"$DBP" "${W[0]}" cleanup "${CONN[@]}" --tables=1 >/dev/null 2>&1 || true
"$DBP" "${W[@]}" prepare "${CONN[@]}" >/dev/null
qps() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['summary']['qps'])" "$1"; }
read_ms() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['server_status']['read_ms'])" "$1"; }
ratios=(); costs=()
for p in $(seq 1 "$PAIRS"); do
  if (( p % 2 )); then order="on off"; else order="off on"; fi
  for s in $order; do
    "$DBP" "${W[@]}" run "${CONN[@]}" --time="$SECONDS_EACH" --server-status="$s" --server-waits=off \
      --output="$TMP/$s.json" >/dev/null
  done
  ratios+=("$(python3 -c "print(round($(qps "$TMP/on.json") / $(qps "$TMP/off.json"), 3))")")
  costs+=("$(read_ms "$TMP/on.json")")
done
median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
echo "## Server status sampling: cost ($(date +%F), $ENGINE)"
echo
echo "QPS with --server-status on over off, $PAIRS alternating pairs of ${SECONDS_EACH} s runs, ${W[*]}:"
echo
printf '%s\n' "${ratios[@]}" | sort -g | paste -sd, | sed 's/,/, /g'
echo
echo "Median pair ratio **$(printf '%s\n' "${ratios[@]}" | median)** (spread $(printf '%s\n' "${ratios[@]}" | sort -g | head -1)–$(printf '%s\n' "${ratios[@]}" | sort -g | tail -1)); one reading took a median of $(printf '%s\n' "${costs[@]}" | median) ms."
