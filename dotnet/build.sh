#!/usr/bin/env bash
# Builds the .NET (Mono) implementations into dotnet/build/. Idempotent: installs missing Debian packages,
# and skips the compile when no source is newer than the last successful build.
set -euo pipefail

DOTNET_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
readonly DOTNET_DIR
readonly BUILD_DIR="${DOTNET_DIR}/build"
readonly STAMP="${BUILD_DIR}/.built"
readonly APT_PACKAGES=(mono-complete nunit-console libnunit-cil-dev)
readonly LOCK_FILE="/tmp/rpcmatrix-build.lock"

missing_packages() {
    local package
    for package in "${APT_PACKAGES[@]}"; do
        if ! dpkg-query -W -f='${Status}' "${package}" 2>/dev/null | grep -q "install ok installed"; then
            echo "${package}"
        fi
    done
}

install_packages() {
    local missing
    mapfile -t missing < <(missing_packages)
    if [ "${#missing[@]}" -eq 0 ]; then
        return
    fi
    echo "installing ${missing[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    if ! apt-get install -y --no-install-recommends "${missing[@]}" >&2; then
        apt-get update >&2
        apt-get install -y --no-install-recommends "${missing[@]}" >&2
    fi
}

up_to_date() {
    [ -f "${STAMP}" ] || return 1
    local newer
    newer="$(find "${DOTNET_DIR}/src" "${DOTNET_DIR}/tests" "${DOTNET_DIR}/RpcMatrix.sln" \
        \( -name '*.cs' -o -name '*.csproj' -o -name '*.sln' \) -newer "${STAMP}" -print -quit)"
    [ -z "${newer}" ]
}

compile() {
    rm -f "${STAMP}"
    flock "${LOCK_FILE}" xbuild /nologo /verbosity:minimal /property:Configuration=Release \
        "${DOTNET_DIR}/RpcMatrix.sln" >&2
    touch "${STAMP}"
}

main() {
    install_packages
    if up_to_date; then
        echo "dotnet: build is up to date" >&2
        return
    fi
    compile
    echo "dotnet: built into ${BUILD_DIR#"${DOTNET_DIR}/"}/" >&2
}

main "$@"
