#!/usr/bin/env bash
# Measure what sysbench 1.0.20 itself sends per event, from the server's Com_* counters, for each
# workload dbpress reproduces. Used once to confirm the mix the parity tests expect
# (tests/it/parity.rs); re-run after a sysbench upgrade. Prints a Markdown table.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/services.sh mariadb sysbench >/dev/null
N="${N:-200}"
CONN=(--mysql-socket=/run/mysqld/mysqld.sock --mysql-user=sbtest --mysql-password=sbtest --mysql-db=sbtest)
# Alphabetical, the order `sort` gives the status rows.
counters="Com_begin Com_commit Com_delete Com_insert Com_select Com_stmt_execute Com_update"
status() { mariadb --protocol=socket -uroot -N -e "SHOW GLOBAL STATUS WHERE Variable_name IN ('${counters// /\',\'}')" | sort; }
echo "| workload (sysbench 1.0.20, $N events, 1 thread) | ${counters// / | } |"
echo "|---|$(for _ in $counters; do printf -- '---:|'; done)"
for wl in oltp_read_write oltp_read_only oltp_write_only oltp_point_select oltp_update_index oltp_update_non_index oltp_delete oltp_insert select_random_points select_random_ranges; do
  for extra in "" "--skip-trx=on" "--db-ps-mode=disable"; do
    sysbench "$wl" "${CONN[@]}" --tables=2 --table-size=2000 cleanup >/dev/null
    sysbench "$wl" "${CONN[@]}" --tables=2 --table-size=2000 prepare >/dev/null
    before=$(status)
    sysbench "$wl" "${CONN[@]}" --tables=2 --table-size=2000 --threads=1 --time=0 --events="$N" --rand-type=uniform $extra run >/dev/null
    after=$(status)
    row=$(join <(echo "$before") <(echo "$after") | awk -v n="$N" '{printf " %.2f |", ($3-$2)/n}')
    echo "| $wl $extra |$row"
  done
done
sysbench oltp_read_write "${CONN[@]}" --tables=2 cleanup >/dev/null
