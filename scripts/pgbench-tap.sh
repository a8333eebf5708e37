#!/usr/bin/env bash
# pgbench's own TAP suite against dbpress as pgbench, and against the real pgbench (#42):
#
#   scripts/pgbench-tap.sh DIR
#
# DIR holds the suite's files from PostgreSQL 15's source (src/bin/pgbench/t/*.pl): they are
# not in any Debian binary package, so they are not fetched here; give a checkout's copy. The
# tests start private clusters of their own (initdb and pg_ctl of PostgreSQL 15, on sockets in
# temporary directories, never the shared server), as an unprivileged user, with the TAP
# modules Debian ships in libpq-dev's pgxs and IPC::Run (installed when missing). Prints prove's
# summary for each program; the logs stay in the work directory it names.
set -euo pipefail
cd "$(dirname "$0")/.."
suite="${1:?usage: scripts/pgbench-tap.sh DIR, the src/bin/pgbench/t of PostgreSQL 15}"
suite=$(cd "$suite" && pwd)
ls "$suite"/*.pl >/dev/null
PGBIN=/usr/lib/postgresql/15/bin
PERL5=/usr/lib/postgresql/15/lib/pgxs/src/test/perl
SUDO=""; if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
if ! perl -MIPC::Run -e1 2>/dev/null; then
  $SUDO apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q libipc-run-perl >/dev/null
fi
cargo build --release --locked -q
work=$(mktemp -d /tmp/pgbench-tap.XXXXXX)
mkdir -p "$work/bin" "$work/t"
ln -s "$PWD/target/release/dbpress" "$work/bin/pgbench"
cp "$suite"/*.pl "$work/t/"
chmod -R a+rwX "$work"
# initdb refuses root: the clusters belong to nobody when this runs as root.
as_user() { if [ "$(id -u)" -eq 0 ]; then runuser -u nobody -- "$@"; else "$@"; fi; }
for who in pgbench dbpress; do
  path="$PGBIN:/usr/bin:/bin"
  [ "$who" = dbpress ] && path="$work/bin:$path"
  for t in "$work"/t/*.pl; do
    name=$(basename "$t" .pl)
    dir="$work/$who-$name"; mkdir -p "$dir"; chmod a+rwX "$dir"
    echo "== $who: $name"
    (cd "$dir" && as_user env -i HOME="$dir" PATH="$path" LC_ALL=C LANG=C TESTDIR="$dir" \
      PG_REGRESS=/usr/lib/postgresql/15/lib/pgxs/src/test/regress/pg_regress \
      prove -I "$PERL5" -I "$work/t" "$t" 2>&1 | tail -3) || true
  done
done
echo "logs: $work"
