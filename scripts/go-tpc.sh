#!/usr/bin/env bash
# go-tpc 1.0.7 (PingCAP's TPC-C in Go) into target/peers/go-tpc: the test that runs its `check`
# against a database dbpress loaded and ran uses it, and so does bench/vs-tpcc.sh. Built from the
# Go module proxy with the machine's Go; nothing else is installed.
set -euo pipefail
cd "$(dirname "$0")/.."
out="$PWD/target/peers"
if [ -x "$out/go-tpc" ]; then exit 0; fi
if ! command -v go >/dev/null; then
  echo "go-tpc.sh: Go is not installed: install it (Debian: apt-get install golang) to build go-tpc" >&2
  exit 1
fi
mkdir -p "$out"
echo "go-tpc.sh: building go-tpc 1.0.7 into $out"
(cd /tmp && GOBIN="$out" go install github.com/pingcap/go-tpc/cmd/go-tpc@v1.0.7)
