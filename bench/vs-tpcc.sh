#!/usr/bin/env bash
# dbpress tpcc against the TPC-C peers on this machine: go-tpc 1.0.7, sysbench-tpcc (Lua, on
# Debian's sysbench) and tpcc-mysql (C, built here against libmariadb), on the MariaDB (and, for
# dbpress and sysbench-tpcc, the PostgreSQL) that scripts/services.sh starts. Each tool has a
# database of its own, loaded by itself. Prints Markdown for bench/RESULTS.md.
#
#   bench/vs-tpcc.sh load    load of $WH warehouses at 2 threads: wall s, rows/s, client CPU s
#   bench/vs-tpcc.sh loadsock  the same load over the Unix socket, dbpress vs sysbench-tpcc
#   bench/vs-tpcc.sh run     tpmC at 4 and 32 connections; client and server CPU per transaction
#   bench/vs-tpcc.sh check   consistency check of the loaded warehouses
#   bench/vs-tpcc.sh pgsql   PostgreSQL: load and tpmC at 4 connections, dbpress vs sysbench-tpcc
#   bench/vs-tpcc.sh instr   dbpress's client instructions per transaction (callgrind, N vs 2N)
#   bench/vs-tpcc.sh conns   2048 connections: tpmC and resident memory per connection
#
# "dbpress" runs the spec's terminals (a home warehouse per connection: with fewer connections
# than warehouses only some warehouses are used); "dbrand" draws a warehouse per transaction as
# every peer does, the like-for-like comparison.
#
# Method: the tools alternate within each round (the order reverses every round), so drift on
# this shared machine spreads over all of them; each figure is the median of $ROUNDS rounds with
# its min-max. Runs have no warm-up (go-tpc has none), so every tool's tpmC covers the same
# span from its first transaction. Client CPU is the tool process's user+sys (/usr/bin/time);
# server CPU is mysqld's (or the postgres processes') from /proc over the same span. A transaction
# is any of the five; sysbench-tpcc reports no tpmC, so its tpmC is transactions/s × 60 × 10/23
# (its 23-sided die gives New-Order 10 of 23).
set -euo pipefail
cd "$(dirname "$0")/.."
what="${1:-all}"
WH="${WH:-10}"
ROUNDS="${ROUNDS:-3}"
RUN_S="${RUN_S:-60}"
PEERS="${PEERS:-$PWD/../shared/peers}"
TOOLS=/tmp/dbpress-peers
mkdir -p "$TOOLS"

scripts/services.sh mariadb pgsql sysbench >/dev/null
cargo build --release --locked -q
DBP="$PWD/target/release/dbpress"

# --- the peers, installed or built here ---------------------------------------------------
scripts/go-tpc.sh
cp target/peers/go-tpc "$TOOLS/go-tpc"
if ! [ -x "$TOOLS/tm/tpcc_start" ]; then
  if ! command -v mysql_config >/dev/null; then
    apt-get update -qq && apt-get install -y -qq libmariadb-dev libmariadb-dev-compat >/dev/null
  fi
  rm -rf "$TOOLS/tm" && cp -r "$PEERS/tpcc-mysql" "$TOOLS/tm" && chmod -R u+w "$TOOLS/tm"
  (cd "$TOOLS/tm/src" && make -s LIBS="$(mysql_config --libs_r) -lrt -lm" >/dev/null 2>&1)
fi
# sysbench-tpcc loads its modules from the working directory.
rm -rf "$TOOLS/sb" && cp -r "$PEERS/sysbench-tpcc" "$TOOLS/sb" && chmod -R u+w "$TOOLS/sb"

# --- one database per tool ----------------------------------------------------------------
DBS="tpcc_dbpress tpcc_gotpc tpcc_sysbench tpcc_tm"
for db in $DBS; do
  mariadb --protocol=socket -uroot -e "CREATE DATABASE IF NOT EXISTS $db;
    GRANT ALL ON $db.* TO 'sbtest'@'localhost'; GRANT ALL ON $db.* TO 'sbtest'@'127.0.0.1';"
done
su postgres -c "psql -qc 'CREATE DATABASE tpcc_dbpress OWNER sbtest'" 2>/dev/null || true
su postgres -c "psql -qc 'CREATE DATABASE tpcc_sysbench OWNER sbtest'" 2>/dev/null || true

