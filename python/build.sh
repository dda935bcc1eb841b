#!/usr/bin/env bash
# Builds the Python implementations: the shared virtual environment at the repository root (.venv) with
# the rpcmatrix package installed in editable mode. Idempotent: installs only what is missing.
# It takes no lock itself (a nested flock would deadlock a caller that already holds it): run by hand
# next to another build of the venv, wrap both in one flock: flock /tmp/rpcmatrix-build-python.lock bash python/build.sh
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"

# The virtual environment, made from the interpreter python/venv.sh chooses (Debian's own python3).
ensure_venv() {
  bash "$ROOT/python/venv.sh"
}

# True when the package and every declared dependency (with the test extra) is installed.
package_is_current() {
  "$VENV/bin/python" - "$ROOT/python/pyproject.toml" <<'PY'
import sys, tomllib
from importlib import metadata

with open(sys.argv[1], "rb") as f:
    project = tomllib.load(f)["project"]
wanted = ["rpcmatrix"] + project.get("dependencies", []) + project.get("optional-dependencies", {}).get("test", [])
try:
    from packaging.requirements import Requirement
except ImportError:  # a fresh venv has no packaging, but pip vendors it
    from pip._vendor.packaging.requirements import Requirement
for spec in wanted:
    req = Requirement(spec)
    try:
        version = metadata.version(req.name)
    except metadata.PackageNotFoundError:
        sys.exit(1)
    if not req.specifier.contains(version, prereleases=True):
        sys.exit(1)
PY
}

install_package() {
  if package_is_current; then
    return
  fi
  echo "installing rpcmatrix with its dependencies into $VENV" >&2
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
    -e "$ROOT/python[test]"
}

# Thrift code is generated from idl/bench.thrift into a gitignored package, only when the IDL is newer.
generate_thrift() {
  local idl="$ROOT/idl/bench.thrift"
  local out="$ROOT/python/src/rpcmatrix/thrift/_generated"
  if [[ -f "$out/.generated" && "$out/.generated" -nt "$idl" ]]; then
    return
  fi
  if ! command -v thrift >/dev/null; then
    echo "thrift (Debian package thrift-compiler) is missing: run runner/setup.sh" >&2
    return 1
  fi
  rm -rf "$out"
  mkdir -p "$out"
  thrift --gen py:package_prefix=rpcmatrix.thrift._generated. -out "$out" "$idl"
  touch "$out/.generated"
}

# The Accelerated protocols need thrift's C extension (fastbinary); thrift's setup.py quietly installs
# the pure-Python library when the extension fails to compile, so check it and rebuild it once.
ensure_thrift_extension() {
  local check='from thrift.protocol import fastbinary'
  if "$VENV/bin/python" -c "$check" 2>/dev/null; then
    return
  fi
  local version
  version="$("$VENV/bin/python" -c 'from importlib.metadata import version; print(version("thrift"))')"
  echo "thrift $version has no C extension: rebuilding it from source" >&2
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
    --force-reinstall --no-deps --no-cache-dir --no-binary thrift "thrift==$version"
  if ! "$VENV/bin/python" -c "$check"; then
    echo "thrift's C extension does not build (needs g++ and python3-dev): run runner/setup.sh" >&2
    return 1
  fi
}

# gRPC code is generated from idl/bench.proto by grpcio-tools into a gitignored package; the module
# regenerates only when the IDL is newer.
generate_grpc() {
  "$VENV/bin/python" -m rpcmatrix.grpc.codegen --idl "$ROOT/idl"
}

# omniORBpy stubs and skeletons are generated from idl/bench.idl by omniidl (from the omniORB wheel) into a
# gitignored package; the module regenerates only when the IDL is newer.
generate_corba() {
  "$VENV/bin/python" -m rpcmatrix.corba.codegen --idl "$ROOT/idl"
}

main() {
  ensure_venv
  install_package
  ensure_thrift_extension
  generate_thrift
  generate_grpc
  generate_corba
}

main "$@"
