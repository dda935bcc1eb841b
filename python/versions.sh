#!/usr/bin/env bash
# Prints one JSON object: the Python runtime's version and the installed version of every library the
# rpcmatrix package depends on (read from the installed metadata, not from pyproject's ranges).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

main() {
  "$ROOT/.venv/bin/python" - <<'PY'
import json
import platform
import re
from importlib import metadata

versions = {"python": platform.python_version(), "python_implementation": platform.python_implementation()}
for requirement in metadata.requires("rpcmatrix") or []:
    if "extra ==" in requirement:  # test-only dependencies
        continue
    name = re.match(r"[A-Za-z0-9._-]+", requirement).group(0)
    versions[name] = metadata.version(name)
print(json.dumps(versions))
PY
}

main "$@"
