#!/usr/bin/env bash
# dbpress's tests of the machine against sysbench's compiled-in ones (#42): cpu, memory,
# threads, mutex and fileio (mutex's instruction count needs OPTS with --mutex-locks; its N is
# unused; fileio runs in a directory of its own under FILEIO_DIR, default /var/tmp, with files
# both tools share, prepared once: OPTS needs --file-test-mode, and not seqwr, which empties them).
#
#   bench/vs-sysbench-machine.sh            both parts, for TEST (default cpu) with OPTS
#                                           (e.g. TEST=memory OPTS="--memory-block-size=64K")
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
TEST="${TEST:-cpu}"
read -r -a OPTS <<<"${OPTS:-}"
scripts/services.sh sysbench >/dev/null
if [ -z "${DBP:-}" ]; then
  cargo build --release --locked -q
  DBP="$PWD/target/release/dbpress"
fi

eps_of() { # output file -> events per second from the cpu report
  awk '/events per second:/ {print $4}' "$1"
}

mibs_of() { # output file -> MiB/sec from the memory report's "N MiB transferred (M MiB/sec)"
  awk '/MiB transferred/ {gsub(/\(/, "", $4); print $4}' "$1"
}

general_eps_of() { # output file -> events / total time, from the general statistics
  awk '/total time:/ {t=$3+0} /total number of events:/ {n=$5} END {printf "%.2f", n / t}' "$1"
}

if [ "$TEST" = fileio ]; then
  work=$(mktemp -d "${FILEIO_DIR:-/var/tmp}/dbpress-fileio.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  sizes=(); for o in "${OPTS[@]}"; do case $o in --file-num=*|--file-total-size=*) sizes+=("$o") ;; esac; done
  (cd "$work" && sysbench fileio "${sizes[@]}" prepare >/dev/null)
  cd "$work"
  METRIC=general_eps_of METRIC_NAME="events/s"
  events_of() { echo "--events=$1"; }
elif [ "$TEST" = threads ] || [ "$TEST" = mutex ]; then
  # mutex: one event per thread, so this is threads / total time.
  METRIC=general_eps_of METRIC_NAME="events/s"
  events_of() { echo "--events=$1"; }
elif [ "$TEST" = memory ]; then
  METRIC=mibs_of METRIC_NAME="MiB/s"
  # The memory test ends at --memory-total-size, not at --events: N blocks of the block size.
  block=1K
  for o in "${OPTS[@]}"; do case $o in --memory-block-size=*) block=${o#*=} ;; esac; done
  case $block in
    *[Mm]) kib=$(( ${block%[Mm]} * 1024 )) ;;
    *) kib=$(( ${block%[Kk]} )) ;;
  esac
  events_of() { echo "--memory-total-size=$(($1 * kib))K"; }
else
  METRIC=eps_of METRIC_NAME="events/s"
  events_of() { echo "--events=$1"; }
fi

instructions() { # command... -> total instructions
  local err; err=$(mktemp)
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" >/dev/null 2>"$err"
  awk '/Collected/ {print $4}' "$err"; rm -f "$err"
}

if [ "$what" = all ] || [ "$what" = instr ]; then
  echo "### $TEST ${OPTS[*]}: instructions per event (callgrind, $N and $((2 * N)) events, 1 thread)"
  echo
  echo "| tool | per event |"
  echo "|---|---:|"
  for tool in sysbench dbpress; do
    if [ $tool = sysbench ]; then cmd=(sysbench "$TEST"); else cmd=("$DBP" "$TEST" --server-status=off); fi
    a=$(instructions "${cmd[@]}" "${OPTS[@]}" --time=0 "$(events_of "$N")" run)
    b=$(instructions "${cmd[@]}" "${OPTS[@]}" --time=0 "$(events_of $((2 * N)))" run)
    echo "| $tool | $(((b - a) / N)) |"
  done
  echo
fi

if [ "$what" = all ] || [ "$what" = pairs ]; then
  echo "### $TEST ${OPTS[*]}: $METRIC_NAME, $PAIRS alternating pairs of ${PAIR_SECONDS} s at $THREADS threads"
  echo
  # The memory test's default total (100G) would end a run early on a fast host: time decides.
  total=(); [ "$TEST" = memory ] && total=(--memory-total-size=0)
  sb_run() { sysbench "$TEST" "${OPTS[@]}" "${total[@]}" --threads="$THREADS" --time="$PAIR_SECONDS" run >"$1"; }
  dp_run() { "$DBP" "$TEST" run "${OPTS[@]}" "${total[@]}" --threads="$THREADS" --time="$PAIR_SECONDS" >"$1"; }
  qps_pairs "; sysbench's own pairs below"
  # sysbench against itself: the spread a ratio of two runs of the same tool has here.
  dp_run() { sb_run "$1"; }
  echo "sysbench against itself (the second column is sysbench too):"
  echo
  qps_pairs ""
fi