TCP=(--mysql-host=127.0.0.1 --mysql-port=3306 --mysql-user=sbtest --mysql-password=sbtest)
PG=(--pgsql-host=/var/run/postgresql --pgsql-user=sbtest --pgsql-password=sbtest)
GT=("$TOOLS/go-tpc" tpcc -H 127.0.0.1 -P 3306 -U sbtest -p sbtest -D tpcc_gotpc --warehouses "$WH")
SB=(sysbench ./tpcc.lua "${TCP[@]}" --mysql-db=tpcc_sysbench --scale="$WH" --tables=1)
TM_CONN=(-h 127.0.0.1 -P 3306 -d tpcc_tm -u sbtest -p sbtest -w "$WH")

median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
span() { sort -g | awk 'NR==1 {lo=$1} {hi=$1} END {printf "%s–%s", lo, hi}'; }
# CPU seconds (user+sys) of every process named $1, from /proc.
cpu_of() {
  local tck; tck=$(getconf CLK_TCK)
  for p in $(pgrep -x "$1"); do awk '{print $14 + $15}' "/proc/$p/stat" 2>/dev/null; done |
    awk -v t="$tck" '{s += $1} END {printf "%.3f", s / t}'
}
# Run a command under /usr/bin/time into $1 (its output) and $1.time ("wall user sys").
timed() { local out="$1"; shift; /usr/bin/time -f "%e %U %S" -o "$out.time" "$@" >"$out" 2>&1; }

# --- load ---------------------------------------------------------------------------------
load_dbpress() { "$DBP" tpcc cleanup "${TCP[@]}" --mysql-db=tpcc_dbpress >/dev/null;
  timed "$1" "$DBP" tpcc prepare "${TCP[@]}" --mysql-db=tpcc_dbpress --warehouses="$WH" --threads=2 --no-check; }
load_gotpc() { "${GT[@]}" cleanup >/dev/null 2>&1 || true;
  timed "$1" "${GT[@]}" -T 2 prepare --no-check; }
load_sysbench() { (cd "$TOOLS/sb" && "${SB[@]}" cleanup >/dev/null 2>&1 || true;
  timed "$1" "${SB[@]}" --threads=2 prepare); }
load_tm() { # tpcc-mysql's load.sh: ITEM and the three per-warehouse parts, four processes
  mariadb --protocol=socket -uroot tpcc_tm -e "DROP TABLE IF EXISTS new_orders, order_line, orders, history, customer, district, stock, item, warehouse"
  mariadb --protocol=socket -uroot tpcc_tm <"$TOOLS/tm/create_table.sql"
  cat >"$TOOLS/tm/load4.sh" <<EOF
cd "$TOOLS/tm"
for part in 1 2 3 4; do ./tpcc_load ${TM_CONN[*]} -l \$part -m 1 -n $WH >/dev/null & done
wait
EOF
  timed "$1" bash "$TOOLS/tm/load4.sh"
  mariadb --protocol=socket -uroot tpcc_tm <"$TOOLS/tm/add_fkey_idx.sql"
}
rows_of() { # rows in the nine tables of database $1 (ORDER-LINE is drawn, so counted)
  mariadb --protocol=socket -uroot -N "$1" -e "SELECT SUM(table_rows) FROM information_schema.tables WHERE table_schema='$1'" 2>/dev/null
}

if [ "$what" = all ] || [ "$what" = load ]; then
  echo "### TPC-C load, $WH warehouses, 2 threads, MariaDB over TCP ($ROUNDS rounds, tools alternating; tpcc-mysql once)"
  echo
  for t in dbpress gotpc sysbench; do : >"/tmp/dbpress-load-$t"; done
  for i in $(seq 1 "$ROUNDS"); do
    order="dbpress gotpc sysbench"; [ $((i % 2)) = 0 ] && order="sysbench gotpc dbpress"
    for t in $order; do
      "load_$t" "/tmp/dbpress-load-$t.out"
      read -r wall u s <"/tmp/dbpress-load-$t.out.time"
      echo "$wall $(awk -v u="$u" -v s="$s" 'BEGIN {print u + s}')" >>"/tmp/dbpress-load-$t"
    done
  done
  load_tm /tmp/dbpress-load-tm.out
  read -r wall u s </tmp/dbpress-load-tm.out.time
  echo "$wall $(awk -v u="$u" -v s="$s" 'BEGIN {print u + s}')" >/tmp/dbpress-load-tm
  echo "| tool | wall s, median (min–max) | client CPU s | rows/s | dbpress wall / tool wall |"
  echo "|---|---:|---:|---:|---:|"
  d=$(awk '{print $1}' /tmp/dbpress-load-dbpress | median)
  for t in dbpress gotpc sysbench tm; do
    db=tpcc_$t; [ $t = dbpress ] && db=tpcc_dbpress
    w=$(awk '{print $1}' "/tmp/dbpress-load-$t" | median)
    c=$(awk '{print $2}' "/tmp/dbpress-load-$t" | median)
    rows=$(rows_of "$db")
    echo "| $t | $w ($(awk '{print $1}' "/tmp/dbpress-load-$t" | span)) | $c | $(awk -v r="$rows" -v w="$w" 'BEGIN {printf "%.0f", r / w}') | $(awk -v d="$d" -v w="$w" 'BEGIN {printf "%.2f", d / w}') |"
  done
  echo
  echo "(rows/s from information_schema's estimates of the loaded rows; dbpress's own count is in its output)"
  echo
