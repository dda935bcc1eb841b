#!/usr/bin/env bash
# Runs the Python unit and end-to-end tests (pytest) in the repository's virtual environment.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

main() {
  cd "$ROOT/python"
  "$ROOT/.venv/bin/python" -m pytest "$@"
}

main "$@"
