#!/usr/bin/env bash
# Client instructions per event of dbpress speaking as sysbench (a link named sysbench) beside
# dbpress's own run of the same workload, with its default (uniform) keys and with sysbench
# 1.0.20's default (special) keys, which the link draws by default (#42's gate: the personality
# no higher than the native run of the same work):
#
#   bench/as-sysbench-instr.sh [REPS]
#
# callgrind, 1 thread, `--mysql-dry-run` (no server: the client's own work), runs of N and 2N
# events ((I(2N) - I(N)) / N cancels start-up), --rand-seed=1 (the special distribution's draws
# vary in cost), the three alternating, REPS (default 3)
# repetitions; oltp_point_select (N=20 000) and oltp_read_write (N=5 000). Prints Markdown.
set -euo pipefail
cd "$(dirname "$0")/.."
reps="${1:-3}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cargo build --release --locked -q
DBP="$PWD/target/release/dbpress"
ln -sf "$DBP" "$work/sysbench"
median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }

instructions() { # command... -> the whole process's instructions
  valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" "$@" >/dev/null 2>"$work/cg.err"
  awk '/Collected/ {print $4}' "$work/cg.err"
}

per_event() { # n command-with-@E@-placeholder... -> instructions per event
  local n=$1 a b; shift
  a=$(instructions "${@//@E@/$n}")
  b=$(instructions "${@//@E@/$((2 * n))}")
  echo $(((b - a) / n))
}

echo "### As sysbench: client instructions per event (callgrind, dry run, 1 thread, N vs 2N; $reps repetitions, alternating)"
echo
echo "| workload | N | native (uniform) | native --rand-type=special | as sysbench (special) | as sysbench / native special | repetitions (native special / as sysbench) |"
echo "|---|---:|---:|---:|---:|---:|---|"
for pair in oltp_point_select:20000 oltp_read_write:5000; do
  w=${pair%%:*} n=${pair##*:}
  u=() s=() a=()
  common=(--mysql-dry-run --time=0 --events=@E@ --threads=1 --rand-seed=1)
  for _ in $(seq "$reps"); do
    u+=("$(per_event "$n" "$DBP" "$w" "${common[@]}" --server-status=off run)")
    s+=("$(per_event "$n" "$DBP" "$w" "${common[@]}" --rand-type=special --server-status=off run)")
    a+=("$(per_event "$n" "$work/sysbench" "$w" "${common[@]}" run)")
  done
  mu=$(printf '%s\n' "${u[@]}" | median) ms=$(printf '%s\n' "${s[@]}" | median)
  ma=$(printf '%s\n' "${a[@]}" | median)
  ratio=$(awk -v a="$ma" -v b="$ms" 'BEGIN {printf "%.3f", a / b}')
  echo "| $w | $n | $mu | $ms | $ma | $ratio | ${s[*]} / ${a[*]} |"
done
