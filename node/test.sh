#!/usr/bin/env bash
# Builds (idempotent), lints with ESLint, then runs the Node unit and process tests on Node's built-in test
# runner (node --test).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

main() {
  bash "$ROOT/node/build.sh"
  cd "$ROOT/node"
  node_modules/.bin/eslint --max-warnings 0 .
  node --test --test-concurrency=2 "$@" test/
}

main "$@"
