#!/usr/bin/env bash
# Prints one JSON object: the Python runtime's version, executable and build, and the installed version of every
# library the rpcmatrix package depends on (read from the installed metadata, not from pyproject's ranges).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

main() {
  "$ROOT/.venv/bin/python" - <<'PY'
import json
import os
import platform
import re
import sys
from importlib import metadata

# The interpreter behind the venv (python/venv.sh: Debian's own python3) and its build, which shape every figure.
versions = {"python": platform.python_version(), "python_implementation": platform.python_implementation(),
            "python_executable": os.path.realpath(sys._base_executable),
            "python_build": " ".join(platform.python_build())}
for requirement in metadata.requires("rpcmatrix") or []:
    if "extra ==" in requirement:  # test-only dependencies
        continue
    name = re.match(r"[A-Za-z0-9._-]+", requirement).group(0)
    versions[name] = metadata.version(name)
print(json.dumps(versions))
PY
}

main "$@"
