#!/usr/bin/env bash
# Builds every Java module: each protocol module's runnable jar target/rpcmatrix-<module>.jar.
# Fails with a clear message when java 17, mvn or thrift is missing; skips Maven when the jars are newer than
# every source.
set -euo pipefail

JAVA_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
IDL_DIR="$(cd "$JAVA_DIR/../idl" && pwd)"
# one Maven at a time over java/ (the tests and java/build.sh share its target folders); the other languages build
# beside it
BUILD_LOCK="/tmp/rpcmatrix-build-java.lock"

java_major_version() {
    java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p'
}

# Debian packages are installed by runner/setup.sh from the manifest's "apt" field, never here.
check_tools() {
    local missing=()
    if ! command -v java >/dev/null 2>&1 || [ "$(java_major_version)" -lt 17 ]; then
        missing+=("java 17 (openjdk-17-jdk-headless)")
    fi
    command -v mvn >/dev/null 2>&1 || missing+=("mvn (maven)")
    command -v thrift >/dev/null 2>&1 || missing+=("thrift (thrift-compiler)")
    if [ "${#missing[@]}" -gt 0 ]; then
        echo "java: missing ${missing[*]}: run runner/setup.sh" >&2
        return 1
    fi
}

# The modules of the parent pom whose jar is target/rpcmatrix-<module>.jar: all but core (the protocol modules'
# runnable jars, the libraries httphost and javaserial, the build-time generator codegen).
jar_modules() {
    sed -n 's|^ *<module>\(.*\)</module> *$|\1|p' "$JAVA_DIR/pom.xml" | grep -v '^core$'
}

jars_up_to_date() {
    local module jar
    for module in $(jar_modules); do
        jar="$JAVA_DIR/$module/target/rpcmatrix-$module.jar"
        [ -f "$jar" ] || return 1
        if [ -n "$(find "$JAVA_DIR" "$IDL_DIR" -path '*/target' -prune -o -type f -newer "$jar" -print -quit)" ]; then
            return 1
        fi
    done
}

main() {
    check_tools
    if jars_up_to_date; then
        echo "java: jars are up to date" >&2
        return 0
    fi
    flock "$BUILD_LOCK" mvn -B -q -Dstyle.color=never -f "$JAVA_DIR/pom.xml" -DskipTests package
    # Maven leaves a jar whose classes did not change as it was, older than the sources just edited elsewhere:
    # every jar is current now, so that the next check does not run Maven again for nothing
    local module
    for module in $(jar_modules); do touch "$JAVA_DIR/$module/target/rpcmatrix-$module.jar"; done
}

main "$@"
