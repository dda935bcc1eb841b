#!/usr/bin/env bash
# Builds (idempotent), then runs the Python unit and end-to-end tests (pytest) in the repository's venv.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

main() {
  bash "$ROOT/python/build.sh"
  cd "$ROOT/python"
  # two workers, one per CPU of the machine this suite targets (the SOAP tests alone are a minute of CPU)
  "$ROOT/.venv/bin/python" -m pytest -n 2 "$@"
}

main "$@"
