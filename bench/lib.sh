# Shell functions the bench scripts share (sourced): medians, QPS pairs, peak RSS, callgrind counts.

median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }

qps_of() { # output file -> queries per second from the sysbench-format summary
  awk '/^    queries:/ {gsub(/[()]/, "", $3); print $3}' "$1"
}

tps_of() { # output file -> transactions per second from the sysbench-format summary
  awk '/^    transactions:/ {gsub(/[()]/, "", $3); print $3}' "$1"
}

# $PAIRS alternating pairs of `sb_run FILE` and `dp_run FILE` (functions the caller defines):
# a table of QPS per pair (or of METRIC, a function like tps_of, under METRIC_NAME), then the
# median pair ratio with its spread and the `target` text.
qps_pairs() { # target-text
  local ratios=() i order tool s d r metric="${METRIC:-qps_of}" name="${METRIC_NAME:-QPS}"
  echo "| pair | sysbench $name | dbpress $name | ratio |"
  echo "|---:|---:|---:|---:|"
  for i in $(seq 1 "$PAIRS"); do
    # Alternate who goes first so drift on the machine does not favour one tool.
    if [ $((i % 2)) = 1 ]; then order="sysbench dbpress"; else order="dbpress sysbench"; fi
    for tool in $order; do
      if [ "$tool" = sysbench ]; then sb_run /tmp/dbpress-sb.txt; else dp_run /tmp/dbpress-dp.txt; fi
    done
    s=$("$metric" /tmp/dbpress-sb.txt); d=$("$metric" /tmp/dbpress-dp.txt)
    r=$(awk -v d="$d" -v s="$s" 'BEGIN {printf "%.3f", d/s}')
    ratios+=("$r")
    echo "| $i | $s | $d | $r |"
  done
  echo
  echo "Median pair ratio dbpress/sysbench: **$(printf '%s\n' "${ratios[@]}" | median)** (spread $(printf '%s\n' "${ratios[@]}" | sort -g | head -1)–$(printf '%s\n' "${ratios[@]}" | sort -g | tail -1))$1."
  echo
}

rss_peak_kib() { # pid -> peak RSS (KiB) from the kernel's high-water mark, read just before exit
  local pid=$1 peak=0 v
  while kill -0 "$pid" 2>/dev/null; do
    v=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0)
    [ -n "$v" ] && [ "$v" -gt "$peak" ] && peak=$v
    sleep 0.2
  done
  echo "$peak"
}

callgrind_instructions() { # scratch-dir command... -> "total worker": the whole process's
  # instructions, and for dbpress its client threads' (start::worker_main, inclusive: it leaves
  # out the reporter's and samplers' per-second work, which callgrind's slowdown stretches);
  # the command's stdout is kept in scratch-dir/out
  local dir=$1 total worker; shift
  valgrind --tool=callgrind --callgrind-out-file="$dir/cg.out" "$@" >"$dir/out" 2>"$dir/cg.err"
  total=$(awk '/Collected/ {print $4}' "$dir/cg.err")
  worker=$(callgrind_annotate --inclusive=yes --threshold=100 "$dir/cg.out" 2>/dev/null |
    awk '/start::worker_main \[/ {gsub(",", "", $1); print $1; exit}')
  echo "$total ${worker:-$total}"
}

