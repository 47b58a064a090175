#!/usr/bin/env bash
# Installs a build into a temporary prefix and builds the two consumer
# examples against it, as a user would: examples/consumer-cmake with
# find_package(scanjit), examples/c-host with pkg-config and
# examples/precompile (scanjit precompile, then a read-only cache); then the same
# host with scanjit added as a subproject (examples/subproject). Runs each
# (on a machine without a GPU they inspect and say why they stop).
#   scripts/install-tests.sh BUILD_DIR
set -euo pipefail
cd "$(dirname "$0")/.."
build=$(realpath "${1:-build}")
prefix=$(mktemp -d)
work=$(mktemp -d)
trap 'rm -rf "$prefix" "$work"' EXIT
quiet() { "$@" > "$work/log" 2>&1 || { cat "$work/log"; echo "install-tests: failed: $*" >&2; exit 1; }; }
quiet cmake --install "$build" --prefix "$prefix"
quiet cmake -S examples/consumer-cmake -B "$work/consumer" -G Ninja -DCMAKE_PREFIX_PATH="$prefix"
quiet cmake --build "$work/consumer"
"$work/consumer/consumer"
cuda=${CUDA_PATH:-/usr/local/cuda} # the C host's own buffers come from the CUDA runtime
PKG_CONFIG_PATH="$prefix/lib/pkgconfig" cc -Wall -Werror examples/c-host/main.c \
  $(PKG_CONFIG_PATH="$prefix/lib/pkgconfig" pkg-config --cflags --libs scanjit) \
  -I"$cuda/include" -L"$cuda/lib64" -lcudart_static -ldl -lrt -lpthread -o "$work/c-host"
"$work/c-host"
# Precompile a manifest, then a host that may only read that cache (on a GPU:
# it must compile nothing).
examples/precompile/run.sh "$prefix"
# The same host with scanjit added from source (add_subdirectory): the
# libraries alone are built (SCANJIT_SUBPROJECT=0 skips this slower step).
if [ "${SCANJIT_SUBPROJECT:-1}" = 1 ]; then
  quiet cmake -S examples/subproject -B "$work/subproject" -G Ninja
  quiet cmake --build "$work/subproject"
  "$work/subproject/host"
fi
echo "install-tests: ok (prefix $prefix)"
