#!/usr/bin/env bash
# pgbench of PostgreSQL 17 (Debian 13's package, 17.12) into target/peers/pgbench-17: the tests
# of dbpress speaking as pgbench 17 run it beside the link. Debian 12 has no PostgreSQL 17, so
# the package and the libraries it needs (Debian 13's C library among them) are fetched with a
# private apt configuration and unpacked under target/ — nothing on the system changes — and
# target/peers/pgbench-17/pgbench runs the binary under that C library's own loader. Without
# the packages it says so and makes nothing (the tests of pgbench 17 then say they were skipped).
set -euo pipefail
cd "$(dirname "$0")/.."
out="$PWD/target/peers/pgbench-17"
if [ -x "$out/bin/pgbench" ] && "$out/pgbench" --version >/dev/null 2>&1; then exit 0; fi
apt_dir="$out/apt"
rm -rf "$out" && mkdir -p "$apt_dir/lists/partial" "$apt_dir/archives/partial" "$out/root"
# The system's own Debian mirror (its first `URIs:` or `deb` address ending in /debian, not
# the security archive's), suite trixie (Debian 13).
mirror=$( (grep -rhE '^(URIs:|deb )' /etc/apt/sources.list /etc/apt/sources.list.d/ 2>/dev/null || true) \
  | grep -oE 'https?://[^ ]+/debian/?( |$)' | head -1 | tr -d ' ')
if [ -z "$mirror" ]; then
  echo "pgbench17.sh: no Debian mirror in /etc/apt's sources: pgbench 17 not installed" >&2
  rm -rf "$out"; exit 0
fi
echo "deb $mirror trixie main" > "$apt_dir/sources.list"
apt_opts=(-o "Dir::Etc::sourcelist=$apt_dir/sources.list" -o Dir::Etc::sourceparts=/dev/null
  -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache::Archives=$apt_dir/archives"
  -o APT::Sandbox::User=root -o Debug::NoLocking=1)
if ! apt-get "${apt_opts[@]}" update -q >/dev/null 2>&1; then
  echo "pgbench17.sh: Debian 13's package index cannot be read: pgbench 17 not installed" >&2
  rm -rf "$out"; exit 0
fi
# pgbench's libraries and theirs, as Debian 13 builds them (libpq's TLS, Kerberos and LDAP).
packages="postgresql-17 libpq5 libc6 libldap2 libsasl2-2 libgnutls30t64 libssl3t64
  libgssapi-krb5-2 libkrb5-3 libk5crypto3 libkrb5support0 libcom-err2 libkeyutils1 libzstd1
  liblz4-1 zlib1g libidn2-0 libunistring5 libtasn1-6 libnettle8t64 libhogweed6t64 libgmp10
  libp11-kit0 libffi8"
# Each from trixie (`name/trixie`): where the system has the package, its own version would win.
wanted=$(for p in $packages; do printf '%s/trixie ' "$p"; done)
(cd "$apt_dir" && apt-get "${apt_opts[@]}" download -q $wanted >/dev/null 2>&1) || {
  echo "pgbench17.sh: Debian 13's packages cannot be fetched: pgbench 17 not installed" >&2
  rm -rf "$out"; exit 0
}
for deb in "$apt_dir"/*.deb; do dpkg-deb -x "$deb" "$out/root"; done
# Under its own name: pgbench names itself by its file's name in its messages.
mkdir -p "$out/bin" && cp "$out/root/usr/lib/postgresql/17/bin/pgbench" "$out/bin/pgbench"
# The server, documentation and locales are not needed.
rm -rf "$out/root/usr/lib/postgresql" "$out/root/usr/share" "$out/root/etc"
cat > "$out/pgbench" <<WRAP
#!/bin/sh
# Debian 13's pgbench under Debian 13's loader and libraries (made by scripts/pgbench17.sh).
r="$out/root"
exec "\$r/usr/lib64/ld-linux-x86-64.so.2" --library-path "\$r/usr/lib/x86_64-linux-gnu:\$r/lib/x86_64-linux-gnu" "$out/bin/pgbench" "\$@"
WRAP
chmod +x "$out/pgbench"
rm -rf "$apt_dir"
"$out/pgbench" --version
