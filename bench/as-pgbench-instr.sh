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

instructions() { # command... -> the whole process's instructions
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" >/dev/null 2>"$work/cg.err"
  awk '/Collected/ {print $4}' "$work/cg.err"
}

per_txn() { # n command-with-T-placeholder... -> instructions per transaction
  local n=$1 a b; shift
  a=$(instructions "${@//@T@/$n}")
  b=$(instructions "${@//@T@/$((2 * n))}")
  echo $(((b - a) / n))
}

N=2000
echo "### As pgbench: client instructions per transaction (callgrind, N=$N vs 2N, 1 client, socket; $reps repetitions, alternating)"
echo
echo "| script | -M | pgbench 15 | dbpress script run | dbpress as pgbench | as pgbench / script run | repetitions (pgbench / script run / as pgbench) |"
echo "|---|---|---:|---:|---:|---:|---|"
for script in select-only tpcb-like; do
  for mode in prepared simple; do
    p=() s=() a=()
    for _ in $(seq "$reps"); do
      p+=("$(per_txn "$N" "$PEER" -n -b "$script" -M "$mode" -t @T@ "${TARGET[@]}")")
      s+=("$(per_txn "$N" "$DBP" script run -b "$script" -M "$mode" -c 1 -t @T@ --server-status=off "${TARGET[@]}")")
      a+=("$(per_txn "$N" "$work/pgbench" -n -b "$script" -M "$mode" -t @T@ "${TARGET[@]}")")
    done
    pm=$(printf '%s\n' "${p[@]}" | median)
    sm=$(printf '%s\n' "${s[@]}" | median)
    am=$(printf '%s\n' "${a[@]}" | median)
    ratio=$(awk -v a="$am" -v b="$sm" 'BEGIN {printf "%.3f", a/b}')
    echo "| $script | $mode | $pm | $sm | $am | $ratio | ${p[*]} / ${s[*]} / ${a[*]} |"
  done
done
