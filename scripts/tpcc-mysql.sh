#!/usr/bin/env bash
# tpcc-mysql (Percona-Lab, 1ec1c5e) into target/peers/tpcc-mysql: the tests of dbpress as
# tpcc_start run its tpcc_start beside the link, and bench/vs-tpcc.sh builds its own copy the
# same way. Built from the copy kept beside the project (../shared/peers/tpcc-mysql, or
# $PEERS/tpcc-mysql) against Debian's libmariadb, which this installs when missing. Without the
# source it says so and builds nothing (the tests then compare with tpcc_start's recorded text).
set -euo pipefail
cd "$(dirname "$0")/.."
out="$PWD/target/peers/tpcc-mysql"
if [ -x "$out/tpcc_start" ]; then exit 0; fi
src=""
for d in "${PEERS:-}" "$PWD/../shared/peers" /work/shared/peers; do
  if [ -n "$d" ] && [ -f "$d/tpcc-mysql/src/main.c" ]; then src="$d/tpcc-mysql"; break; fi
done
if [ -z "$src" ]; then
  echo "tpcc-mysql.sh: no tpcc-mysql source (../shared/peers/tpcc-mysql, or PEERS=DIR): not built" >&2
  exit 0
fi
if ! command -v mysql_config >/dev/null; then
  SUDO=""; if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q libmariadb-dev libmariadb-dev-compat >/dev/null
fi
echo "tpcc-mysql.sh: building tpcc-mysql into $out"
rm -rf "$out" && mkdir -p "$(dirname "$out")" && cp -r "$src" "$out" && chmod -R u+w "$out"
(cd "$out/src" && make -s LIBS="$(mysql_config --libs_r) -lrt -lm" >/dev/null 2>&1)
test -x "$out/tpcc_start"
