#!/usr/bin/env bash
# Build times of this checkout beside another revision's (default: the last commit before the
# Cargo workspace, 93e31a0), each in its own target directory, alternating so that drift on the
# machine does not favour one side:
#   clean   `cargo build --release` from an empty target directory (dependencies included)
#   rebuild the same after touching one workload file (the OLTP event generator)
#
#   bench/build-times.sh [REV] [REPS]
#
# Prints Markdown for bench/RESULTS.md: wall seconds of each run, and the median of each side.
set -euo pipefail
cd "$(dirname "$0")/.."
rev="${1:-93e31a0}"
reps="${2:-2}"
work=$(mktemp -d)
trap 'git worktree remove --force "$work/before" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
git worktree add --detach "$work/before" "$rev" >/dev/null 2>&1
here="$PWD"
cargo fetch --locked >/dev/null
(cd "$work/before" && cargo fetch --locked >/dev/null)

# The workload file each side rebuilds after: where the OLTP event generator lives there.
event_file() { # dir
  if [ -f "$1/crates/workload/src/oltp/event.rs" ]; then echo "$1/crates/workload/src/oltp/event.rs"
  else echo "$1/src/workload/oltp/event.rs"; fi
}

seconds() { # dir target-dir -> wall seconds of a release build
  local start end
  start=$(date +%s.%N)
  (cd "$1" && CARGO_TARGET_DIR="$2" cargo build --release --locked -q >/dev/null 2>&1)
  end=$(date +%s.%N)
  awk -v a="$start" -v b="$end" 'BEGIN {printf "%.1f", b - a}'
}

median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }

declare -A clean rebuild
for i in $(seq 1 "$reps"); do
  # Alternate who goes first.
  if [ $((i % 2)) = 1 ]; then order="before after"; else order="after before"; fi
  for side in $order; do
    if [ "$side" = before ]; then dir="$work/before"; else dir="$here"; fi
    target="$work/target-$side"
    rm -rf "$target"
    c=$(seconds "$dir" "$target")
    touch "$(event_file "$dir")"
    r=$(seconds "$dir" "$target")
    clean[$side]+="$c "
    rebuild[$side]+="$r "
    echo "| $i | $side ($([ "$side" = before ] && echo "$rev" || git rev-parse --short HEAD)) | $c | $r |"
  done
done
echo
for side in before after; do
  mc=$(echo "${clean[$side]}" | tr ' ' '\n' | grep . | median)
  mr=$(echo "${rebuild[$side]}" | tr ' ' '\n' | grep . | median)
  echo "Median $side: clean release build **${mc} s**, rebuild after touching the OLTP event file **${mr} s**."
done
