#!/usr/bin/env bash
# Runs every Java module's unit tests (JUnit 5 on Surefire), output visible.
set -euo pipefail

JAVA_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
BUILD_LOCK="/tmp/rpcmatrix-build.lock"

main() {
    flock "$BUILD_LOCK" mvn -B -Dstyle.color=never -f "$JAVA_DIR/pom.xml" test "$@"
}

main "$@"
