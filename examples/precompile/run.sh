#!/usr/bin/env bash
# Precompile offline, then run a host that may only read the cache:
#   examples/precompile/run.sh <install prefix>
set -euo pipefail
cd "$(dirname "$0")"
prefix=$(realpath "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$prefix/bin/scanjit" precompile --manifest specs.txt --cache-dir "$work/cache"   # no GPU needed
cmake -S . -B "$work/build" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" > /dev/null
cmake --build "$work/build" > /dev/null
SCANJIT_CACHE=readonly SCANJIT_CACHE_DIR="$work/cache" "$work/build/precompiled_host" specs.txt
