#!/usr/bin/env bash
# Builds the .NET (Mono) implementations into dotnet/build/ (the per-operation code generated from idl/contract.json
# first, into dotnet/build/obj/*/Generated/). Idempotent: skips the compile when no source, nor the contract, is
# newer than the last successful build. Installs nothing: runner/setup.sh installs the manifest's "apt" packages.
set -euo pipefail

DOTNET_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
readonly DOTNET_DIR
readonly BUILD_DIR="${DOTNET_DIR}/build"
readonly STAMP="${BUILD_DIR}/.built"
readonly CONTRACT="${DOTNET_DIR}/../idl/contract.json"
# one build of dotnet/ at a time (xbuild writes build/); the other languages build beside it
readonly LOCK_FILE="/tmp/rpcmatrix-build-dotnet.lock"
readonly NEWTONSOFT_DLL="/usr/lib/cli/Newtonsoft.Json-5.0/Newtonsoft.Json.dll"

require_tools() {
    local missing=()
    command -v mono >/dev/null 2>&1 || missing+=("mono (mono-complete)")
    command -v xbuild >/dev/null 2>&1 || missing+=("xbuild (mono-complete)")
    command -v nunit-console >/dev/null 2>&1 || missing+=("nunit-console")
    [ -f "${NEWTONSOFT_DLL}" ] || missing+=("Newtonsoft.Json (libnewtonsoft-json-cil-dev)")
    if [ "${#missing[@]}" -gt 0 ]; then
        echo "dotnet: missing ${missing[*]}: run runner/setup.sh (it installs the Debian packages of dotnet/manifest.json)" >&2
        exit 1
    fi
}

up_to_date() {
    [ -f "${STAMP}" ] || return 1
    local newer
    # idl/contract.json: the generated per-operation code (src/RpcMatrix.Generator, Generate.targets) is written from it.
    newer="$(find "${DOTNET_DIR}/src" "${DOTNET_DIR}/tests" "${DOTNET_DIR}/RpcMatrix.sln" "${CONTRACT}" \
        \( -name '*.cs' -o -name '*.csproj' -o -name '*.targets' -o -name '*.sln' -o -name '*.json' \) -newer "${STAMP}" -print -quit)"
    [ -z "${newer}" ]
}

compile() {
    rm -f "${STAMP}"
    flock "${LOCK_FILE}" xbuild /nologo /verbosity:minimal /property:Configuration=Release \
        "${DOTNET_DIR}/RpcMatrix.sln" >&2
    touch "${STAMP}"
}

main() {
    require_tools
    if up_to_date; then
        echo "dotnet: build is up to date" >&2
        return
    fi
    compile
    echo "dotnet: built into ${BUILD_DIR#"${DOTNET_DIR}/"}/" >&2
}

main "$@"
