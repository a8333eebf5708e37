#!/usr/bin/env bash
# The test command (README): start the servers the tests need, then run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/services.sh
# go-tpc, whose `check` the TPC-C tests run against a database dbpress loaded.
scripts/go-tpc.sh
cargo test --workspace --locked
