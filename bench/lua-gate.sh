#!/usr/bin/env bash
# The #41 gate: client instructions per event of the SAME modified copy of sysbench's
# oltp_point_select.lua under sysbench 1.0.20 and under dbpress's embedded LuaJIT:
#
#   flock -o /tmp/dbpress-servers.lock bench/lua-gate.sh [REPS]
#
# PARTS picks what runs (default all three): `instr` (below), `qps` (QPS at 4 threads,
# PAIRS alternating pairs of PAIR_SECONDS each, 4 tables of 100 000 rows; target median ratio
# >= 1.0) and `memory` (peak RSS at 1 and 1000 threads for 10 s; target: dbpress's per
# connection <= sysbench's); `tpcc` (Percona's sysbench-tpcc from ../shared/peers, unchanged,
# prepared once by sysbench with TPCC_SCALE warehouses (default 2), then `run` under both
# tools alternating, TPCC_PAIRS pairs (default 4) of TPCC_SECONDS (default 20) at 4 threads;
# target: median ratio of transactions per second >= 1.0; not in the default PARTS).
#
# The copy is /usr/share/sysbench/oltp_point_select.lua with one comment line appended, so
# dbpress runs it in Lua rather than as its built-in workload; both tools find oltp_common.lua
# in /usr/share/sysbench through `require`. callgrind, 1 thread, runs of N and 2N events,
# (I(2N) - I(N)) / N, the two tools alternating, REPS (default 3) repetitions: against the shared
# MariaDB's Unix socket (N=5000, or N) and in dry run (--mysql-dry-run, DRY_N=20000). dbpress runs
# with --server-status=off so its once-a-second sampler does not land in the difference. Prints
# Markdown for bench/RESULTS.md: each side's median, the ratio (target <= 0.7) and every
# repetition. SCRIPT names another stock script to copy (oltp_read_write: N=1000 DRY_N=2000
# suit it). DBP names a dbpress binary already built (default: build this checkout's release).
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
PARTS="${PARTS:-instr qps memory}"
PAIRS="${PAIRS:-6}"
PAIR_SECONDS="${PAIR_SECONDS:-10}"
reps="${1:-3}"
N="${N:-5000}"
DRY_N="${DRY_N:-20000}"
# The stock script copied: oltp_point_select (default) or oltp_read_write, say.
SCRIPT="${SCRIPT:-oltp_point_select}"
scripts/services.sh mariadb sysbench >/dev/null
if [ -z "${DBP:-}" ]; then
  cargo build --release --locked -q
  DBP="$PWD/target/release/dbpress"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
copy="$work/$SCRIPT.lua"
cp "/usr/share/sysbench/$SCRIPT.lua" "$copy"
echo "-- a modified copy: dbpress runs it in Lua, not as its built-in workload (#41 gate)" >>"$copy"
CONN=(--mysql-socket=/run/mysqld/mysqld.sock --mysql-user=sbtest --mysql-password=sbtest --mysql-db=sbtest)
COMMON=(--rand-type=uniform --tables=1 --table-size=10000 --threads=1 --time=0)

instructions() { # command... -> total instructions
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" >/dev/null 2>"$work/cg.err"
  if ! grep -q Collected "$work/cg.err"; then
    echo "callgrind failed: $*" >&2
    cat "$work/cg.err" >&2
    exit 1
  fi
  awk '/Collected/ {print $4}' "$work/cg.err"
}

per_event() { # tool n extra...
  local tool=$1 n=$2 a b; shift 2
  if [ "$tool" = sysbench ]; then
    a=$(cd "$work" && instructions sysbench "$copy" "${CONN[@]}" "${COMMON[@]}" --events="$n" "$@" run)
    b=$(cd "$work" && instructions sysbench "$copy" "${CONN[@]}" "${COMMON[@]}" --events=$((2 * n)) "$@" run)
  else
    a=$(cd "$work" && instructions "$DBP" "$copy" run "${CONN[@]}" "${COMMON[@]}" --server-status=off --events="$n" "$@")
    b=$(cd "$work" && instructions "$DBP" "$copy" run "${CONN[@]}" "${COMMON[@]}" --server-status=off --events=$((2 * n)) "$@")
  fi
  echo $(((b - a) / n))
}

fresh_tables() { # tables rows
  "$DBP" "$SCRIPT" cleanup "${CONN[@]}" --tables=4 >/dev/null
  "$DBP" "$SCRIPT" prepare "${CONN[@]}" --tables="$1" --table-size="$2" --threads=2 >/dev/null
}

wants() { case " $PARTS " in *" $1 "*) return 0 ;; esac; return 1; }

