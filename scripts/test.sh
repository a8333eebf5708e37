#!/usr/bin/env bash
# The test command (README): start the servers the tests need, then run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
# sysbench too: its packaged Lua scripts are what the stock-script tests check dbpress against.
scripts/build-tools.sh
scripts/services.sh mariadb pgsql sysbench
# go-tpc, whose `check` the TPC-C tests run against a database dbpress loaded.
scripts/go-tpc.sh
# tpcc-mysql, whose tpcc_start the tests of dbpress as tpcc_start run beside the link.
scripts/tpcc-mysql.sh
# pgbench 16 (16.2, from the pgserver wheel), which the tests of dbpress speaking as pgbench 16 run.
scripts/pgbench16.sh
# pgbench 17 (Debian 13's), which the tests of dbpress speaking as pgbench 17 run beside it.
scripts/pgbench17.sh
cargo test --workspace --locked
