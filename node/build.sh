#!/usr/bin/env bash
# Builds the Node.js implementations: checks the runtime (Node.js 18.19 or later, npm), installs the locked
# libraries with `npm ci` when package-lock.json changed since the last install, and generates the Thrift
# code from idl/bench.thrift (Debian thrift-compiler 0.17) into node/build/generated/ (never committed)
# when the IDL is newer. Idempotent and quick when nothing changed.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
NODE_DIR="$ROOT/node"
GENERATED="$NODE_DIR/build/generated"
readonly MIN_MAJOR=18 MIN_MINOR=19

die() {
  printf 'node/build.sh: %s\n' "$*" >&2
  exit 1
}

# Node.js 18.19 or later: the floor the locked libraries' declared engines and this code share (Debian 12
# ships 18.20 as nodejs).
check_runtime() {
  command -v node >/dev/null || die "node is missing: run runner/setup.sh (Debian's nodejs package), or install Node.js 18.19 or later"
  local version major minor
  version="$(node -p 'process.versions.node')"
  IFS=. read -r major minor _ <<<"$version"
  if ((major < MIN_MAJOR || (major == MIN_MAJOR && minor < MIN_MINOR))); then
    die "Node.js $version is too old: the Node implementations need 18.19 or later"
  fi
  command -v npm >/dev/null || die "npm is missing: install Debian's npm package (apt-get install npm) or Node.js from a distribution that bundles it"
}

# npm ci only when the lock file differs from the one installed (recorded in node_modules).
install_libraries() {
  local stamp="$NODE_DIR/node_modules/.rpcmatrix-lock.sha256" wanted
  wanted="$(sha256sum "$NODE_DIR/package-lock.json" | cut -d' ' -f1)-$(node -p 'process.versions.node')"
  if [[ -f "$stamp" && "$(<"$stamp")" == "$wanted" ]]; then
    return
  fi
  echo "node/build.sh: npm ci (package-lock.json)" >&2
  (cd "$NODE_DIR" && npm ci --no-audit --no-fund --loglevel=error)
  printf '%s\n' "$wanted" >"$stamp"
}

# Thrift's generated code (the callback API of `thrift --gen js:node`), only when the IDL is newer.
generate_thrift() {
  local idl="$ROOT/idl/bench.thrift" out="$GENERATED/thrift"
  if [[ -f "$out/.generated" && "$out/.generated" -nt "$idl" ]]; then
    return
  fi
  command -v thrift >/dev/null || die "thrift (Debian package thrift-compiler) is missing: run runner/setup.sh"
  rm -rf "$out"
  mkdir -p "$out"
  thrift --gen js:node -out "$out" "$idl"
  touch "$out/.generated"
}

main() {
  check_runtime
  install_libraries
  generate_thrift
}

main "$@"
