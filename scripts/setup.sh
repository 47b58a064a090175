#!/usr/bin/env bash
# Installs what scanjit needs to build and test on a fresh Debian machine that
# already has the CUDA toolkit (NVRTC, cuda.h). Safe to run again: it only
# installs what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

apt_packages=(cmake ninja-build g++ python3 python3-pip python3-venv llvm-14-dev llvm-14-tools libgtest-dev zlib1g-dev libtinfo-dev)
missing=()
for p in "${apt_packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=(); [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}"
fi

cuda_root=${CUDA_PATH:-/usr/local/cuda}
if [ ! -f "$cuda_root/include/nvrtc.h" ]; then
  echo "setup: error: the CUDA toolkit (NVRTC) was not found under $cuda_root; set CUDA_PATH" >&2
  exit 1
fi

# `scanjit inspect --emit sass` needs nvdisasm; some toolkit installs lack it.
# The wheel from PyPI goes into the project's .tools/ (ignored by git).
if [ ! -x "$cuda_root/bin/nvdisasm" ] && ! command -v nvdisasm >/dev/null && [ ! -d .tools/python/nvidia ]; then
  echo "setup: installing nvdisasm (PyPI nvidia-cuda-nvdisasm) into .tools/"
  python3 -m pip install -q --disable-pip-version-check --target .tools/python "nvidia-cuda-nvdisasm>=13.0,<14" \
    || echo "setup: warning: nvdisasm unavailable; --emit sass and its lit test will be skipped" >&2
fi
# The Python package's build and test tools, in the project's .venv (ignored
# by git): nanobind and scikit-build-core build it, pytest and numpy test it.
if [ ! -x .venv/bin/python ]; then
  echo "setup: creating .venv for the Python package"
  python3 -m venv .venv
fi
.venv/bin/python -m pip install -q --disable-pip-version-check "nanobind>=2.0" "scikit-build-core>=0.10" pytest numpy
echo "setup: ok"
