#!/usr/bin/env bash
# Builds and installs the Python package into the project's .venv (made by
# scripts/setup.sh) the way a user would (`pip install .`), then runs its
# tests. GPU tests skip, saying why, where there is no GPU or no torch.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=$(realpath "${SCANJIT_VENV:-.venv}")
if [ ! -x "$venv/bin/python" ]; then
  echo "python-tests: no $venv (run scripts/setup.sh)" >&2
  exit 1
fi
"$venv/bin/python" -m pip install -q --disable-pip-version-check --no-build-isolation .
cd tests/python # (not the source tree's python/: the installed package is tested)
"$venv/bin/python" -m pytest -q -rs .
