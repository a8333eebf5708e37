#!/usr/bin/env bash
# sysbench's own cram suite against dbpress as sysbench, and against Debian's sysbench (#42):
#
#   scripts/sysbench-cram.sh DIR [TEST.t…]
#
# DIR is a copy of sysbench's tests/ (its t/*.t and include/, e.g. inspect.lua): the suite is
# in sysbench's source, not in Debian's package, so it is not fetched here. Runs each named
# test (default: the tests of the built-in tests and the command line that need no server)
# with each program first on PATH, in the environment sysbench's test_run.sh sets, from a
# scratch directory; prints each test's result for both. cram is installed into a venv.
set -euo pipefail
cd "$(dirname "$0")/.."
src="${1:?usage: scripts/sysbench-cram.sh DIR [TEST.t...], DIR a copy of the tests directory of sysbench}"
src=$(cd "$src" && pwd)
shift
tests=("$@")
if [ ${#tests[@]} -eq 0 ]; then
  tests=(1st.t cmdline.t opt_version.t version.t opt_help.t tests.t commands.t test_cpu.t
    test_memory.t test_threads.t test_mutex.t test_fileio.t opt_report_interval.t
    opt_report_checkpoints.t opt_histogram.t opt_rate.t cmd_help.t cmd_prepare.t cmd_run.t
    cmd_cleanup.t drivers.t)
fi
command -v sysbench >/dev/null || { echo "sysbench-cram.sh: needs Debian's sysbench (scripts/services.sh sysbench)" >&2; exit 2; }
cargo build --release --locked -q
work=$(mktemp -d /tmp/sysbench-cram.XXXXXX)
python3 -m venv "$work/venv" && "$work/venv/bin/pip" install -q cram
mkdir -p "$work/dbpress" "$work/sysbench" "$work/scratch"
ln -s "$PWD/target/release/dbpress" "$work/dbpress/sysbench"
ln -s "$(command -v sysbench)" "$work/sysbench/sysbench"
cat >"$work/config.sh" <<'CONF'
export SBTEST_VERSION_STRING="sysbench 1.0.20"
export SBTEST_VERSION="1.0.20"
export SBTEST_HAS_MYSQL=1
export SBTEST_HAS_PGSQL=1
CONF
for who in sysbench dbpress; do
  for t in "${tests[@]}"; do
    [ -f "$src/t/$t" ] || { echo "$who $t: not in $src/t"; continue; }
    out="$work/$who-$t.log"
    if (cd "$work/scratch" && env PATH="$work/$who:$work/venv/bin:$PATH" \
        SBTEST_ROOTDIR="$src" SBTEST_SUITEDIR="$src/t" SBTEST_INCDIR="$src/include" \
        SBTEST_CONFIG="$work/config.sh" SBTEST_SCRIPTDIR=/usr/share/sysbench \
        LUA_PATH="/usr/share/sysbench/?.lua;$src/include/?.lua" TMPDIR="$work/scratch" \
        bash -c ". $work/config.sh; cram --shell=/bin/bash -q $src/t/$t" >"$out" 2>&1); then
      echo "$who $t: passed"
    else
      echo "$who $t: FAILED ($out)"
    fi
  done
done
