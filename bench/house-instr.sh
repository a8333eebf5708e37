#!/usr/bin/env bash
# Client instructions per event of this checkout beside another revision's (default 9c519a3, the
# house before issue #40's restructuring), both `cargo build --release`, so a change that is meant
# to move code and not cost anything shows that it did not:
#
#   bench/house-instr.sh [REV] [REPS]
#
# callgrind, 1 thread, runs of N and 2N events ((I(2N) - I(N)) / N cancels start-up cost), the
# two builds alternating, REPS (default 3) repetitions each: oltp_point_select (N=5000, or
# POINT_N) and oltp_read_write (N=1000) on the shared MariaDB's Unix socket, and the dry run of
# oltp_read_write (20 000 events, which repeats to the instruction), each as the whole process's
# instructions and as the worker thread's event loop's (Worker::run). Prints Markdown for
# bench/RESULTS.md: the median of each side, their ratio and every repetition. BEFORE_BIN and
# AFTER_BIN name binaries already built (to hold a server lock only while measuring); AFTER_REV
# names the revision AFTER_BIN was built from (default: this checkout's HEAD).
set -euo pipefail
cd "$(dirname "$0")/.."
rev="${1:-9c519a3}"
reps="${2:-3}"
work=$(mktemp -d)
trap 'git worktree remove --force "$work/before" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
scripts/services.sh mariadb >/dev/null
AFTER="${AFTER_BIN:-$PWD/target/release/dbpress}"
BEFORE="${BEFORE_BIN:-$work/target/release/dbpress}"
[ -n "${AFTER_BIN:-}" ] || cargo build --release --locked -q
if [ -z "${BEFORE_BIN:-}" ]; then
  git worktree add --detach "$work/before" "$rev" >/dev/null 2>&1
  (cd "$work/before" && CARGO_TARGET_DIR="$work/target" cargo build --release --locked -q)
fi
CONN=(--mysql-socket=/run/mysqld/mysqld.sock --mysql-user=sbtest --mysql-password=sbtest --mysql-db=sbtest)
# Work done once a second (the server-status sampler reads ~500 rows of SHOW GLOBAL STATUS) grows
# with wall time, which callgrind stretches 50-fold and the server's answers make uneven: it
# would land in the N-vs-2N difference as per-event cost and move it by ±10% at point select.
# Measured without it, the difference is the event's own client work.
QUIET=(--rand-type=uniform --server-status=off)
median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }

instructions() { # command... -> "total worker": the whole process's instructions, and the worker
  # thread's event loop's (Worker::run, inclusive): the second leaves out the reporter and the
  # set-up and end of the run, which the N-vs-2N difference cancels only on average.
  valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" "$@" >/dev/null 2>"$work/cg.err"
  local total worker
  total=$(awk '/Collected/ {print $4}' "$work/cg.err")
  worker=$(callgrind_annotate --inclusive=yes --threshold=100 "$work/cg.out" 2>/dev/null |
    awk '/worker::Worker::run \[/ {gsub(",", "", $1); print $1; exit}')
  echo "$total ${worker:-0}"
}

per_event() { # binary n workload extra... -> "total worker" per event
  local bin=$1 n=$2 wl=$3 a b; shift 3
  read -r -a a <<<"$(instructions "$bin" "$wl" run "${CONN[@]}" "${QUIET[@]}" --threads=1 --time=0 --events="$n" "$@")"
  read -r -a b <<<"$(instructions "$bin" "$wl" run "${CONN[@]}" "${QUIET[@]}" --threads=1 --time=0 --events=$((2 * n)) "$@")"
  echo "$(((b[0] - a[0]) / n)) $(((b[1] - a[1]) / n))"
}

"$AFTER" oltp_read_write cleanup "${CONN[@]}" >/dev/null
"$AFTER" oltp_read_write prepare "${CONN[@]}" --tables=1 --table-size=10000 >/dev/null
echo "### Client instructions per event, $rev (before) vs ${AFTER_REV:-$(git rev-parse --short HEAD)} (after) (callgrind, N vs 2N, 1 thread, socket; $reps repetitions, alternating)"
echo
echo "| workload | scope | before | after | ratio of medians | repetitions before / after |"
echo "|---|---|---:|---:|---:|---|"
for row in "oltp_point_select|${POINT_N:-5000}|" "oltp_read_write|1000|" "oltp_read_write|20000|--mysql-dry-run"; do
  IFS='|' read -r wl n extra <<<"$row"
  bt=() bw=() at=() aw=()
  for _ in $(seq "$reps"); do
    read -r t w <<<"$(per_event "$BEFORE" "$n" "$wl" $extra)"; bt+=("$t"); bw+=("$w")
    read -r t w <<<"$(per_event "$AFTER" "$n" "$wl" $extra)"; at+=("$t"); aw+=("$w")
  done
  for scope in process worker; do
    if [ "$scope" = process ]; then bs=("${bt[@]}") as=("${at[@]}"); else bs=("${bw[@]}") as=("${aw[@]}"); fi
    b=$(printf '%s\n' "${bs[@]}" | median)
    a=$(printf '%s\n' "${as[@]}" | median)
    ratio=$(awk -v a="$a" -v b="$b" 'BEGIN {printf "%.3f", a/b}')
    echo "| $wl${extra:+ $extra} (N=$n) | $scope | $b | $a | $ratio | ${bs[*]} / ${as[*]} |"
  done
done
"$AFTER" oltp_read_write cleanup "${CONN[@]}" >/dev/null