fi

# --- load over the Unix socket (go-tpc 1.0.7 connects over TCP only) ------------------------
if [ "$what" = all ] || [ "$what" = loadsock ]; then
  SOCK=(--mysql-socket=/run/mysqld/mysqld.sock --mysql-user=sbtest --mysql-password=sbtest)
  SBS=(sysbench ./tpcc.lua "${SOCK[@]}" --mysql-db=tpcc_sysbench --scale="$WH" --tables=1)
  echo "### TPC-C load, $WH warehouses, 2 threads, MariaDB over the Unix socket ($ROUNDS rounds, tools alternating)"
  echo
  : >/tmp/dbpress-loads-d; : >/tmp/dbpress-loads-s
  for i in $(seq 1 "$ROUNDS"); do
    order="d s"; [ $((i % 2)) = 0 ] && order="s d"
    for t in $order; do
      if [ $t = d ]; then
        "$DBP" tpcc cleanup "${SOCK[@]}" --mysql-db=tpcc_dbpress >/dev/null
        timed /tmp/dbpress-loads-d.out "$DBP" tpcc prepare "${SOCK[@]}" --mysql-db=tpcc_dbpress --warehouses="$WH" --threads=2 --no-check
      else
        (cd "$TOOLS/sb" && { "${SBS[@]}" cleanup >/dev/null 2>&1 || true; } && timed /tmp/dbpress-loads-s.out "${SBS[@]}" --threads=2 prepare)
      fi
      cut -d' ' -f1 "/tmp/dbpress-loads-$t.out.time" >>"/tmp/dbpress-loads-$t"
    done
  done
  d=$(median </tmp/dbpress-loads-d); sb=$(median </tmp/dbpress-loads-s)
  echo "| tool | wall s, median (min–max) | rows/s | dbpress wall / tool wall |"
  echo "|---|---:|---:|---:|"
  echo "| dbpress | $d ($(span </tmp/dbpress-loads-d)) | $(awk -v r="$(rows_of tpcc_dbpress)" -v w="$d" 'BEGIN {printf "%.0f", r / w}') | 1.00 |"
  echo "| sysbench-tpcc | $sb ($(span </tmp/dbpress-loads-s)) | $(awk -v r="$(rows_of tpcc_sysbench)" -v w="$sb" 'BEGIN {printf "%.0f", r / w}') | $(awk -v d="$d" -v w="$sb" 'BEGIN {printf "%.2f", d / w}') |"
  echo
fi

# --- run ----------------------------------------------------------------------------------
# Each prints "tpmC transactions" of a run of $RUN_S seconds at $2 connections into $1.
run_dbpress() { timed "$1" "$DBP" tpcc run "${TCP[@]}" --mysql-db=tpcc_dbpress --threads="$2" --time="$RUN_S";
  awk '/^    tpmC:/ {t=$2} /total number of events:/ {n=$5} END {print t, n}' "$1" >"$1.fig"; }
run_dbrand() { timed "$1" "$DBP" tpcc run "${TCP[@]}" --mysql-db=tpcc_dbpress --threads="$2" --time="$RUN_S" --home-warehouse=random;
  awk '/^    tpmC:/ {t=$2} /total number of events:/ {n=$5} END {print t, n}' "$1" >"$1.fig"; }