if wants instr; then
fresh_tables 1 10000
echo "### #41 gate: client instructions per event, the same modified $SCRIPT.lua (callgrind, N vs 2N, 1 thread; $reps repetitions, alternating)"
echo
echo "| target | sysbench 1.0.20 | dbpress (LuaJIT) | ratio (target ≤ 0.7) | repetitions sysbench / dbpress |"
echo "|---|---:|---:|---:|---|"
for row in "MariaDB socket|$N|" "--mysql-dry-run|$DRY_N|--mysql-dry-run"; do
  IFS='|' read -r label n extra <<<"$row"
  ss=() ds=()
  for _ in $(seq "$reps"); do
    ss+=("$(per_event sysbench "$n" $extra)")
    ds+=("$(per_event dbpress "$n" $extra)")
  done
  s=$(printf '%s\n' "${ss[@]}" | median)
  d=$(printf '%s\n' "${ds[@]}" | median)
  ratio=$(awk -v d="$d" -v s="$s" 'BEGIN {printf "%.3f", d/s}')
  verdict=$(awk -v r="$ratio" 'BEGIN {print (r <= 0.7) ? "met" : "**missed**"}')
  echo "| $label (N=$n) | $s | $d | $ratio $verdict | ${ss[*]} / ${ds[*]} |"
done
fi

if wants qps; then
  fresh_tables 4 100000
  echo
  echo "### #41 gate: QPS of the same modified $SCRIPT.lua, 4 threads, Unix socket, ${PAIR_SECONDS}s per run, $PAIRS alternating pairs"
  echo
  LUA_RUN=(--rand-type=uniform --tables=4 --table-size=100000 --threads=4 --time="$PAIR_SECONDS")
  sb_run() { (cd "$work" && sysbench "$copy" "${CONN[@]}" "${LUA_RUN[@]}" run >"$1"); }
  dp_run() { (cd "$work" && "$DBP" "$copy" run "${CONN[@]}" "${LUA_RUN[@]}" >"$1" 2>/dev/null); }
  qps_pairs "; target ≥ 1.0"
fi

if wants memory; then
  fresh_tables 1 10000
  echo "### #41 gate: 1000 connections, the same modified $SCRIPT.lua, 10 s, Unix socket"
  echo
  echo "| tool | threads | peak RSS MiB | QPS |"
  echo "|---|---:|---:|---:|"
  LUA_RUN=(--rand-type=uniform --tables=1 --table-size=10000 --time=10)
  for threads in 1 1000; do
    (cd "$work" && exec "$DBP" "$copy" run "${CONN[@]}" "${LUA_RUN[@]}" --threads=$threads >/tmp/dbpress-dp.txt 2>/dev/null) &
    p=$(rss_peak_kib $!); wait
    eval "dp_$threads=$p"
    echo "| dbpress | $threads | $((p / 1024)) | $(qps_of /tmp/dbpress-dp.txt) |"
    (cd "$work" && exec sysbench "$copy" "${CONN[@]}" "${LUA_RUN[@]}" --threads=$threads run >/tmp/dbpress-sb.txt) &
    p=$(rss_peak_kib $!); wait
    eval "sb_$threads=$p"
    echo "| sysbench | $threads | $((p / 1024)) | $(qps_of /tmp/dbpress-sb.txt) |"
  done
  echo
  echo "Per connection, (RSS at 1000 − RSS at 1) / 999: dbpress **$(( (dp_1000 - dp_1) / 999 )) KiB**, sysbench $(( (sb_1000 - sb_1) / 999 )) KiB; target: dbpress ≤ sysbench."
  echo
fi
"$DBP" "$SCRIPT" cleanup "${CONN[@]}" --tables=4 >/dev/null

if wants tpcc; then
  TPCC_SCALE="${TPCC_SCALE:-2}"
  TPCC_PAIRS="${TPCC_PAIRS:-4}"
  TPCC_SECONDS="${TPCC_SECONDS:-20}"
  cp -r ../shared/peers/sysbench-tpcc "$work/tpcc"
  T=(--scale="$TPCC_SCALE" --tables=1)
  (cd "$work/tpcc" && ./tpcc.lua "${CONN[@]}" "${T[@]}" cleanup >/dev/null 2>&1 || true)
  (cd "$work/tpcc" && ./tpcc.lua "${CONN[@]}" "${T[@]}" --threads=2 prepare >/dev/null)
  echo "### #41 gate: sysbench-tpcc run, the same unchanged tpcc.lua, $TPCC_SCALE warehouses, 4 threads, Unix socket, ${TPCC_SECONDS}s per run, $TPCC_PAIRS alternating pairs"
  echo
  sb_run() { (cd "$work/tpcc" && ./tpcc.lua "${CONN[@]}" "${T[@]}" --threads=4 --time="$TPCC_SECONDS" run >"$1"); }
  dp_run() { (cd "$work/tpcc" && "$DBP" ./tpcc.lua "${CONN[@]}" "${T[@]}" --threads=4 --time="$TPCC_SECONDS" run >"$1" 2>/dev/null); }
  PAIRS="$TPCC_PAIRS" METRIC=tps_of METRIC_NAME=tps qps_pairs "; target ≥ 1.0"
  (cd "$work/tpcc" && ./tpcc.lua "${CONN[@]}" "${T[@]}" cleanup >/dev/null)
fi
