#!/usr/bin/env bash
# Builds, then runs the NUnit tests of dotnet/tests/. Ends with the line "N passed, N failed".
set -euo pipefail

DOTNET_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
readonly DOTNET_DIR

summarise() {
    local result_xml="$1"
    python3 - "${result_xml}" <<'PY'
import sys
import xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
cases = root.iter("test-case")
passed = failed = skipped = 0
for case in cases:
    if case.get("executed") != "True":
        skipped += 1
    elif case.get("success") == "True":
        passed += 1
    else:
        failed += 1
line = f"{passed} passed, {failed} failed"
print(line + (f", {skipped} skipped" if skipped else ""))
PY
}

main() {
    bash "${DOTNET_DIR}/build.sh"
    local status=0
    WORK_DIR="$(mktemp -d)"
    trap 'rm -rf "${WORK_DIR}"' EXIT
    local work="${WORK_DIR}"
    nunit-console -nologo -noshadow -work="${work}" -xml="${work}/TestResult.xml" \
        "${DOTNET_DIR}/build/RpcMatrix.Tests.dll" || status=$?
    summarise "${work}/TestResult.xml"
    return "${status}"
}

main "$@"
