#!/usr/bin/env bash
# Client instructions per transaction of dbpress speaking as pgbench (a link named pgbench),
# beside dbpress's own `script run` of the same script and PostgreSQL's pgbench 15 (#42's gate:
# the personality no higher than the native run):
#
#   bench/as-pgbench-instr.sh [REPS]
#
# callgrind, 1 client, runs of N and 2N transactions ((I(2N) - I(N)) / N cancels start-up),
# the three alternating, REPS (default 3) repetitions each, on the shared PostgreSQL's Unix
# socket at scale 1 (pgbench -i): select-only and tpcb-like, each in -M prepared and -M simple
# (dbpress's own `script run` binds in both: it has no simple protocol of its own before #42's
# `-M simple`, which it takes now). Prints Markdown for bench/RESULTS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
reps="${1:-3}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
scripts/services.sh pgsql >/dev/null
cargo build --release --locked -q
DBP="$PWD/target/release/dbpress"
# Debian's /usr/bin/pgbench is a wrapper that execs the binary; callgrind measures the binary.
PEER=/usr/lib/postgresql/15/bin/pgbench
ln -sf "$DBP" "$work/pgbench"
export PGPASSWORD=sbtest
TARGET=(-h /var/run/postgresql -U sbtest sbtest)
pgbench -i -q -s 1 "${TARGET[@]}" >/dev/null 2>&1
median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }

instructions() { # command... -> "total worker": the whole process's instructions, and for
  # dbpress its client threads' (start::worker_main, inclusive: Worker::run would miss the
  # part of a driven loop callgrind files under a call cycle), which leaves out the reporter's ticks
  # (callgrind stretches wall time, and they move the process's count by ±15% at select-only)
  valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" "$@" >/dev/null 2>"$work/cg.err"
  local total worker
  total=$(awk '/Collected/ {print $4}' "$work/cg.err")
  worker=$(callgrind_annotate --inclusive=yes --threshold=100 "$work/cg.out" 2>/dev/null |
    awk '/start::worker_main \[/ {gsub(",", "", $1); print $1; exit}')
  echo "$total ${worker:-$total}"
}

per_txn() { # n command-with-T-placeholder... -> "total worker" per transaction
  local n=$1 a b; shift
  read -r -a a <<<"$(instructions "${@//@T@/$n}")"
  read -r -a b <<<"$(instructions "${@//@T@/$((2 * n))}")"
  echo "$(((b[0] - a[0]) / n)) $(((b[1] - a[1]) / n))"
}

N=2000
echo "### As pgbench: client instructions per transaction (callgrind, N=$N vs 2N, 1 client, socket; $reps repetitions, alternating)"
echo
echo "| script | -M | scope | pgbench 15 | dbpress script run | dbpress as pgbench | as pgbench / script run | repetitions (script run / as pgbench) |"
echo "|---|---|---|---:|---:|---:|---:|---|"
for script in select-only tpcb-like; do
  for mode in prepared simple; do
    p=() s=() a=() sw=() aw=()
    for _ in $(seq "$reps"); do
      read -r t _ <<<"$(per_txn "$N" "$PEER" -n -b "$script" -M "$mode" -t @T@ "${TARGET[@]}")"; p+=("$t")
      read -r t w <<<"$(per_txn "$N" "$DBP" script run -b "$script" -M "$mode" -c 1 -t @T@ --server-status=off "${TARGET[@]}")"; s+=("$t"); sw+=("$w")
      read -r t w <<<"$(per_txn "$N" "$work/pgbench" -n -b "$script" -M "$mode" -t @T@ "${TARGET[@]}")"; a+=("$t"); aw+=("$w")
    done
    pm=$(printf '%s\n' "${p[@]}" | median)
    for scope in process worker; do
      if [ "$scope" = process ]; then ss=("${s[@]}") as=("${a[@]}") peer="$pm"; else ss=("${sw[@]}") as=("${aw[@]}") peer="–"; fi
      sm=$(printf '%s\n' "${ss[@]}" | median)
      am=$(printf '%s\n' "${as[@]}" | median)
      ratio=$(awk -v a="$am" -v b="$sm" 'BEGIN {printf "%.3f", a/b}')
      echo "| $script | $mode | $scope | $peer | $sm | $am | $ratio | ${ss[*]} / ${as[*]} |"
    done
  done
done
