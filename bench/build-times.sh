#!/usr/bin/env bash
# Build times of one revision beside another's, each checked out into a temporary worktree (or
# this checkout as it stands) and built in a target directory of its own, alternating so that
# drift on the machine does not favour one side:
#   clean   `cargo build --release` from an empty target directory (dependencies included)
#   rebuild the same after touching one workload file (the OLTP event generator)
#
# Usage:
#   bench/build-times.sh [--dry-run] [--measure=REV] [BASE] [REPS]
#
#   BASE           the baseline revision (default: 93e31a0, the last commit before the Cargo
#                  workspace)
#   REPS           builds of each side (default: 2); the medians are reported
#   --measure=REV  the revision to measure against BASE (default: this checkout, uncommitted
#                  changes included); e.g. `--measure=main 93e31a0` compares today's main
#   --dry-run      check out both sides and say what would be built and touched, build nothing
#
# Prints Markdown for bench/RESULTS.md: wall seconds of each run, and the median of each side.
# A full measurement takes several clean release builds: run it on a quiet machine.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { sed -n '2,/^# A full/p' "$0" | sed 's/^# \{0,1\}//'; }

dry=false
measure=""
positional=()
for arg in "$@"; do
  case "$arg" in
    -h | --help) usage; exit 0 ;;
    --dry-run) dry=true ;;
    --measure=*) measure="${arg#--measure=}" ;;
    -*) echo "build-times.sh: unknown option $arg" >&2; usage >&2; exit 2 ;;
    *) positional+=("$arg") ;;
  esac
done
rev="${positional[0]:-93e31a0}"
reps="${positional[1]:-2}"

work=$(mktemp -d)
cleanup() {
  for side in before after; do
    git worktree remove --force "$work/$side" >/dev/null 2>&1 || true
  done
  rm -rf "$work"
}
trap cleanup EXIT

# A revision's own worktree, so its build never sees this checkout's files.
checkout() { # rev dir
  git worktree add --detach "$2" "$1" >/dev/null 2>&1 ||
    { echo "build-times.sh: cannot check out $1" >&2; exit 2; }
}
checkout "$rev" "$work/before"
if [ -n "$measure" ]; then
  checkout "$measure" "$work/after"
  after_dir="$work/after"
  after_name=$(git rev-parse --short "$measure^{commit}")
else
  after_dir="$PWD"
  after_name="$(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo '+changes')"
fi
before_name=$(git rev-parse --short "$rev^{commit}")

# The workload file each side rebuilds after: where the OLTP event generator lives there.
event_file() { # dir
  if [ -f "$1/crates/workload/src/oltp/event.rs" ]; then echo "$1/crates/workload/src/oltp/event.rs"
  else echo "$1/src/workload/oltp/event.rs"; fi
}

if $dry; then
  for side in before after; do
    if [ "$side" = before ]; then dir="$work/before" name="$before_name"
    else dir="$after_dir" name="$after_name"; fi
    file=$(event_file "$dir")
    echo "$side ($name, in $dir): $reps x cargo build --release --locked from an empty target directory, then touch ${file#"$dir"/} and build again"
  done
  exit 0
fi

cargo fetch --locked >/dev/null
(cd "$work/before" && cargo fetch --locked >/dev/null)
[ -z "$measure" ] || (cd "$work/after" && cargo fetch --locked >/dev/null)

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
    if [ "$side" = before ]; then dir="$work/before" name="$before_name"
    else dir="$after_dir" name="$after_name"; fi
    target="$work/target-$side"
    rm -rf "$target"
    c=$(seconds "$dir" "$target")
    touch "$(event_file "$dir")"
    r=$(seconds "$dir" "$target")
    clean[$side]+="$c "
    rebuild[$side]+="$r "
    echo "| $i | $side ($name) | $c | $r |"
  done
done
echo
for side in before after; do
  mc=$(echo "${clean[$side]}" | tr ' ' '\n' | grep . | median)
  mr=$(echo "${rebuild[$side]}" | tr ' ' '\n' | grep . | median)
  echo "Median $side: clean release build **${mc} s**, rebuild after touching the OLTP event file **${mr} s**."
done
