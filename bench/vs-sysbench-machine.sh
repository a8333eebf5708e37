#!/usr/bin/env bash
# dbpress's tests of the machine against sysbench's compiled-in ones (#42): `cpu` so far.
#
#   bench/vs-sysbench-machine.sh            both parts
#   bench/vs-sysbench-machine.sh instr      instructions per event (callgrind, N and 2N events,
#                                           one thread): the same work per event, or not
#   bench/vs-sysbench-machine.sh pairs      events per second in alternating pairs (PAIRS,
#                                           default 6, of PAIR_SECONDS, default 5, at THREADS,
#                                           default 2): the median pair ratio and its spread,
#                                           against sysbench's own run-to-run spread
#
# No database is involved. Prints Markdown for bench/RESULTS.md. DBP names a dbpress binary
# already built (default: build this checkout's release).
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
what="${1:-all}"
PAIRS="${PAIRS:-6}"
PAIR_SECONDS="${PAIR_SECONDS:-5}"
THREADS="${THREADS:-2}"
N="${N:-200}"
scripts/services.sh sysbench >/dev/null
if [ -z "${DBP:-}" ]; then
  cargo build --release --locked -q
  DBP="$PWD/target/release/dbpress"
fi

eps_of() { # output file -> events per second from the cpu report
  awk '/events per second:/ {print $4}' "$1"
}

instructions() { # command... -> total instructions
  local err; err=$(mktemp)
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" >/dev/null 2>"$err"
  awk '/Collected/ {print $4}' "$err"; rm -f "$err"
}

if [ "$what" = all ] || [ "$what" = instr ]; then
  echo "### cpu: instructions per event (callgrind, $N and $((2 * N)) events, 1 thread)"
  echo
  echo "| tool | per event |"
  echo "|---|---:|"
  for tool in sysbench dbpress; do
    if [ $tool = sysbench ]; then cmd=(sysbench cpu); else cmd=("$DBP" cpu --server-status=off); fi
    a=$(instructions "${cmd[@]}" --time=0 --events="$N" run)
    b=$(instructions "${cmd[@]}" --time=0 --events=$((2 * N)) run)
    echo "| $tool | $(((b - a) / N)) |"
  done
  echo
fi

if [ "$what" = all ] || [ "$what" = pairs ]; then
  echo "### cpu: events per second, $PAIRS alternating pairs of ${PAIR_SECONDS} s at $THREADS threads"
  echo
  sb_run() { sysbench cpu --threads="$THREADS" --time="$PAIR_SECONDS" run >"$1"; }
  dp_run() { "$DBP" cpu run --threads="$THREADS" --time="$PAIR_SECONDS" >"$1"; }
  METRIC=eps_of METRIC_NAME="events/s" qps_pairs "; sysbench's own pairs below"
  # sysbench against itself: the spread a ratio of two runs of the same tool has here.
  dp_run() { sysbench cpu --threads="$THREADS" --time="$PAIR_SECONDS" run >"$1"; }
  echo "sysbench against itself (the second column is sysbench too):"
  echo
  METRIC=eps_of METRIC_NAME="events/s" qps_pairs ""
fi
