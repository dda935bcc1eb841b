#!/usr/bin/env bash
# Builds every Java module: each protocol module's runnable jar target/rpcmatrix-<module>.jar.
# Installs the JDK 17 and Maven only when missing; skips Maven when the jars are newer than every source.
set -euo pipefail

JAVA_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
IDL_DIR="$(cd "$JAVA_DIR/../idl" && pwd)"
BUILD_LOCK="/tmp/rpcmatrix-build.lock"

java_major_version() {
    java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p'
}

install_missing_tools() {
    local packages=()
    if ! command -v java >/dev/null 2>&1 || [ "$(java_major_version)" -lt 17 ]; then
        packages+=(openjdk-17-jdk-headless)
    fi
    if ! command -v mvn >/dev/null 2>&1; then
        packages+=(maven)
    fi
    if [ "${#packages[@]}" -gt 0 ]; then
        echo "installing ${packages[*]}" >&2
        apt-get update -q >&2
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${packages[@]}" >&2
    fi
}

# The modules of the parent pom that build a runnable jar (all but core).
protocol_modules() {
    sed -n 's|^ *<module>\(.*\)</module> *$|\1|p' "$JAVA_DIR/pom.xml" | grep -v '^core$'
}

jars_up_to_date() {
    local module jar
    for module in $(protocol_modules); do
        jar="$JAVA_DIR/$module/target/rpcmatrix-$module.jar"
        [ -f "$jar" ] || return 1
        if [ -n "$(find "$JAVA_DIR" "$IDL_DIR" -path '*/target' -prune -o -type f -newer "$jar" -print -quit)" ]; then
            return 1
        fi
    done
}

main() {
    install_missing_tools
    if jars_up_to_date; then
        echo "java: jars are up to date" >&2
        return 0
    fi
    flock "$BUILD_LOCK" mvn -B -q -Dstyle.color=never -f "$JAVA_DIR/pom.xml" -DskipTests package
}

main "$@"