run_gotpc() { timed "$1" "${GT[@]}" -T "$2" --time "${RUN_S}s" run;
  # Transactions: the [Summary] counts after "Finished" (printed twice), errors left out.
  awk '/^Finished/ {f=1} f && /^\[Summary\]/ && !/_ERR/ {for (i = 1; i <= NF; i++) if ($i == "Count:") {c=$(i+1); gsub(",", "", c); n += c}}
       /^tpmC:/ {f=0; gsub(",", ""); t=$2} END {printf "%s %d\n", t, n}' "$1" >"$1.fig"; }
run_sysbench() { (cd "$TOOLS/sb" && timed "$1" "${SB[@]}" --threads="$2" --time="$RUN_S" run);
  awk '/transactions:/ {gsub(/[()]/, "", $3); printf "%.0f %s\n", $3 * 60 * 10 / 23, $2}' "$1" >"$1.fig"; }
run_tm() { (cd "$TOOLS/tm" && timed "$1" ./tpcc_start "${TM_CONN[@]}" -c "$2" -r 0 -l "$RUN_S" -i 10);
  # Transactions: sc + lt of <Raw Results> (not again from <Raw Results2>).
  awk '/Raw Results2/ {done=1} /TpmC$/ && NF == 2 {t=$1} !done && /^  \[[0-4]\] sc:/ {split($2, a, ":"); split($3, b, ":"); n += a[2] + b[2]} END {printf "%.0f %s\n", t, n}' "$1" >"$1.fig"; }

run_level() { # connections
  local c="$1" i t order
  for t in dbpress dbrand gotpc sysbench tm; do : >"/tmp/dbpress-run-$t"; done
  for i in $(seq 1 "$ROUNDS"); do
    order="dbpress dbrand gotpc sysbench tm"; [ $((i % 2)) = 0 ] && order="tm sysbench gotpc dbrand dbpress"
    for t in $order; do
      local before after
      before=$(cpu_of mariadbd)
      "run_$t" "/tmp/dbpress-run-$t.out" "$c"
      after=$(cpu_of mariadbd)
      read -r tpmc n <"/tmp/dbpress-run-$t.out.fig"
      read -r _ u s <"/tmp/dbpress-run-$t.out.time"
      echo "$tpmc $n $(awk -v u="$u" -v s="$s" -v n="$n" 'BEGIN {printf "%.0f", (u + s) * 1e6 / n}') $(awk -v a="$after" -v b="$before" -v n="$n" 'BEGIN {printf "%.0f", (a - b) * 1e6 / n}')" >>"/tmp/dbpress-run-$t"
    done
  done
  echo "#### $c connections"
  echo
  echo "| tool | tpmC, median (min–max) | client CPU µs / tx | server CPU µs / tx |"
  echo "|---|---:|---:|---:|"
  for t in dbpress dbrand gotpc sysbench tm; do
    echo "| $t | $(awk '{print $1}' "/tmp/dbpress-run-$t" | median) ($(awk '{print $1}' "/tmp/dbpress-run-$t" | span)) | $(awk '{print $3}' "/tmp/dbpress-run-$t" | median) | $(awk '{print $4}' "/tmp/dbpress-run-$t" | median) |"
  done
  local best d r
  best=$(for t in gotpc sysbench tm; do awk '{print $1}' "/tmp/dbpress-run-$t" | median; done | sort -g | tail -1)
  d=$(awk '{print $1}' /tmp/dbpress-run-dbpress | median)
  r=$(awk '{print $1}' /tmp/dbpress-run-dbrand | median)
  echo
  echo "dbpress tpmC / best peer's: **$(awk -v d="$d" -v b="$best" 'BEGIN {printf "%.2f", d / b}')** with a home warehouse per connection (dbpress), **$(awk -v d="$r" -v b="$best" 'BEGIN {printf "%.2f", d / b}')** with a random warehouse per transaction as the peers draw them (dbrand) (target ≥ 1.0)."
  echo
}

if [ "$what" = all ] || [ "$what" = run ]; then
  echo "### TPC-C run, $WH warehouses, MariaDB over TCP, ${RUN_S}s per run ($ROUNDS rounds, tools alternating)"
  echo
  run_level 4
  run_level 32
fi

# --- check --------------------------------------------------------------------------------
if [ "$what" = all ] || [ "$what" = check ]; then
  echo "### Consistency check, $WH warehouses (after the runs), MariaDB, 2 threads ($ROUNDS rounds, tools alternating)"
  echo
  : >/tmp/dbpress-check-dbpress; : >/tmp/dbpress-check-sb
  for i in $(seq 1 "$ROUNDS"); do
    order="dbpress sb"; [ $((i % 2)) = 0 ] && order="sb dbpress"
    for t in $order; do
      if [ $t = dbpress ]; then
        timed /tmp/dbpress-check-dbpress.out "$DBP" tpcc check "${TCP[@]}" --mysql-db=tpcc_dbpress --threads=2
      else
        (cd "$TOOLS/sb" && timed /tmp/dbpress-check-sb.out "${SB[@]}" --threads=2 check)
      fi
      cut -d' ' -f1 "/tmp/dbpress-check-$t.out.time" >>"/tmp/dbpress-check-$t"
    done
  done
  d=$(median </tmp/dbpress-check-dbpress); s=$(median </tmp/dbpress-check-sb)
  echo "| tool | wall s, median (min–max) | conditions |"
  echo "|---|---:|---|"
  echo "| dbpress | $d ($(span </tmp/dbpress-check-dbpress)) | 1–10 and 12 (11 does not hold after a run) |"
  echo "| sysbench-tpcc | $s ($(span </tmp/dbpress-check-sb)) | 1, 2, 3, 4, 5, 7, 8, 9, 10, 12 |"
  echo
  echo "dbpress / sysbench-tpcc: $(awk -v d="$d" -v s="$s" 'BEGIN {printf "%.2f", d / s}')"
  echo
  echo "(go-tpc's check took over 2 minutes per warehouse here: ../shared/peers/README.md)"
  echo
fi

# --- PostgreSQL ---------------------------------------------------------------------------
if [ "$what" = all ] || [ "$what" = pgsql ]; then
  SBP=(sysbench ./tpcc.lua --db-driver=pgsql "${PG[@]}" --pgsql-db=tpcc_sysbench --scale="$WH" --tables=1)
  echo "### PostgreSQL, $WH warehouses, socket: load at 2 threads and tpmC at 4 connections"
  echo
  : >/tmp/dbpress-pg-d; : >/tmp/dbpress-pg-s
  for i in $(seq 1 "$ROUNDS"); do
    "$DBP" tpcc cleanup "${PG[@]}" --pgsql-db=tpcc_dbpress >/dev/null
    timed /tmp/dbpress-pgl-d.out "$DBP" tpcc prepare "${PG[@]}" --pgsql-db=tpcc_dbpress --warehouses="$WH" --threads=2 --no-check
    (cd "$TOOLS/sb" && { "${SBP[@]}" cleanup >/dev/null 2>&1 || true; } && timed /tmp/dbpress-pgl-s.out "${SBP[@]}" --threads=2 prepare)
    timed /tmp/dbpress-pgr-d.out "$DBP" tpcc run "${PG[@]}" --pgsql-db=tpcc_dbpress --threads=4 --time="$RUN_S"
    (cd "$TOOLS/sb" && timed /tmp/dbpress-pgr-s.out "${SBP[@]}" --threads=4 --time="$RUN_S" run)
    # Like for like: a random warehouse per transaction, as sysbench-tpcc draws them.
    timed /tmp/dbpress-pgr-r.out "$DBP" tpcc run "${PG[@]}" --pgsql-db=tpcc_dbpress --threads=4 --time="$RUN_S" --home-warehouse=random
    echo "$(cut -d' ' -f1 /tmp/dbpress-pgl-d.out.time) $(awk '/^    tpmC:/ {print $2}' /tmp/dbpress-pgr-d.out) $(awk '/^    tpmC:/ {print $2}' /tmp/dbpress-pgr-r.out)" >>/tmp/dbpress-pg-d
    echo "$(cut -d' ' -f1 /tmp/dbpress-pgl-s.out.time) $(awk '/transactions:/ {gsub(/[()]/, "", $3); printf "%.0f", $3 * 60 * 10 / 23}' /tmp/dbpress-pgr-s.out)" >>/tmp/dbpress-pg-s
  done
  echo "| tool | load wall s | tpmC at 4 connections |"
  echo "|---|---:|---:|"
  echo "| dbpress | $(awk '{print $1}' /tmp/dbpress-pg-d | median) ($(awk '{print $1}' /tmp/dbpress-pg-d | span)) | $(awk '{print $2}' /tmp/dbpress-pg-d | median) ($(awk '{print $2}' /tmp/dbpress-pg-d | span)) home warehouses; $(awk '{print $3}' /tmp/dbpress-pg-d | median) ($(awk '{print $3}' /tmp/dbpress-pg-d | span)) random |"
  echo "| sysbench-tpcc | $(awk '{print $1}' /tmp/dbpress-pg-s | median) ($(awk '{print $1}' /tmp/dbpress-pg-s | span)) | $(awk '{print $2}' /tmp/dbpress-pg-s | median) ($(awk '{print $2}' /tmp/dbpress-pg-s | span)) random |"
  echo
fi

# --- client instructions per transaction ------------------------------------------------
instructions() { # command... -> instructions the process executed (callgrind)
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
    awk '/Collected :/ {print $4}'
}
if [ "$what" = all ] || [ "$what" = instr ]; then
  N="${N:-2000}"
  echo "### dbpress client instructions per TPC-C transaction (callgrind, N=$N vs 2N, 1 thread)"
  echo
  echo "| target | instructions / transaction |"
  echo "|---|---:|"
  for target in "--mysql-dry-run" "${TCP[*]} --mysql-db=tpcc_dbpress"; do
    # shellcheck disable=SC2086
    a=$(instructions "$DBP" tpcc run $target --threads=1 --time=0 --events="$N" --rand-seed=1)
    # shellcheck disable=SC2086
    b=$(instructions "$DBP" tpcc run $target --threads=1 --time=0 --events=$((2 * N)) --rand-seed=1)
    echo "| ${target%% *} | $(( (b - a) / N )) |"
  done
  echo
fi

# --- many connections ---------------------------------------------------------------------
if [ "$what" = all ] || [ "$what" = conns ]; then
  C="${CONNS:-2048}"
  # Every connection prepares its statements: the server-wide cap must allow them all.
  # and max_connections must leave room for them (scripts/services.sh starts it with 2000).
  old=$(mariadb --protocol=socket -uroot -N -e "SELECT @@max_prepared_stmt_count")
  old_conns=$(mariadb --protocol=socket -uroot -N -e "SELECT @@max_connections")
  trap 'mariadb --protocol=socket -uroot -e "SET GLOBAL max_prepared_stmt_count = $old; SET GLOBAL max_connections = $old_conns"' EXIT
  mariadb --protocol=socket -uroot -e "SET GLOBAL max_prepared_stmt_count = 1048576; SET GLOBAL max_connections = $((C + 100))"
  echo "### $C connections, $WH warehouses, MariaDB over TCP, ${RUN_S}s ($ROUNDS rounds, tools alternating)"
  echo
  : >/tmp/dbpress-conns-d; : >/tmp/dbpress-conns-g
  for i in $(seq 1 "$ROUNDS"); do
    order="d g"; [ $((i % 2)) = 0 ] && order="g d"
    for t in $order; do
      # The last run's sessions leave only as their lock waits end: wait until they have.
      for _ in $(seq 1 180); do
        [ "$(mariadb --protocol=socket -uroot -N -e "SELECT COUNT(*) FROM information_schema.processlist WHERE user = 'sbtest'")" -le 1 ] && break
        sleep 1
      done
      if [ $t = d ]; then
        /usr/bin/time -f "%M" -o /tmp/dbpress-conns-d.rss "$DBP" tpcc run "${TCP[@]}" --mysql-db=tpcc_dbpress --threads="$C" --time="$RUN_S" >/tmp/dbpress-conns-d.out 2>&1 || true
        tpmc=$(awk '/^    tpmC:/ {print $2}' /tmp/dbpress-conns-d.out)
      else
        /usr/bin/time -f "%M" -o /tmp/dbpress-conns-g.rss "${GT[@]}" -T "$C" --time "${RUN_S}s" run >/tmp/dbpress-conns-g.out 2>&1 || true
        tpmc=$(awk '/^tpmC:/ {gsub(",", ""); print $2}' /tmp/dbpress-conns-g.out)
      fi
      echo "${tpmc:-0} $(tail -1 "/tmp/dbpress-conns-$t.rss")" >>"/tmp/dbpress-conns-$t"
    done
  done
  echo "| tool | tpmC, median (min–max) | max RSS MB, median | RSS KB per connection, median (min–max) |"
  echo "|---|---:|---:|---:|"
  for t in d g; do
    name=dbpress; [ $t = g ] && name=go-tpc
    kb=$(awk -v c="$C" '{printf "%.0f\n", $2 / c}' "/tmp/dbpress-conns-$t")
    echo "| $name | $(awk '{print $1}' "/tmp/dbpress-conns-$t" | median) ($(awk '{print $1}' "/tmp/dbpress-conns-$t" | span)) | $(awk '{print $2 / 1024}' "/tmp/dbpress-conns-$t" | median) | $(echo "$kb" | median) ($(echo "$kb" | span)) |"
  done
  echo
fi
