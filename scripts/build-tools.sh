#!/usr/bin/env bash
# What building dbpress needs besides Rust: a C compiler (the bundled SQLite, zlib-rs's tests)
# and make (dbpress-lua's LuaJIT, built from source by its Makefile through mlua's `vendored`
# feature). Installed with apt-get where missing; nothing else is touched.
set -euo pipefail
missing=()
command -v make >/dev/null 2>&1 || missing+=(make)
command -v cc >/dev/null 2>&1 || missing+=(gcc libc6-dev)
if [ "${#missing[@]}" -gt 0 ]; then
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  echo "build-tools.sh: installing ${missing[*]}"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q "${missing[@]}"
fi
