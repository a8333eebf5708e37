#!/usr/bin/env bash
# Client instructions per row of dbpress speaking as tpcc_load (a link named tpcc_load:
# tpcc-mysql's prepared single-row INSERTs, one round trip per row), beside tpcc-mysql's own
# tpcc_load and dbpress's own parallel bulk load (`dbpress tpcc prepare`, multi-row INSERTs):
#
#   bench/as-tpcc-load-instr.sh [REPS]
#
# callgrind, MariaDB over TCP as sbtest (tpcc_load has no socket option): the two tpcc_loads load part 3
# (CUSTOMER and HISTORY) of warehouse 1, then of warehouses 1-2, into tables from tpcc-mysql's
# create_table.sql: (I(2) - I(1)) / 60 000 rows. dbpress's bulk load: `tpcc prepare` of 1 and of
# 2 warehouses (every table), the difference over the rows the second warehouse added. The three
# alternate, REPS (default 3) repetitions. Prints Markdown for bench/RESULTS.md.
set -euo pipefail
cd "$(dirname "$0")/.."
reps="${1:-3}"
work=$(mktemp -d)
trap 'rm -rf "$work"; mariadb -uroot -e "DROP DATABASE IF EXISTS tpcc_bench_load" 2>/dev/null || true' EXIT
scripts/services.sh mariadb >/dev/null
scripts/tpcc-mysql.sh
cargo build --release --locked -q
DBP="$PWD/target/release/dbpress"
PEER_DIR="$PWD/target/peers/tpcc-mysql"
ln -sf "$DBP" "$work/tpcc_load"
. bench/lib.sh
DB=tpcc_bench_load
fresh() { # empty tpcc-mysql tables (or none, for dbpress's own load)
  mariadb -uroot -e "DROP DATABASE IF EXISTS $DB; CREATE DATABASE $DB"
  if [ "${1:-}" = tables ]; then mariadb -uroot $DB <"$PEER_DIR/create_table.sql"; fi
}
rows() {
  mariadb -uroot -N -e "SELECT SUM(table_rows) FROM (SELECT COUNT(*) table_rows FROM $DB.item UNION ALL SELECT COUNT(*) FROM $DB.warehouse UNION ALL SELECT COUNT(*) FROM $DB.district UNION ALL SELECT COUNT(*) FROM $DB.stock UNION ALL SELECT COUNT(*) FROM $DB.customer UNION ALL SELECT COUNT(*) FROM $DB.history UNION ALL SELECT COUNT(*) FROM $DB.orders UNION ALL SELECT COUNT(*) FROM $DB.new_order UNION ALL SELECT COUNT(*) FROM $DB.order_line) t"
}
LINE=(-h 127.0.0.1 -P 3306 -d $DB -u sbtest -p sbtest -w 2 -l 3 -m 1)
per_row_tpcc_load() { # program -> instructions per row
  local a b
  fresh tables; read -r a _ <<<"$(callgrind_instructions "$work" "$1" "${LINE[@]}" -n 1)"
  fresh tables; read -r b _ <<<"$(callgrind_instructions "$work" "$1" "${LINE[@]}" -n 2)"
  echo $(((b - a) / 60000))
}
per_row_bulk() {
  local a b ra rb
  fresh; read -r a _ <<<"$(callgrind_instructions "$work" "$DBP" tpcc prepare --warehouses=1 --threads=2 --no-check --mysql-host=127.0.0.1 --mysql-user=sbtest --mysql-password=sbtest --mysql-db=$DB)"; ra=$(rows)
  fresh; read -r b _ <<<"$(callgrind_instructions "$work" "$DBP" tpcc prepare --warehouses=2 --threads=2 --no-check --mysql-host=127.0.0.1 --mysql-user=sbtest --mysql-password=sbtest --mysql-db=$DB)"; rb=$(rows)
  echo $(((b - a) / (rb - ra)))
}
echo "### As tpcc_load: client instructions per row (callgrind, part 3 of 1 vs 2 warehouses; bulk: 1 vs 2 warehouses; TCP; $reps repetitions, alternating)"
echo
echo "| tpcc_load (tpcc-mysql) | dbpress as tpcc_load | dbpress tpcc prepare (bulk) | repetitions (peer / as tpcc_load / bulk) |"
echo "|---:|---:|---:|---|"
p=() a=() d=()
for _ in $(seq "$reps"); do
  p+=("$(per_row_tpcc_load "$PEER_DIR/tpcc_load")")
  a+=("$(per_row_tpcc_load "$work/tpcc_load")")
  d+=("$(per_row_bulk)")
done
med() { printf '%s\n' "$@" | median; }
echo "| $(med "${p[@]}") | $(med "${a[@]}") | $(med "${d[@]}") | ${p[*]} / ${a[*]} / ${d[*]} |"
