#!/usr/bin/env bash
# Client instructions per query of dbpress speaking as mysqlslap (a link named mysqlslap),
# beside dbpress's own `slap` of the same line and MariaDB's mysqlslap 10.11 (#42's gate: the
# personality no higher than the native run):
#
#   bench/as-mysqlslap-instr.sh [REPS]
#
# callgrind, 1 client, runs of N and 2N queries (--number-of-queries; (I(2N) - I(N)) / N
# cancels start-up and the schema's statements), the three alternating, REPS (default 3)
# repetitions each, on the shared MariaDB's Unix socket: a one-row INSERT from --query, and
# -a's read load (a full scan of its 99 rows). dbpress's `slap` runs in a schema made for it
# beforehand (it makes none); mysqlslap and the link make and drop their own. Prints Markdown
# for bench/RESULTS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
reps="${1:-3}"
work=$(mktemp -d)
trap 'rm -rf "$work"; mariadb -uroot -e "DROP DATABASE IF EXISTS slap_bench_native" 2>/dev/null || true' EXIT
scripts/services.sh mariadb >/dev/null
cargo build --release --locked -q
DBP="$PWD/target/release/dbpress"
ln -sf "$DBP" "$work/mysqlslap"
PEER=/usr/bin/mysqlslap
mariadb -uroot -e "CREATE DATABASE IF NOT EXISTS slap_bench_native; GRANT ALL ON slap_bench_native.* TO 'sbtest'@'localhost'"
LOGIN=(-usbtest -psbtest)
. bench/lib.sh

per_query() { # n command-with-@N@... -> "total worker" per query
  local n=$1 a b; shift
  read -r -a a <<<"$(callgrind_instructions "$work" "${@//@N@/$n}")"
  read -r -a b <<<"$(callgrind_instructions "$work" "${@//@N@/$((2 * n))}")"
  echo "$(((b[0] - a[0]) / n)) $(((b[1] - a[1]) / n))"
}

N=2000
echo "### As mysqlslap: client instructions per query (callgrind, N=$N vs 2N, 1 client, socket; $reps repetitions, alternating)"
echo
echo "| line | scope | mysqlslap 10.11 | dbpress slap | dbpress as mysqlslap | as mysqlslap / slap | repetitions (slap / as mysqlslap) |"
echo "|---|---|---:|---:|---:|---:|---|"
for line in insert read; do
  case $line in
    insert) what=(--create="CREATE TABLE t(a INT)" -q "INSERT INTO t VALUES (1)") ;;
    read) what=(-a --auto-generate-sql-load-type=read) ;;
  esac
  p=() s=() a=() sw=() aw=()
  for _ in $(seq "$reps"); do
    read -r t _ <<<"$(per_query "$N" "$PEER" "${LOGIN[@]}" --create-schema=slap_bench "${what[@]}" --number-of-queries=@N@)"; p+=("$t")
    read -r t w <<<"$(per_query "$N" "$DBP" slap "${LOGIN[@]}" -S /run/mysqld/mysqld.sock --create-schema=slap_bench_native "${what[@]}" --number-of-queries=@N@ --server-status=off --server-waits=off)"; s+=("$t"); sw+=("$w")
    read -r t w <<<"$(per_query "$N" "$work/mysqlslap" "${LOGIN[@]}" --create-schema=slap_bench "${what[@]}" --number-of-queries=@N@)"; a+=("$t"); aw+=("$w")
  done
  pm=$(printf '%s\n' "${p[@]}" | median)
  for scope in process worker; do
    if [ "$scope" = process ]; then ss=("${s[@]}") as=("${a[@]}") peer="$pm"; else ss=("${sw[@]}") as=("${aw[@]}") peer="–"; fi
    sm=$(printf '%s\n' "${ss[@]}" | median)
    am=$(printf '%s\n' "${as[@]}" | median)
    ratio=$(awk -v a="$am" -v b="$sm" 'BEGIN {printf "%.3f", a/b}')
    echo "| $line | $scope | $peer | $sm | $am | $ratio | ${ss[*]} / ${as[*]} |"
  done
done
