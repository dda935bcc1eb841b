#!/usr/bin/env bash
# Makes the project's virtual environment (.venv at the repository root, shared by the Python implementations
# and the runner's analysis) when it is missing, or made from another interpreter than the one chosen here:
# $PYTHON when set, else Debian's own /usr/bin/python3, else the first python3 on PATH. Debian builds its
# python3 with profile-guided optimisation and LTO, which is what a user's Debian 12 runs; a pyenv build
# without them, first on this project's machine's PATH, ran a pure-Python loop and json round trips 1.45
# times slower (0.087 s against 0.060 s, best of 7, pinned to one CPU), so Python's figures would have been
# those of an interpreter its users do not have.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"

interpreter() {
  if [[ -n "${PYTHON:-}" ]]; then
    printf '%s\n' "$PYTHON"
  elif [[ -x /usr/bin/python3 ]]; then
    printf '%s\n' /usr/bin/python3
  else
    command -v python3
  fi
}

# The real executable behind an interpreter's name (pyvenv.cfg records the resolved one).
real_executable() {
  "$1" -c 'import os, sys; print(os.path.realpath(sys.executable))'
}

made_from() {
  "$VENV/bin/python" -c 'import os, sys; print(os.path.realpath(sys._base_executable))' 2>/dev/null || true
}

main() {
  local python wanted was
  python="$(interpreter)"
  wanted="$(real_executable "$python")"
  if [[ -x "$VENV/bin/python" ]]; then
    was="$(made_from)"
    [[ "$was" != "$wanted" ]] || return 0
    echo "remaking $VENV from $wanted (it was made from $was)" >&2
    rm -rf "$VENV"
  fi
  echo "creating $VENV from $wanted" >&2
  if ! "$python" -m venv "$VENV"; then
    rm -rf "$VENV"
    echo "cannot create a virtual environment (Debian package python3-venv): run runner/setup.sh" >&2
    return 1
  fi
}

main "$@"
