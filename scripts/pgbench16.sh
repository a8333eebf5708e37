#!/usr/bin/env bash
# pgbench of PostgreSQL 16 (16.2) into target/peers/pgbench-16: the tests of dbpress speaking
# as pgbench 16 run it beside the link. No Debian suite this machine reaches has PostgreSQL 16;
# the `pgserver` Python wheel (0.1.4) carries a PostgreSQL 16.2 build with its pgbench and libpq,
# so the wheel is fetched with pip (nothing is installed into Python) and the two files are
# kept. target/peers/pgbench-16/pgbench runs the binary with that libpq under its own name.
# Without the wheel it says so and makes nothing (the tests of pgbench 16 then say they were
# skipped, or fail in CI).
set -euo pipefail
cd "$(dirname "$0")/.."
out="$PWD/target/peers/pgbench-16"
if [ -x "$out/bin/pgbench" ] && "$out/pgbench" --version >/dev/null 2>&1; then exit 0; fi
rm -rf "$out" && mkdir -p "$out/wheel" "$out/bin" "$out/lib"
# The wheel for CPython 3.11 on manylinux x86-64, whichever Python runs pip.
if ! python3 -m pip download -q --no-deps --only-binary=:all: --platform manylinux_2_17_x86_64 \
  --python-version 3.11 --implementation cp --abi cp311 -d "$out/wheel" pgserver==0.1.4 \
  >/dev/null 2>&1; then
  echo "pgbench16.sh: the pgserver 0.1.4 wheel cannot be fetched: pgbench 16 not installed" >&2
  rm -rf "$out"; exit 0
fi
python3 - "$out" <<'PY'
import sys, zipfile, glob, os
out = sys.argv[1]
wheel = zipfile.ZipFile(glob.glob(out + "/wheel/*.whl")[0])
for name in wheel.namelist():
    if name == "pgserver/pginstall/bin/pgbench":
        target = out + "/bin/pgbench"
    elif name.startswith("pgserver.libs/libpq-"):
        target = out + "/lib/" + os.path.basename(name)
    else:
        continue
    with open(target, "wb") as f:
        f.write(wheel.read(name))
    os.chmod(target, 0o755)
PY
rm -rf "$out/wheel"
cat > "$out/pgbench" <<WRAP
#!/usr/bin/env bash
# pgserver 0.1.4's pgbench 16.2 with its own libpq (made by scripts/pgbench16.sh); getopt's
# messages name this file, as they name a pgbench found on the PATH.
LD_LIBRARY_PATH="$out/lib" exec -a "\$0" "$out/bin/pgbench" "\$@"
WRAP
chmod +x "$out/pgbench"
"$out/pgbench" --version
