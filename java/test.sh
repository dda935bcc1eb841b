#!/usr/bin/env bash
# Runs every Java module's unit tests (JUnit 5 on Surefire), output visible, then packages the runnable jars
# java/build.sh makes: the classes are compiled by then, and the runs after the tests (the smoke test) find
# the jars up to date instead of running Maven again (40 s on a fresh clone, the generated sources compiled
# twice).
set -euo pipefail

JAVA_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# one Maven at a time over java/ (the tests and java/build.sh share its target folders); the other languages build
# beside it
BUILD_LOCK="/tmp/rpcmatrix-build-java.lock"

main() {
    flock "$BUILD_LOCK" mvn -B -Dstyle.color=never -f "$JAVA_DIR/pom.xml" package "$@"
}

main "$@"
